import { describe, expect, it } from 'vitest';
import { checkExpectation, racesStateAt, requestByKey } from '..';
import { describeBuiltinExpectations } from '../../__tests__/builtinScenarios';
import { loadScenario, req, run, violated } from './helpers';

describeBuiltinExpectations('races', run, checkExpectation);

// The lesson's numbers, written here again so a wrong data file cannot pass on its own.
describe('the lesson\'s four orders', () => {
  it('A: start, cancel, then complete → cancelled at 300, no response, stdio notification', () => {
    const t = run(loadScenario('A-cancel-then-complete'));
    expect(req(t)).toMatchObject({ state: 'cancelled', atMs: 300, finalResponse: false, cancelSignal: 'notifications/cancelled', serverState: 'cancelled' });
    const sent = t.steps.flatMap((s) => s.effects).map((e) => (e.message as { method?: string } | undefined)?.method ?? 'response');
    expect(sent).toEqual(['tools/call', 'notifications/progress', 'notifications/cancelled']);
    expect(violated(t)).toEqual([]);
  });

  it('A with the cancel dragged after the completion arrives ends completed', () => {
    const a = loadScenario('A-cancel-then-complete');
    const moved = { ...a, events: a.events.map((e) => (e.id === 'cancel' ? { ...e, at: 700 } : e)) };
    const t = run(moved);
    expect(req(t)).toMatchObject({ state: 'completed', atMs: 520, finalResponse: true, cancelSignal: 'none', responseFate: 'accepted' });
    expect(t.steps.find((s) => s.entry.label === 'cancel')?.ignored[0].reason).toMatch(/already ended completed/);
  });

  it('B: complete, then the cancel arrives → the response stands, the late cancel is ignored', () => {
    const t = run(loadScenario('B-complete-then-cancel'));
    expect(req(t)).toMatchObject({ state: 'cancelled', atMs: 410, finalResponse: true, serverState: 'completed', responseFate: 'ignored-late' });
    const cancelArrival = t.steps.find((s) => s.entry.kind === 'arrive.cancel');
    expect(cancelArrival?.at).toBe(430);
    expect(cancelArrival?.ignored).toEqual([expect.objectContaining({ by: 'server', rule: 'cancel.complete-first' })]);
  });

  it('C: alive at 1500, timed out at exactly 2000 by the maximum despite progress at 1999', () => {
    const t = run(loadScenario('C-progress-idle-maximum'));
    expect(requestByKey(racesStateAt(t, 1500), '1')?.client.state).toBe('pending');
    expect(requestByKey(racesStateAt(t, 1500), '1')?.idleDeadlineAt).toBe(1700);
    expect(requestByKey(racesStateAt(t, 1999), '1')?.idleDeadlineAt).toBe(2499);
    expect(requestByKey(racesStateAt(t, 1999), '1')?.maxDeadlineAt).toBe(2000);
    expect(req(t)).toMatchObject({ state: 'timeout-max', atMs: 2000 });
  });

  it('D: HTTP 2026-07-28 closes the stream; stdio sends notifications/cancelled; HTTP 2025-11-25 POSTs it', () => {
    const d = loadScenario('D-http-stream-close');
    const http = run(d);
    expect(req(http, '"req-7"').cancelSignal).toBe('stream-close');
    const cancelStep = http.steps.find((s) => s.entry.label === 'cancel');
    expect(cancelStep?.effects).toHaveLength(1);
    expect(cancelStep?.effects[0].message).toBeUndefined();
    expect(cancelStep?.effects[0].http).toMatch(/closes the SSE response stream/);
    const stdio = run(d, { transport: 'stdio' });
    expect(req(stdio, '"req-7"').cancelSignal).toBe('notifications/cancelled');
    expect(stdio.steps.find((s) => s.entry.label === 'cancel')?.effects[0].message).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 'req-7' } });
    const http2025 = run(d, { revision: '2025-11-25' });
    const posted = http2025.steps.find((s) => s.entry.label === 'cancel')?.effects[0];
    expect(posted?.http).toMatch(/^POST/);
    expect(posted?.message).toMatchObject({ method: 'notifications/cancelled' });
  });
});

describe('field cases', () => {
  it('idle 1000, maximum 150, silent server answering at 5000 → maximum timeout at 150, late answer dropped', () => {
    const f = loadScenario('F1-maximum-shorter-than-idle');
    expect(req(run(f))).toMatchObject({ state: 'timeout-max', atMs: 150, responseFate: 'ignored-late' });
    const buggy = run(f, { policy: { maximumCheckedOnProgress: true } });
    expect(req(buggy)).toMatchObject({ state: 'timeout-idle', atMs: 1100 });
    expect(violated(buggy)).toContain('maximum-enforced');
  });

  it('progress every 20000 forever → fails at exactly 180000 (buggy: 60000, or never while progress flows)', () => {
    const f = loadScenario('F2-progress-forever');
    expect(req(run(f))).toMatchObject({ state: 'timeout-max', atMs: 180000 });
    expect(req(run(f, { policy: { progressTokenOmitted: true } }))).toMatchObject({ state: 'timeout-idle', atMs: 60000 });
    for (const bug of ['idleTimeoutOnly', 'progressResetsMaximum']) {
      const t = run(f, { policy: { [bug]: true } });
      expect(requestByKey(racesStateAt(t, 400000), '1')?.client.state).toBe('pending');
    }
  });

  it('no progress, result at 74049 → timeout at 60000, cancellation out, late result dropped', () => {
    const t = run(loadScenario('F3-late-result'));
    expect(req(t, '42')).toMatchObject({ state: 'timeout-idle', atMs: 60000, cancelSignal: 'notifications/cancelled', finalResponse: true, responseFate: 'ignored-late' });
    const late = t.steps.find((s) => s.entry.kind === 'arrive.response');
    expect(late?.at).toBe(74049);
    expect(late?.ignored[0]).toMatchObject({ by: 'client', rule: 'cancel.late-response' });
  });

  it('user cancels at 5000 with no timeout → cancelled at 5000 (buggy: hangs forever)', () => {
    const f = loadScenario('F4-user-cancel-no-timeout');
    expect(req(run(f), '"c-1"')).toMatchObject({ state: 'cancelled', atMs: 5000 });
    const buggy = run(f, { policy: { clientNeverSettles: true } });
    expect(req(buggy, '"c-1"')).toMatchObject({ state: 'pending', atMs: null });
  });

  it('50 calls with a 5000 ms timeout and 60000 ms of work → 50 cancellations at 5000, no work left (buggy: 50 until 60000)', () => {
    const f = loadScenario('F5-fifty-timeouts');
    const t = run(f);
    expect(t.outcome.summary).toMatchObject({ requests: 50, cancelSignals: 50, workInFlight: 0, lastWorkEndedAtMs: 5000, finalResponses: 0 });
    expect(t.outcome.summary.states).toEqual({ 'timeout-max': 50 });
    const atCutoff = racesStateAt(t, 5000);
    expect(atCutoff.requests.filter((r) => r.server.state === 'working')).toHaveLength(0);
    const buggy = run(f, { policy: { timeoutWithoutCancel: true } });
    expect(racesStateAt(buggy, 59999).requests.filter((r) => r.server.state === 'working')).toHaveLength(50);
    expect(buggy.outcome.summary.lastWorkEndedAtMs).toBe(60000);
  });
});
