import { describe, expect, it } from 'vitest';
import type { ResilienceTrace } from '..';
import type { BreakerState } from '../breaker';
import type { Json } from '../../types';
import { loadScenario, run } from './helpers';

const final = (t: ResilienceTrace) => t.steps[t.steps.length - 1].state as BreakerState;
const summary = (t: ResilienceTrace) => t.outcome.summary as unknown as { rejectionsRetried: number; retries: number; rejected: number; succeeded: number; wireAttempts: number };
const attempts = (t: ResilienceTrace) => final(t).logs.attempts.slice(0, final(t).attemptsSeen);
const b2 = (overrides: Record<string, Json> = {}) => run(loadScenario('B2-retry-composition'), overrides);

/** The next attempt of the same call after each rejected attempt: [rejected at, next attempt at]. */
function afterRejections(t: ResilienceTrace): [number, number, string][] {
  const log = attempts(t);
  const out: [number, number, string][] = [];
  for (const a of log) {
    if (a.outcome !== 'rejected') continue;
    const next = log.find((b) => b.call === a.call && b.n === a.n + 1);
    if (next) out.push([a.startAt, next.startAt, a.call]);
  }
  return out;
}

describe('what the retry policy does with a breaker rejection', () => {
  it('retry around breaker, wait-for-reset (default): a rejected attempt retries no sooner than the reset (1300 ms open → 6300 ms; 6400 ms → 11400 ms)', () => {
    const t = b2();
    const pairs = afterRejections(t);
    expect(pairs.length).toBe(summary(t).rejectionsRetried);
    const transitions = final(t).logs.transitions.slice(0, final(t).transitionsSeen);
    for (const [rejectedAt, nextAt] of pairs) {
      const open = transitions.filter((x) => x.at <= rejectedAt).pop()!;
      if (open.to === 'open') expect(nextAt).toBeGreaterThanOrEqual(open.at + 5000);
      else expect(nextAt).toBeGreaterThan(rejectedAt);
    }
    expect(pairs.find(([, , call]) => call === 'burst7#1')).toEqual([7000, 11400, 'burst7#1']);
    expect(summary(t)).toMatchObject({ rejectionsRetried: 26, succeeded: 12, rejected: 6, wireAttempts: 18 });
  });

  it('fail-fast ends the call at the first rejection; the naive backoff retries it 100 ms later against the still-open breaker', () => {
    const ff = b2({ retry: { onRejection: 'fail-fast' } });
    expect(afterRejections(ff)).toEqual([]);
    expect(summary(ff)).toMatchObject({ rejectionsRetried: 0, succeeded: 2, rejected: 16 });
    const naive = b2({ retry: { onRejection: 'backoff' } });
    const gaps = afterRejections(naive).map(([a, b]) => b - a);
    expect(new Set(gaps)).toEqual(new Set([100]));
    expect(summary(naive)).toMatchObject({ rejectionsRetried: 28, succeeded: 3, rejected: 15 });
    // The naive retries do not reach the downstream: one more wire attempt than fail-fast, 28 more retries.
    expect(summary(naive).wireAttempts - summary(ff).wireAttempts).toBe(1);
  });

  it('breaker around retry: the rejection comes before the retry loop, so it is final under every policy', () => {
    for (const onRejection of ['fail-fast', 'wait-for-reset', 'backoff']) {
      const t = b2({ composition: 'breaker-around-retry', retry: { onRejection } });
      expect(summary(t).rejectionsRetried).toBe(0);
      const rejected = attempts(t).filter((a) => a.outcome === 'rejected');
      expect(rejected.length).toBeGreaterThan(0);
      expect(rejected.every((a) => a.n === 1)).toBe(true);
      expect(summary(t).rejected).toBe(rejected.length);
    }
  });

  it('a rejection is retried even for an unsafe tool (nothing was sent); its failures are not', () => {
    const t = b2({ operation: { sideEffect: true }, downstream: { failWith: 'http-500' } }); // UNSAFE: a 500 from a tool with a side effect and no key
    expect(summary(t).rejectionsRetried).toBeGreaterThan(0);
    expect(summary(t).retries).toBe(summary(t).rejectionsRetried);
  });

  it('the attempt limit and the ratio budget bound the retries of rejections too', () => {
    const t = b2({ retry: { budget: 'ratio', retryRatio: 0.1 } });
    expect(summary(t).retries).toBeLessThanOrEqual(Math.floor(0.1 * 19));
    for (const a of attempts(b2())) expect(a.n).toBeLessThanOrEqual(3);
  });
});
