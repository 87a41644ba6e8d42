import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../rng';
import {
  ARTICLE_BREAKER_DEFAULTS, ARTICLE_POLICY, CORRECTED_POLICY, articleBreakerAdmit, articleBreakerFailure, articleBreakerInit, articleBreakerSuccess,
  correctedBreakerAdmit, correctedBreakerInit, correctedBreakerRecord, simulateOutage, type ArticleScriptOptions,
} from '../article';

const cfg = ARTICLE_BREAKER_DEFAULTS; // threshold 5, reset 10000 ms

describe('the article\'s CircuitBreaker, as written', () => {
  it('opens at the fifth consecutive failure; goes half-open only on a call more than 10000 ms after the last failure', () => {
    let s = articleBreakerInit();
    for (let t = 1; t <= 5; t++) s = articleBreakerFailure(s, t * 100, cfg);
    expect(s).toEqual({ mode: 'open', failureCount: 5, lastFailureAtMs: 500 });
    expect(articleBreakerAdmit(s, 10_500, cfg).admitted).toBe(false); // 10500 − 500 = 10000, not > 10000
    const half = articleBreakerAdmit(s, 10_501, cfg);
    expect(half).toEqual({ admitted: true, state: { mode: 'half-open', failureCount: 5, lastFailureAtMs: 500 } });
    // in half-open everyone passes
    expect(articleBreakerAdmit(half.state, 10_502, cfg).admitted).toBe(true);
    expect(articleBreakerAdmit(half.state, 10_503, cfg).admitted).toBe(true);
  });

  it('a half-open failure adds to the count (6) and reopens; a late failure while open restarts the timer', () => {
    const open = { mode: 'open' as const, failureCount: 5, lastFailureAtMs: 500 };
    const half = articleBreakerAdmit(open, 10_501, cfg).state;
    expect(articleBreakerFailure(half, 10_600, cfg)).toEqual({ mode: 'open', failureCount: 6, lastFailureAtMs: 10_600 });
    // a call admitted before the breaker opened fails late, at 9000: the reset moves to after 19000
    const late = articleBreakerFailure(open, 9_000, cfg);
    expect(articleBreakerAdmit(late, 10_501, cfg).admitted).toBe(false);
    expect(articleBreakerAdmit(late, 19_001, cfg).admitted).toBe(true);
  });

  it('any single success closes it, even while open (a slow call admitted earlier)', () => {
    expect(articleBreakerSuccess({ mode: 'open', failureCount: 7, lastFailureAtMs: 500 })).toEqual({ mode: 'closed', failureCount: 0, lastFailureAtMs: 500 });
  });
});

describe('the corrected breaker', () => {
  it('times the reset from the opening, admits one probe, ignores stale results', () => {
    let s = correctedBreakerInit();
    for (let i = 0; i < 5; i++) s = correctedBreakerRecord(s, 100 * (i + 1), 0, false, cfg);
    expect(s).toMatchObject({ mode: 'open', openedAtMs: 500, generation: 1 });
    expect(correctedBreakerAdmit(s, 10_499, cfg)).toMatchObject({ admitted: false, retryAtMs: 10_500 }); // 500 + 10000
    // a stale failure (generation 0) does not move the timer
    expect(correctedBreakerRecord(s, 9_000, 0, false, cfg)).toBe(s);
    const probe = correctedBreakerAdmit(s, 10_500, cfg);
    expect(probe).toMatchObject({ admitted: true, generation: 2, state: { mode: 'half-open', probesInFlight: 1 } });
    expect(correctedBreakerAdmit(probe.state, 10_501, cfg).admitted).toBe(false); // the second caller is rejected
    // a stale success (generation 0) does not close it
    expect(correctedBreakerRecord(probe.state, 10_550, 0, true, cfg).mode).toBe('half-open');
    expect(correctedBreakerRecord(probe.state, 10_600, 2, true, cfg)).toMatchObject({ mode: 'closed', failureCount: 0, generation: 3 });
    expect(correctedBreakerRecord(probe.state, 10_600, 2, false, cfg)).toMatchObject({ mode: 'open', openedAtMs: 10_600, generation: 3 });
  });
});

// The scripted outage: 26 calls, one every 1200 ms from 0 to 30000; every attempt starting
// before 20000 ms gets 503; each attempt takes 100 ms; 3 attempts per call, base 100 ms.
const calls = Array.from({ length: 26 }, (_, k) => k * 1_200);
const outage: Omit<ArticleScriptOptions, 'policy'> = {
  callsAtMs: calls,
  upstream: { latencyMs: 100, failures: [{ fromMs: 0, untilMs: 20_000, status: 503 }] },
  jitter: { seed: null },
};

describe('a scripted outage: the article\'s code against the corrected composition (no jitter)', () => {
  it('article: breaker around retry opens after 15 attempts, recovers 8900 ms after the upstream did', () => {
    const r = simulateOutage({ ...outage, policy: ARTICLE_POLICY });
    // Call k at 1200k: attempts at +0, +200, +500 (each 100 ms, sleeps 100 and 200), then the
    // useless 400 ms sleep: the failure reaches the breaker at 1200k + 1000.
    expect(r.calls[0]).toMatchObject({ state: 'failed', endAtMs: 1_000, upstreamAttempts: 3, error: { message: 'Max retries exceeded', cause: 'HTTP 503' } });
    // calls 0–4 fail at 1000, 2200, 3400, 4600, 5800 → open at 5800 after 5 × 3 = 15 attempts
    expect(r.attemptsBeforeFirstOpen).toBe(15);
    // calls at 6000 … 15600 are rejected (15600 − 5800 = 9800 ≤ 10000): 9 calls.
    // 16800 − 5800 = 11000 > 10000 → half-open; that call's 3 attempts fail, the failure at 17800 reopens.
    // calls at 18000 … 27600 rejected (27600 − 17800 = 9800): 9 more. 28800 − 17800 = 11000 → half-open, success at 28900.
    expect(r.transitions).toEqual([
      { atMs: 5_800, to: 'open' }, { atMs: 16_800, to: 'half-open' }, { atMs: 17_800, to: 'open' }, { atMs: 28_800, to: 'half-open' }, { atMs: 28_900, to: 'closed' },
    ]);
    // upstream: 5 × 3 + 3 (half-open at 16800) + 1 (28800) + 1 (30000) = 20, of which 18 during the outage
    expect(r).toMatchObject({ upstreamAttempts: 20, upstreamAttemptsDuringOutage: 18, rejections: 18, callsRejected: 18, callsFailed: 6, callsSucceeded: 2 });
    expect(r).toMatchObject({ recoveredAtMs: 28_900, timeToRecoveryMs: 8_900 }); // 28900 − 20000
  });

  it('corrected: retry around the breaker opens after 5 attempts, recovers 2900 ms after the upstream did', () => {
    const r = simulateOutage({ ...outage, policy: CORRECTED_POLICY });
    // call 0: attempts 0, 200, 500 fail (count 3); no trailing sleep, it fails at 600
    expect(r.calls[0]).toMatchObject({ state: 'failed', endAtMs: 600, upstreamAttempts: 3 });
    // call 1: attempts 1200 (count 4), 1400 (count 5 → open at 1500, reset at 11500); attempt 3 at 1700 rejected
    expect(r.calls[1]).toMatchObject({ state: 'rejected', endAtMs: 1_700, upstreamAttempts: 2 });
    expect(r.attemptsBeforeFirstOpen).toBe(5);
    // calls at 2400 … 10800 rejected (8); 12000 ≥ 11500 → one probe, fails at 12100 (reset at 22100);
    // its retry at 12200 rejected; calls at 13200 … 21600 rejected (8); 22800: probe succeeds at 22900
    expect(r.transitions).toEqual([
      { atMs: 1_500, to: 'open' }, { atMs: 12_000, to: 'half-open' }, { atMs: 12_100, to: 'open' }, { atMs: 22_800, to: 'half-open' }, { atMs: 22_900, to: 'closed' },
    ]);
    // upstream: 3 + 2 + 1 + 1 + 6 calls after = 13, of which 3 + 2 + 1 = 6 during the outage
    // rejections: 1 + 8 + 1 + 8 = 18 attempts, each ending its call (fail fast)
    expect(r).toMatchObject({ upstreamAttempts: 13, upstreamAttemptsDuringOutage: 6, rejections: 18, callsRejected: 18, callsFailed: 1, callsSucceeded: 7 });
    expect(r).toMatchObject({ recoveredAtMs: 22_900, timeToRecoveryMs: 2_900 }); // 22900 − 20000
  });

  it('the composition alone: the article\'s breaker and retry, each attempt through the breaker, opens after 5 attempts', () => {
    const r = simulateOutage({ ...outage, policy: { ...ARTICLE_POLICY, composition: 'retry-around-breaker' } });
    expect(r.attemptsBeforeFirstOpen).toBe(5);
  });

  it('corrected, waiting for the reset instead of failing fast: the waiting calls meet one probe at 11500', () => {
    const r = simulateOutage({ ...outage, policy: { ...CORRECTED_POLICY, onRejection: 'wait-for-reset' } });
    // calls at 2400 … 10800 are rejected, each retries no sooner than the reset at 11500 (1500 + 10000);
    // at 11500 the first (call 2) is the probe, the other 7 are rejected in half-open and end there
    expect(r.calls[2]).toMatchObject({ upstreamAttempts: 1 });
    expect(r.calls.slice(3, 10).map((c) => [c.state, c.endAtMs])).toEqual(Array(7).fill(['rejected', 11_500]));
    expect(r.transitions.slice(0, 3)).toEqual([{ atMs: 1_500, to: 'open' }, { atMs: 11_500, to: 'half-open' }, { atMs: 11_600, to: 'open' }]);
    // reopened at 11600: reset at 21600, when the call started at 21600 is the probe and succeeds at 21700
    expect(r).toMatchObject({ recoveredAtMs: 21_700, timeToRecoveryMs: 1_700 });
  });
});

describe('bursts: the article\'s half-open lets every caller through', () => {
  it('four callers after the reset: the article admits all four (12 attempts), the corrected breaker one', () => {
    // 5 calls at 0 open the breaker; 4 calls at 20000; the upstream fails throughout
    const burst = { callsAtMs: [0, 0, 0, 0, 0, 20_000, 20_000, 20_000, 20_000], upstream: { latencyMs: 100, failures: [{ fromMs: 0, untilMs: 1e9, status: 503 }] }, jitter: { seed: null } };
    const a = simulateOutage({ ...burst, policy: ARTICLE_POLICY });
    // the five loops fail at 1000 → open; 20000 − 1000 > 10000 → half-open, and all 4 pass, 3 attempts each
    expect(a.maxHalfOpenAdmitted).toBe(4);
    expect(a.upstreamAttempts).toBe(5 * 3 + 4 * 3);
    const c = simulateOutage({ ...burst, policy: CORRECTED_POLICY });
    // five first attempts fail at 100 → open; their retries at 200 are rejected; at 20000 one probe, 3 rejected
    expect(c.maxHalfOpenAdmitted).toBe(1);
    expect(c.upstreamAttempts).toBe(5 + 1);
  });
});

describe('isRetryableError, injected', () => {
  it('a 400 is not retried by either loop; the article\'s breaker still counts it', () => {
    const bad = { callsAtMs: [0], upstream: { latencyMs: 100, failures: [{ fromMs: 0, untilMs: 1e9, status: 400 }] }, jitter: { seed: null } };
    for (const policy of [ARTICLE_POLICY, CORRECTED_POLICY]) {
      expect(simulateOutage({ ...bad, policy }).calls[0]).toMatchObject({ state: 'failed', endAtMs: 100, upstreamAttempts: 1, error: { message: 'HTTP 400' } });
    }
    // a classifier that retries everything (the article with isRetryableError = () => true) repeats the 400 three times
    expect(simulateOutage({ ...bad, policy: ARTICLE_POLICY, isRetryable: () => true }).calls[0].upstreamAttempts).toBe(3);
  });
});

describe('jitter: the platform random draw × 100 becomes a seeded draw from the same distribution', () => {
  it('draws are mulberry32(seed) × 100, on [0, 100), and the same seed replays the same run', () => {
    const one = simulateOutage({ ...outage, policy: ARTICLE_POLICY, jitter: { seed: 42 } });
    const again = simulateOutage({ ...outage, policy: ARTICLE_POLICY, jitter: { seed: 42 } });
    expect(again).toEqual(one);
    const rnd = mulberry32(42);
    expect(one.jitterDrawsMs.slice(0, 5)).toEqual([rnd() * 100, rnd() * 100, rnd() * 100, rnd() * 100, rnd() * 100]);
    expect(one.jitterDrawsMs.every((j) => j >= 0 && j < 100)).toBe(true);
    // the first call's failure reaches the breaker at 1000 + its three draws
    const [j1, j2, j3] = one.jitterDrawsMs;
    expect(one.calls[0].endAtMs).toBeCloseTo(1_000 + j1 + j2 + j3, 9);
    expect(simulateOutage({ ...outage, policy: ARTICLE_POLICY, jitter: { seed: 43 } }).calls[0].endAtMs).not.toBe(one.calls[0].endAtMs);
  });

  it('names the bad field', () => {
    expect(() => simulateOutage({ ...outage, policy: ARTICLE_POLICY, maxAttempts: 0 })).toThrow(/^maxAttempts: 0 is below 1/);
    expect(() => simulateOutage({ ...outage, policy: ARTICLE_POLICY, callsAtMs: [0, -1] })).toThrow(/^callsAtMs\[1\]: -1 is below 0/);
  });
});
