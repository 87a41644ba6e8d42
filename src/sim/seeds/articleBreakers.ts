/**
 * The client-resilience article's `CircuitBreaker` as written and the lab's corrected breaker, as
 * pure state machines over virtual time (the reading of the article's code is in article.ts).
 */

/** Breaker states (the article's own strings). */
export type BreakerMode = 'closed' | 'open' | 'half-open';

/** The article's breaker fields (`state`, `failureCount`, `lastFailureTime`). */
export interface ArticleBreakerState {
  mode: BreakerMode;
  failureCount: number;
  /** Virtual ms of the last failure (the article's `lastFailureTime`, 0 at start). */
  lastFailureAtMs: number;
}

/** Breaker settings (the article's constructor defaults: 5 and 10 000 ms). */
export interface BreakerConfig {
  failureThreshold: number;
  cooldownMs: number;
  /** Probes admitted in half-open — the corrected breaker only (default 1). */
  halfOpenPermits?: number;
}

/** The article's defaults. */
export const ARTICLE_BREAKER_DEFAULTS: BreakerConfig = { failureThreshold: 5, cooldownMs: 10_000 };
/** The article's retry defaults: `maxRetries = 3` (attempts), `baseDelayMs = 100`, jitter up to 100 ms. */
export const ARTICLE_RETRY_DEFAULTS = { maxAttempts: 3, baseDelayMs: 100, jitterMaxMs: 100 } as const;

/** A fresh article breaker (closed, count 0, lastFailureTime 0). */
export function articleBreakerInit(): ArticleBreakerState {
  return { mode: 'closed', failureCount: 0, lastFailureAtMs: 0 };
}

/**
 * The top of the article's `execute`: open and more than `cooldownMs` since the last failure →
 * half-open and admitted; open otherwise → rejected ("Circuit breaker is open"); closed or
 * half-open → admitted, whoever asks.
 */
export function articleBreakerAdmit(s: ArticleBreakerState, nowMs: number, cfg: BreakerConfig): { state: ArticleBreakerState; admitted: boolean } {
  if (s.mode !== 'open') return { state: s, admitted: true };
  if (nowMs - s.lastFailureAtMs > cfg.cooldownMs) return { state: { ...s, mode: 'half-open' }, admitted: true };
  return { state: s, admitted: false };
}

/** The article's `handleSuccess`: count 0 and closed, from any state. */
export function articleBreakerSuccess(s: ArticleBreakerState): ArticleBreakerState {
  return { ...s, failureCount: 0, mode: 'closed' };
}

/** The article's `handleFailure`: count + 1, last failure = now, open at count ≥ threshold. */
export function articleBreakerFailure(s: ArticleBreakerState, nowMs: number, cfg: BreakerConfig): ArticleBreakerState {
  const failureCount = s.failureCount + 1;
  return { mode: failureCount >= cfg.failureThreshold ? 'open' : s.mode, failureCount, lastFailureAtMs: nowMs };
}

/** The corrected breaker's fields. */
export interface CorrectedBreakerState {
  mode: BreakerMode;
  /** Consecutive failures counted while closed. */
  failureCount: number;
  /** When it last opened, ms (the reset is timed from here). */
  openedAtMs: number;
  /** Bumped at every state change; results of an older generation are ignored. */
  generation: number;
  /** Probes admitted in the current half-open period. */
  probesInFlight: number;
}

/** A fresh corrected breaker. */
export function correctedBreakerInit(): CorrectedBreakerState {
  return { mode: 'closed', failureCount: 0, openedAtMs: 0, generation: 0, probesInFlight: 0 };
}

/** The corrected breaker's answer to one request to pass. */
export interface CorrectedAdmission {
  state: CorrectedBreakerState;
  admitted: boolean;
  /** The generation to hand back with the result. */
  generation: number;
  /** When open: the reset instant (openedAtMs + cooldownMs), before which a retry is pointless. */
  retryAtMs?: number;
}

/**
 * Closed → admitted. Open: at or after openedAtMs + cooldownMs → half-open (new generation)
 * and admitted as the first probe, else rejected with `retryAtMs`. Half-open: admitted while fewer
 * than `halfOpenPermits` (default 1) probes are out, else rejected (no reset instant is known).
 */
export function correctedBreakerAdmit(s: CorrectedBreakerState, nowMs: number, cfg: BreakerConfig): CorrectedAdmission {
  const permits = cfg.halfOpenPermits ?? 1;
  if (s.mode === 'closed') return { state: s, admitted: true, generation: s.generation };
  if (s.mode === 'open') {
    const resetAt = s.openedAtMs + cfg.cooldownMs;
    if (nowMs < resetAt) return { state: s, admitted: false, generation: s.generation, retryAtMs: resetAt };
    const half: CorrectedBreakerState = { ...s, mode: 'half-open', generation: s.generation + 1, probesInFlight: 1 };
    return { state: half, admitted: true, generation: half.generation };
  }
  if (s.probesInFlight < permits) return { state: { ...s, probesInFlight: s.probesInFlight + 1 }, admitted: true, generation: s.generation };
  return { state: s, admitted: false, generation: s.generation };
}

/**
 * Records one result admitted under `generation`. A stale result (older generation) changes
 * nothing. Closed: a success resets the count, a failure adds one and opens at the threshold.
 * Half-open: a success closes, a failure reopens with a fresh timer.
 */
export function correctedBreakerRecord(s: CorrectedBreakerState, nowMs: number, generation: number, ok: boolean, cfg: BreakerConfig): CorrectedBreakerState {
  if (generation !== s.generation || s.mode === 'open') return s;
  if (s.mode === 'half-open') {
    return ok
      ? { mode: 'closed', failureCount: 0, openedAtMs: s.openedAtMs, generation: s.generation + 1, probesInFlight: 0 }
      : { mode: 'open', failureCount: s.failureCount, openedAtMs: nowMs, generation: s.generation + 1, probesInFlight: 0 };
  }
  if (ok) return { ...s, failureCount: 0 };
  const failureCount = s.failureCount + 1;
  if (failureCount < cfg.failureThreshold) return { ...s, failureCount };
  return { mode: 'open', failureCount, openedAtMs: nowMs, generation: s.generation + 1, probesInFlight: 0 };
}
