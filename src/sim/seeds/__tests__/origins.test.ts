import { describe, expect, it } from 'vitest';
import { costGate, decideByOriginTree, decideRetry, FAILURE_ORIGINS, simulateCancelMisclassification, type CancelMisclassificationLoadTest } from '../origins';

describe('error origins and the decision tree (postmortem "重试决策树")', () => {
  it('names the five origins in the postmortem\'s order', () => {
    expect(FAILURE_ORIGINS).toEqual(['user-cancel', 'client-timeout', 'server-overload', 'network', 'partial-success']);
  });

  it('branch 1: a user cancel stops at once, whatever else is true', () => {
    expect(decideByOriginTree({ origin: 'user-cancel' })).toMatchObject({ decision: 'stop', branch: 1 });
    // even with a 503 and a stream 73 % delivered
    expect(decideByOriginTree({ origin: 'user-cancel', httpStatus: 503, streamedFraction: 0.73 })).toMatchObject({ decision: 'stop', branch: 1 });
  });

  it('branch 2: 502, 503, 504 may retry; 500 and 429 do not reach that branch', () => {
    for (const httpStatus of [502, 503, 504]) expect(decideByOriginTree({ origin: 'server-overload', httpStatus }).decision).toBe('retry');
    expect(decideByOriginTree({ origin: 'network', httpStatus: 502 }).branch).toBe(2);
    expect(decideByOriginTree({ origin: 'server-overload', httpStatus: 500 })).toMatchObject({ decision: 'fail-fast', branch: 5 });
    expect(decideByOriginTree({ origin: 'server-overload', httpStatus: 429 })).toMatchObject({ decision: 'fail-fast', branch: 5 });
  });

  it('branch 3: a timeout with p99 under the threshold retries degraded; p99 at or above it does not', () => {
    // GPT-4 code generation: p99 6000 < 10000 → an outlier
    expect(decideByOriginTree({ origin: 'client-timeout', p99Ms: 6_000, currentTimeoutMs: 10_000 })).toMatchObject({ decision: 'degraded-retry', branch: 3 });
    // long documents: p99 14000 ≥ 10000 → a retry would time out again
    expect(decideByOriginTree({ origin: 'client-timeout', p99Ms: 14_000, currentTimeoutMs: 10_000 })).toMatchObject({ decision: 'fail-fast', branch: 5 });
    // equal is not under
    expect(decideByOriginTree({ origin: 'client-timeout', p99Ms: 10_000, currentTimeoutMs: 10_000 }).decision).toBe('fail-fast');
  });

  it('branch 4: a stream past half returns the partial result; exactly half does not', () => {
    expect(decideByOriginTree({ origin: 'partial-success', streamedFraction: 0.73 })).toMatchObject({ decision: 'return-partial', branch: 4 });
    expect(decideByOriginTree({ origin: 'partial-success', streamedFraction: 0.5 })).toMatchObject({ decision: 'fail-fast', branch: 5 });
    // a slow-p99 timeout on a stream 60 % through falls through branch 3 to branch 4
    expect(decideByOriginTree({ origin: 'client-timeout', p99Ms: 14_000, currentTimeoutMs: 10_000, streamedFraction: 0.6 }).decision).toBe('return-partial');
  });

  it('branch 5: anything else fails fast', () => {
    expect(decideByOriginTree({ origin: 'network' })).toMatchObject({ decision: 'fail-fast', branch: 5 });
  });

  it('names the field when the tree cannot be evaluated', () => {
    expect(() => decideByOriginTree({ origin: 'client-timeout', currentTimeoutMs: 10_000 })).toThrow(/^failure\.p99Ms: missing/);
    expect(() => decideByOriginTree({ origin: 'client-timeout', p99Ms: 1 })).toThrow(/^failure\.currentTimeoutMs: missing/);
    expect(() => decideByOriginTree({ origin: 'partial-success', streamedFraction: 1.2 })).toThrow(/^failure\.streamedFraction: 1.2 is above 1/);
    expect(() => decideByOriginTree({ origin: 'timeout' as never })).toThrow(/^failure\.origin: "timeout" is not an error origin/);
  });
});

describe('the cost gate (postmortem "代价评估模型")', () => {
  it('cost < 10 % of remaining quota AND health > 0.7, both strict', () => {
    // limit = 1000 × 0.1 = 100
    expect(costGate({ retryCost: 99, remainingQuota: 1_000, clusterHealthScore: 0.71 })).toMatchObject({ allowed: true, costLimit: 100 });
    expect(costGate({ retryCost: 100, remainingQuota: 1_000, clusterHealthScore: 0.9 })).toMatchObject({ allowed: false, costOk: false, healthOk: true });
    expect(costGate({ retryCost: 1, remainingQuota: 1_000, clusterHealthScore: 0.7 })).toMatchObject({ allowed: false, costOk: true, healthOk: false });
    // quota exhausted: limit 0, nothing costs less than 0
    expect(costGate({ retryCost: 0, remainingQuota: 0, clusterHealthScore: 1 }).allowed).toBe(false);
    expect(() => costGate({ retryCost: 1, remainingQuota: 1, clusterHealthScore: 1.5 })).toThrow(/^clusterHealthScore: 1.5 is above 1/);
  });

  it('the gate turns a retry leaf into fail-fast, and is not consulted for the others', () => {
    const healthy = { retryCost: 5, remainingQuota: 1_000, clusterHealthScore: 0.9 };
    const sick = { ...healthy, clusterHealthScore: 0.6 };
    expect(decideRetry({ origin: 'server-overload', httpStatus: 503 }, healthy).decision).toBe('retry');
    expect(decideRetry({ origin: 'server-overload', httpStatus: 503 }, sick)).toMatchObject({ decision: 'fail-fast', tree: { decision: 'retry' } });
    expect(decideRetry({ origin: 'client-timeout', p99Ms: 6_000, currentTimeoutMs: 10_000 }, sick).decision).toBe('fail-fast');
    expect(decideRetry({ origin: 'user-cancel' }, healthy)).toMatchObject({ decision: 'stop', gate: null });
    expect(decideRetry({ origin: 'partial-success', streamedFraction: 0.73 }, sick)).toMatchObject({ decision: 'return-partial', gate: null });
  });
});

describe('the incident shape: 38 % of user cancels classified as timeouts and retried', () => {
  const loadTest: CancelMisclassificationLoadTest = {
    requests: 10_000,
    userCancels: 1_000,
    clientTimeouts: 200,
    misclassifiedFraction: 0.38,
    maxAttempts: 3,
    retriesAlsoTimeOut: true,
    p99Ms: 6_000,
    currentTimeoutMs: 10_000,
  };

  it('retries that time out again: 760 extra upstream attempts for users who had left', () => {
    const r = simulateCancelMisclassification(loadTest);
    // misclassified = round(1000 × 0.38) = 380; 3 attempts → 2 retries each
    expect(r.misclassifiedCancels).toBe(380);
    expect(r.retriesPerTimedOutRequest).toBe(2);
    // incident: retries = (380 + 200) × 2 = 1160; attempts = 10000 + 1160 = 11160
    expect(r.incident).toMatchObject({ retries: 1_160, upstreamAttempts: 11_160, retriesForCancelledUsers: 760, observedCancels: 620, observedTimeouts: 580 });
    expect(r.incident.amplification).toBeCloseTo(1.116, 12); // 11160 / 10000
    expect(r.incident.cancelToTimeoutRatio).toBeCloseTo(620 / 580, 12); // ≈ 1.069: the metric is distorted
    // fixed: cancels stop (branch 1); 200 real timeouts with p99 6000 < 10000 retry degraded: 400 retries
    expect(r.fixed).toMatchObject({ retries: 400, upstreamAttempts: 10_400, retriesForCancelledUsers: 0, observedCancels: 1_000, observedTimeouts: 200, cancelToTimeoutRatio: 5 });
    expect(r.extraUpstreamAttempts).toBe(760); // 11160 − 10400
  });

  it('retries that complete: one retry each, 380 extra attempts', () => {
    const r = simulateCancelMisclassification({ ...loadTest, retriesAlsoTimeOut: false });
    // incident: 10000 + (380 + 200) × 1 = 10580; fixed: 10000 + 200 = 10200
    expect([r.incident.upstreamAttempts, r.fixed.upstreamAttempts, r.extraUpstreamAttempts]).toEqual([10_580, 10_200, 380]);
  });

  it('long documents (p99 14 s ≥ the 10 s timeout): the fix retries no timeout at all', () => {
    const r = simulateCancelMisclassification({ ...loadTest, p99Ms: 14_000 });
    // incident unchanged 11160; fixed: branch 5 for timeouts → 10000
    expect([r.incident.upstreamAttempts, r.fixed.upstreamAttempts, r.extraUpstreamAttempts]).toEqual([11_160, 10_000, 1_160]);
  });

  it('rejects impossible load tests by field', () => {
    expect(() => simulateCancelMisclassification({ ...loadTest, userCancels: 9_900 })).toThrow(/^userCancels: 9900 cancels \+ 200 timeouts exceed 10000 requests/);
    expect(() => simulateCancelMisclassification({ ...loadTest, misclassifiedFraction: 38 })).toThrow(/^misclassifiedFraction: 38 is above 1/);
    expect(() => simulateCancelMisclassification({ ...loadTest, maxAttempts: 2.5 })).toThrow(/^maxAttempts: 2.5 is not an integer/);
  });
});
