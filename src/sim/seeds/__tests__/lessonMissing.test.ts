import { describe, expect, it } from 'vitest';
import { lostResponseRetry, runReplicaLedger } from '../replicaLedger';
import { simulateConnectionDrop, type ConnectionDropInput } from '../durableTask';

describe('an in-memory ledger across two replicas or a restart (lesson failure table)', () => {
  it('the retry lands on the other replica: process-local executes twice, shared once', () => {
    const steps = lostResponseRetry({ restart: false });
    const local = runReplicaLedger('process-local', steps);
    expect(local.calls.map((c) => `${c.replica}:${c.outcome}`)).toEqual(['A:executed', 'B:executed']);
    expect(local).toMatchObject({ executionsByKey: { 'checkout-7': 2 }, duplicatedKeys: ['checkout-7'] });
    const shared = runReplicaLedger('shared', steps);
    expect(shared.calls.map((c) => `${c.replica}:${c.outcome}`)).toEqual(['A:executed', 'B:replayed']);
    expect(shared).toMatchObject({ executionsByKey: { 'checkout-7': 1 }, duplicatedKeys: [] });
  });

  it('a restart between the call and its retry: process-local forgets, shared remembers', () => {
    const steps = lostResponseRetry({ restart: true });
    expect(runReplicaLedger('process-local', steps).executionsByKey['checkout-7']).toBe(2);
    expect(runReplicaLedger('shared', steps).executionsByKey['checkout-7']).toBe(1);
  });

  it('three retries alternating B, A, B: process-local executes once per replica (2), shared once', () => {
    const steps = lostResponseRetry({ restart: false, retries: 3 });
    // A executes; B executes; A replays (its own memory); B replays
    expect(runReplicaLedger('process-local', steps).calls.map((c) => c.outcome)).toEqual(['executed', 'executed', 'replayed', 'replayed']);
    expect(runReplicaLedger('shared', steps).calls.map((c) => c.outcome)).toEqual(['executed', 'replayed', 'replayed', 'replayed']);
  });

  it('the same key with other arguments is rejected, on any replica of a shared ledger', () => {
    const r = runReplicaLedger('shared', [
      { kind: 'call', replica: 'A', key: 'k', args: '{"cents":1200}' },
      { kind: 'call', replica: 'B', key: 'k', args: '{"cents":9900}' },
    ]);
    expect(r.calls.map((c) => c.outcome)).toEqual(['executed', 'rejected']);
    expect(() => runReplicaLedger('shared', [{ kind: 'call', replica: 'A', key: ' ', args: '' }])).toThrow(/^steps\[0\]\.key: empty/);
  });
});

describe('a durable task survives the HTTP connection closing (lesson: do not delete task state on close)', () => {
  // request at 0; task created at 100; the handle reaches the client at 120; 5000 ms of work → done at 5100
  const base: ConnectionDropInput = { revision: '2026-07-28', createdAtMs: 100, handleAtMs: 120, dropAtMs: 2_000, reconnectAtMs: 3_000, workMs: 5_000, pollIntervalMs: 1_000 };

  it('drop after the handle: both revisions poll tasks/get with the id and find the result', () => {
    for (const revision of ['2026-07-28', '2025-11-25'] as const) {
      const r = simulateConnectionDrop({ ...base, revision });
      // polls at 3000, 4000, 5000 (working), 6000 (≥ 5100: completed)
      expect(r).toMatchObject({ clientHadHandle: true, recoveredBy: 'tasks/get', requestLost: false, executions: 1, pollsAtMs: [3_000, 4_000, 5_000, 6_000], resultAtMs: 6_000, violations: [] });
    }
  });

  it('drop before the handle arrived, 2026-07-28: the request is lost, re-issued, and the first task runs orphaned', () => {
    const r = simulateConnectionDrop({ ...base, dropAtMs: 110, reconnectAtMs: 1_000 });
    // re-issue at 1000: task 2 created at 1100, handle at 1120, done at 6100; polls 2120, 3120, 4120, 5120, 6120
    expect(r).toMatchObject({ clientHadHandle: false, recoveredBy: 're-issue', requestLost: true, executions: 2, orphanedTasks: 1, resultAtMs: 6_120 });
    expect(r.pollsAtMs).toEqual([2_120, 3_120, 4_120, 5_120, 6_120]);
    expect(r.violations).toEqual(['one-execution-per-request']);
  });

  it('drop before the handle arrived, 2025-11-25: tasks/list finds the task', () => {
    const r = simulateConnectionDrop({ ...base, revision: '2025-11-25', dropAtMs: 110, reconnectAtMs: 1_000 });
    // listed at 1000; polls 1000, 2000, …, 6000 (≥ 5100)
    expect(r).toMatchObject({ recoveredBy: 'tasks/list', requestLost: false, executions: 1, resultAtMs: 6_000 });
    expect(r.pollsAtMs).toEqual([1_000, 2_000, 3_000, 4_000, 5_000, 6_000]);
  });

  it('the buggy server that deletes the task on close: the id finds nothing, the client re-issues', () => {
    const r = simulateConnectionDrop({ ...base, deleteTaskOnDisconnect: true });
    // tasks/get at 3000 fails; re-issue at 3000: created 3100, handle 3120, done 8100; polls 4120 … 8120
    expect(r).toMatchObject({ recoveredBy: 're-issue', executions: 2, orphanedTasks: 0, resultAtMs: 8_120 });
    expect(r.pollsAtMs).toEqual([3_000, 4_120, 5_120, 6_120, 7_120, 8_120]);
  });

  it('names the bad field', () => {
    expect(() => simulateConnectionDrop({ ...base, handleAtMs: 50 })).toThrow(/^handleAtMs: 50 is below 100/);
    expect(() => simulateConnectionDrop({ ...base, reconnectAtMs: 1_000 })).toThrow(/^reconnectAtMs: 1000 is below 2000/);
    expect(() => simulateConnectionDrop({ ...base, pollIntervalMs: 0 })).toThrow(/^pollIntervalMs: /);
  });
});
