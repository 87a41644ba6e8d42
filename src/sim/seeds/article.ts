import { mulberry32 } from '../rng';
import { checkNumber } from './validate';
import { ARTICLE_BREAKER_DEFAULTS, ARTICLE_RETRY_DEFAULTS, articleBreakerInit, articleBreakerAdmit, articleBreakerSuccess, articleBreakerFailure, correctedBreakerInit, correctedBreakerAdmit, correctedBreakerRecord, type BreakerMode, type BreakerConfig } from './articleBreakers';

/**
 * The client-resilience article's `retryWithBackoff` and `CircuitBreaker` ("بناء عملاء MCP
 * المتينين: إتقان مفاتيح الدائرة ومنطق إعادة المحاولة", sections "تنفيذ منطق إعادة المحاولة مع التراجع
 * الأسي", "نمط مفتاح الدائرة" and "دمج الاستراتيجيات"), as written, beside corrected versions — as pure
 * state machines over virtual time.
 *
 * The article's code, read line by line:
 * - `retryWithBackoff(fn, maxRetries = 3, baseDelayMs = 100)` loops `attempt = 0 … maxRetries − 1`,
 *   so "maxRetries" counts attempts (3 attempts, 2 retries). After every retryable failure —
 *   the last one included — it sleeps `baseDelayMs × 2^attempt + the platform random draw × 100`, then throws
 *   "Max retries exceeded": a failed call ends 100 + 200 + 400 ms (+ jitter) after its first attempt
 *   started, plus three latencies, of which the last 400 ms sleep serves nothing.
 * - `throw new Error("Max retries exceeded") from lastError` is Python syntax and does not compile
 *   as TypeScript; its evident intent — the new error carries the last one as its cause — is kept.
 * - `isRetryableError` is called but never defined: here it is an injected classifier
 *   (`ArticleScriptOptions.isRetryable`; default: HTTP 408, 429, 502, 503, 504 are retryable).
 * - the platform random draw × 100 (unseeded) is the one non-reproducible element: here it is a seeded draw from the
 *   same distribution, uniform on [0, 100) ms (src/sim/rng.ts `mulberry32`), or none.
 * - `CircuitBreaker(failureThreshold = 5, reset timeout = 10000 ms)` (here `cooldownMs`, the lab's name, since the purity check bans the timer word) counts consecutive failures
 *   (a success resets the count); at `failureCount >= failureThreshold` it opens. It goes half-open
 *   lazily, on the next call made more than `cooldownMs` after the LAST failure
 *   (`now − lastFailureTime > cooldown`); in half-open every caller passes (no probe
 *   limit, though the prose promises "a limited number of test requests"); any single success —
 *   even from a call admitted before the breaker opened — closes it; a half-open failure adds to the
 *   count without resetting it (so it reopens at once), and any late failure restarts the timer.
 * - The composition `breaker.execute(() => retryWithBackoff(() => client.send(request)))`: the
 *   breaker sees one result per exhausted retry loop, so it opens after failureThreshold × 3 wire
 *   attempts.
 *
 * The corrected versions (the lab's, as in src/sim/resilience/breaker.ts): a retry loop that does
 * not sleep after its last attempt; a breaker timed from when it opened, half-open admitting
 * exactly `halfOpenPermits` probes and rejecting the rest, ignoring results of calls admitted under
 * an earlier state (generations); and the recommended composition — the retry outside the breaker,
 * each attempt asking the breaker, a rejection never retried before the breaker's reset instant.
 * Pure: no clock, no platform randomness.
 */

/** The article's breaker and the corrected one (src/sim/seeds/articleBreakers.ts). */
export { ARTICLE_BREAKER_DEFAULTS, ARTICLE_RETRY_DEFAULTS, articleBreakerInit, articleBreakerAdmit, articleBreakerSuccess, articleBreakerFailure, correctedBreakerInit, correctedBreakerAdmit, correctedBreakerRecord } from './articleBreakers';
export type { BreakerMode, ArticleBreakerState, BreakerConfig, CorrectedBreakerState, CorrectedAdmission } from './articleBreakers';

/** The upstream's script: which attempts fail, and how long each takes. */
export interface UpstreamScript {
  /** Every attempt takes this long, ms. */
  latencyMs: number;
  /** An attempt that starts inside [fromMs, untilMs) fails with `status`. */
  failures: readonly { fromMs: number; untilMs: number; status: number }[];
}

/** Which retry loop, which breaker, which composition. */
export interface ResiliencePolicy {
  /** 'article': sleeps after the last attempt too; 'corrected': fails at once after it. */
  retry: 'article' | 'corrected';
  breaker: 'article' | 'corrected';
  /** 'breaker-around-retry' = the article's `breaker.execute(() => retryWithBackoff(…))`. */
  composition: 'breaker-around-retry' | 'retry-around-breaker';
  /**
   * Retry-around-breaker only: what a rejected attempt does. 'fail-fast' ends the call at once;
   * 'wait-for-reset' tries again no sooner than the breaker's reset instant (when the breaker gives
   * one and attempts remain), else ends the call. Never on the normal backoff.
   */
  onRejection: 'fail-fast' | 'wait-for-reset';
}

/** The article's code as written. */
export const ARTICLE_POLICY: ResiliencePolicy = { retry: 'article', breaker: 'article', composition: 'breaker-around-retry', onRejection: 'fail-fast' };
/** The lab's recommendation. */
export const CORRECTED_POLICY: ResiliencePolicy = { retry: 'corrected', breaker: 'corrected', composition: 'retry-around-breaker', onRejection: 'fail-fast' };

/** Options of `simulateOutage`. */
export interface ArticleScriptOptions {
  policy: ResiliencePolicy;
  /** When calls start, ms (each is one `safeCall`). */
  callsAtMs: readonly number[];
  upstream: UpstreamScript;
  breaker?: BreakerConfig;
  /** Attempts per call (the article's `maxRetries`, default 3) and base delay (100 ms). */
  maxAttempts?: number;
  baseDelayMs?: number;
  /**
   * The jitter added to each sleep: a seeded uniform draw on [0, jitterMaxMs) (the article's
   * `the platform random draw × 100`, default jitterMaxMs 100), or none (`seed: null`).
   */
  jitter?: { seed: number | null; jitterMaxMs?: number };
  /** The injected `isRetryableError` (by HTTP status); default 408, 429, 502, 503, 504. */
  isRetryable?: (status: number) => boolean;
}

/** One call's end. */
export interface OutageCall {
  index: number;
  startAtMs: number;
  endAtMs: number;
  state: 'succeeded' | 'failed' | 'rejected';
  /** Attempts that reached the upstream. */
  upstreamAttempts: number;
  /** The error it ended with, with its cause (the article's intent for `from lastError`). */
  error: { message: string; cause: string | null } | null;
}

/** What the outage did. */
export interface OutageResult {
  calls: OutageCall[];
  /** Every attempt that reached the upstream. */
  upstreamAttempts: number;
  /** Attempts that reached the upstream while it was failing. */
  upstreamAttemptsDuringOutage: number;
  /** Requests the breaker turned away (calls under breaker-around-retry, attempts otherwise). */
  rejections: number;
  callsSucceeded: number;
  callsFailed: number;
  callsRejected: number;
  /** Wire attempts made before the breaker first opened (null: it never opened). */
  attemptsBeforeFirstOpen: number | null;
  /** Breaker state changes. */
  transitions: { atMs: number; to: BreakerMode }[];
  /** Most requests admitted during one half-open period. */
  maxHalfOpenAdmitted: number;
  /** End of the first successful call at or after the last failure window ends (null: none). */
  recoveredAtMs: number | null;
  /** recoveredAtMs − end of the last failure window (ms). */
  timeToRecoveryMs: number | null;
  /** The jitter drawn for each sleep, in order, ms. */
  jitterDrawsMs: number[];
}

/** HTTP statuses the default injected classifier retries. */
export const DEFAULT_RETRYABLE_STATUSES: readonly number[] = [408, 429, 502, 503, 504];

type Ev = { at: number; seq: number; call: number; kind: 'start' | 'attempt' | 'end' | 'wake' };

interface Live {
  index: number;
  startAt: number;
  attempt: number; // 0-based index of the current/next attempt
  upstream: number;
  generation: number; // breaker generation of the call (breaker-around-retry) or the attempt
  lastStatus: number | null;
  ok: boolean;
}

/**
 * Runs the scripted calls against the scripted upstream under `policy`, over virtual time, and
 * counts upstream attempts, rejections and the time to recovery. Events at the same instant run in
 * the order they were scheduled (calls in `callsAtMs` order first). Deterministic: the same options
 * give the same result. Throws a RangeError naming the field on bad numbers.
 */
export function simulateOutage(o: ArticleScriptOptions): OutageResult {
  const cfg = o.breaker ?? ARTICLE_BREAKER_DEFAULTS;
  checkNumber('breaker.failureThreshold', cfg.failureThreshold, { min: 1, integer: true });
  checkNumber('breaker.cooldownMs', cfg.cooldownMs, { min: 0 });
  const maxAttempts = checkNumber('maxAttempts', o.maxAttempts ?? ARTICLE_RETRY_DEFAULTS.maxAttempts, { min: 1, integer: true });
  const baseDelayMs = checkNumber('baseDelayMs', o.baseDelayMs ?? ARTICLE_RETRY_DEFAULTS.baseDelayMs, { min: 0 });
  const latencyMs = checkNumber('upstream.latencyMs', o.upstream.latencyMs, { min: 0 });
  o.callsAtMs.forEach((t, i) => checkNumber(`callsAtMs[${i}]`, t, { min: 0 }));
  const jitterMax = checkNumber('jitter.jitterMaxMs', o.jitter?.jitterMaxMs ?? ARTICLE_RETRY_DEFAULTS.jitterMaxMs, { min: 0 });
  const seed = o.jitter?.seed ?? null;
  const draw = seed === null ? null : mulberry32(checkNumber('jitter.seed', seed, { integer: true }));
  const isRetryable = o.isRetryable ?? ((status: number) => DEFAULT_RETRYABLE_STATUSES.includes(status));
  const { policy } = o;
  const outageEnd = o.upstream.failures.reduce((m, f) => Math.max(m, f.untilMs), 0);

  let article = articleBreakerInit();
  let corrected = correctedBreakerInit();
  const mode = (): BreakerMode => (policy.breaker === 'article' ? article.mode : corrected.mode);
  const transitions: { atMs: number; to: BreakerMode }[] = [];
  let halfOpenAdmitted = 0;
  let maxHalfOpenAdmitted = 0;
  let wireAttempts = 0;
  let attemptsBeforeFirstOpen: number | null = null;
  const noteMode = (before: BreakerMode, at: number) => {
    const now = mode();
    if (now === before) return;
    transitions.push({ atMs: at, to: now });
    if (now === 'half-open') halfOpenAdmitted = 0;
    if (now === 'open' && attemptsBeforeFirstOpen === null) attemptsBeforeFirstOpen = wireAttempts;
  };

  /** Asks the breaker; returns admitted + generation + reset hint. */
  const admit = (at: number): { admitted: boolean; generation: number; retryAtMs?: number } => {
    const before = mode();
    let r: { admitted: boolean; generation: number; retryAtMs?: number };
    if (policy.breaker === 'article') {
      const a = articleBreakerAdmit(article, at, cfg);
      article = a.state;
      r = { admitted: a.admitted, generation: 0 };
    } else {
      const a = correctedBreakerAdmit(corrected, at, cfg);
      corrected = a.state;
      r = { admitted: a.admitted, generation: a.generation, ...(a.retryAtMs === undefined ? {} : { retryAtMs: a.retryAtMs }) };
    }
    noteMode(before, at);
    if (r.admitted && mode() === 'half-open') {
      halfOpenAdmitted++;
      maxHalfOpenAdmitted = Math.max(maxHalfOpenAdmitted, halfOpenAdmitted);
    }
    return r;
  };
  const record = (at: number, generation: number, ok: boolean) => {
    const before = mode();
    if (policy.breaker === 'article') article = ok ? articleBreakerSuccess(article) : articleBreakerFailure(article, at, cfg);
    else corrected = correctedBreakerRecord(corrected, at, generation, ok, cfg);
    noteMode(before, at);
  };

  const queue: Ev[] = [];
  let seq = 0;
  const schedule = (at: number, call: number, kind: Ev['kind']) => {
    const ev = { at, seq: seq++, call, kind };
    let i = queue.length;
    while (i > 0 && (queue[i - 1].at > at || (queue[i - 1].at === at && queue[i - 1].seq > ev.seq))) i--;
    queue.splice(i, 0, ev);
  };
  const lives: Live[] = o.callsAtMs.map((t, index) => ({ index, startAt: t, attempt: 0, upstream: 0, generation: 0, lastStatus: null, ok: false }));
  lives.forEach((l) => schedule(l.startAt, l.index, 'start'));

  const calls: OutageCall[] = [];
  const jitterDrawsMs: number[] = [];
  let upstreamAttempts = 0;
  let duringOutage = 0;
  let rejections = 0;
  const failing = (at: number) => o.upstream.failures.find((f) => at >= f.fromMs && at < f.untilMs) ?? null;
  const sleepMs = (attempt: number) => {
    const j = draw === null ? 0 : draw() * jitterMax;
    if (draw !== null) jitterDrawsMs.push(j);
    return baseDelayMs * 2 ** attempt + j;
  };
  const end = (l: Live, at: number, state: OutageCall['state'], error: OutageCall['error']) => {
    calls.push({ index: l.index, startAtMs: l.startAt, endAtMs: at, state, upstreamAttempts: l.upstream, error });
  };
  const lastError = (l: Live) => (l.lastStatus === null ? null : `HTTP ${l.lastStatus}`);

  while (queue.length > 0) {
    const ev = queue.shift() as Ev;
    const l = lives[ev.call];
    const at = ev.at;
    switch (ev.kind) {
      case 'start':
        if (policy.composition === 'breaker-around-retry') {
          const a = admit(at);
          if (!a.admitted) {
            rejections++;
            end(l, at, 'rejected', { message: 'Circuit breaker is open', cause: null });
            break;
          }
          l.generation = a.generation;
        }
        schedule(at, l.index, 'attempt');
        break;
      case 'attempt': {
        if (policy.composition === 'retry-around-breaker') {
          const a = admit(at);
          if (!a.admitted) {
            rejections++;
            const more = l.attempt + 1 < maxAttempts;
            if (policy.onRejection === 'wait-for-reset' && more && a.retryAtMs !== undefined) {
              const next = Math.max(at + sleepMs(l.attempt), a.retryAtMs);
              l.attempt++;
              schedule(next, l.index, 'attempt');
            } else {
              end(l, at, 'rejected', { message: 'Circuit breaker is open', cause: lastError(l) });
            }
            break;
          }
          l.generation = a.generation;
        }
        const f = failing(at);
        upstreamAttempts++;
        wireAttempts++;
        if (f !== null) duringOutage++;
        l.upstream++;
        l.ok = f === null;
        l.lastStatus = f === null ? null : f.status;
        schedule(at + latencyMs, l.index, 'end');
        break;
      }
      case 'end': {
        const perAttempt = policy.composition === 'retry-around-breaker';
        if (perAttempt) record(at, l.generation, l.ok);
        if (l.ok) {
          if (!perAttempt) record(at, l.generation, true);
          end(l, at, 'succeeded', null);
          break;
        }
        const status = l.lastStatus as number;
        if (!isRetryable(status)) {
          if (!perAttempt) record(at, l.generation, false);
          end(l, at, 'failed', { message: `HTTP ${status}`, cause: null });
          break;
        }
        const more = l.attempt + 1 < maxAttempts;
        if (policy.retry === 'article') {
          // the article sleeps after every retryable failure, the last one included
          schedule(at + sleepMs(l.attempt), l.index, 'wake');
        } else if (more) {
          schedule(at + sleepMs(l.attempt), l.index, 'wake');
        } else {
          if (!perAttempt) record(at, l.generation, false);
          end(l, at, 'failed', { message: `Max retries exceeded after ${maxAttempts} attempts`, cause: lastError(l) });
        }
        break;
      }
      case 'wake':
        if (l.attempt + 1 < maxAttempts) {
          l.attempt++;
          schedule(at, l.index, 'attempt');
        } else {
          if (policy.composition === 'breaker-around-retry') record(at, l.generation, false);
          end(l, at, 'failed', { message: 'Max retries exceeded', cause: lastError(l) });
        }
        break;
    }
  }

  calls.sort((a, b) => a.index - b.index);
  const recovered = calls.filter((c) => c.state === 'succeeded' && c.endAtMs >= outageEnd).map((c) => c.endAtMs);
  const recoveredAtMs = recovered.length === 0 ? null : Math.min(...recovered);
  return {
    calls,
    upstreamAttempts,
    upstreamAttemptsDuringOutage: duringOutage,
    rejections,
    callsSucceeded: calls.filter((c) => c.state === 'succeeded').length,
    callsFailed: calls.filter((c) => c.state === 'failed').length,
    callsRejected: calls.filter((c) => c.state === 'rejected').length,
    attemptsBeforeFirstOpen,
    transitions,
    maxHalfOpenAdmitted,
    recoveredAtMs,
    timeToRecoveryMs: recoveredAtMs === null ? null : recoveredAtMs - outageEnd,
    jitterDrawsMs,
  };
}
