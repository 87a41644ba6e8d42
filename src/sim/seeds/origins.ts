import { FAILURE_ORIGINS, type FailureOrigin } from '../retry/classify';
import { checkBoolean, checkNumber } from './validate';

/**
 * Error origins, the retry decision tree and the cost gate of the retry-storm postmortem
 * (postmortem "系统级容错方案重构" → "错误处理三维模型": 1 错误溯源 `ErrorOrigin`, 2 重试决策树,
 * 3 代价评估模型 `should_retry`), and the incident shape behind them ("重试机制的致命盲区",
 * flaw 2: "在压力测试中,38%的取消请求被错误归类为超时").
 *
 * The words are the postmortem's five origins, spelled as the lab spells them elsewhere:
 * user-cancel (USER_CANCEL), client-timeout (CLIENT_TIMEOUT), server-overload (SERVER_OVERLOAD),
 * network (NETWORK_ISSUE), partial-success (PARTIAL_SUCCESS, streams only).
 *
 * The five origins are the shared retry classifier's (src/sim/retry/classify.ts `FailureOrigin`,
 * `failureOriginOf`): every lab's classification names them with the same words. Pure: no clock,
 * no randomness.
 */

export { FAILURE_ORIGINS, type FailureOrigin };

/** HTTP statuses the tree lets retry: "错误码在[502,503,504] → 允许重试". */
export const TREE_RETRYABLE_STATUSES: readonly number[] = [502, 503, 504];

/** One failure as the decision tree sees it. */
export interface ObservedFailure {
  origin: FailureOrigin;
  /** The HTTP status that came back, if any (a gateway's 502/504, an overloaded server's 503). */
  httpStatus?: number;
  /** Historical p99 latency of this request class, ms — required when `origin` is client-timeout. */
  p99Ms?: number;
  /** The timeout ("当前阈值") that fired, ms — required when `origin` is client-timeout. */
  currentTimeoutMs?: number;
  /** For a stream: the fraction (0–1) of the response already received; omit for non-streams. */
  streamedFraction?: number;
}

/** The tree's five leaves. */
export type TreeDecision =
  /** "立即终止": stop at once, never retry. */
  | 'stop'
  /** "允许重试": may retry. */
  | 'retry'
  /** "降级重试": retry in degraded form (cheaper model, longer timeout). */
  | 'degraded-retry'
  /** "返回部分结果": hand back what the stream delivered. */
  | 'return-partial'
  /** "快速失败": fail fast. */
  | 'fail-fast';

/** The tree's answer: the leaf, which branch (1–5, in the postmortem's order) and why. */
export interface TreeVerdict {
  decision: TreeDecision;
  branch: 1 | 2 | 3 | 4 | 5;
  reason: string;
}

/**
 * The postmortem's retry decision tree ("重试决策树"), first matching branch wins:
 * 1. origin user-cancel → stop (never retry);
 * 2. httpStatus in [502, 503, 504] → retry;
 * 3. origin client-timeout and p99Ms < currentTimeoutMs → degraded-retry;
 * 4. streamedFraction > 0.5 → return-partial;
 * 5. anything else → fail-fast.
 * Boundaries are the text's: p99 equal to the threshold is not "under" it, exactly half a stream
 * is not "more than 50 %". Throws a RangeError naming `failure.p99Ms` / `failure.currentTimeoutMs`
 * when a client-timeout lacks them, or `failure.streamedFraction` outside 0–1.
 */
export function decideByOriginTree(failure: ObservedFailure): TreeVerdict {
  if (!FAILURE_ORIGINS.includes(failure.origin)) {
    throw new RangeError(`failure.origin: ${JSON.stringify(failure.origin)} is not an error origin — use one of ${FAILURE_ORIGINS.join(', ')}`);
  }
  const streamed = failure.streamedFraction === undefined ? undefined : checkNumber('failure.streamedFraction', failure.streamedFraction, { min: 0, max: 1 });
  if (failure.origin === 'user-cancel') return { decision: 'stop', branch: 1, reason: 'the user cancelled: stop at once, never retry' };
  if (failure.httpStatus !== undefined && TREE_RETRYABLE_STATUSES.includes(failure.httpStatus)) {
    return { decision: 'retry', branch: 2, reason: `HTTP ${failure.httpStatus} is in [502, 503, 504]: may retry` };
  }
  if (failure.origin === 'client-timeout') {
    if (failure.p99Ms === undefined) throw new RangeError('failure.p99Ms: missing for a client-timeout — give the historical p99 (ms) the tree compares with the threshold');
    if (failure.currentTimeoutMs === undefined) throw new RangeError('failure.currentTimeoutMs: missing for a client-timeout — give the timeout (ms) that fired');
    const p99 = checkNumber('failure.p99Ms', failure.p99Ms, { min: 0 });
    const threshold = checkNumber('failure.currentTimeoutMs', failure.currentTimeoutMs, { min: 0 });
    if (p99 < threshold) return { decision: 'degraded-retry', branch: 3, reason: `timed out with p99 ${p99} ms under the ${threshold} ms threshold: an outlier, retry degraded` };
  }
  if (streamed !== undefined && streamed > 0.5) {
    return { decision: 'return-partial', branch: 4, reason: `the stream delivered ${Math.round(streamed * 1000) / 10} % (> 50 %): return the partial result` };
  }
  return { decision: 'fail-fast', branch: 5, reason: 'no branch allows a retry: fail fast' };
}

/** Inputs of the postmortem's cost gate (`should_retry`). */
export interface CostGateInput {
  /** Estimated cost of the retry (`estimate_retry_cost`), in quota units (≥ 0). */
  retryCost: number;
  /** Remaining API quota (`get_api_quota`), same units (≥ 0). */
  remainingQuota: number;
  /** Cluster health score (`get_health_score`), 0–1. */
  clusterHealthScore: number;
}

/** The gate's answer with the numbers it compared. */
export interface CostGateVerdict {
  allowed: boolean;
  /** remainingQuota × 0.1: the retry must cost less. */
  costLimit: number;
  costOk: boolean;
  healthOk: boolean;
  reason: string;
}

/** The gate's constants: "cost < remaining_quota * 0.1 and cluster_health > 0.7". */
export const COST_GATE_QUOTA_FRACTION = 0.1;
export const COST_GATE_MIN_HEALTH = 0.7;

/**
 * The postmortem's "代价评估模型": retry only while `retryCost < remainingQuota × 0.1` AND
 * `clusterHealthScore > 0.7` (both strict, "双重校验"). Throws a RangeError naming the field for a
 * negative cost or quota, or a health score outside 0–1.
 */
export function costGate(input: CostGateInput): CostGateVerdict {
  const cost = checkNumber('retryCost', input.retryCost, { min: 0 });
  const quota = checkNumber('remainingQuota', input.remainingQuota, { min: 0 });
  const health = checkNumber('clusterHealthScore', input.clusterHealthScore, { min: 0, max: 1 });
  const costLimit = quota * COST_GATE_QUOTA_FRACTION;
  const costOk = cost < costLimit;
  const healthOk = health > COST_GATE_MIN_HEALTH;
  const parts = [
    `cost ${cost} ${costOk ? '<' : '≥'} 10 % of the remaining quota (${costLimit})`,
    `cluster health ${health} ${healthOk ? '>' : '≤'} 0.7`,
  ];
  return { allowed: costOk && healthOk, costLimit, costOk, healthOk, reason: `${costOk && healthOk ? 'retry allowed' : 'no retry'}: ${parts.join(', ')}` };
}

/** The tree and the gate together. */
export interface RetryDecision {
  tree: TreeVerdict;
  gate: CostGateVerdict | null;
  /** The final leaf: a retry or degraded retry the gate refuses becomes fail-fast. */
  decision: TreeDecision;
}

/**
 * Runs the tree, then — only for the two retrying leaves — the cost gate; a refused gate turns
 * the retry into fail-fast. `gate` is null when the tree did not ask for a retry. Throws like
 * `decideByOriginTree` and `costGate`.
 */
export function decideRetry(failure: ObservedFailure, gateInput: CostGateInput): RetryDecision {
  const tree = decideByOriginTree(failure);
  if (tree.decision !== 'retry' && tree.decision !== 'degraded-retry') return { tree, gate: null, decision: tree.decision };
  const gate = costGate(gateInput);
  return { tree, gate, decision: gate.allowed ? tree.decision : 'fail-fast' };
}

/** A load test like the postmortem's (counts of user requests by what happened to them). */
export interface CancelMisclassificationLoadTest {
  /** User requests sent in the load test (each one first attempt upstream). */
  requests: number;
  /** Of them, cancelled by the user. */
  userCancels: number;
  /** Of them, genuinely timed out at the client. */
  clientTimeouts: number;
  /** Share of user cancels the old code reports as timeouts (the postmortem: 0.38). */
  misclassifiedFraction: number;
  /** Attempts per request of the old retry loop: `call_mcp_with_retry(max_retries=3)` makes 3. */
  maxAttempts: number;
  /**
   * Whether every retry times out again (the load test's slow upstream: a long-document p99 of
   * 14 s against the fixed 10 s timeout), so a retried request uses all its attempts; false = the
   * first retry completes.
   */
  retriesAlsoTimeOut: boolean;
  /** p99 of the timed-out request class, ms: the fixed policy's tree compares it with the threshold. */
  p99Ms: number;
  /** The timeout that fired, ms. */
  currentTimeoutMs: number;
}

/** What one policy does to the upstream in the load test. */
export interface LoadTestPolicyResult {
  /** Every attempt that reached the upstream (first attempts + retries). */
  upstreamAttempts: number;
  retries: number;
  /** Retries sent for users who had already cancelled: work nobody will read. */
  retriesForCancelledUsers: number;
  /** upstreamAttempts / requests. */
  amplification: number;
  /** What the breaker metric `cancel_to_timeout_ratio` sees: cancels and timeouts as classified. */
  observedCancels: number;
  observedTimeouts: number;
  cancelToTimeoutRatio: number;
}

/** The incident shape and its fix side by side. */
export interface CancelMisclassificationResult {
  /** round(userCancels × misclassifiedFraction). */
  misclassifiedCancels: number;
  /** Retries one request classified as a timeout gets. */
  retriesPerTimedOutRequest: number;
  /** The old code: a cancel reported as a timeout is retried like one. */
  incident: LoadTestPolicyResult;
  /** The fix: classify by origin (user-cancel → stop), then the tree for real timeouts. */
  fixed: LoadTestPolicyResult;
  /** incident.upstreamAttempts − fixed.upstreamAttempts. */
  extraUpstreamAttempts: number;
}

/**
 * The postmortem's load-test finding as arithmetic: `misclassifiedCancels = round(userCancels ×
 * misclassifiedFraction)`; a request classified as a timeout gets `maxAttempts − 1` retries when
 * retries time out too, else 1. The incident policy retries misclassified cancels and every real
 * timeout; the fixed policy stops on user-cancel (tree branch 1) and retries a real timeout only
 * when the tree says degraded-retry (p99 < threshold). Throws a RangeError naming the field for
 * negative or non-integer counts, more cancels + timeouts than requests, or a fraction outside 0–1.
 */
export function simulateCancelMisclassification(t: CancelMisclassificationLoadTest): CancelMisclassificationResult {
  const requests = checkNumber('requests', t.requests, { min: 1, integer: true });
  const cancels = checkNumber('userCancels', t.userCancels, { min: 0, integer: true });
  const timeouts = checkNumber('clientTimeouts', t.clientTimeouts, { min: 0, integer: true });
  if (cancels + timeouts > requests) throw new RangeError(`userCancels: ${cancels} cancels + ${timeouts} timeouts exceed ${requests} requests — lower them`);
  const fraction = checkNumber('misclassifiedFraction', t.misclassifiedFraction, { min: 0, max: 1 });
  const maxAttempts = checkNumber('maxAttempts', t.maxAttempts, { min: 1, integer: true });
  checkBoolean('retriesAlsoTimeOut', t.retriesAlsoTimeOut);
  const misclassified = Math.round(cancels * fraction);
  const perRequest = maxAttempts <= 1 ? 0 : t.retriesAlsoTimeOut ? maxAttempts - 1 : 1;

  const incidentRetries = (misclassified + timeouts) * perRequest;
  const incident = policyResult(requests, incidentRetries, misclassified * perRequest, cancels - misclassified, timeouts + misclassified);

  const tree = decideByOriginTree({ origin: 'client-timeout', p99Ms: t.p99Ms, currentTimeoutMs: t.currentTimeoutMs });
  const fixedRetries = tree.decision === 'degraded-retry' ? timeouts * perRequest : 0;
  const fixed = policyResult(requests, fixedRetries, 0, cancels, timeouts);

  return {
    misclassifiedCancels: misclassified,
    retriesPerTimedOutRequest: perRequest,
    incident,
    fixed,
    extraUpstreamAttempts: incident.upstreamAttempts - fixed.upstreamAttempts,
  };
}

function policyResult(requests: number, retries: number, retriesForCancelledUsers: number, observedCancels: number, observedTimeouts: number): LoadTestPolicyResult {
  const upstreamAttempts = requests + retries;
  return {
    upstreamAttempts,
    retries,
    retriesForCancelledUsers,
    amplification: upstreamAttempts / requests,
    observedCancels,
    observedTimeouts,
    cancelToTimeoutRatio: observedTimeouts === 0 ? Number.POSITIVE_INFINITY : observedCancels / observedTimeouts,
  };
}
