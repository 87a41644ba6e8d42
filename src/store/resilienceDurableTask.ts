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
export function durableTaskRows(dropAtMs: number): { label: string; result: ConnectionDropResult }[] {
  if (!Number.isInteger(dropAtMs) || dropAtMs < 0) throw new RangeError(`dropAtMs: must be a whole number of milliseconds ≥ 0, got ${dropAtMs} — type a time such as 2000`);
  const base = { createdAtMs: 100, handleAtMs: 120, dropAtMs, reconnectAtMs: dropAtMs + 1_000, workMs: 5_000, pollIntervalMs: 1_000 };
  return [
    { label: '2026-07-28', result: simulateConnectionDrop({ ...base, revision: '2026-07-28' }) },
    { label: '2025-11-25', result: simulateConnectionDrop({ ...base, revision: '2025-11-25' }) },
    { label: '2026-07-28, bug: the server deletes the task on disconnect', result: simulateConnectionDrop({ ...base, revision: '2026-07-28', deleteTaskOnDisconnect: true }) },
  ];
}
