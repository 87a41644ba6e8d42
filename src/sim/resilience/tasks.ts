import type { ApplyContext, Invariant, Json } from '../types';
import type { RequestId } from '../mcp';
import { ERROR_CODES, errorResponse } from '../mcp';
import type { ResilienceEvent, TasksConfig } from './schema';
import {
  cancelTaskRequest,
  createTaskResponse,
  emptyAckResponse,
  getTaskPayloadRequest,
  getTaskRequest,
  isTerminalStatus,
  taskCallRequest,
  taskPayloadResponse,
  taskResultResponse,
  type TaskStatus,
  type TaskView,
} from './taskWire';

/**
 * Durable tasks and `tasks/cancel` under both revisions (SPEC-NOTES "Tasks"):
 * - 2025-11-25: `tasks/cancel` on a live task moves it to `cancelled` before responding; it stays
 *   cancelled even if the work finishes later; on a terminal task it is error -32602.
 * - 2026-07-28 tasks extension: the cancel gets an empty acknowledgement; the task stays `working`
 *   until the worker reaches a checkpoint (then `cancelled`); work finishing first ends it
 *   `completed`; a cancel on a terminal task is acknowledged and changes nothing.
 * A terminal status never changes. The client remembers a user abort made before it knows the task
 * id and sends `tasks/cancel` as soon as it does; it polls `tasks/get` every poll interval until it
 * sees a terminal status (or the task's ttl runs out). When it sees `completed` it fetches the
 * result with `tasks/result {taskId}` (2025-11-25 `GetTaskPayloadRequest`; the lab uses the same
 * method under the 2026-07-28 extension, whose SPEC-NOTES row changes only field names and the
 * cancel): the server answers with the tool's `CallToolResult`, or -32602 when it holds no result
 * (a buggy store that overwrote the completed task with `cancelled`).
 */

/** What the client got back for its `tasks/cancel`. */
export type CancelAck = 'none' | 'cancelled' | 'empty' | 'error-32602';

/** Server side of the one task. */
export interface TaskServerState {
  callReceivedAt: number | null;
  taskId: string | null;
  status: TaskStatus | null;
  statusAt: number | null;
  createdAt: number | null;
  /** Every status the store held, in order, with its time (the status lane). */
  history: readonly { status: TaskStatus; at: number }[];
  result: string | null;
  /** 2026-07-28: a cancel was acknowledged and waits for a checkpoint (ms). */
  cancelPendingSince: number | null;
  /** When the worker stopped (finished, or stopped at a checkpoint / on cancel), ms. */
  workStoppedAt: number | null;
  /** Work finished after the task was already cancelled (its result discarded), ms. */
  workFinishedAfterCancelAt: number | null;
  /** Times a terminal status was overwritten (must stay 0). */
  terminalOverwrites: number;
}

/** Client side of the one task. */
export interface TaskClientState {
  requestId: RequestId | null;
  callSentAt: number | null;
  taskId: string | null;
  knownAt: number | null;
  abortAt: number | null;
  /** The abort was dropped (bug) — the UI said "stopped" but nothing went out. */
  abortLost: boolean;
  cancelSentAt: number | null;
  ackAt: number | null;
  ack: CancelAck;
  observed: TaskStatus | null;
  observedAt: number | null;
  terminalObservedAt: number | null;
  polls: number;
  pollHandle: number;
  nextRequest: number;
  /** When the client sent `tasks/result` (ms), after it saw `completed`. */
  resultRequestedAt: number | null;
  /** When the answer to `tasks/result` arrived (ms). */
  resultReceivedAt: number | null;
  /** The tool result text the client received, or null (none yet, or the fetch failed). */
  resultFetched: string | null;
  /** The error `tasks/result` returned (the server had no result), or null. */
  resultError: string | null;
}

/** State of the tasks mechanism. */
export interface TasksState {
  mechanism: 'tasks';
  config: TasksConfig;
  server: TaskServerState;
  client: TaskClientState;
}

/** Timers and deliveries of the tasks mechanism. */
export type TasksTimer =
  | { kind: 'arrive.call' }
  | { kind: 'arrive.created'; taskId: string }
  | { kind: 'poll' }
  | { kind: 'arrive.get'; requestId: string }
  | { kind: 'arrive.get-result'; status: TaskStatus }
  | { kind: 'arrive.cancel'; requestId: string }
  | { kind: 'arrive.cancel-result'; ack: CancelAck; status: TaskStatus | null }
  | { kind: 'arrive.result-request'; requestId: string }
  | { kind: 'arrive.result'; text: string | null; error: string | null };

/** Outcome of the tasks mechanism: the one task, keyed "task". */
export interface TasksOutcome {
  requests: {
    key: 'task';
    taskId: string | null;
    status: TaskStatus | null;
    statusAtMs: number | null;
    result: string | null;
    abortAtMs: number | null;
    abortLost: boolean;
    cancelSentAtMs: number | null;
    ack: CancelAck;
    ackAtMs: number | null;
    terminalObservedAtMs: number | null;
    observed: TaskStatus | null;
    workStoppedAtMs: number | null;
    statuses: string[];
    /** When the client sent `tasks/result`, ms (null: it never saw `completed`). */
    resultRequestedAtMs: number | null;
    /** When the client received the result, ms. */
    resultReceivedAtMs: number | null;
    /** The result text the client fetched with `tasks/result`, or null. */
    resultFetched: string | null;
    /** The error `tasks/result` answered with, or null. */
    resultError: string | null;
  }[];
  summary: { polls: number; cancelsSent: number; statusChanges: number; terminalOverwrites: number };
}

/** Tie ranks of the tasks mechanism. */
export const TASKS_RANK = { arrival: 1, scripted: 2, poll: 3 } as const;

type Ctx = ApplyContext<TasksTimer>;

/** Initial state: nothing sent, no task. */
export function initTasks(config: TasksConfig): TasksState {
  return {
    mechanism: 'tasks',
    config,
    server: {
      callReceivedAt: null,
      taskId: null,
      status: null,
      statusAt: null,
      createdAt: null,
      history: [],
      result: null,
      cancelPendingSince: null,
      workStoppedAt: null,
      workFinishedAfterCancelAt: null,
      terminalOverwrites: 0,
    },
    client: {
      requestId: null,
      callSentAt: null,
      taskId: null,
      knownAt: null,
      abortAt: null,
      abortLost: false,
      cancelSentAt: null,
      ackAt: null,
      ack: 'none',
      observed: null,
      observedAt: null,
      terminalObservedAt: null,
      polls: 0,
      pollHandle: -1,
      nextRequest: 1,
      resultRequestedAt: null,
      resultReceivedAt: null,
      resultFetched: null,
      resultError: null,
    },
  };
}

function view(s: TasksState, statusMessage?: string): TaskView {
  const sv = s.server;
  return {
    taskId: sv.taskId ?? '',
    status: sv.status ?? 'working',
    createdAt: sv.createdAt ?? 0,
    updatedAt: sv.statusAt ?? 0,
    ttlMs: s.config.ttlMs,
    pollIntervalMs: s.config.pollIntervalMs,
    statusMessage,
  };
}

function withServer(s: TasksState, patch: Partial<TaskServerState>): TasksState {
  return { ...s, server: { ...s.server, ...patch } };
}
function withClient(s: TasksState, patch: Partial<TaskClientState>): TasksState {
  return { ...s, client: { ...s.client, ...patch } };
}

/** Sets the stored status (recording an overwrite of a terminal one, which the invariant flags). */
function setStatus(s: TasksState, status: TaskStatus, now: number, extra: Partial<TaskServerState> = {}): TasksState {
  const overwrite = isTerminalStatus(s.server.status) && s.server.status !== status ? 1 : 0;
  return withServer(s, {
    status,
    statusAt: now,
    history: s.server.history.concat({ status, at: now }),
    terminalOverwrites: s.server.terminalOverwrites + overwrite,
    ...extra,
  });
}

function clientRequestId(s: TasksState, prefix: string): [string, TasksState] {
  const id = `${prefix}-${s.client.nextRequest}`;
  return [id, withClient(s, { nextRequest: s.client.nextRequest + 1 })];
}

function sendCancel(s: TasksState, ctx: Ctx): TasksState {
  const [id, next] = clientRequestId(s, 'cancel');
  const taskId = s.client.taskId as string;
  const arrivesAt = ctx.now + s.config.latencyMs.clientToServer;
  ctx.emit({ from: 'client', transport: 'stdio', message: cancelTaskRequest(id, taskId), arrivesAt, requestKey: 'task' });
  ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'server', `tasks/cancel ${id} arrives`, { kind: 'arrive.cancel', requestId: id });
  return withClient(next, { cancelSentAt: ctx.now });
}

/** The client saw `completed`: it fetches the result with `tasks/result`. */
function requestResult(s: TasksState, ctx: Ctx): TasksState {
  const [id, next] = clientRequestId(s, 'result');
  const arrivesAt = ctx.now + s.config.latencyMs.clientToServer;
  ctx.emit({ from: 'client', transport: 'stdio', message: getTaskPayloadRequest(id, s.client.taskId as string), arrivesAt, requestKey: 'task' });
  ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'server', `tasks/result ${id} arrives`, { kind: 'arrive.result-request', requestId: id });
  return withClient(next, { resultRequestedAt: ctx.now });
}

function schedulePoll(s: TasksState, ctx: Ctx, from: number): TasksState {
  const at = from + s.config.pollIntervalMs;
  const created = s.client.knownAt ?? from;
  if (at > created + s.config.ttlMs) return withClient(s, { pollHandle: -1 });
  const handle = ctx.schedule(at, TASKS_RANK.poll, 'client', `poll #${s.client.polls + 1}`, { kind: 'poll' });
  return withClient(s, { pollHandle: handle });
}

/** Applies one scripted event of the tasks mechanism. */
export function applyTasksScripted(s: TasksState, ev: ResilienceEvent, ctx: Ctx): TasksState {
  const { config } = s;
  switch (ev.kind) {
    case 'call': {
      if (s.client.callSentAt !== null) {
        ctx.ignore({ by: 'client', what: ev.id, reason: 'this scenario has one task call; it was already sent', rule: 'tasks.one-call' });
        ctx.why('A second call is ignored: this scenario follows one task.');
        return s;
      }
      const arrivesAt = ctx.now + config.latencyMs.clientToServer;
      ctx.emit({ from: 'client', transport: 'stdio', message: taskCallRequest(config.revision, ev.requestId, ev.tool, config.ttlMs), arrivesAt, requestKey: 'task' });
      ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'server', 'tools/call arrives', { kind: 'arrive.call' });
      ctx.why(() => `The client sends a task-augmented tools/call (${ev.tool}); it will not know the task id until the server answers.`, 'tasks.create');
      return withClient(s, { requestId: ev.requestId, callSentAt: ctx.now });
    }
    case 'created': {
      if (s.server.callReceivedAt === null || s.server.taskId !== null) {
        const reason = s.server.taskId !== null ? 'the task already exists' : 'the tools/call has not arrived yet';
        ctx.ignore({ by: 'server', what: ev.id, reason, rule: 'tasks.create' });
        ctx.why(() => `The server cannot create the task: ${reason}.`, 'tasks.create');
        return s;
      }
      let next = withServer(s, { taskId: ev.taskId, createdAt: ctx.now });
      next = setStatus(next, 'working', ctx.now);
      const arrivesAt = ctx.now + config.latencyMs.serverToClient;
      ctx.emit({ from: 'server', transport: 'stdio', message: createTaskResponse(config.revision, s.client.requestId as RequestId, view(next)), arrivesAt, requestKey: 'task' });
      ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'CreateTaskResult arrives', { kind: 'arrive.created', taskId: ev.taskId });
      ctx.why(() => `The server creates task ${ev.taskId} (working) and answers with CreateTaskResult.`, 'tasks.create');
      return next;
    }
    case 'abort': {
      const c = s.client;
      if (c.abortAt !== null || c.terminalObservedAt !== null || c.callSentAt === null) {
        const reason = c.callSentAt === null ? 'nothing was called yet' : c.abortAt !== null ? 'the user already aborted' : `the client already saw the task ${c.observed}`;
        ctx.ignore({ by: 'client', what: ev.id, reason, rule: 'tasks.cancel' });
        ctx.why(() => `The user clicks abort, but ${reason}: nothing is sent.`, 'tasks.cancel');
        return s;
      }
      if (c.taskId !== null) {
        ctx.why(() => `The user aborts: the client knows task ${c.taskId} and sends tasks/cancel now.`, 'tasks.cancel');
        return sendCancel(withClient(s, { abortAt: ctx.now }), ctx);
      }
      if (config.policy.forgetEarlyAbort) {
        ctx.ignore({ by: 'client', what: ev.id, reason: 'bug: the task id is not known yet and the abort is dropped', rule: 'tasks.early-abort' });
        ctx.why('The user aborts before the task id is known. Bug: the client drops the abort (the UI says "stopped"), so no tasks/cancel will ever go out.', 'tasks.early-abort');
        return withClient(s, { abortAt: ctx.now, abortLost: true });
      }
      ctx.why('The user aborts before the task id is known: the client remembers the abort and will send tasks/cancel the moment CreateTaskResult arrives.', 'tasks.early-abort');
      return withClient(s, { abortAt: ctx.now });
    }
    case 'checkpoint': {
      const sv = s.server;
      if (sv.status === null || isTerminalStatus(sv.status) || sv.workStoppedAt !== null) {
        ctx.ignore({ by: 'worker', what: ev.id, reason: sv.status === null ? 'no task yet' : 'the work already stopped', rule: 'tasks.checkpoint' });
        ctx.why('The worker passes a checkpoint, but there is no live work.', 'tasks.checkpoint');
        return s;
      }
      if (sv.cancelPendingSince !== null) {
        ctx.why(() => `The worker reaches a checkpoint, sees the cancel acknowledged at ${sv.cancelPendingSince} ms and stops: the task becomes cancelled now.`, 'tasks.cancel-2026');
        return setStatus(s, 'cancelled', ctx.now, { workStoppedAt: ctx.now, cancelPendingSince: null });
      }
      ctx.ignore({ by: 'worker', what: ev.id, reason: 'no cancellation pending; work continues', rule: 'tasks.checkpoint' });
      ctx.why('The worker passes a checkpoint with no cancellation pending and keeps working.', 'tasks.checkpoint');
      return s;
    }
    case 'finish': {
      const sv = s.server;
      if (sv.status === null || sv.workStoppedAt !== null) {
        ctx.ignore({ by: 'worker', what: ev.id, reason: sv.status === null ? 'no task yet' : 'the worker already stopped', rule: 'tasks.terminal' });
        ctx.why('The work would finish, but there is no running work.', 'tasks.terminal');
        return s;
      }
      if (isTerminalStatus(sv.status)) {
        ctx.ignore({ by: 'server', what: ev.id, reason: `the task is already ${sv.status}; a terminal status never changes`, rule: 'tasks.terminal' });
        ctx.why(() => `The work finishes, but task ${sv.taskId} is already ${sv.status} (since ${sv.statusAt} ms): it stays ${sv.status} and the result is discarded.`, 'tasks.terminal');
        return withServer(s, { workStoppedAt: ctx.now, workFinishedAfterCancelAt: ctx.now });
      }
      const pending = sv.cancelPendingSince !== null ? ` The cancel acknowledged at ${sv.cancelPendingSince} ms never reached a checkpoint, so the task ends ${ev.outcome}.` : '';
      ctx.why(() => `The work finishes: task ${sv.taskId} is ${ev.outcome}.${pending}`, 'tasks.terminal');
      return setStatus(s, ev.outcome, ctx.now, { workStoppedAt: ctx.now, result: ev.outcome === 'completed' ? ev.text : null, cancelPendingSince: null });
    }
    case 'input-required':
    case 'resume': {
      const from: TaskStatus = ev.kind === 'input-required' ? 'working' : 'input_required';
      const to: TaskStatus = ev.kind === 'input-required' ? 'input_required' : 'working';
      if (s.server.status !== from) {
        ctx.ignore({ by: 'worker', what: ev.id, reason: `the task is ${s.server.status ?? 'not created'}, not ${from}`, rule: 'tasks.statuses' });
        ctx.why(() => `Ignored: the task is ${s.server.status ?? 'not created'}.`, 'tasks.statuses');
        return s;
      }
      ctx.why(() => `The task moves ${from} → ${to}.`, 'tasks.statuses');
      return setStatus(s, to, ctx.now);
    }
    default:
      ctx.ignore({ by: ev.actor, what: ev.id, reason: `"${ev.kind}" is not an event of the tasks mechanism`, rule: 'lab.mechanism' });
      ctx.why(() => `"${ev.kind}" has no meaning for durable tasks; ignored.`);
      return s;
  }
}

/** Applies one timer or delivery of the tasks mechanism. */
export function applyTasksTimer(s: TasksState, t: TasksTimer, ctx: Ctx): TasksState {
  const { config } = s;
  const revision = config.revision;
  switch (t.kind) {
    case 'arrive.call':
      ctx.why('The task-augmented tools/call reaches the server.', 'tasks.create');
      return withServer(s, { callReceivedAt: ctx.now });
    case 'arrive.created': {
      let next = withClient(s, { taskId: t.taskId, knownAt: ctx.now, observed: 'working', observedAt: ctx.now });
      if (s.client.abortAt !== null && !s.client.abortLost && s.client.cancelSentAt === null) {
        ctx.why(() => `CreateTaskResult arrives: the client learns ${t.taskId} and sends the tasks/cancel it remembered from the abort at ${s.client.abortAt} ms.`, 'tasks.early-abort');
        next = sendCancel(next, ctx);
      } else ctx.why(() => `CreateTaskResult arrives: the client knows ${t.taskId} and polls every ${config.pollIntervalMs} ms.`, 'tasks.poll');
      return schedulePoll(next, ctx, ctx.now);
    }
    case 'poll': {
      if (s.client.terminalObservedAt !== null) return withClient(s, { pollHandle: -1 });
      const [id, next] = clientRequestId(s, 'get');
      const arrivesAt = ctx.now + config.latencyMs.clientToServer;
      ctx.emit({ from: 'client', transport: 'stdio', message: getTaskRequest(id, s.client.taskId as string), arrivesAt, requestKey: 'task' });
      ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'server', `tasks/get ${id} arrives`, { kind: 'arrive.get', requestId: id });
      ctx.why('The client polls with tasks/get.', 'tasks.poll');
      return withClient(next, { polls: s.client.polls + 1, pollHandle: -1 });
    }
    case 'arrive.get': {
      const arrivesAt = ctx.now + config.latencyMs.serverToClient;
      const status = s.server.status as TaskStatus;
      ctx.emit({ from: 'server', transport: 'stdio', message: taskResultResponse(revision, t.requestId, view(s)), arrivesAt, requestKey: 'task' });
      ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/get result arrives', { kind: 'arrive.get-result', status });
      ctx.why(() => `The server reports the task ${status}.`, 'tasks.poll');
      return s;
    }
    case 'arrive.get-result': {
      if (s.client.terminalObservedAt !== null) return s;
      const terminal = isTerminalStatus(t.status);
      const next = withClient(s, { observed: t.status, observedAt: ctx.now, terminalObservedAt: terminal ? ctx.now : null });
      if (t.status === 'completed') {
        ctx.why('The poll shows the task completed: the client stops polling and fetches the result with tasks/result.', 'tasks.result');
        return requestResult(next, ctx);
      }
      ctx.why(() => (terminal ? `The poll shows the task ${t.status}: the client stops polling (there is no result to fetch).` : `The poll shows the task ${t.status}.`), 'tasks.poll');
      return terminal ? next : schedulePoll(next, ctx, ctx.now);
    }
    case 'arrive.cancel': {
      const sv = s.server;
      const arrivesAt = ctx.now + config.latencyMs.serverToClient;
      const reply = (message: Json, ack: CancelAck, status: TaskStatus | null) => {
        ctx.emit({ from: 'server', transport: 'stdio', message, arrivesAt, requestKey: 'task' });
        ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/cancel answer arrives', { kind: 'arrive.cancel-result', ack, status });
      };
      if (isTerminalStatus(sv.status)) {
        if (config.policy.cancelOverwritesTerminal) {
          const next = setStatus(s, 'cancelled', ctx.now, { result: null });
          if (revision === '2025-11-25') reply(taskResultResponse(revision, t.requestId, view(next, 'cancelled by request')), 'cancelled', 'cancelled');
          else reply(emptyAckResponse(t.requestId), 'empty', null);
          ctx.why(() => `tasks/cancel reaches a task that is already ${sv.status} (since ${sv.statusAt} ms). Bug: the store writes "cancelled" over it and the result is lost.`, 'tasks.terminal');
          return next;
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
        return s;
      }
      if (sv.status === null) {
        reply(errorResponse(t.requestId, ERROR_CODES.invalidParams, 'Unknown task'), 'error-32602', null);
        ctx.why('tasks/cancel names no known task: -32602.', 'tasks.cancel');
        return s;
      }
      if (revision === '2025-11-25') {
        const next = setStatus(s, 'cancelled', ctx.now);
        reply(taskResultResponse(revision, t.requestId, view(next, 'cancelled by request')), 'cancelled', 'cancelled');
        ctx.why(() => `tasks/cancel reaches live task ${sv.taskId}: under 2025-11-25 the server moves it to cancelled before responding, and it stays cancelled even if the work finishes later.`, 'tasks.cancel-2025');
        return next;
      }
      reply(emptyAckResponse(t.requestId), 'empty', null);
      ctx.why(() => `tasks/cancel reaches live task ${sv.taskId}: under 2026-07-28 the server acknowledges with an empty result; the task stays ${sv.status} until the worker reaches a checkpoint.`, 'tasks.cancel-2026');
      return withServer(s, { cancelPendingSince: ctx.now });
    }
    case 'arrive.result-request': {
      const sv = s.server;
      const arrivesAt = ctx.now + config.latencyMs.serverToClient;
      if (sv.status === 'completed' && sv.result !== null) {
        ctx.emit({ from: 'server', transport: 'stdio', message: taskPayloadResponse(revision, t.requestId, sv.taskId as string, sv.result), arrivesAt, requestKey: 'task' });
        ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/result answer arrives', { kind: 'arrive.result', text: sv.result, error: null });
        ctx.why(() => `tasks/result reaches the server: it answers with the tool's CallToolResult ("${sv.result}").`, 'tasks.result');
        return s;
      }
      const message = `No result: task ${sv.taskId} is ${sv.status}`;
      ctx.emit({ from: 'server', transport: 'stdio', message: errorResponse(t.requestId, ERROR_CODES.invalidParams, message), arrivesAt, requestKey: 'task' });
      ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/result error arrives', { kind: 'arrive.result', text: null, error: `-32602 ${message}` });
      ctx.why(() => `tasks/result reaches the server, but the task is now ${sv.status} with no result: error -32602. The client saw "completed" and still cannot get the result.`, 'tasks.result');
      return s;
    }
    case 'arrive.result': {
      ctx.why(() => (t.text !== null ? `The result arrives: the client shows "${t.text}".` : `tasks/result failed (${t.error}): the work was done but its result is lost.`), 'tasks.result');
      return withClient(s, { resultReceivedAt: ctx.now, resultFetched: t.text, resultError: t.error });
    }
    case 'arrive.cancel-result': {
      const terminal = t.status !== null && isTerminalStatus(t.status);
      const next = withClient(s, {
        ackAt: ctx.now,
        ack: t.ack,
        ...(terminal ? { observed: t.status, observedAt: ctx.now, terminalObservedAt: s.client.terminalObservedAt ?? ctx.now } : {}),
      });
      const text = t.ack === 'cancelled' ? 'the task is cancelled (CancelTaskResult)' : t.ack === 'empty' ? 'an empty acknowledgement — not a terminal state; the client keeps polling' : 'error -32602: the task had already ended; the client keeps its last view and polls';
      ctx.why(() => `The answer to tasks/cancel arrives: ${text}.`, t.ack === 'empty' ? 'tasks.cancel-2026' : 'tasks.cancel-2025');
      if (terminal && s.client.pollHandle >= 0) ctx.cancel(s.client.pollHandle);
      return terminal ? withClient(next, { pollHandle: -1 }) : next;
    }
  }
}

/** The outcome: the task's final state on both sides. */
export function tasksOutcome(s: TasksState): TasksOutcome {
  const sv = s.server;
  const c = s.client;
  return {
    requests: [
      {
        key: 'task',
        taskId: sv.taskId,
        status: sv.status,
        statusAtMs: sv.statusAt,
        result: sv.result,
        abortAtMs: c.abortAt,
        abortLost: c.abortLost,
        cancelSentAtMs: c.cancelSentAt,
        ack: c.ack,
        ackAtMs: c.ackAt,
        terminalObservedAtMs: c.terminalObservedAt,
        observed: c.observed,
        workStoppedAtMs: sv.workStoppedAt,
        statuses: sv.history.map((h) => `${h.status}@${h.at}`),
        resultRequestedAtMs: c.resultRequestedAt,
        resultReceivedAtMs: c.resultReceivedAt,
        resultFetched: c.resultFetched,
        resultError: c.resultError,
      },
    ],
    summary: { polls: c.polls, cancelsSent: c.cancelSentAt === null ? 0 : 1, statusChanges: sv.history.length, terminalOverwrites: sv.terminalOverwrites },
  };
}

/** Invariants of durable tasks. */
export const tasksInvariants: Invariant<TasksState>[] = [
  {
    name: 'terminal-never-changes',
    description: 'Once completed, failed or cancelled, a task keeps that status (and a completed task its result).',
    check: (s) => (s.server.terminalOverwrites > 0 ? `the stored status changed after it was terminal (${s.server.history.map((h) => `${h.status}@${h.at}`).join(' → ')})` : null),
  },
  {
    name: 'abort-not-lost',
    description: 'A user abort made before the task id was known produces tasks/cancel as soon as the id is known.',
    check: (s) =>
      s.client.abortAt !== null && s.client.knownAt !== null && s.client.cancelSentAt === null
        ? `the user aborted at ${s.client.abortAt} ms and the client knows the task since ${s.client.knownAt} ms, but no tasks/cancel went out`
        : null,
  },
];
