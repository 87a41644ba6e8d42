/**
 * Retry budgets, pure and in integer arithmetic (thousandths), so the same calls give the same
 * decisions everywhere.
 *
 * - Token bucket: gRPC retry throttling (gRFC A6 "Client Retries", `retryThrottling`): the bucket
 *   starts full at `maxTokens`; every failed attempt takes 1 token, every success puts back
 *   `tokenRatio`; retries are allowed only while the bucket holds more than `maxTokens / 2`.
 * - Retry ratio: a per-client budget in the manner of Finagle's RetryBudget / the AWS SDK's retry
 *   quota, without a time-based reserve: a retry is allowed only if afterwards
 *   `retries ≤ retryRatio × calls` (10% by default), so retries can never exceed the ratio.
 */

/** Token bucket state: tokens in thousandths (`maxTokens` 10 → 10000). */
export interface TokenBucket {
  tokensMilli: number;
  maxMilli: number;
  ratioMilli: number;
}

/** A full bucket. `maxTokens` ≥ 1 (integer), `tokenRatio` > 0 (rounded to thousandths). */
export function tokenBucket(maxTokens: number, tokenRatio: number): TokenBucket {
  return { tokensMilli: maxTokens * 1000, maxMilli: maxTokens * 1000, ratioMilli: Math.max(1, Math.round(tokenRatio * 1000)) };
}

/** After an attempt's result: a failure takes one token, a success puts back `tokenRatio`. */
export function bucketAfter(b: TokenBucket, ok: boolean): TokenBucket {
  const tokensMilli = ok ? Math.min(b.maxMilli, b.tokensMilli + b.ratioMilli) : Math.max(0, b.tokensMilli - 1000);
  return { tokensMilli, maxMilli: b.maxMilli, ratioMilli: b.ratioMilli };
}

/** Retries are allowed while tokens > maxTokens / 2 (gRPC: throttled at or below the threshold). */
export function bucketAllowsRetry(b: TokenBucket): boolean {
  return b.tokensMilli * 2 > b.maxMilli;
}

/** Per-client ratio budget: counts of first attempts (calls) and retries. */
export interface RatioBudget {
  calls: number;
  retries: number;
  ratioMilli: number;
}

/** An empty ratio budget; `retryRatio` in [0, 1], rounded to thousandths. */
export function ratioBudget(retryRatio: number): RatioBudget {
  return { calls: 0, retries: 0, ratioMilli: Math.round(retryRatio * 1000) };
}

/** Whether one more retry keeps `retries ≤ ratio × calls`. */
export function ratioAllowsRetry(b: RatioBudget): boolean {
  return (b.retries + 1) * 1000 <= b.ratioMilli * b.calls;
}
