import type { ResilienceEvent } from './schema';
import { isTerminalStatus, labInputKey, taskCallRequest, type TaskStatus } from './taskWire';
import { TASKS_RANK, type TasksCore } from './tasksTypes';
import { ERROR_CODES, missingCapabilityResponse, type RequestId } from '../mcp';
import { send, sendCancel, sendHandle, setStatus, type TasksCtx } from './tasksOps';

/**
 * Scripted events of the tasks mechanism (the client's call and abort, the server's task creation,
 * the worker's checkpoints, input requests and finish), mutating the `TasksCore` in place. Notes
 * are built only when the core keeps them (`ctx.why` with a function). Rules: `tasksTypes.ts`.
 */

/** Applies one scripted event of the tasks mechanism. */
export function applyTasksScripted(s: TasksCore, ev: ResilienceEvent, ctx: TasksCtx): void {
  const { config } = s;
  const is2026 = config.revision === '2026-07-28';
  switch (ev.kind) {
    case 'call': {
      if (s.client.callSentAt !== null) {
        // A further task is a call naming another `task` key (tasksMany.ts); this one's call already went out.
        ctx.ignore({ by: 'client', what: ev.id, reason: s.root ? 'this task\'s call was already sent' : 'this scenario has one task call; it was already sent', rule: 'tasks.one-call' });
        ctx.why(s.root ? 'A second call for this task is ignored: name another task to start one.' : 'A second call is ignored: this scenario follows one task.');
        return;
      }
      const arrivesAt = ctx.now + config.latencyMs.clientToServer;
      send(s, ctx, 'client', taskCallRequest(config.revision, ev.requestId, ev.tool, config.ttlMs), arrivesAt);
      ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'server', 'tools/call arrives', { kind: 'arrive.call' });
      if (config.serverCrashAtMs !== null) ctx.schedule(Math.max(ctx.now, config.serverCrashAtMs), TASKS_RANK.arrival, 'server', 'the server process crashes', { kind: 'crash' });
      ctx.why(
        () =>
          is2026
            ? `The client sends tools/call (${ev.tool}) declaring the tasks extension in its per-request capabilities; whether it becomes a task is the server's decision ("The server is the sole decider").`
            : `The client sends a task-augmented tools/call (${ev.tool}); it will not know the task id until the server answers.`,
        'tasks.create',
      );
      s.client.requestId = ev.requestId;
      s.client.callSentAt = ctx.now;
      return;
    }
    case 'created': {
      if (s.server.callReceivedAt === null || s.server.taskId !== null) {
        const reason = s.server.taskId !== null ? 'the task already exists' : s.client.callFailedAt !== null ? 'the tools/call was lost in the crash' : 'the tools/call has not arrived yet';
        ctx.ignore({ by: 'server', what: ev.id, reason, rule: 'tasks.create' });
        ctx.why(() => `The server cannot create the task: ${reason}.`, 'tasks.create');
        return;
      }
      if (is2026 && config.clientTasksExtension === false && !config.policy.taskToUndeclaredClient) {
        const message = 'Missing required client capability: the call can only be served as a task (io.modelcontextprotocol/tasks)';
        const arrivesAt = ctx.now + config.latencyMs.serverToClient;
        send(s, ctx, 'server', missingCapabilityResponse(s.client.requestId as RequestId, { extensions: { 'io.modelcontextprotocol/tasks': {} } }, message), arrivesAt);
        ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', '-32021 arrives', { kind: 'arrive.call-refused', message: `${ERROR_CODES.missingRequiredClientCapability} ${message}` });
        s.server.refusedAt = ctx.now;
        ctx.why('The server would answer with a task, but the client did not declare the tasks extension on this request: it MUST NOT return CreateTaskResult, and, unable to serve the call otherwise, answers -32021 MissingRequiredClientCapability (requiredCapabilities: the extension). No task is created.', 'tasks.capability');
        return;
      }
      s.server.taskId = ev.taskId;
      s.server.createdAt = ctx.now;
      if (ev.pollIntervalMs !== undefined) s.server.pollIntervalMs = ev.pollIntervalMs;
      setStatus(s, 'working', ctx.now);
      if (config.durableWriteMs === 0) {
        s.server.durableAt = ctx.now;
        sendHandle(s, ctx);
        ctx.why(() => `The server creates task ${ev.taskId} (working, durable at once) and answers with CreateTaskResult.`, 'tasks.create');
        return;
      }
      s.server.durableTimer = ctx.schedule(ctx.now + config.durableWriteMs, TASKS_RANK.arrival, 'server', `task ${ev.taskId} durable`, { kind: 'durable' });
      if (config.policy.handleBeforeDurable) {
        ctx.why(() => `The server creates task ${ev.taskId} in memory and, bug, answers with CreateTaskResult now — its durable write ends only at ${ctx.now + config.durableWriteMs} ms. Until then a crash loses a task the client already holds.`, 'tasks.durable');
        sendHandle(s, ctx);
        return;
      }
      ctx.why(() => `The server creates task ${ev.taskId} and writes it durably; it answers with CreateTaskResult only when the write ends at ${ctx.now + config.durableWriteMs} ms ("MUST NOT return CreateTaskResult until the task is durably created").`, 'tasks.durable');
      return;
    }
    case 'abort': {
      const c = s.client;
      if (c.abortAt !== null || c.terminalObservedAt !== null || c.callSentAt === null || c.callFailedAt !== null || c.taskNotFoundAt !== null) {
        const reason =
          c.callSentAt === null
            ? 'nothing was called yet'
            : c.callFailedAt !== null
              ? 'the tools/call already failed (no task was handed out)'
              : c.taskNotFoundAt !== null
                ? 'the client already learned the task does not exist'
                : c.abortAt !== null
                  ? 'the user already aborted'
                  : `the client already saw the task ${c.observed}`;
        ctx.ignore({ by: 'client', what: ev.id, reason, rule: 'tasks.cancel' });
        ctx.why(() => `The user clicks abort, but ${reason}: nothing is sent.`, 'tasks.cancel');
        return;
      }
      if (c.taskId !== null) {
        ctx.why(
          () =>
            config.policy.cancelWithNotification
              ? `The user aborts. Bug: the client sends notifications/cancelled for the tools/call (id ${JSON.stringify(c.requestId)}) instead of tasks/cancel — "notifications/cancelled MUST NOT be used for task cancellation".`
              : `The user aborts: the client knows task ${c.taskId} and sends tasks/cancel now.`,
          'tasks.cancel',
        );
        c.abortAt = ctx.now;
        sendCancel(s, ctx);
        return;
      }
      if (config.policy.forgetEarlyAbort) {
        ctx.ignore({ by: 'client', what: ev.id, reason: 'bug: the task id is not known yet and the abort is dropped', rule: 'tasks.early-abort' });
        ctx.why('The user aborts before the task id is known. Bug: the client drops the abort (the UI says "stopped"), so no tasks/cancel will ever go out.', 'tasks.early-abort');
        c.abortAt = ctx.now;
        c.abortLost = true;
        return;
      }
      ctx.why('The user aborts before the task id is known: the client remembers the abort and will send tasks/cancel the moment CreateTaskResult arrives.', 'tasks.early-abort');
      c.abortAt = ctx.now;
      return;
    }
    case 'checkpoint': {
      const sv = s.server;
      if (sv.status === null || isTerminalStatus(sv.status) || sv.workStoppedAt !== null) {
        ctx.ignore(() => ({ by: 'worker', what: ev.id, reason: sv.status === null ? (sv.lostTaskId !== null ? 'the task was lost in the crash' : 'no task yet') : 'the work already stopped', rule: 'tasks.checkpoint' }));
        ctx.why('The worker passes a checkpoint, but there is no live work.', 'tasks.checkpoint');
        return;
      }
      if (sv.cancelPendingSince !== null) {
        ctx.why(() => `The worker reaches a checkpoint, sees the cancel acknowledged at ${sv.cancelPendingSince} ms and stops: the task becomes cancelled now.`, 'tasks.cancel-2026');
        setStatus(s, 'cancelled', ctx.now, { workStoppedAt: ctx.now, cancelPendingSince: null, inputOutstanding: [] });
        return;
      }
      ctx.ignore({ by: 'worker', what: ev.id, reason: 'no cancellation pending; work continues', rule: 'tasks.checkpoint' });
      ctx.why('The worker passes a checkpoint with no cancellation pending and keeps working.', 'tasks.checkpoint');
      return;
    }
    case 'finish': {
      const sv = s.server;
      if (sv.status === null || sv.workStoppedAt !== null) {
        const reason = sv.status === null ? (sv.lostTaskId !== null ? 'the task was lost in the crash' : 'no task yet') : 'the worker already stopped';
        ctx.ignore({ by: 'worker', what: ev.id, reason, rule: 'tasks.terminal' });
        ctx.why(() => `The work would finish, but ${reason}.`, 'tasks.terminal');
        return;
      }
      if (isTerminalStatus(sv.status)) {
        ctx.ignore(() => ({ by: 'server', what: ev.id, reason: `the task is already ${sv.status}; a terminal status never changes`, rule: 'tasks.terminal' }));
        ctx.why(() => `The work finishes, but task ${sv.taskId} is already ${sv.status} (since ${sv.statusAt} ms): it stays ${sv.status} and the result is discarded.`, 'tasks.terminal');
        sv.workStoppedAt = ctx.now;
        sv.workFinishedAfterCancelAt = ctx.now;
        return;
      }
      const pending = sv.cancelPendingSince !== null ? ` The cancel acknowledged at ${sv.cancelPendingSince} ms never reached a checkpoint, so the task ends ${ev.outcome}.` : '';
      ctx.why(() => `The work finishes: task ${sv.taskId} is ${ev.outcome}.${pending}`, 'tasks.terminal');
      setStatus(s, ev.outcome, ctx.now, { workStoppedAt: ctx.now, result: ev.outcome === 'completed' ? ev.text : null, errorMessage: ev.outcome === 'failed' ? ev.text : null, cancelPendingSince: null, inputOutstanding: [] });
      return;
    }
    case 'input-required':
    case 'resume': {
      const from: TaskStatus = ev.kind === 'input-required' ? 'working' : 'input_required';
      const to: TaskStatus = ev.kind === 'input-required' ? 'input_required' : 'working';
      if (s.server.status !== from) {
        ctx.ignore(() => ({ by: 'worker', what: ev.id, reason: `the task is ${s.server.status ?? 'not created'}, not ${from}`, rule: 'tasks.statuses' }));
        ctx.why(() => `Ignored: the task is ${s.server.status ?? 'not created'}.`, 'tasks.statuses');
        return;
      }
      if (is2026 && ev.kind === 'resume' && s.server.inputOutstanding.length) {
        ctx.ignore(() => ({ by: 'worker', what: ev.id, reason: `input ${s.server.inputOutstanding.join(', ')} is still outstanding; under 2026-07-28 the client's tasks/update delivers it`, rule: 'tasks.update' }));
        ctx.why('The worker cannot resume on its own: the input it asked for comes in a tasks/update from the client.', 'tasks.update');
        return;
      }
      if (is2026 && ev.kind === 'input-required' && config.clientElicitation === 'none' && !config.policy.inputRequestsUndeclared) {
        ctx.why('The task needs the user\'s input, but the client declared no elicitation: the server may not put elicitation/create in inputRequests, so the task fails with -32021 MissingRequiredClientCapability (requiredCapabilities: elicitation), inlined in the next tasks/get.', 'tasks.input-capability');
        setStatus(s, 'failed', ctx.now, {
          workStoppedAt: ctx.now,
          errorMessage: 'Missing required client capability: elicitation',
          errorCode: ERROR_CODES.missingRequiredClientCapability,
          errorData: { requiredCapabilities: { elicitation: { form: {} } } },
          cancelPendingSince: null,
        });
        return;
      }
      if (is2026 && ev.kind === 'input-required') {
        const key = labInputKey(s.server.inputRounds + 1);
        if (config.clientElicitation === 'none') {
          ctx.why(() => `The task needs input and, bug, asks a client that declared no elicitation for it: inputRequests["${key}"] (an elicitation) that the client cannot answer — the task waits in input_required.`, 'tasks.input-capability');
          setStatus(s, to, ctx.now, { inputOutstanding: [key], inputRounds: s.server.inputRounds + 1, undeclaredInputAt: ctx.now });
          return;
        }
        ctx.why(() => `The task needs input: it moves working → input_required; the next tasks/get lists inputRequests["${key}"] (an elicitation) for the client to answer with tasks/update.`, 'tasks.update');
        setStatus(s, to, ctx.now, { inputOutstanding: [key], inputRounds: s.server.inputRounds + 1 });
        return;
      }
      ctx.why(() => `The task moves ${from} → ${to}.`, 'tasks.statuses');
      setStatus(s, to, ctx.now);
      return;
    }
    default:
      ctx.ignore(() => ({ by: ev.actor, what: ev.id, reason: `"${ev.kind}" is not an event of the tasks mechanism`, rule: 'lab.mechanism' }));
      ctx.why(() => `"${ev.kind}" has no meaning for durable tasks; ignored.`);
      return;
  }
}
