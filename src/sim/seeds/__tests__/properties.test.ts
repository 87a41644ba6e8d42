import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ARTICLE_POLICY, CORRECTED_POLICY, checkAgainstFloor, floorCrossingLoadPercent, simulateOutage, type ResiliencePolicy } from '..';

describe('properties of the seed models', () => {
  it('with the 30 s cap and p99 ≤ 20 s, the v2 timeout is below the checklist floor exactly below 80·√0.3 % load', () => {
    const x = floorCrossingLoadPercent();
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20_000 }), fc.double({ min: 0, max: 120, noNaN: true }), (p99Ms, loadPercent) => {
        fc.pre(Math.abs(loadPercent - x) > 1e-6);
        expect(checkAgainstFloor({ p99Ms, loadPercent }).belowFloor).toBe(loadPercent < x);
      }),
      { numRuns: 300, seed: 13 },
    );
  });

  const policies: ResiliencePolicy[] = [
    ARTICLE_POLICY,
    CORRECTED_POLICY,
    { ...CORRECTED_POLICY, onRejection: 'wait-for-reset' },
    { ...ARTICLE_POLICY, composition: 'retry-around-breaker' },
  ];

  it('over random outages and call times: bounded attempts, one probe for the corrected breaker, same seed same run', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 40_000 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 30_000 }),
        fc.integer({ min: 1, max: 500 }),
        fc.integer(),
        fc.constantFrom(...policies),
        (starts, untilMs, latencyMs, seed, policy) => {
          const callsAtMs = starts.slice().sort((a, b) => a - b);
          const opts = { policy, callsAtMs, upstream: { latencyMs, failures: [{ fromMs: 0, untilMs, status: 503 }] }, jitter: { seed } };
          const r = simulateOutage(opts);
          expect(r.calls).toHaveLength(callsAtMs.length);
          expect(r.callsSucceeded + r.callsFailed + r.callsRejected).toBe(callsAtMs.length);
          expect(r.upstreamAttempts).toBeLessThanOrEqual(callsAtMs.length * 3);
          expect(r.calls.every((c) => c.endAtMs >= c.startAtMs)).toBe(true);
          if (policy.breaker === 'corrected') expect(r.maxHalfOpenAdmitted).toBeLessThanOrEqual(1);
          expect(simulateOutage(opts)).toEqual(r);
        },
      ),
      { numRuns: 200, seed: 13 },
    );
  });
});
