import { simulateConnectionDrop, type ConnectionDropResult } from '../sim/seeds/durableTask';

export type { ConnectionDropResult };

/**
 * The lesson's durable-task case (issue 13 item 9) as rows the resilience page shows: a request at
 * 0 ms, the task durably created at 100 ms, its handle at the client at 120 ms, 5 000 ms of work,
 * `tasks/get` every 1 000 ms, the client back 1 000 ms after the drop. For a drop at `dropAtMs`
 * (integer ms ≥ 0), one row per revision, plus the buggy server that deletes the task when the
 * connection closes (2026-07-28). Pure (src/sim/seeds/durableTask.ts); throws a RangeError naming
 * the field for a negative or non-integer drop time.
 */
export function durableTaskRows(dropAtMs: number): DurableTaskRow[] {
  if (!Number.isInteger(dropAtMs) || dropAtMs < 0) throw new RangeError(`dropAtMs: must be a whole number of milliseconds ≥ 0, got ${dropAtMs} — type a time such as 2000`);
  const base = { createdAtMs: 100, handleAtMs: 120, dropAtMs, reconnectAtMs: dropAtMs + 1_000, workMs: 5_000, pollIntervalMs: 1_000 };
  const row = (label: string, result: ConnectionDropResult, deletes: boolean): DurableTaskRow => ({ label, result, ...durableTaskKnowledge(result, deletes) });
  return [
    row('2026-07-28', simulateConnectionDrop({ ...base, revision: '2026-07-28' }), false),
    row('2025-11-25', simulateConnectionDrop({ ...base, revision: '2025-11-25' }), false),
    row('2026-07-28, bug: the server deletes the task on disconnect', simulateConnectionDrop({ ...base, revision: '2026-07-28', deleteTaskOnDisconnect: true }), true),
  ];
}

/** One row of the durable-task panel: the run, and what each side holds after the drop (in words). */
export interface DurableTaskRow {
  label: string;
  result: ConnectionDropResult;
  /** What the client knows of the task after the drop. */
  clientKnows: string;
  /** What the server holds. */
  serverHas: string;
}

/**
 * What the client knows and what the server holds after the drop, in words. A request lost before
 * its handle arrived leaves the client no task at all (never a "working" one it could poll: the
 * extension's client uses `task.taskId` "for all subsequent `tasks/get` … calls", and it has none),
 * while the server still holds the first task, orphaned — nobody will poll it (ext-tasks
 * `specification/2026-07-28/tasks.md`, "Task Creation"; 2026-07-28: "clients MUST re-issue it as a
 * new request with a new request ID"). `deletes`: the run is the delete-on-disconnect bug. Pure.
 */
export function durableTaskKnowledge(r: ConnectionDropResult, deletes: boolean): { clientKnows: string; serverHas: string } {
  if (r.recoveredBy === 'tasks/get') return { clientKnows: 'holds the task id: polls tasks/get', serverHas: 'the task, kept across the drop' };
  if (r.recoveredBy === 'tasks/list') return { clientKnows: 'no task id: finds its task with tasks/list', serverHas: 'the task, kept across the drop' };
  const clientKnows = r.clientHadHandle ? 'its task id, but tasks/get answers "not found": re-issued as a new request' : 'no task: the request was lost — re-issued as a new request (new id)';
  const serverHas = deletes ? 'the task deleted on disconnect, then the re-issue’s task' : `an orphaned task (${r.orphanedTasks}, working on with nobody polling), then the re-issue’s task`;
  return { clientKnows, serverHas };
}
