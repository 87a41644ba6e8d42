import { describe, expect, it } from 'vitest';
import { builtinResilience } from './builtinResilience';
import { articleComparison, checklistForScenario, costGateVerdict, halfOpenBurst, incidentClientLints, loadTest, tierRun, timeoutPlot, treeExamples } from './resilienceSeeds';
import type { Scenario } from '../sim/types';

const builtin = (id: string): Scenario => {
  const s = builtinResilience().scenarios.find((b) => b.id === id);
  if (!s) throw new Error(`no built-in ${id}`);
  return s;
};

describe('seed panels, item 1: origins, the decision tree and the cost gate', () => {
  it('the worked examples land on the tree’s five leaves', () => {
    const byId = Object.fromEntries(treeExamples().map((e) => [e.id, [e.originWord, e.verdict.decision, e.verdict.branch]]));
    expect(byId).toEqual({
      cancel: ['user cancel', 'stop', 1], // branch 1 wins over the 503 and the 73 %
      'overload-503': ['server overload', 'retry', 2],
      'gateway-502': ['network issue', 'retry', 2],
      'timeout-p99-6s': ['client timeout', 'degraded-retry', 3], // 6000 < 10000
      'timeout-p99-14s': ['client timeout', 'fail-fast', 5], // 14000 ≥ 10000
      'stream-73': ['partial success (stream)', 'return-partial', 4], // 0.73 > 0.5
      'stream-50': ['partial success (stream)', 'fail-fast', 5], // 0.5 is not > 0.5
      'overload-429': ['server overload', 'fail-fast', 5],
      reset: ['network issue', 'fail-fast', 5],
    });
  });

  it('the gate: cost < quota × 0.1 and health > 0.7, both strict', () => {
    expect(costGateVerdict({ retryCost: 99, remainingQuota: 1000, clusterHealthScore: 0.71 })).toMatchObject({ allowed: true, costLimit: 100 });
    expect(costGateVerdict({ retryCost: 100, remainingQuota: 1000, clusterHealthScore: 0.71 })).toMatchObject({ allowed: false, costOk: false });
    expect(costGateVerdict({ retryCost: 99, remainingQuota: 1000, clusterHealthScore: 0.7 })).toMatchObject({ allowed: false, healthOk: false });
    expect(() => costGateVerdict({ retryCost: 1, remainingQuota: 10, clusterHealthScore: 1.2 })).toThrow(/clusterHealthScore/);
  });

  it('the load test: 38 % of 1000 cancels retried as timeouts', () => {
    const r = loadTest();
    // 380 misread cancels + 200 timeouts, 2 retries each: 10000 + 1160 = 11160 attempts; 760 retries for users who left
    expect(r.misclassifiedCancels).toBe(380);
    expect(r.incident).toMatchObject({ upstreamAttempts: 11_160, retriesForCancelledUsers: 760 });
    expect(r.incident.cancelToTimeoutRatio).toBeCloseTo(620 / 580, 12);
    // the fix: cancels stop; a 14 s p99 ≥ the 10 s threshold → fail fast: 10000 attempts, ratio 1000/200
    expect(r.fixed).toMatchObject({ upstreamAttempts: 10_000, retries: 0, cancelToTimeoutRatio: 5 });
    // p99 6 s: the fix still retries the 200 real timeouts (degraded): 10000 + 400
    expect(loadTest({ misclassifiedFraction: 0.38, p99Ms: 6_000, retriesAlsoTimeOut: true }).fixed.upstreamAttempts).toBe(10_400);
    expect(loadTest({ misclassifiedFraction: 0, p99Ms: 14_000, retriesAlsoTimeOut: true }).incident.upstreamAttempts).toBe(10_400);
  });
});

describe('seed panels, item 2: dynamic timeout v2 against load', () => {
  const plot = timeoutPlot();
  const point = (id: string, load: number) => plot.series.find((s) => s.id === id)!.points[load];
  it('p99 14 s: 16800 at 0 %, 20300 at 40 %, 24675 at 60 %, capped at 30000 from 80 %', () => {
    // 14000 × 1.2; 14000 × (1.2 + 0.25); 14000 × (1.2 + 0.5625); 14000 × 2.2 = 30800 → 30000
    expect(point('long-documents@14000', 0).timeoutMs).toBe(16_800);
    expect(point('long-documents@14000', 40).timeoutMs).toBeCloseTo(20_300, 9);
    expect(point('long-documents@14000', 60).timeoutMs).toBeCloseTo(24_675, 9);
    expect(point('long-documents@14000', 80).timeoutMs).toBe(30_000);
    // p99 3 s at 50 %: 3000 × (1.2 + 0.390625) = 4771.875
    expect(point('code-generation@3000', 50).timeoutMs).toBeCloseTo(4_771.875, 9);
    expect(point('static', 50).timeoutMs).toBe(10_000);
  });
  it('falls under the checklist floor p99 × 1.5 below 80·√0.3 ≈ 43.82 % load', () => {
    expect(plot.crossingLoadPercent).toBeCloseTo(43.8178, 4);
    expect(point('long-documents@14000', 43).belowFloor).toBe(true); // 14000 × (1.2 + 0.2889) = 20844 < 21000
    expect(point('long-documents@14000', 44).belowFloor).toBe(false); // 14000 × 1.5025 = 21035 ≥ 21000
    expect(plot.floors.map((f) => [f.p99Ms, f.floorMs])).toEqual([[14_000, 21_000], [3_000, 4_500], [6_000, 9_000]]);
    // with a 20 s cap the cap itself is under 21 s: no load satisfies the floor for p99 14 s
    expect(timeoutPlot(20_000).floors[0].belowUntilPercent).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('seed panels, item 3: the three tiers', () => {
  const run = tierRun();
  it('engage in turn at 63, 67 and 73 s and stand down at 300, 306, 341 s', () => {
    expect(run.changes.map((c) => `${c.tier} ${c.to} ${c.second}`)).toEqual([
      'request engaged 63', 'service engaged 67', 'cluster engaged 73', 'service disengaged 300', 'request disengaged 306', 'cluster disengaged 341',
    ]);
  });
  it('cancel_to_timeout_ratio: 20 cancels and 0.6 timeouts a second before the outage; the misread 38 % moves 7.6 a second', () => {
    // second 0, fixed: cancels 200 × 0.1 = 20, timeouts 200 × 0.003 = 0.6 → 20 / 0.6
    expect(tierRun({ cancelFraction: 0.1, misclassify: false }).seconds[0].metrics.cancelToTimeoutRatio).toBeCloseTo(20 / 0.6, 9);
    // incident: 20 × 0.62 = 12.4 cancels; 0.6 + 20 × 0.38 = 8.2 timeouts
    expect(run.seconds[0].metrics.cancelToTimeoutRatio).toBeCloseTo(12.4 / 8.2, 9);
    // at 97 s: in flight 952 (the model's figure), health 0.53
    expect(run.seconds[97].metrics.requestsInFlight).toBeCloseTo(952, 0);
    expect(run.seconds[97].metrics.upstreamHealthScore).toBeCloseTo(0.53, 2);
  });
});

describe('seed panels, item 4: the checklist over the loaded scenario', () => {
  it('the incident client fails 6 of 8 (passes the cap and max retries)', () => {
    const f = incidentClientLints();
    expect(f.filter((x) => x.status === 'fail')).toHaveLength(6);
    expect(f.filter((x) => x.status === 'pass').map((x) => x.rule)).toEqual(['absolute-cap', 'max-retries']);
  });
  it('S2: the MCP server layer (2.5 s, 3 retries, 100 ms) against upstream p99 3 s fails 6 of the 7 that apply', () => {
    const lints = checklistForScenario(builtin('S2-timeouts-cancel'));
    expect(lints.map((l) => l.layer)).toEqual(['client', 'MCP server', 'HTTP client']);
    const mcp = lints[1];
    expect(mcp).toMatchObject({ p99Ms: 3_000, failed: 6, passed: 1 });
    const floor = mcp.findings.find((f) => f.rule === 'initial-timeout-floor')!;
    expect([floor.actual, floor.required, floor.status]).toEqual([2_500, 4_500, 'fail']); // 3000 × 1.5
    // retry interval: retry 3 after 3 × 2500 + 2 × 100 = 7700 ms needs 2310 ms, has 100
    const interval = mcp.findings.find((f) => f.rule === 'retry-interval')!;
    expect([interval.actual, interval.required]).toEqual([100, 2_310]);
  });
  it('follows edits: a typed p99 and a changed layer', () => {
    const s2 = builtin('S2-timeouts-cancel');
    expect(checklistForScenario(s2, 1_000)[0].findings[0]).toMatchObject({ status: 'pass', actual: 6_000, required: 1_500 });
    const edited = { ...s2, config: { ...(s2.config as object), layers: [{ name: 'only', timeoutMs: 40_000, maxRetries: 1, backoffMs: 20_000, process: null }] } } as Scenario;
    const [only] = checklistForScenario(edited);
    expect(only.findings.find((f) => f.rule === 'absolute-cap')).toMatchObject({ status: 'fail', actual: 40_000 });
    expect(only.findings.find((f) => f.rule === 'max-retries')).toMatchObject({ status: 'pass', actual: 1 });
    // retry 1 after 40000 ms: interval 20000 ≥ 40000 × 0.3 = 12000
    expect(only.findings.find((f) => f.rule === 'retry-interval')).toMatchObject({ status: 'pass', required: 12_000 });
    expect(() => checklistForScenario(s2, -1)).toThrow(/historical p99/);
  });
  it('B2 (3 attempts, fixed 100 ms) and a task scenario get their own lint sets; no timeout reads as none', () => {
    const [loop] = checklistForScenario(builtin('B2-retry-composition'));
    expect(loop.findings.find((f) => f.rule === 'max-retries')).toMatchObject({ status: 'pass', actual: 2 });
    // retry 2 after 100 + 100 + 100 = 300 ms: 100 ≥ 90
    expect(loop.findings.find((f) => f.rule === 'retry-interval')).toMatchObject({ status: 'pass', actual: 100, required: 90 });
    expect(loop.findings.find((f) => f.rule === 'absolute-cap')!.detail).toBe('absolute cap none (no timeout) > 30000 ms');
    const [task] = checklistForScenario(builtin('T1-abort-before-task-id'));
    expect(task.p99Ms).toBe(4_000); // call at 0, finish at 4000
    expect(task.findings.find((f) => f.rule === 'max-retries')!.status).toBe('pass');
  });
});

describe('seed panels, item 7: the article beside the corrected policies', () => {
  it('the composition costs: 15 vs 5 attempts before opening, 8900 vs 2900 ms to recover', () => {
    const [article, perAttempt, corrected, wait] = articleComparison().map((r) => r.result);
    expect([article.attemptsBeforeFirstOpen, article.upstreamAttempts, article.upstreamAttemptsDuringOutage, article.timeToRecoveryMs]).toEqual([15, 20, 18, 8_900]);
    expect([article.callsSucceeded, article.callsFailed, article.callsRejected]).toEqual([2, 6, 18]);
    expect(perAttempt.attemptsBeforeFirstOpen).toBe(5);
    expect([corrected.attemptsBeforeFirstOpen, corrected.upstreamAttempts, corrected.upstreamAttemptsDuringOutage, corrected.timeToRecoveryMs]).toEqual([5, 13, 6, 2_900]);
    expect(wait.timeToRecoveryMs).toBe(1_700);
    // a failing call: 1000 ms under the article (sleeps 100 + 200 + 400 after 3 × 100), 600 corrected
    expect(article.calls[0].endAtMs - article.calls[0].startAtMs).toBe(1_000);
    expect(corrected.calls[0].endAtMs - corrected.calls[0].startAtMs).toBe(600);
  });
  it('with a seed the jitter is drawn on [0, 100) and the same seed gives the same run', () => {
    const a = articleComparison(42)[0].result;
    expect(a.jitterDrawsMs.length).toBeGreaterThan(0);
    expect(a.jitterDrawsMs.every((j) => j >= 0 && j < 100)).toBe(true);
    expect(articleComparison(42)[0].result).toEqual(a);
    expect(articleComparison(null)[0].result.jitterDrawsMs).toEqual([]);
  });
  it('a burst after the reset: the article’s half-open admits 4, the corrected 1', () => {
    const b = halfOpenBurst();
    expect([b.article.maxHalfOpenAdmitted, b.article.upstreamAttempts]).toEqual([4, 27]);
    expect([b.corrected.maxHalfOpenAdmitted, b.corrected.upstreamAttempts]).toEqual([1, 6]);
  });
});
