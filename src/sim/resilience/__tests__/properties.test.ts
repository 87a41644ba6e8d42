import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { Json, Scenario } from '../../types';
import type { ResilienceTrace } from '..';
import { mk, run, violated } from './helpers';
import { bucketAfter, bucketAllowsRetry, ratioAllowsRetry, ratioBudget, tokenBucket } from '../../retry/budget';

const ms = (max: number) => fc.integer({ min: 0, max });

/** fast-check over `numRuns` random cases of `arb`: replays `scenarioOf(case)` and runs `check(trace, case)` on it. */
function forEveryTrace<V>(arb: fc.Arbitrary<V>, scenarioOf: (v: V) => Scenario, numRuns: number, check: (trace: ResilienceTrace, v: V) => void): void {
  fc.assert(
    fc.property(arb, (v) => check(run(scenarioOf(v)), v)),
    { numRuns },
  );
}

// ─── tasks: any times, any order, both revisions ───
const taskScenario = fc.record({
  revision: fc.constantFrom('2026-07-28', '2025-11-25'),
  latency: ms(200),
  created: ms(3000),
  abort: fc.option(ms(6000), { nil: undefined }),
  checkpoints: fc.array(ms(6000), { maxLength: 3 }),
  finish: fc.option(ms(6000), { nil: undefined }),
  outcome: fc.constantFrom('completed', 'failed'),
  inputAt: fc.option(ms(6000), { nil: undefined }),
});

interface TaskCase {
  revision: string;
  latency: number;
  created: number;
  abort?: number;
  checkpoints: number[];
  finish?: number;
  outcome: string;
  inputAt?: number;
}

function tasksOf(v: TaskCase, policy: Record<string, Json> = {}) {
  const events: Record<string, Json>[] = [
    { id: 'call', at: 0, actor: 'client', kind: 'call' },
    { id: 'created', at: v.created, actor: 'server', kind: 'created' },
  ];
  if (v.abort !== undefined) events.push({ id: 'abort', at: v.abort, actor: 'client', kind: 'abort' });
  v.checkpoints.forEach((at, i) => events.push({ id: `cp${i}`, at, actor: 'worker', kind: 'checkpoint' }));
  if (v.finish !== undefined) events.push({ id: 'finish', at: v.finish, actor: 'worker', kind: 'finish', outcome: v.outcome });
  if (v.inputAt !== undefined) events.push({ id: 'input', at: v.inputAt, actor: 'worker', kind: 'input-required' }, { id: 'resume', at: v.inputAt + 10, actor: 'worker', kind: 'resume' });
  return mk({ mechanism: 'tasks', revision: v.revision, latencyMs: { clientToServer: v.latency, serverToClient: v.latency }, pollIntervalMs: 700, ttlMs: 20000, policy }, events);
}

describe('tasks properties', () => {
  it('a terminal task status never changes, and an abort is never lost (correct client and store)', () => {
    forEveryTrace(taskScenario, (v) => tasksOf(v), 300, (t) => {
      expect(violated(t)).toEqual([]);
      // the status history holds at most one terminal status, and it is the last
      const last = t.steps.length ? t.steps[t.steps.length - 1].state : t.initial;
      if (last.mechanism !== 'tasks') throw new Error('mechanism');
      const terminal = last.server.history.filter((h) => ['completed', 'failed', 'cancelled'].includes(h.status));
      expect(terminal.length).toBeLessThanOrEqual(1);
      if (terminal.length === 1) expect(last.server.history[last.server.history.length - 1]).toEqual(terminal[0]);
    });
  });

  it('the buggy store produces a counterexample (the property can fail)', () => {
    const r = fc.check(fc.property(taskScenario, (v) => violated(run(tasksOf(v, { cancelOverwritesTerminal: true }))).length === 0), { numRuns: 500, seed: 7 });
    expect(r.failed).toBe(true);
  });

  it('the client that forgets early aborts produces a counterexample', () => {
    const r = fc.check(fc.property(taskScenario, (v) => violated(run(tasksOf(v, { forgetEarlyAbort: true }))).length === 0), { numRuns: 500, seed: 7 });
    expect(r.failed).toBe(true);
  });
});

// ─── breaker: random call bursts, outages and permits ───
const breakerScenario = fc.record({
  permits: fc.integer({ min: 1, max: 3 }),
  maxAttempts: fc.integer({ min: 1, max: 3 }),
  composition: fc.constantFrom('retry-around-breaker', 'breaker-around-retry'),
  latency: fc.integer({ min: 1, max: 300 }),
  calls: fc.array(fc.record({ at: ms(30000), count: fc.integer({ min: 1, max: 4 }) }), { minLength: 1, maxLength: 25 }),
  flips: fc.array(ms(30000), { maxLength: 4 }),
  onRejection: fc.constantFrom('wait-for-reset', 'fail-fast', 'backoff'),
});

function breakerOf(v: { permits: number; maxAttempts: number; composition: string; latency: number; calls: { at: number; count: number }[]; flips: number[]; onRejection: string }, policy: Record<string, Json> = {}, budget = 'none') {
  const events: Record<string, Json>[] = v.calls.map((c, i) => ({ id: `r${i}`, at: c.at, actor: 'client', kind: 'request', count: c.count }));
  v.flips.forEach((at, i) => events.push({ id: `f${i}`, at, actor: 'upstream', kind: i % 2 === 0 ? 'recover' : 'outage' }));
  return mk({
    mechanism: 'breaker',
    composition: v.composition,
    breaker: { failureThreshold: 3, cooldownMs: 2000, halfOpenPermits: v.permits, windowMs: 10000 },
    retry: { maxAttempts: v.maxAttempts, strategy: 'full-jitter', baseMs: 50, capMs: 1000, budget, onRejection: v.onRejection },
    downstream: { latencyMs: v.latency, failingAtStart: true },
    policy,
  }, events);
}

describe('breaker properties', () => {
  it('corrected: half-open never admits more than its limit, a stale result never changes the state, the reset timer is always armed', () => {
    forEveryTrace(breakerScenario, (v) => breakerOf(v), 200, (t, v) => {
      expect(violated(t)).toEqual([]);
      const s = t.outcome.summary as { maxHalfOpenAdmitted: number };
      expect(s.maxHalfOpenAdmitted).toBeLessThanOrEqual(v.permits);
    });
  });

  it('naive half-open and stale counting produce counterexamples', () => {
    const a = fc.check(fc.property(breakerScenario, (v) => !violated(run(breakerOf(v, { halfOpenAdmitsAll: true }))).includes('half-open-limit')), { numRuns: 300, seed: 3 });
    expect(a.failed).toBe(true);
    const b = fc.check(fc.property(breakerScenario, (v) => !violated(run(breakerOf(v, { staleResultsCounted: true }))).includes('stale-result-ignored')), { numRuns: 300, seed: 3 });
    expect(b.failed).toBe(true);
  });

  it('a breaker rejection: retried only around the breaker, never before the reset under wait-for-reset, never at all under fail-fast', () => {
    forEveryTrace(breakerScenario, (v) => breakerOf(v), 200, (t, v) => {
      const last = t.steps[t.steps.length - 1].state;
      if (last.mechanism !== 'breaker') throw new Error('mechanism');
      const log = last.logs.attempts.slice(0, last.attemptsSeen);
      const transitions = last.logs.transitions.slice(0, last.transitionsSeen);
      const retried = last.rejectionsRetried;
      if (v.composition === 'breaker-around-retry' || v.onRejection === 'fail-fast') expect(retried).toBe(0);
      for (const a of log) {
        if (a.outcome !== 'rejected') continue;
        const next = log.find((b) => b.call === a.call && b.n === a.n + 1);
        if (!next) continue;
        expect(v.composition).toBe('retry-around-breaker');
        const inForce = transitions.filter((x) => x.at <= a.startAt).pop();
        if (v.onRejection === 'wait-for-reset' && inForce?.to === 'open') expect(next.startAt).toBeGreaterThanOrEqual(inForce.at + 2000);
      }
    });
  });

  it('under a ratio budget, retries never exceed retryRatio × calls, at every step', () => {
    forEveryTrace(breakerScenario, (v) => breakerOf({ ...v, maxAttempts: 3 }, {}, 'ratio'), 150, (t) => {
      for (const step of t.steps) {
        const s = step.state;
        if (s.mechanism !== 'breaker') throw new Error('mechanism');
        expect(s.retries * 10).toBeLessThanOrEqual(s.ratio.calls);
      }
    });
  });
});

describe('budget functions', () => {
  it('token bucket: full at start, a failure takes 1, a success gives tokenRatio, retries stop at half', () => {
    let b = tokenBucket(10, 0.1);
    expect(b.tokensMilli).toBe(10000);
    for (let i = 0; i < 4; i++) b = bucketAfter(b, false);
    expect(bucketAllowsRetry(b)).toBe(true); // 6 > 5
    b = bucketAfter(b, false);
    expect(b.tokensMilli).toBe(5000);
    expect(bucketAllowsRetry(b)).toBe(false); // 5 ≤ 5
    b = bucketAfter(b, true);
    expect(b.tokensMilli).toBe(5100);
    expect(bucketAllowsRetry(b)).toBe(true);
    for (let i = 0; i < 20; i++) b = bucketAfter(b, false);
    expect(b.tokensMilli).toBe(0);
    for (let i = 0; i < 200; i++) b = bucketAfter(b, true);
    expect(b.tokensMilli).toBe(10000);
  });

  it('ratio: 10 calls allow exactly one retry', () => {
    const b = { ...ratioBudget(0.1), calls: 10 };
    expect(ratioAllowsRetry(b)).toBe(true);
    expect(ratioAllowsRetry({ ...b, retries: 1 })).toBe(false);
    expect(ratioAllowsRetry({ ...ratioBudget(0.1), calls: 9 })).toBe(false);
  });
});

describe('determinism', () => {
  it('the same scenario gives the same trace', () => {
    fc.assert(
      fc.property(breakerScenario, (v) => {
        const a = run(breakerOf(v));
        const b = run(breakerOf(v));
        expect(JSON.stringify(a.effects)).toBe(JSON.stringify(b.effects));
        expect(a.outcome).toEqual(b.outcome);
      }),
      { numRuns: 30 },
    );
  });
});
