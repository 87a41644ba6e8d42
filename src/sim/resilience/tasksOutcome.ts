import type { TasksCore, TasksOutcome, TasksState } from './tasksTypes';
import type { MechanismCheck } from './mechanism';
import { eachTask } from './tasksMany';
import { pollHintOf } from './tasksOps';

type OneTask = Pick<TasksCore, 'config' | 'server' | 'client'>;

/** One task's outcome row under `key`; a task whose server gave it a pollIntervalMs of its own also gets its poll fields. */
function taskRow(key: string, s: OneTask): TasksOutcome['requests'][number] {
  const sv = s.server;
  const c = s.client;
  const row: TasksOutcome['requests'][number] = {
    key,
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
  };
  if (c.pollHintMs !== undefined) {
    Object.assign(row, { polls: c.polls, pollIntervalMs: pollHintOf(s.config, c), pollEveryMs: c.pollEveryMs ?? null, firstPollAtMs: c.firstPollAt ?? null, pollsTooSoon: c.pollsTooSoon ?? 0 });
  }
  return row;
}

/**
 * The outcome: each task's final state on both sides — the first task's row ("task"), then one
 * row per further task (`more`, keyed by its `task`); the summary adds up every task.
 */
export function tasksOutcome(s: TasksState | TasksCore): TasksOutcome {
  const tasks = eachTask(s);
  const sum = (f: (t: OneTask) => number) => tasks.reduce((n, t) => n + f(t.task), 0);
  return {
    requests: tasks.map((t) => taskRow(t.key, t.task)),
    summary: {
      polls: sum((t) => t.client.polls),
      cancelsSent: sum((t) => (t.client.cancelSentAt === null ? 0 : 1)),
      statusChanges: sum((t) => t.server.history.length),
      terminalOverwrites: sum((t) => t.server.terminalOverwrites),
      updatesSent: sum((t) => t.client.updatesSent),
      cancelNotificationsIgnored: sum((t) => t.server.cancelNotificationsIgnored),
    },
  };
}

/**
 * `check` over every task of the state: the first task's answer, then each further task's; with
 * several tasks the message names the task ("[key] …"). One task: `check` itself.
 */
function overEveryTask(check: (s: OneTask) => string | null): (s: TasksState | TasksCore) => string | null {
  return (s) => {
    if (!s.more) return check(s);
    for (const t of eachTask(s)) {
      const v = check(t.task);
      if (v !== null) return `[${t.key}] ${v}`;
    }
    return null;
  };
}

/**
 * Invariants of durable tasks, each over the one task (entity kind 'task'; the mechanism's whole
 * state is that entity). `model.ts` runs them on the core and gives them the historic shape.
 */
const perTaskInvariants: MechanismCheck<OneTask>[] = [
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
    name: 'task-only-to-declaring-client',
    description: '2026-07-28: CreateTaskResult goes only to a client that declared the tasks extension on its request ("A server MUST NOT return CreateTaskResult to a client that did not include the extension capability on its request").',
    check: (s) =>
      s.config.revision === '2026-07-28' && s.config.clientTasksExtension === false && s.server.handleSentAt !== null
        ? `the server returned CreateTaskResult for ${s.server.taskId ?? s.server.lostTaskId} at ${s.server.handleSentAt} ms to a client that did not declare the tasks extension`
        : null,
  },
  {
    name: 'input-requests-declared',
    description: '2026-07-28: a task asks only for input the client declared (no elicitation/create in inputRequests for a client without elicitation: "Servers MUST NOT send an inputRequests that the client has not declared support for").',
    check: (s) =>
      s.server.undeclaredInputAt !== undefined ? `task ${s.server.taskId} asked the client for elicitation/create at ${s.server.undeclaredInputAt} ms, but the client declared no elicitation` : null,
  },
  {
    name: 'task-handle-resolves',
    description: 'A task handle the client was given always resolves: tasks/get never answers "Task not found" for it (within its ttl).',
    check: (s) =>
      s.client.taskNotFoundAt !== null
        ? `the client holds ${s.client.taskId} (since ${s.client.knownAt} ms), but tasks/get answered "Task not found" at ${s.client.taskNotFoundAt} ms: the task was lost`
        : null,
  },
  {
    name: 'poll-interval-respected',
    description:
      'The client polls each task no sooner than max(the pollIntervalMs its server gave that task, the user\'s minimum) after the previous answer (2026-07-28: "Clients SHOULD respect the pollIntervalMs provided in responses when determining polling frequency"; 2025-11-25: "Requestors SHOULD respect the pollInterval provided in responses"; MCPJam inspector PR#3518: per task, not the minimum across tasks).',
    check: (s) => {
      const p = s.client.pollTooSoon;
      if (p === undefined) return null;
      const hint = pollHintOf(s.config, s.client);
      const floor = p.floorMs === hint ? `its server asked for pollIntervalMs ${hint} ms` : `its floor is ${p.floorMs} ms (the user's minimum; its server asked for ${hint} ms)`;
      return `the client sent tasks/get for ${s.client.taskId} at ${p.at} ms, ${p.everyMs} ms after the previous answer, though ${floor}`;
    },
  },
];


/**
 * Invariants of durable tasks (entity kind 'task'; the mechanism's whole state is that entity),
 * each checked on every task of the scenario (`overEveryTask`). `model.ts` runs them on the core
 * and gives them the historic shape.
 */
export const tasksInvariants: MechanismCheck<TasksState | TasksCore>[] = perTaskInvariants.map((inv) => ({ name: inv.name, description: inv.description, check: overEveryTask(inv.check) }));
