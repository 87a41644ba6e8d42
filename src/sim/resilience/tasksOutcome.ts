import type { TasksCore, TasksOutcome, TasksState } from './tasksTypes';
import type { MechanismCheck } from './mechanism';

/** The outcome: the task's final state on both sides. */
export function tasksOutcome(s: TasksState | TasksCore): TasksOutcome {
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

/**
 * Invariants of durable tasks, each over the one task (entity kind 'task'; the mechanism's whole
 * state is that entity). `model.ts` runs them on the core and gives them the historic shape.
 */
export const tasksInvariants: MechanismCheck<TasksState | TasksCore>[] = [
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
];

