import type { Json } from '../types';
import { ERROR_CODES, errorResponse } from '../mcp';
import { emptyAckResponse, getTaskRequest, isTerminalStatus, labInputResponses, taskPayloadResponse, taskResultResponse, updateTaskRequest, type TaskStatus } from './taskWire';
import { TASKS_RANK, type CancelAck, type TasksCore, type TasksTimer } from './tasksTypes';
import { clientRequestId, detail, pollEveryMs, pollFloorMs, pollHintOf, requestResult, schedulePoll, send, sendCancel, sendHandle, setStatus, taskView, type TasksCtx } from './tasksOps';

/**
 * Timers and deliveries of the tasks mechanism (messages arriving, polls, the durable write, a
 * server crash), mutating the `TasksCore` in place. Notes are built only when the core keeps them.
 */

/**
 * What the client plans when CreateTaskResult arrives: the poll interval, and where it comes from
 * when the task carried its own pollIntervalMs, the user set a minimum, or the bug shortens it.
 * Without any of those, the historic note ("polls every N ms").
 */
function pollPlanNote(s: TasksCore, taskId: string): string {
  const { config, client } = s;
  const every = pollEveryMs(s);
  const floor = pollFloorMs(s);
  if (client.pollHintMs === undefined && !config.minPollIntervalMs && every === config.pollIntervalMs) return `CreateTaskResult arrives: the client knows ${taskId} and polls every ${config.pollIntervalMs} ms.`;
  const hint = pollHintOf(config, client);
  const min = config.minPollIntervalMs ? `; the user's minimum is ${config.minPollIntervalMs} ms` : '';
  const head = `CreateTaskResult arrives: the client knows ${taskId}, whose server asks for a tasks/get every ${hint} ms (pollIntervalMs)${min}`;
  if (every < floor) return `${head}. Bug: it polls every ${every} ms — the shortest pollIntervalMs among the tasks it polls, not this task's.`;
  return `${head}: it polls this task every ${every} ms.`;
}

/** Applies one timer or delivery of the tasks mechanism. */
export function applyTasksTimer(s: TasksCore, t: TasksTimer, ctx: TasksCtx): void {
  const { config } = s;
  const revision = config.revision;
  const is2026 = revision === '2026-07-28';
  switch (t.kind) {
    case 'arrive.call':
      if (s.client.callFailedAt !== null) {
        ctx.ignore({ by: 'server', what: 'tools/call', reason: 'it was lost in the crash', rule: 'tasks.durable' });
        return;
      }
      ctx.why(is2026 ? 'The tools/call reaches the server, which decides whether to answer it with a task.' : 'The task-augmented tools/call reaches the server.', 'tasks.create');
      s.server.callReceivedAt = ctx.now;
      return;
    case 'durable': {
      s.server.durableAt = ctx.now;
      s.server.durableTimer = -1;
      if (s.server.handleSentAt !== null) {
        ctx.why(() => `Task ${s.server.taskId} is durable now — ${ctx.now - s.server.handleSentAt!} ms after the client was handed its id.`, 'tasks.durable');
        return;
      }
      ctx.why(() => `Task ${s.server.taskId} is durable: a tasks/get for it would now resolve, so the server answers with CreateTaskResult.`, 'tasks.durable');
      sendHandle(s, ctx);
      return;
    }
    case 'crash': {
      // What the server held before the crash (the note reads it after the state changed).
      const sv = { ...s.server };
      s.server.crashedAt = ctx.now;
      const lost: string[] = [];
      if (sv.taskId !== null && sv.durableAt === null) {
        if (sv.durableTimer >= 0) ctx.cancel(sv.durableTimer);
        lost.push(`task ${sv.taskId} (not durable yet)`);
        Object.assign(s.server, { lostTaskId: sv.taskId, taskId: null, status: null, statusAt: null, durableTimer: -1, workStoppedAt: ctx.now, cancelPendingSince: null, inputOutstanding: [] });
      }
      if (s.client.callSentAt !== null && sv.handleSentAt === null && s.client.callFailedAt === null) {
        lost.push('the unanswered tools/call');
        s.server.callReceivedAt = null;
        s.client.callFailedAt = ctx.now;
      }
      if (!lost.length) {
        ctx.ignore({ by: 'server', what: 'crash', reason: 'nothing in memory only: every task is durable and every call answered', rule: 'tasks.durable' });
        ctx.why('The server process crashes and restarts: the task store is durable, nothing is lost.', 'tasks.durable');
        return;
      }
      ctx.why(
        () =>
          `The server process crashes and restarts: lost ${lost.join(' and ')}.${sv.handleSentAt !== null && sv.durableAt === null ? ` The client already holds the handle ${sv.taskId} (sent at ${sv.handleSentAt} ms) for a task that no longer exists.` : lost.length && sv.handleSentAt === null ? ' No handle was handed out, so the client knows its call failed ("any in-flight requests are simply lost and the client can retry them").' : ''}`,
        'tasks.durable',
      );
      return;
    }
    case 'arrive.call-refused': {
      Object.assign(s.client, { resultReceivedAt: ctx.now, resultError: t.message });
      ctx.why(() => `The client's tools/call fails with ${t.message}: no task exists, nothing to poll.`, 'tasks.capability');
      return;
    }
    case 'arrive.created': {
      if (is2026 && config.clientTasksExtension === false) {
        Object.assign(s.client, { resultReceivedAt: ctx.now, resultError: 'an invalid response: CreateTaskResult to a client that did not declare the tasks extension' });
        ctx.why('CreateTaskResult reaches a client that did not declare the tasks extension: it MUST read it as an invalid response to its tools/call, and does not poll a task it knows nothing of.', 'tasks.capability');
        return;
      }
      Object.assign(s.client, { taskId: t.taskId, knownAt: ctx.now, observed: 'working', observedAt: ctx.now });
      if (t.pollIntervalMs !== undefined) s.client.pollHintMs = t.pollIntervalMs;
      if (s.client.abortAt !== null && !s.client.abortLost && s.client.cancelSentAt === null && s.client.cancelNotificationSentAt === null) {
        ctx.why(() => `CreateTaskResult arrives: the client learns ${t.taskId} and sends the ${config.policy.cancelWithNotification ? 'cancel (bug: as notifications/cancelled)' : 'tasks/cancel'} it remembered from the abort at ${s.client.abortAt} ms.`, 'tasks.early-abort');
        sendCancel(s, ctx);
      } else ctx.why(() => pollPlanNote(s, t.taskId), 'tasks.poll');
      schedulePoll(s, ctx, ctx.now);
      return;
    }
    case 'poll': {
      if (s.client.terminalObservedAt !== null || s.client.taskNotFoundAt !== null) {
        s.client.pollHandle = -1;
        return;
      }
      const c = s.client;
      const id = clientRequestId(s, 'get');
      const arrivesAt = ctx.now + config.latencyMs.clientToServer;
      send(s, ctx, 'client', getTaskRequest(revision, id, c.taskId as string), arrivesAt);
      ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'server', `tasks/get ${id} arrives`, { kind: 'arrive.get', requestId: id, sentAt: ctx.now });
      if (c.pollHintMs !== undefined && c.firstPollAt === undefined) c.firstPollAt = ctx.now;
      if (t.floorMs !== undefined && t.everyMs !== undefined) {
        const { everyMs, floorMs } = t;
        c.pollTooSoon ??= { at: ctx.now, everyMs, floorMs };
        c.pollsTooSoon = (c.pollsTooSoon ?? 0) + 1;
        ctx.why(() => `Bug: the client polls ${c.taskId} with tasks/get ${everyMs} ms after the last answer — this task's server asked for ${floorMs} ms, but the client polls every task at the shortest interval among those it polls.`, 'tasks.poll-interval');
      } else ctx.why('The client polls with tasks/get.', 'tasks.poll');
      c.polls++;
      c.pollHandle = -1;
      return;
    }
    case 'arrive.get': {
      const arrivesAt = ctx.now + config.latencyMs.serverToClient;
      const sentAt = t.sentAt;
      if (s.server.taskId === null || s.server.status === null) {
        const message = 'Failed to retrieve task: Task not found';
        send(s, ctx, 'server', errorResponse(t.requestId, ERROR_CODES.invalidParams, message), arrivesAt);
        ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/get error arrives', { kind: 'arrive.get-error', message: `-32602 ${message}` });
        ctx.why(() => `tasks/get names ${s.client.taskId}, which the server does not have${s.server.lostTaskId !== null ? ' (it was lost in the crash before it was durable)' : ''}: -32602.`, 'tasks.durable');
        return;
      }
      const status = s.server.status;
      const d = is2026 ? detail(s) : {};
      send(s, ctx, 'server', taskResultResponse(revision, t.requestId, taskView(s), d), arrivesAt);
      ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/get result arrives', {
        kind: 'arrive.get-result',
        status,
        sentAt,
        text: d.resultText ?? null,
        error: d.error ? `${d.error.code} ${d.error.message}` : null,
        inputKeys: d.inputRequests ? Object.keys(d.inputRequests) : [],
      });
      ctx.why(() => `The server reports the task ${status}${d.resultText !== undefined ? ', with its result inlined (tasks/get carries the result once completed)' : d.inputRequests ? ', listing the input it needs (inputRequests)' : ''}.`, 'tasks.poll');
      return;
    }
    case 'arrive.get-error': {
      if (s.client.pollHandle >= 0) ctx.cancel(s.client.pollHandle);
      ctx.why(() => `tasks/get fails (${t.message}): the client holds a handle for a task that does not exist — the work it was promised is gone and nothing will tell it more.`, 'tasks.durable');
      s.client.taskNotFoundAt = ctx.now;
      s.client.pollHandle = -1;
      return;
    }
    case 'arrive.get-result': {
      if (s.client.terminalObservedAt !== null) return;
      const terminal = isTerminalStatus(t.status);
      const c = s.client;
      // Which input keys are new, against the answers given before this poll's result.
      const fresh = t.inputKeys.filter((k) => !c.answeredInputKeys.includes(k));
      Object.assign(c, { observed: t.status, observedAt: ctx.now, terminalObservedAt: terminal ? ctx.now : null });
      if (t.status === 'completed') {
        if (is2026) {
          ctx.why('The poll shows the task completed with its result inlined: the client stops polling and has the result (there is no tasks/result under the 2026-07-28 extension).', 'tasks.result');
          Object.assign(c, { resultRequestedAt: t.sentAt, resultReceivedAt: ctx.now, resultFetched: t.text, resultError: t.text === null ? 'the completed task carried no result' : null });
          return;
        }
        ctx.why('The poll shows the task completed: the client stops polling and fetches the result with tasks/result.', 'tasks.result');
        requestResult(s, ctx);
        return;
      }
      if (is2026 && t.status === 'failed') {
        ctx.why(() => `The poll shows the task failed with its error inlined (${t.error}): the client stops polling.`, 'tasks.result');
        Object.assign(c, { resultRequestedAt: t.sentAt, resultReceivedAt: ctx.now, resultError: t.error });
        return;
      }
      if (is2026 && t.status === 'input_required' && fresh.length && config.clientElicitation === 'none') {
        ctx.ignore(() => ({ by: 'client', what: `inputRequests ${fresh.join(', ')}`, reason: 'the client supports no elicitation: it cannot answer', rule: 'tasks.input-capability' }));
        ctx.why(() => `The poll shows the task input_required, asking for ${fresh.join(', ')} — an elicitation this client does not support: it cannot answer, and the task waits for nothing.`, 'tasks.input-capability');
        schedulePoll(s, ctx, ctx.now);
        return;
      }
      if (is2026 && t.status === 'input_required' && fresh.length) {
        const id = clientRequestId(s, 'update');
        const arrivesAt = ctx.now + config.latencyMs.clientToServer;
        const responses = Object.assign({}, ...fresh.map((k) => labInputResponses(k)));
        send(s, ctx, 'client', updateTaskRequest(id, s.client.taskId as string, responses), arrivesAt);
        ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'server', `tasks/update ${id} arrives`, { kind: 'arrive.update', requestId: id, keys: fresh });
        ctx.why(() => `The poll shows the task input_required, asking for ${fresh.join(', ')}: the client answers with tasks/update (inputResponses) and keeps polling.`, 'tasks.update');
        c.answeredInputKeys = c.answeredInputKeys.concat(fresh);
        c.updatesSent++;
        schedulePoll(s, ctx, ctx.now);
        return;
      }
      ctx.why(() => (terminal ? `The poll shows the task ${t.status}: the client stops polling (there is no result to fetch).` : `The poll shows the task ${t.status}.`), 'tasks.poll');
      if (!terminal) schedulePoll(s, ctx, ctx.now);
      return;
    }
    case 'arrive.update': {
      const sv = s.server;
      const arrivesAt = ctx.now + config.latencyMs.serverToClient;
      if (sv.taskId === null) {
        send(s, ctx, 'server', errorResponse(t.requestId, ERROR_CODES.invalidParams, 'Failed to update task: Task not found'), arrivesAt);
        ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/update error arrives', { kind: 'arrive.update-result', ok: false });
        ctx.why('tasks/update names no known task: -32602.', 'tasks.update');
        return;
      }
      send(s, ctx, 'server', emptyAckResponse(t.requestId), arrivesAt);
      ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/update acknowledgement arrives', { kind: 'arrive.update-result', ok: true });
      const answered = t.keys.filter((k) => sv.inputOutstanding.includes(k));
      if (!answered.length || sv.status !== 'input_required') {
        ctx.ignore({ by: 'server', what: `tasks/update ${t.requestId}`, reason: 'it answers no outstanding input request', rule: 'tasks.update' });
        ctx.why('tasks/update is acknowledged, but it answers nothing outstanding: the server ignores the responses ("SHOULD ignore any inputResponses responses mapped to a key that is not currently outstanding").', 'tasks.update');
        return;
      }
      const left = sv.inputOutstanding.filter((k) => !answered.includes(k));
      ctx.why(() => `tasks/update delivers ${answered.join(', ')}: the server acknowledges (empty) and ${left.length ? 'still waits for the rest' : 'the task moves back to working'}.`, 'tasks.update');
      if (left.length) sv.inputOutstanding = left;
      else setStatus(s, 'working', ctx.now, { inputOutstanding: [] });
      return;
    }
    case 'arrive.update-result':
      ctx.why(t.ok ? 'The tasks/update acknowledgement arrives (empty): the client keeps polling.' : 'tasks/update failed: the task is unknown.', 'tasks.update');
      s.client.updateAckAt = ctx.now;
      return;
    case 'arrive.cancelled-notification': {
      const answered = s.server.handleSentAt !== null;
      const reason = answered
        ? `request ${JSON.stringify(t.requestId)} was already answered with the task handle (processing of the request has completed); a task is cancelled with tasks/cancel, never with notifications/cancelled`
        : `request ${JSON.stringify(t.requestId)} is unknown to the server`;
      ctx.ignore({ by: 'server', what: 'notifications/cancelled', reason, rule: 'tasks.cancel' });
      ctx.why(() => `notifications/cancelled reaches the server and is ignored: ${reason}. The task keeps running.`, 'tasks.cancel');
      s.server.cancelNotificationsIgnored++;
      return;
    }
    case 'arrive.cancel': {
      const sv = s.server;
      const arrivesAt = ctx.now + config.latencyMs.serverToClient;
      const reply = (message: Json, ack: CancelAck, status: TaskStatus | null) => {
        send(s, ctx, 'server', message, arrivesAt);
        ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/cancel answer arrives', { kind: 'arrive.cancel-result', ack, status });
      };
      if (isTerminalStatus(sv.status)) {
        if (config.policy.cancelOverwritesTerminal) {
          const { status: was, statusAt: wasAt } = sv;
          setStatus(s, 'cancelled', ctx.now, { result: null });
          if (revision === '2025-11-25') reply(taskResultResponse(revision, t.requestId, taskView(s, 'cancelled by request')), 'cancelled', 'cancelled');
          else reply(emptyAckResponse(t.requestId), 'empty', null);
          ctx.why(() => `tasks/cancel reaches a task that is already ${was} (since ${wasAt} ms). Bug: the store writes "cancelled" over it and the result is lost.`, 'tasks.terminal');
          return;
        }
        if (revision === '2025-11-25') {
          reply(errorResponse(t.requestId, ERROR_CODES.invalidParams, `Cannot cancel task: already ${sv.status}`), 'error-32602', null);
          ctx.ignore({ by: 'server', what: `tasks/cancel ${t.requestId}`, reason: `the task is already ${sv.status}`, rule: 'tasks.cancel-terminal' });
          ctx.why(() => `tasks/cancel reaches a task already ${sv.status}: under 2025-11-25 that is error -32602; the task stays ${sv.status} with its result.`, 'tasks.cancel-terminal');
        } else {
          reply(emptyAckResponse(t.requestId), 'empty', null);
          ctx.ignore({ by: 'server', what: `tasks/cancel ${t.requestId}`, reason: `the task is already ${sv.status}`, rule: 'tasks.cancel-terminal' });
          ctx.why(() => `tasks/cancel reaches a task already ${sv.status}: under 2026-07-28 it is acknowledged (empty) and the status does not change.`, 'tasks.cancel-terminal');
        }
        return;
      }
      if (sv.status === null) {
        reply(errorResponse(t.requestId, ERROR_CODES.invalidParams, 'Unknown task'), 'error-32602', null);
        ctx.why('tasks/cancel names no known task: -32602.', 'tasks.cancel');
        return;
      }
      if (revision === '2025-11-25') {
        setStatus(s, 'cancelled', ctx.now);
        reply(taskResultResponse(revision, t.requestId, taskView(s, 'cancelled by request')), 'cancelled', 'cancelled');
        ctx.why(() => `tasks/cancel reaches live task ${sv.taskId}: under 2025-11-25 the server moves it to cancelled before responding, and it stays cancelled even if the work finishes later.`, 'tasks.cancel-2025');
        return;
      }
      reply(emptyAckResponse(t.requestId), 'empty', null);
      ctx.why(() => `tasks/cancel reaches live task ${sv.taskId}: under 2026-07-28 the server acknowledges with an empty result; the task stays ${sv.status} until the worker reaches a checkpoint.`, 'tasks.cancel-2026');
      sv.cancelPendingSince = ctx.now;
      return;
    }
    case 'arrive.result-request': {
      const sv = s.server;
      const arrivesAt = ctx.now + config.latencyMs.serverToClient;
      if (sv.status === 'completed' && sv.result !== null) {
        send(s, ctx, 'server', taskPayloadResponse(t.requestId, sv.taskId as string, sv.result), arrivesAt);
        ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/result answer arrives', { kind: 'arrive.result', text: sv.result, error: null });
        ctx.why(() => `tasks/result reaches the server: it answers with the tool's CallToolResult ("${sv.result}").`, 'tasks.result');
        return;
      }
      const message = `No result: task ${sv.taskId} is ${sv.status}`;
      send(s, ctx, 'server', errorResponse(t.requestId, ERROR_CODES.invalidParams, message), arrivesAt);
      ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/result error arrives', { kind: 'arrive.result', text: null, error: `-32602 ${message}` });
      ctx.why(() => `tasks/result reaches the server, but the task is now ${sv.status} with no result: error -32602. The client saw "completed" and still cannot get the result.`, 'tasks.result');
      return;
    }
    case 'arrive.result': {
      ctx.why(() => (t.text !== null ? `The result arrives: the client shows "${t.text}".` : `tasks/result failed (${t.error}): the work was done but its result is lost.`), 'tasks.result');
      Object.assign(s.client, { resultReceivedAt: ctx.now, resultFetched: t.text, resultError: t.error });
      return;
    }
    case 'arrive.cancel-result': {
      const terminal = t.status !== null && isTerminalStatus(t.status);
      const pollHandle = s.client.pollHandle;
      Object.assign(s.client, {
        ackAt: ctx.now,
        ack: t.ack,
        ...(terminal ? { observed: t.status, observedAt: ctx.now, terminalObservedAt: s.client.terminalObservedAt ?? ctx.now } : {}),
      });
      const text = t.ack === 'cancelled' ? 'the task is cancelled (CancelTaskResult)' : t.ack === 'empty' ? 'an empty acknowledgement — not a terminal state; the client keeps polling' : 'error -32602: the task had already ended; the client keeps its last view and polls';
      ctx.why(() => `The answer to tasks/cancel arrives: ${text}.`, t.ack === 'empty' ? 'tasks.cancel-2026' : 'tasks.cancel-2025');
      if (terminal && pollHandle >= 0) ctx.cancel(pollHandle);
      if (terminal) s.client.pollHandle = -1;
      return;
    }
  }
}

