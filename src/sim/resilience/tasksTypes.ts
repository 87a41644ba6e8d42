import type { RequestId } from '../mcp';
import type { TasksConfig } from './schema';
import type { TaskStatus } from './taskWire';

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
 *
 * Poll intervals, per task (issue 24 item 4, MCPJam inspector PR#3518): the server's hint is the
 * task's own `pollIntervalMs` (its `created` event's, else `config.pollIntervalMs`), sent in its
 * CreateTaskResult and every Task; the client polls that task every max(hint, the user's
 * `config.minPollIntervalMs`) ms after each answer (2026-07-28: "Clients SHOULD respect the
 * `pollIntervalMs` provided in responses when determining polling frequency"; 2025-11-25:
 * "Requestors SHOULD respect the `pollInterval` provided in responses when determining polling
 * frequency"); the lab's tasks client has no back-off or Retry-After of its own, so nothing else
 * raises it. Bug `pollAtMinimumAcrossTasks`: one interval for every task the client is polling,
 * the minimum of their hints. A scenario follows one task, "task", unless a `call` names another
 * (`TaskSlot`, in `more`).
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
  /** A failed task's JSON-RPC error code and data when not -32603 (absent: -32603, no data): -32021 when the input it needs was not declared. */
  errorCode?: number;
  errorData?: Record<string, unknown>;
  /** The task asked a client without elicitation for elicitation/create (the bug `inputRequestsUndeclared`), ms. */
  undeclaredInputAt?: number;
  /** 2026-07-28: the server refused the tools/call with -32021 (the client did not declare the tasks extension), ms. */
  refusedAt?: number;
  /** The task's own poll interval hint (its `created` event's `pollIntervalMs`), ms; absent: `config.pollIntervalMs`. */
  pollIntervalMs?: number;
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
  /**
   * The `pollIntervalMs` the task's CreateTaskResult carried when the server gave the task one of
   * its own (a `created` event with `pollIntervalMs`), ms. Only such a task keeps the three poll
   * records below (the outcome's per-task poll fields); absent: the task polls at the config's hint.
   */
  pollHintMs?: number;
  /** The interval the client last scheduled this task's next `tasks/get` with, ms (tasks with `pollHintMs` only). */
  pollEveryMs?: number;
  /** When the client sent this task's first `tasks/get`, ms (tasks with `pollHintMs` only). */
  firstPollAt?: number;
  /**
   * The first `tasks/get` for this task sent sooner than max(its server's pollIntervalMs, the
   * user's minimum) after the previous answer (bug `pollAtMinimumAcrossTasks`): when, the interval
   * it waited and the one it should have, ms. The invariant `poll-interval-respected` reads it.
   */
  pollTooSoon?: { at: number; everyMs: number; floorMs: number };
  /** `tasks/get` requests sent sooner than the task's floor (with `pollTooSoon`). */
  pollsTooSoon?: number;
}

/**
 * A further task of a scenario that follows several (issue 24 item 4: the first `call` naming
 * `task: key`): its own server and client sides, the same shapes as the first task's. Its request
 * ids come from the first task's counter (`client.nextRequest` there), so ids stay unique.
 */
export interface TaskSlot {
  /** The task's key (the events' `task`, the outcome row's `key`). */
  key: string;
  server: TaskServerState;
  client: TaskClientState;
}

/**
 * State of the tasks mechanism. In traces it is an immutable view; the core's hot loop mutates one
 * copy in place (`TasksCore`, same shape; the arrays inside are replaced, never changed in place).
 */
export interface TasksState {
  mechanism: 'tasks';
  config: TasksConfig;
  server: TaskServerState;
  client: TaskClientState;
  /** The further tasks, in the order their calls were sent; absent while the scenario has one task. */
  more?: readonly TaskSlot[];
}

/** Timers and deliveries of the tasks mechanism. */
export type TasksTimer = (
  | { kind: 'arrive.call' }
  | { kind: 'arrive.created'; taskId: string; /** The task's own pollIntervalMs in the CreateTaskResult, when it has one. */ pollIntervalMs?: number }
  /** The -32021 refusal of the tools/call reaches the client (2026-07-28, no tasks extension declared). */
  | { kind: 'arrive.call-refused'; message: string }
  /** `everyMs` / `floorMs`: the poll waits less than the task's floor (bug `pollAtMinimumAcrossTasks`). */
  | { kind: 'poll'; everyMs?: number; floorMs?: number }
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
  | { kind: 'arrive.result'; text: string | null; error: string | null }
) & {
  /** The further task (`TaskSlot.key`) the timer belongs to; absent: the first task. */
  task?: string;
};

/** Outcome of the tasks mechanism: the one task, keyed "task". */
export interface TasksOutcome {
  requests: {
    /** "task" for the first task, the slot's key for a further one. */
    key: string;
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
    /** Tasks whose server gave them a pollIntervalMs of their own (`created.pollIntervalMs`) only: `tasks/get` sent for this task. */
    polls?: number;
    /** …: the server's pollIntervalMs for the task, ms. */
    pollIntervalMs?: number;
    /** …: the interval the client last polled it at, ms (null: it never scheduled a poll). */
    pollEveryMs?: number | null;
    /** …: when its first `tasks/get` went out, ms (null: never). */
    firstPollAtMs?: number | null;
    /** …: `tasks/get` sent sooner than max(the server's pollIntervalMs, the user's minimum) after the previous answer. */
    pollsTooSoon?: number;
  }[];
  summary: { polls: number; cancelsSent: number; statusChanges: number; terminalOverwrites: number; updatesSent: number; cancelNotificationsIgnored: number };
}

/** Tie ranks of the tasks mechanism. */
export const TASKS_RANK = { arrival: 1, scripted: 2, poll: 3 } as const;

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

/**
 * The mutable state the core's hot loop changes in place (same shape as the view). A further task
 * is stepped through a cursor of this shape over its slot (`tasksMany.ts`): `root` is then the
 * state that holds it; absent on the state itself.
 */
export type TasksCore = { mechanism: 'tasks'; config: TasksConfig; server: TaskServerState; client: TaskClientState; more?: TaskSlot[]; root?: TasksCore };

/** A copy of `slots` whose server and client objects are fresh (the arrays inside are shared). */
function copySlots(slots: readonly TaskSlot[]): TaskSlot[] {
  return slots.map((t) => ({ key: t.key, server: { ...t.server }, client: { ...t.client } }));
}

/** An immutable copy of `s` for traces and checkpoints (the arrays inside are shared: they are never mutated). */
export function tasksView(s: TasksCore): TasksState {
  const v: TasksState = { mechanism: 'tasks', config: s.config, server: { ...s.server }, client: { ...s.client } };
  if (s.more) v.more = copySlots(s.more);
  return v;
}

/** A fresh mutable state equal to `v` (the view is not changed). */
export function tasksThaw(v: TasksState): TasksCore {
  const s: TasksCore = { mechanism: 'tasks', config: v.config, server: { ...v.server }, client: { ...v.client } };
  if (v.more) s.more = copySlots(v.more);
  return s;
}
