// TEST-ONLY ORACLE: verbatim copy of src/sim/resilience/tasks.ts at 377217e (import paths adjusted). Never import from app code.
import type { ApplyContext, Invariant, Json } from '../../src/sim/types';
import type { RequestId } from '../../src/sim/mcp';
import { ERROR_CODES, errorResponse } from '../../src/sim/mcp';
import type { ResilienceEvent, TasksConfig } from '../../src/sim/resilience/schema';
import {
  cancelledNotification,
  cancelTaskRequest,
  createTaskResponse,
  emptyAckResponse,
  getTaskPayloadRequest,
  getTaskRequest,
  isTerminalStatus,
  labInputKey,
  labInputRequests,
  labInputResponses,
  taskCallRequest,
  taskPayloadResponse,
  taskResultResponse,
  updateTaskRequest,
  type TaskDetail,
  type TaskStatus,
  type TaskView,
} from '../../src/sim/resilience/taskWire';

/**
 * Durable tasks and `tasks/cancel` under both revisions.
 * - 2025-11-25 (`basic/utilities/tasks`): `tasks/cancel` on a live task moves it to `cancelled`
 *   before responding ("MUST transition the task to `cancelled` status before sending the
 *   response"); it stays cancelled even if the work finishes later; on a terminal task it is error
 *   -32602. When the client sees `completed` it fetches the result with `tasks/result {taskId}`.
 * - 2026-07-28 tasks extension (ext-tasks `specification/draft/tasks.md`): the server alone decides
 *   to create a task (the `created` event; the `tools/call` carries no opt-in) and answers with a
 *   flat `CreateTaskResult` (`resultType: "task"`) — only once the task is durably created ("A
 *   server MUST NOT return `CreateTaskResult` until the task is durably created — that is, until a
 *   `tasks/get` for the returned `taskId` would resolve"; `durableWriteMs`, switch
 *   `handleBeforeDurable` for the buggy server). `tasks/get` carries the result once completed
 *   (there is no `tasks/result`, no `tasks/list`); an `input_required` task lists its
 *   `inputRequests`, which the client answers with `tasks/update`. The cancel gets an empty
 *   acknowledgement; the task stays `working` until the worker reaches a checkpoint (then
 *   `cancelled`); work finishing first ends it `completed`; a cancel on a terminal task is
 *   acknowledged and changes nothing.
 * Both: a terminal status never changes; tasks are cancelled with `tasks/cancel`, never with
 * `notifications/cancelled` (switch `cancelWithNotification` for the buggy client). The client
 * remembers a user abort made before it knows the task id and sends `tasks/cancel` as soon as it
 * does; it polls `tasks/get` every poll interval until it sees a terminal status (or the task's ttl
 * runs out). A server crash (`serverCrashAtMs`) loses every task not yet durable and an unanswered
 * `tools/call` (stdio "Unexpected Termination": "any in-flight requests are simply lost").
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
  /** A failed task's error message (the JSON-RPC error its tools/call ended with; 2026-07-28 tasks/get sends it as `error`). */
  errorMessage: string | null;
  /** 2026-07-28: a cancel was acknowledged and waits for a checkpoint (ms). */
  cancelPendingSince: number | null;
  /** When the worker stopped (finished, or stopped at a checkpoint / on cancel), ms. */
  workStoppedAt: number | null;
  /** Work finished after the task was already cancelled (its result discarded), ms. */
  workFinishedAfterCancelAt: number | null;
  /** Times a terminal status was overwritten (must stay 0). */
  terminalOverwrites: number;
  /** When the task became durable (a `tasks/get` for it would resolve), ms; null while only in memory. */
  durableAt: number | null;
  /** Timer handle of the pending durable write (-1: none). */
  durableTimer: number;
  /** When the server sent the task handle (`CreateTaskResult`), ms. */
  handleSentAt: number | null;
  /** When the server process crashed, ms. */
  crashedAt: number | null;
  /** The task lost in the crash (it was not durable yet), or null. */
  lostTaskId: string | null;
  /** 2026-07-28: input requests the task waits for (keys), outstanding until a `tasks/update` answers them. */
  inputOutstanding: readonly string[];
  /** 2026-07-28: input rounds so far (each gets a new key). */
  inputRounds: number;
  /** `notifications/cancelled` the server received for the task's request and ignored. */
  cancelNotificationsIgnored: number;
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
  /** The error `tasks/result` returned (the server had no result), or, 2026-07-28, a failed task's error; null otherwise. */
  resultError: string | null;
  /** Bug `cancelWithNotification`: when the client sent `notifications/cancelled` instead of `tasks/cancel`, ms. */
  cancelNotificationSentAt: number | null;
  /** When the `tools/call` failed without a task handle (the server crashed before answering), ms. */
  callFailedAt: number | null;
  /** When a `tasks/get` for the task the client holds answered "Task not found", ms. */
  taskNotFoundAt: number | null;
  /** 2026-07-28: input keys the client answered with `tasks/update` (it answers each once). */
  answeredInputKeys: readonly string[];
  /** 2026-07-28: `tasks/update` requests sent. */
  updatesSent: number;
  /** When the last `tasks/update` acknowledgement arrived, ms. */
  updateAckAt: number | null;
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
  | { kind: 'arrive.get'; requestId: string; sentAt: number }
  | { kind: 'arrive.get-result'; status: TaskStatus; sentAt: number; text: string | null; error: string | null; inputKeys: string[] }
  | { kind: 'arrive.get-error'; message: string }
  | { kind: 'durable' }
  | { kind: 'crash' }
  | { kind: 'arrive.cancelled-notification'; requestId: RequestId }
  | { kind: 'arrive.update'; requestId: string; keys: string[] }
  | { kind: 'arrive.update-result'; ok: boolean }
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
    /** The error `tasks/result` answered with (2026-07-28: the failed task's error), or null. */
    resultError: string | null;
    /** When the task became durable, ms (null: never). */
    durableAtMs: number | null;
    /** When the server sent the task handle, ms. */
    handleSentAtMs: number | null;
    /** The task lost in a server crash before it was durable, or null. */
    lostTaskId: string | null;
    /** When the tools/call failed without a handle (crash before the answer), ms. */
    callFailedAtMs: number | null;
    /** When tasks/get answered "Task not found" for the handle the client holds, ms. */
    taskNotFoundAtMs: number | null;
    /** Bug: when notifications/cancelled was sent for the task's request, ms. */
    cancelNotificationSentAtMs: number | null;
  }[];
  summary: { polls: number; cancelsSent: number; statusChanges: number; terminalOverwrites: number; updatesSent: number; cancelNotificationsIgnored: number };
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
      errorMessage: null,
      cancelPendingSince: null,
      workStoppedAt: null,
      workFinishedAfterCancelAt: null,
      terminalOverwrites: 0,
      durableAt: null,
      durableTimer: -1,
      handleSentAt: null,
      crashedAt: null,
      lostTaskId: null,
      inputOutstanding: [],
      inputRounds: 0,
      cancelNotificationsIgnored: 0,
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
      cancelNotificationSentAt: null,
      callFailedAt: null,
      taskNotFoundAt: null,
      answeredInputKeys: [],
      updatesSent: 0,
      updateAckAt: null,
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

/** What a 2026-07-28 `tasks/get` inlines for the stored status (result, error, input requests). */
function detail(s: TasksState): TaskDetail {
  const sv = s.server;
  if (sv.status === 'completed' && sv.result !== null) return { resultText: sv.result };
  if (sv.status === 'failed') return { error: { code: ERROR_CODES.internalError, message: sv.errorMessage ?? 'Tool execution failed' } };
  if (sv.status === 'input_required' && sv.inputOutstanding.length) return { inputRequests: Object.assign({}, ...sv.inputOutstanding.map((k) => labInputRequests(k))) };
  return {};
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

/**
 * Puts one message on the wire. Over Streamable HTTP a client request is a POST whose headers the
 * effect names: under 2026-07-28 `Mcp-Method` on every request and `Mcp-Name` — the tool name on
 * `tools/call` (`basic/transports/streamable-http`, Standard Request Headers) and `params.taskId` on
 * `tasks/get`, `tasks/update`, `tasks/cancel` (extension: "the client MUST set the `Mcp-Name` header
 * to the value of `params.taskId`").
 */
function send(s: TasksState, ctx: Ctx, from: 'client' | 'server', message: Json, arrivesAt: number): void {
  const { transport, revision } = s.config;
  if (transport === 'stdio') {
    ctx.emit({ from, transport, message, arrivesAt, requestKey: 'task' });
    return;
  }
  const m = message as { method?: string; id?: unknown; params?: { name?: string; taskId?: string } };
  let http: string;
  if (from === 'server') http = 'HTTP 200 Content-Type: application/json';
  else if (m.id === undefined) http = `POST /mcp (MCP-Protocol-Version: ${revision}) — a notification`;
  else if (revision === '2025-11-25') http = `POST /mcp (MCP-Protocol-Version: ${revision})`;
  else {
    const name = m.method === 'tools/call' ? m.params?.name : m.method?.startsWith('tasks/') ? m.params?.taskId : undefined;
    http = `POST /mcp (MCP-Protocol-Version: ${revision}; Mcp-Method: ${m.method}${name !== undefined ? `; Mcp-Name: ${name}` : ''})`;
  }
  ctx.emit({ from, transport, message, arrivesAt, requestKey: 'task', http });
}

function sendCancel(s: TasksState, ctx: Ctx): TasksState {
  if (s.config.policy.cancelWithNotification) {
    const arrivesAt = ctx.now + s.config.latencyMs.clientToServer;
    send(s, ctx, 'client', cancelledNotification(s.client.requestId as RequestId, 'User aborted'), arrivesAt);
    ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'server', 'notifications/cancelled arrives', { kind: 'arrive.cancelled-notification', requestId: s.client.requestId as RequestId });
    return withClient(s, { cancelNotificationSentAt: ctx.now });
  }
  const [id, next] = clientRequestId(s, 'cancel');
  const taskId = s.client.taskId as string;
  const arrivesAt = ctx.now + s.config.latencyMs.clientToServer;
  send(s, ctx, 'client', cancelTaskRequest(s.config.revision, id, taskId), arrivesAt);
  ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'server', `tasks/cancel ${id} arrives`, { kind: 'arrive.cancel', requestId: id });
  return withClient(next, { cancelSentAt: ctx.now });
}

/** 2025-11-25: the client saw `completed` and fetches the result with `tasks/result`. */
function requestResult(s: TasksState, ctx: Ctx): TasksState {
  const [id, next] = clientRequestId(s, 'result');
  const arrivesAt = ctx.now + s.config.latencyMs.clientToServer;
  send(s, ctx, 'client', getTaskPayloadRequest(id, s.client.taskId as string), arrivesAt);
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

/** The server hands out the task: `CreateTaskResult` to the waiting `tools/call`. */
function sendHandle(s: TasksState, ctx: Ctx): TasksState {
  const arrivesAt = ctx.now + s.config.latencyMs.serverToClient;
  send(s, ctx, 'server', createTaskResponse(s.config.revision, s.client.requestId as RequestId, view(s)), arrivesAt);
  ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'CreateTaskResult arrives', { kind: 'arrive.created', taskId: s.server.taskId as string });
  return withServer(s, { handleSentAt: ctx.now });
}

/** Applies one scripted event of the tasks mechanism. */
export function applyTasksScripted(s: TasksState, ev: ResilienceEvent, ctx: Ctx): TasksState {
  const { config } = s;
  const is2026 = config.revision === '2026-07-28';
  switch (ev.kind) {
    case 'call': {
      if (s.client.callSentAt !== null) {
        ctx.ignore({ by: 'client', what: ev.id, reason: 'this scenario has one task call; it was already sent', rule: 'tasks.one-call' });
        ctx.why('A second call is ignored: this scenario follows one task.');
        return s;
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
      return withClient(s, { requestId: ev.requestId, callSentAt: ctx.now });
    }
    case 'created': {
      if (s.server.callReceivedAt === null || s.server.taskId !== null) {
        const reason = s.server.taskId !== null ? 'the task already exists' : s.client.callFailedAt !== null ? 'the tools/call was lost in the crash' : 'the tools/call has not arrived yet';
        ctx.ignore({ by: 'server', what: ev.id, reason, rule: 'tasks.create' });
        ctx.why(() => `The server cannot create the task: ${reason}.`, 'tasks.create');
        return s;
      }
      let next = withServer(s, { taskId: ev.taskId, createdAt: ctx.now });
      next = setStatus(next, 'working', ctx.now);
      if (config.durableWriteMs === 0) {
        next = sendHandle(withServer(next, { durableAt: ctx.now }), ctx);
        ctx.why(() => `The server creates task ${ev.taskId} (working, durable at once) and answers with CreateTaskResult.`, 'tasks.create');
        return next;
      }
      const timer = ctx.schedule(ctx.now + config.durableWriteMs, TASKS_RANK.arrival, 'server', `task ${ev.taskId} durable`, { kind: 'durable' });
      next = withServer(next, { durableTimer: timer });
      if (config.policy.handleBeforeDurable) {
        ctx.why(() => `The server creates task ${ev.taskId} in memory and, bug, answers with CreateTaskResult now — its durable write ends only at ${ctx.now + config.durableWriteMs} ms. Until then a crash loses a task the client already holds.`, 'tasks.durable');
        return sendHandle(next, ctx);
      }
      ctx.why(() => `The server creates task ${ev.taskId} and writes it durably; it answers with CreateTaskResult only when the write ends at ${ctx.now + config.durableWriteMs} ms ("MUST NOT return CreateTaskResult until the task is durably created").`, 'tasks.durable');
      return next;
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
        return s;
      }
      if (c.taskId !== null) {
        ctx.why(
          () =>
            config.policy.cancelWithNotification
              ? `The user aborts. Bug: the client sends notifications/cancelled for the tools/call (id ${JSON.stringify(c.requestId)}) instead of tasks/cancel — "notifications/cancelled MUST NOT be used for task cancellation".`
              : `The user aborts: the client knows task ${c.taskId} and sends tasks/cancel now.`,
          'tasks.cancel',
        );
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
        ctx.ignore({ by: 'worker', what: ev.id, reason: sv.status === null ? (sv.lostTaskId !== null ? 'the task was lost in the crash' : 'no task yet') : 'the work already stopped', rule: 'tasks.checkpoint' });
        ctx.why('The worker passes a checkpoint, but there is no live work.', 'tasks.checkpoint');
        return s;
      }
      if (sv.cancelPendingSince !== null) {
        ctx.why(() => `The worker reaches a checkpoint, sees the cancel acknowledged at ${sv.cancelPendingSince} ms and stops: the task becomes cancelled now.`, 'tasks.cancel-2026');
        return setStatus(s, 'cancelled', ctx.now, { workStoppedAt: ctx.now, cancelPendingSince: null, inputOutstanding: [] });
      }
      ctx.ignore({ by: 'worker', what: ev.id, reason: 'no cancellation pending; work continues', rule: 'tasks.checkpoint' });
      ctx.why('The worker passes a checkpoint with no cancellation pending and keeps working.', 'tasks.checkpoint');
      return s;
    }
    case 'finish': {
      const sv = s.server;
      if (sv.status === null || sv.workStoppedAt !== null) {
        const reason = sv.status === null ? (sv.lostTaskId !== null ? 'the task was lost in the crash' : 'no task yet') : 'the worker already stopped';
        ctx.ignore({ by: 'worker', what: ev.id, reason, rule: 'tasks.terminal' });
        ctx.why(() => `The work would finish, but ${reason}.`, 'tasks.terminal');
        return s;
      }
      if (isTerminalStatus(sv.status)) {
        ctx.ignore({ by: 'server', what: ev.id, reason: `the task is already ${sv.status}; a terminal status never changes`, rule: 'tasks.terminal' });
        ctx.why(() => `The work finishes, but task ${sv.taskId} is already ${sv.status} (since ${sv.statusAt} ms): it stays ${sv.status} and the result is discarded.`, 'tasks.terminal');
        return withServer(s, { workStoppedAt: ctx.now, workFinishedAfterCancelAt: ctx.now });
      }
      const pending = sv.cancelPendingSince !== null ? ` The cancel acknowledged at ${sv.cancelPendingSince} ms never reached a checkpoint, so the task ends ${ev.outcome}.` : '';
      ctx.why(() => `The work finishes: task ${sv.taskId} is ${ev.outcome}.${pending}`, 'tasks.terminal');
      return setStatus(s, ev.outcome, ctx.now, { workStoppedAt: ctx.now, result: ev.outcome === 'completed' ? ev.text : null, errorMessage: ev.outcome === 'failed' ? ev.text : null, cancelPendingSince: null, inputOutstanding: [] });
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
      if (is2026 && ev.kind === 'resume' && s.server.inputOutstanding.length) {
        ctx.ignore({ by: 'worker', what: ev.id, reason: `input ${s.server.inputOutstanding.join(', ')} is still outstanding; under 2026-07-28 the client's tasks/update delivers it`, rule: 'tasks.update' });
        ctx.why('The worker cannot resume on its own: the input it asked for comes in a tasks/update from the client.', 'tasks.update');
        return s;
      }
      if (is2026 && ev.kind === 'input-required') {
        const key = labInputKey(s.server.inputRounds + 1);
        ctx.why(() => `The task needs input: it moves working → input_required; the next tasks/get lists inputRequests["${key}"] (an elicitation) for the client to answer with tasks/update.`, 'tasks.update');
        return setStatus(s, to, ctx.now, { inputOutstanding: [key], inputRounds: s.server.inputRounds + 1 });
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
  const is2026 = revision === '2026-07-28';
  switch (t.kind) {
    case 'arrive.call':
      if (s.client.callFailedAt !== null) {
        ctx.ignore({ by: 'server', what: 'tools/call', reason: 'it was lost in the crash', rule: 'tasks.durable' });
        return s;
      }
      ctx.why(is2026 ? 'The tools/call reaches the server, which decides whether to answer it with a task.' : 'The task-augmented tools/call reaches the server.', 'tasks.create');
      return withServer(s, { callReceivedAt: ctx.now });
    case 'durable': {
      const next = withServer(s, { durableAt: ctx.now, durableTimer: -1 });
      if (s.server.handleSentAt !== null) {
        ctx.why(() => `Task ${s.server.taskId} is durable now — ${ctx.now - s.server.handleSentAt!} ms after the client was handed its id.`, 'tasks.durable');
        return next;
      }
      ctx.why(() => `Task ${s.server.taskId} is durable: a tasks/get for it would now resolve, so the server answers with CreateTaskResult.`, 'tasks.durable');
      return sendHandle(next, ctx);
    }
    case 'crash': {
      const sv = s.server;
      let next = withServer(s, { crashedAt: ctx.now });
      const lost: string[] = [];
      if (sv.taskId !== null && sv.durableAt === null) {
        if (sv.durableTimer >= 0) ctx.cancel(sv.durableTimer);
        lost.push(`task ${sv.taskId} (not durable yet)`);
        next = withServer(next, { lostTaskId: sv.taskId, taskId: null, status: null, statusAt: null, durableTimer: -1, workStoppedAt: ctx.now, cancelPendingSince: null, inputOutstanding: [] });
      }
      if (s.client.callSentAt !== null && sv.handleSentAt === null && s.client.callFailedAt === null) {
        lost.push('the unanswered tools/call');
        next = withServer(next, { callReceivedAt: null });
        next = withClient(next, { callFailedAt: ctx.now });
      }
      if (!lost.length) {
        ctx.ignore({ by: 'server', what: 'crash', reason: 'nothing in memory only: every task is durable and every call answered', rule: 'tasks.durable' });
        ctx.why('The server process crashes and restarts: the task store is durable, nothing is lost.', 'tasks.durable');
        return next;
      }
      ctx.why(
        () =>
          `The server process crashes and restarts: lost ${lost.join(' and ')}.${sv.handleSentAt !== null && sv.durableAt === null ? ` The client already holds the handle ${sv.taskId} (sent at ${sv.handleSentAt} ms) for a task that no longer exists.` : lost.length && sv.handleSentAt === null ? ' No handle was handed out, so the client knows its call failed ("any in-flight requests are simply lost and the client can retry them").' : ''}`,
        'tasks.durable',
      );
      return next;
    }
    case 'arrive.created': {
      let next = withClient(s, { taskId: t.taskId, knownAt: ctx.now, observed: 'working', observedAt: ctx.now });
      if (s.client.abortAt !== null && !s.client.abortLost && s.client.cancelSentAt === null && s.client.cancelNotificationSentAt === null) {
        ctx.why(() => `CreateTaskResult arrives: the client learns ${t.taskId} and sends the ${config.policy.cancelWithNotification ? 'cancel (bug: as notifications/cancelled)' : 'tasks/cancel'} it remembered from the abort at ${s.client.abortAt} ms.`, 'tasks.early-abort');
        next = sendCancel(next, ctx);
      } else ctx.why(() => `CreateTaskResult arrives: the client knows ${t.taskId} and polls every ${config.pollIntervalMs} ms.`, 'tasks.poll');
      return schedulePoll(next, ctx, ctx.now);
    }
    case 'poll': {
      if (s.client.terminalObservedAt !== null || s.client.taskNotFoundAt !== null) return withClient(s, { pollHandle: -1 });
      const [id, next] = clientRequestId(s, 'get');
      const arrivesAt = ctx.now + config.latencyMs.clientToServer;
      send(s, ctx, 'client', getTaskRequest(revision, id, s.client.taskId as string), arrivesAt);
      ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'server', `tasks/get ${id} arrives`, { kind: 'arrive.get', requestId: id, sentAt: ctx.now });
      ctx.why('The client polls with tasks/get.', 'tasks.poll');
      return withClient(next, { polls: s.client.polls + 1, pollHandle: -1 });
    }
    case 'arrive.get': {
      const arrivesAt = ctx.now + config.latencyMs.serverToClient;
      const sentAt = t.sentAt;
      if (s.server.taskId === null || s.server.status === null) {
        const message = 'Failed to retrieve task: Task not found';
        send(s, ctx, 'server', errorResponse(t.requestId, ERROR_CODES.invalidParams, message), arrivesAt);
        ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/get error arrives', { kind: 'arrive.get-error', message: `-32602 ${message}` });
        ctx.why(() => `tasks/get names ${s.client.taskId}, which the server does not have${s.server.lostTaskId !== null ? ' (it was lost in the crash before it was durable)' : ''}: -32602.`, 'tasks.durable');
        return s;
      }
      const status = s.server.status;
      const d = is2026 ? detail(s) : {};
      send(s, ctx, 'server', taskResultResponse(revision, t.requestId, view(s), d), arrivesAt);
      ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/get result arrives', {
        kind: 'arrive.get-result',
        status,
        sentAt,
        text: d.resultText ?? null,
        error: d.error ? `${d.error.code} ${d.error.message}` : null,
        inputKeys: d.inputRequests ? Object.keys(d.inputRequests) : [],
      });
      ctx.why(() => `The server reports the task ${status}${d.resultText !== undefined ? ', with its result inlined (tasks/get carries the result once completed)' : d.inputRequests ? ', listing the input it needs (inputRequests)' : ''}.`, 'tasks.poll');
      return s;
    }
    case 'arrive.get-error': {
      if (s.client.pollHandle >= 0) ctx.cancel(s.client.pollHandle);
      ctx.why(() => `tasks/get fails (${t.message}): the client holds a handle for a task that does not exist — the work it was promised is gone and nothing will tell it more.`, 'tasks.durable');
      return withClient(s, { taskNotFoundAt: ctx.now, pollHandle: -1 });
    }
    case 'arrive.get-result': {
      if (s.client.terminalObservedAt !== null) return s;
      const terminal = isTerminalStatus(t.status);
      let next = withClient(s, { observed: t.status, observedAt: ctx.now, terminalObservedAt: terminal ? ctx.now : null });
      if (t.status === 'completed') {
        if (is2026) {
          ctx.why('The poll shows the task completed with its result inlined: the client stops polling and has the result (there is no tasks/result under the 2026-07-28 extension).', 'tasks.result');
          return withClient(next, { resultRequestedAt: t.sentAt, resultReceivedAt: ctx.now, resultFetched: t.text, resultError: t.text === null ? 'the completed task carried no result' : null });
        }
        ctx.why('The poll shows the task completed: the client stops polling and fetches the result with tasks/result.', 'tasks.result');
        return requestResult(next, ctx);
      }
      if (is2026 && t.status === 'failed') {
        ctx.why(() => `The poll shows the task failed with its error inlined (${t.error}): the client stops polling.`, 'tasks.result');
        return withClient(next, { resultRequestedAt: t.sentAt, resultReceivedAt: ctx.now, resultError: t.error });
      }
      const fresh = t.inputKeys.filter((k) => !s.client.answeredInputKeys.includes(k));
      if (is2026 && t.status === 'input_required' && fresh.length) {
        const [id, n2] = clientRequestId(next, 'update');
        const arrivesAt = ctx.now + config.latencyMs.clientToServer;
        const responses = Object.assign({}, ...fresh.map((k) => labInputResponses(k)));
        send(s, ctx, 'client', updateTaskRequest(id, s.client.taskId as string, responses), arrivesAt);
        ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'server', `tasks/update ${id} arrives`, { kind: 'arrive.update', requestId: id, keys: fresh });
        ctx.why(() => `The poll shows the task input_required, asking for ${fresh.join(', ')}: the client answers with tasks/update (inputResponses) and keeps polling.`, 'tasks.update');
        next = withClient(n2, { answeredInputKeys: s.client.answeredInputKeys.concat(fresh), updatesSent: s.client.updatesSent + 1 });
        return schedulePoll(next, ctx, ctx.now);
      }
      ctx.why(() => (terminal ? `The poll shows the task ${t.status}: the client stops polling (there is no result to fetch).` : `The poll shows the task ${t.status}.`), 'tasks.poll');
      return terminal ? next : schedulePoll(next, ctx, ctx.now);
    }
    case 'arrive.update': {
      const sv = s.server;
      const arrivesAt = ctx.now + config.latencyMs.serverToClient;
      if (sv.taskId === null) {
        send(s, ctx, 'server', errorResponse(t.requestId, ERROR_CODES.invalidParams, 'Failed to update task: Task not found'), arrivesAt);
        ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/update error arrives', { kind: 'arrive.update-result', ok: false });
        ctx.why('tasks/update names no known task: -32602.', 'tasks.update');
        return s;
      }
      send(s, ctx, 'server', emptyAckResponse(t.requestId), arrivesAt);
      ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/update acknowledgement arrives', { kind: 'arrive.update-result', ok: true });
      const answered = t.keys.filter((k) => sv.inputOutstanding.includes(k));
      if (!answered.length || sv.status !== 'input_required') {
        ctx.ignore({ by: 'server', what: `tasks/update ${t.requestId}`, reason: 'it answers no outstanding input request', rule: 'tasks.update' });
        ctx.why('tasks/update is acknowledged, but it answers nothing outstanding: the server ignores the responses ("SHOULD ignore any inputResponses responses mapped to a key that is not currently outstanding").', 'tasks.update');
        return s;
      }
      const left = sv.inputOutstanding.filter((k) => !answered.includes(k));
      ctx.why(() => `tasks/update delivers ${answered.join(', ')}: the server acknowledges (empty) and ${left.length ? 'still waits for the rest' : 'the task moves back to working'}.`, 'tasks.update');
      return left.length ? withServer(s, { inputOutstanding: left }) : setStatus(s, 'working', ctx.now, { inputOutstanding: [] });
    }
    case 'arrive.update-result':
      ctx.why(t.ok ? 'The tasks/update acknowledgement arrives (empty): the client keeps polling.' : 'tasks/update failed: the task is unknown.', 'tasks.update');
      return withClient(s, { updateAckAt: ctx.now });
    case 'arrive.cancelled-notification': {
      const answered = s.server.handleSentAt !== null;
      const reason = answered
        ? `request ${JSON.stringify(t.requestId)} was already answered with the task handle (processing of the request has completed); a task is cancelled with tasks/cancel, never with notifications/cancelled`
        : `request ${JSON.stringify(t.requestId)} is unknown to the server`;
      ctx.ignore({ by: 'server', what: 'notifications/cancelled', reason, rule: 'tasks.cancel' });
      ctx.why(() => `notifications/cancelled reaches the server and is ignored: ${reason}. The task keeps running.`, 'tasks.cancel');
      return withServer(s, { cancelNotificationsIgnored: s.server.cancelNotificationsIgnored + 1 });
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
        send(s, ctx, 'server', taskPayloadResponse(t.requestId, sv.taskId as string, sv.result), arrivesAt);
        ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'tasks/result answer arrives', { kind: 'arrive.result', text: sv.result, error: null });
        ctx.why(() => `tasks/result reaches the server: it answers with the tool's CallToolResult ("${sv.result}").`, 'tasks.result');
        return s;
      }
      const message = `No result: task ${sv.taskId} is ${sv.status}`;
      send(s, ctx, 'server', errorResponse(t.requestId, ERROR_CODES.invalidParams, message), arrivesAt);
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
        durableAtMs: sv.durableAt,
        handleSentAtMs: sv.handleSentAt,
        lostTaskId: sv.lostTaskId,
        callFailedAtMs: c.callFailedAt,
        taskNotFoundAtMs: c.taskNotFoundAt,
        cancelNotificationSentAtMs: c.cancelNotificationSentAt,
      },
    ],
    summary: {
      polls: c.polls,
      cancelsSent: c.cancelSentAt === null ? 0 : 1,
      statusChanges: sv.history.length,
      terminalOverwrites: sv.terminalOverwrites,
      updatesSent: c.updatesSent,
      cancelNotificationsIgnored: sv.cancelNotificationsIgnored,
    },
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
  {
    name: 'task-cancelled-with-tasks-cancel',
    description: 'A task is cancelled with tasks/cancel, never with notifications/cancelled (extension: "MUST NOT be used for task cancellation"; 2025-11-25: "tasks/cancel MUST be used instead").',
    check: (s) =>
      s.client.cancelNotificationSentAt !== null
        ? `the client sent notifications/cancelled for request ${JSON.stringify(s.client.requestId)} at ${s.client.cancelNotificationSentAt} ms to cancel task ${s.client.taskId}; the server ignores it and the task runs on`
        : null,
  },
  {
    name: 'handle-after-durable',
    description: '2026-07-28: the server returns CreateTaskResult only once the task is durably created ("until a tasks/get for the returned taskId would resolve").',
    check: (s) => {
      const { handleSentAt, durableAt, taskId, lostTaskId } = s.server;
      if (s.config.revision !== '2026-07-28' || handleSentAt === null) return null;
      if (durableAt !== null && durableAt <= handleSentAt) return null;
      return `the handle for ${taskId ?? lostTaskId} went out at ${handleSentAt} ms, but the task ${durableAt !== null ? `became durable only at ${durableAt} ms` : 'was never durable'}`;
    },
  },
  {
    name: 'task-handle-resolves',
    description: 'A task handle the client was given always resolves: tasks/get never answers "Task not found" for it (within its ttl).',
    check: (s) =>
      s.client.taskNotFoundAt !== null
        ? `the client holds ${s.client.taskId} (since ${s.client.knownAt} ms), but tasks/get answered "Task not found" at ${s.client.taskNotFoundAt} ms: the task was lost`
        : null,
  },
];
