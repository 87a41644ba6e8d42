import { describe, expect, it } from 'vitest';
import { durableTaskRows } from './resilienceDurableTask';

// Request at 0; created 100; handle 120; work 5000 (done 5100 for the first task); back 1000 ms after the drop; polls every 1000 ms.
describe('durable task rows of the resilience page (issue 13 item 9)', () => {
  it('a drop after the handle: both revisions poll tasks/get with the id they hold; one execution', () => {
    const [r2026, r2025, bug] = durableTaskRows(2_000).map((r) => r.result);
    // back at 3000: polls 3000, 4000, 5000 (working), 6000 (done at 5100)
    for (const r of [r2026, r2025]) expect(r).toMatchObject({ clientHadHandle: true, recoveredBy: 'tasks/get', requestLost: false, executions: 1, resultAtMs: 6_000, violations: [] });
    // the buggy server deleted it: tasks/get fails at 3000, re-issue: created 3100, handle 3120, done 8100; polls 4120 … 8120
    expect(bug).toMatchObject({ recoveredBy: 're-issue', executions: 2, resultAtMs: 8_120, violations: ['one-execution-per-request'] });
  });

  it('a drop before the handle: 2026-07-28 loses the request and re-issues (two executions, one orphaned); 2025-11-25 lists the task', () => {
    const [r2026, r2025] = durableTaskRows(110).map((r) => r.result);
    // back at 1110: re-issue → created 1210, handle 1230, done 6210; polls 2230 … 6230
    expect(r2026).toMatchObject({ clientHadHandle: false, recoveredBy: 're-issue', requestLost: true, executions: 2, orphanedTasks: 1, resultAtMs: 6_230 });
    // tasks/list at 1110, then polls 1110, 2110, …, 5110 (done at 5100)
    expect(r2025).toMatchObject({ clientHadHandle: false, recoveredBy: 'tasks/list', requestLost: false, executions: 1, resultAtMs: 5_110 });
  });

  it('what each side holds: a request lost before the handle leaves the client no task (never a polled "working" one) and the server an orphaned task', () => {
    const [r2026, r2025, bug] = durableTaskRows(110);
    expect(r2026.clientKnows).toBe('no task: the request was lost — re-issued as a new request (new id)');
    expect(r2026.serverHas).toBe('an orphaned task (1, working on with nobody polling), then the re-issue’s task');
    expect(r2025.clientKnows).toBe('no task id: finds its task with tasks/list');
    expect(bug.serverHas).toBe('the task deleted on disconnect, then the re-issue’s task');
    const [after] = durableTaskRows(2_000);
    expect(after).toMatchObject({ clientKnows: 'holds the task id: polls tasks/get', serverHas: 'the task, kept across the drop' });
    expect(durableTaskRows(2_000)[2].clientKnows).toBe('its task id, but tasks/get answers "not found": re-issued as a new request');
  });

  it('refuses a negative or fractional drop time by name', () => {
    expect(() => durableTaskRows(-1)).toThrow(/^dropAtMs: must be a whole number of milliseconds ≥ 0, got -1/);
    expect(() => durableTaskRows(1.5)).toThrow(/^dropAtMs: /);
  });
});
