import { describe, expect, it } from 'vitest';
import { postmortemIncidentTraffic, simulateTiers } from '../tiers';

describe('the three protection tiers (postmortem "三级防御体系") over the incident', () => {
  // 200 requests/s; 0.3 % errors and p90 2 s before 60 s; 47 % errors from 60 s to 300 s with the
  // p90 rising 500 ms a second (2000 + 500·(s − 60), held at 8000); healthy again from 300 s.
  const run = simulateTiers(postmortemIncidentTraffic());
  const at = (s: number) => run.seconds[s];

  it('engage in turn: request level at 63 s, service level at 67 s, cluster level at 73 s; then stand down', () => {
    // request: 10 s window at 62: (7 × 0.6 + 3 × 94) / 2000 = 286.2 / 2000 = 14.31 % ≤ 15 %;
    //          at 63: (6 × 0.6 + 4 × 94) / 2000 = 379.6 / 2000 = 18.98 % > 15 % → engaged
    // service: p90 at 66 = 2000 + 6 × 500 = 5000 (not > 5 s); at 67 = 5500 → engaged
    // cluster: errors over 60 s at 72 = 47 × 0.6 + 4 × 94 + 4 × 65.8 + 65.8 × (5 − 0.2·15/30) = 989.82;
    //          at 73 = 46 × 0.6 + 376 + 263.2 + 65.8 × (6 − 0.2·21/30) = 1052.388 > 1000 → engaged
    // service off at 300 (p90 2 s); request off at 306: (3 × 52.64 + 0.336 + 0.003 × 140 × 4.94) / 1400
    //   = 160.3308 / 1400 = 11.45 % (at 305: 212.618 / 1400 = 15.19 %);
    // cluster off at 341: 18 bad seconds × 52.64 = 947.52, + 0.336 + 2.0748 + 12.696 + 7.2 = 969.8268
    //   (at 340 the 19 bad seconds alone are 1000.16)
    expect(run.changes).toEqual([
      { second: 63, tier: 'request', to: 'engaged' },
      { second: 67, tier: 'service', to: 'engaged' },
      { second: 73, tier: 'cluster', to: 'engaged' },
      { second: 300, tier: 'service', to: 'disengaged' },
      { second: 306, tier: 'request', to: 'disengaged' },
      { second: 341, tier: 'cluster', to: 'disengaged' },
    ]);
    expect(at(62).errorRate10s).toBeCloseTo(0.1431, 10);
    expect(at(63).errorRate10s).toBeCloseTo(0.1898, 10);
    expect(at(72).errorsLastMinute).toBeCloseTo(989.82, 8);
    expect(at(73).errorsLastMinute).toBeCloseTo(1_052.388, 8);
    expect(at(306).errorRate10s).toBeCloseTo(160.3308 / 1_400, 10);
    expect(at(341).errorsLastMinute).toBeCloseTo(969.8268, 8);
  });

  it('actions apply from the next second: 429 + cached last success for 30 %, a 30 s ramp to 20 %', () => {
    expect(at(63)).toMatchObject({ shedding: false, servedFromCache: 0 });
    expect(at(64)).toMatchObject({ shedding: true, toPrimary: 140 }); // 200 − 60
    expect(at(64).servedFromCache).toBeCloseTo(60, 10); // 200 × 0.3
    expect(at(68).shiftedFraction).toBeCloseTo(0.2 / 30, 12); // first ramp step
    expect(at(97).shiftedFraction).toBeCloseTo(0.2, 12); // 30 steps: 68 … 97
    expect(at(97)).toMatchObject({ degraded: true });
    expect(at(330).shiftedFraction).toBe(0); // ramped back down by 330 (301 … 330)
  });

  it('the breaker metrics at 97 s: in flight 952, health 0.53', () => {
    const m = at(97).metrics;
    // Little's law: primary 140 × 0.8 = 112 req/s × 8 s + secondary 28 req/s × 2 s = 896 + 56
    expect(m.requestsInFlight).toBeCloseTo(952, 9);
    expect(m.upstreamHealthScore).toBeCloseTo(0.53, 12); // 1 − 0.47
    expect(at(59).metrics.errorRatio5m).toBeCloseTo(0.003, 12);
    expect(at(59).metrics.cancelToTimeoutRatio).toBeNull();
  });

  it('cancel_to_timeout_ratio over the trailing 5 minutes', () => {
    const r = simulateTiers([
      { requests: 10, errorFraction: 0, p90Ms: 1_000, cancels: 10, timeouts: 0 },
      { requests: 10, errorFraction: 0, p90Ms: 1_000, cancels: 0, timeouts: 5 },
      { requests: 10, errorFraction: 0, p90Ms: 1_000, cancels: 5, timeouts: 0 },
    ]);
    expect(r.seconds.map((s) => s.metrics.cancelToTimeoutRatio)).toEqual([null, 2, 3]); // 10/5, 15/5
  });

  it('names the bad field', () => {
    expect(() => simulateTiers([{ requests: 1, errorFraction: 1.5, p90Ms: 0 }])).toThrow(/^traffic\[0\]\.errorFraction: 1.5 is above 1/);
  });
});
