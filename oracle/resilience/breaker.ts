// TEST-ONLY ORACLE: verbatim copy of src/sim/resilience/breaker.ts at 377217e (import paths adjusted). Never import from app code.
import type { ApplyContext, Invariant, Json } from '../../src/sim/types';
import { callToolRequest, errorResponse, toolResultResponse, ERROR_CODES } from '../../src/sim/mcp';
import { backoffDelayMs } from '../../src/sim/retry/backoff';
import type { BreakerConfig, ResilienceEvent } from '../../src/sim/resilience/schema';
import { classifyRetry, type ErrorOrigin } from '../../src/sim/retry/classify';
import { bucketAfter, bucketAllowsRetry, ratioAllowsRetry, ratioBudget, tokenBucket, type RatioBudget, type TokenBucket } from '../../src/sim/retry/budget';

/**
 * A circuit breaker with a retry policy in front of a flaky downstream (issue 5 items 2–3).
 *
 * The corrected breaker (all `policy` switches false): a sliding time window (`windowMs`, ten
 * buckets) that opens once it holds `failureThreshold` calls and the failure rate reaches
 * `failureRateThreshold`; exactly `halfOpenPermits` probes in half-open, the rest rejected; results
 * of calls admitted before a state change are ignored (each state change starts a new generation);
 * one reset timer per opening, even when failures arrive together.
 * The naive breaker of the client-resilience article: a consecutive failure count that never
 * decays, half-open letting every caller through, stale results counted — and the library bug
 * where a failure arriving while already open clears the reset timer without re-arming it.
 *
 * Composition: `retry-around-breaker` asks the breaker for every wire attempt (each counts);
 * `breaker-around-retry` asks once per call and records one result per exhausted retry loop.
 * Retries follow `classifyRetry`, `maxAttempts`, the flow lab's backoff strategies, a
 * `Retry-After` floor, and an optional budget (token bucket or retry ratio).
 *
 * Calls and attempts are kept in append-only logs shared between steps (each state records how
 * much of them it has seen), so 100,000 calls replay in linear time.
 */

/** Breaker states. */
export type BreakerMode = 'closed' | 'open' | 'half-open';

/** One state change of the breaker (the state band). */
export interface BreakerTransition {
  at: number;
  to: BreakerMode;
  generation: number;
  /** Window failure rate (0–1) or consecutive count that triggered it, for the label. */
  why: string;
}

/** One wire attempt (or one rejection by the breaker), logged when it ends. */
export interface AttemptRecord {
  call: string;
  /** 1-based attempt number within its call. */
  n: number;
  startAt: number;
  endAt: number;
  outcome: 'ok' | 'failed' | 'rejected';
  /** Breaker state when the attempt was admitted or rejected. */
  mode: BreakerMode;
  /** The result came from an earlier generation than the breaker's current one. */
  stale: boolean;
}

/** A call that ended. */
export interface CallRecord {
  key: string;
  startAt: number;
  endAt: number;
  state: 'succeeded' | 'failed' | 'rejected';
  attempts: number;
  reason: string;
}

interface Bucket {
  index: number;
  calls: number;
  failures: number;
  firstFailureAt: number | null;
}

/** A call in flight. */
interface LiveCall {
  key: string;
  startAt: number;
  attempt: number;
  /** Generation the call was admitted in (breaker-around-retry), or -1. */
  loopGen: number;
  /** Generation the current attempt was admitted in (retry-around-breaker). */
  attemptGen: number;
  attemptStartAt: number;
  attemptMode: BreakerMode;
}

/** State of the breaker mechanism. */
export interface BreakerState {
  mechanism: 'breaker';
  config: BreakerConfig;
  healthy: boolean;
  mode: BreakerMode;
  generation: number;
  resetHandle: number;
  resetAt: number | null;
  consecutive: number;
  /** Time of the first failure of the current consecutive run (naive count). */
  runStartAt: number | null;
  buckets: readonly Bucket[];
  halfOpenAdmitted: number;
  halfOpenSucceeded: number;
  /** Most probes ever admitted within one half-open period. */
  maxHalfOpenAdmitted: number;
  /** Calls in flight (a small array: copying it per step is cheaper than a keyed object that shrinks). */
  live: readonly LiveCall[];
  bucket: TokenBucket;
  ratio: RatioBudget;
  wireAttempts: number;
  retries: number;
  retriesDenied: number;
  /** Breaker rejections the retry policy retried (retry-around-breaker, `retry.onRejection` not fail-fast). */
  rejectionsRetried: number;
  staleChanges: number;
  /** Failures the breaker counted when it last opened that were older than the window (must stay 0 for the corrected breaker). */
  expiredCountedAtOpen: number;
  wireAttemptsAtFirstOpen: number | null;
  /** Shared append-only logs and how much of each this state has seen. */
  logs: { attempts: AttemptRecord[]; calls: CallRecord[]; transitions: BreakerTransition[] };
  attemptsSeen: number;
  callsSeen: number;
  transitionsSeen: number;
}

/** Timers of the breaker mechanism. */
export type BreakerTimer =
  | { kind: 'reset' }
  | { kind: 'result'; call: string }
  | { kind: 'attempt'; call: string };

/** Tie ranks: the reset timer first, then attempt results, then scripted events, then retries. */
export const BREAKER_RANK = { reset: 0, result: 1, scripted: 2, attempt: 3 } as const;

/** The outcome of the breaker mechanism. */
export interface BreakerOutcome {
  requests: { key: string; state: CallRecord['state'] | 'in-flight'; atMs: number | null; attempts: number; reason: string }[];
  summary: {
    calls: number;
    succeeded: number;
    failed: number;
    rejected: number;
    wireAttempts: number;
    retries: number;
    retriesDenied: number;
    /** Breaker rejections that were retried (each also counts in `retries`). */
    rejectionsRetried: number;
    firstOpenAtMs: number | null;
    wireAttemptsAtFirstOpen: number | null;
    firstHalfOpenAtMs: number | null;
    closedAgainAtMs: number | null;
    maxHalfOpenAdmitted: number;
    finalMode: BreakerMode;
    transitions: string[];
  };
}

type Ctx = ApplyContext<BreakerTimer>;

/** Initial state: closed, downstream as configured, full budget. */
export function initBreaker(config: BreakerConfig): BreakerState {
  return {
    mechanism: 'breaker',
    config,
    healthy: !config.downstream.failingAtStart,
    mode: 'closed',
    generation: 0,
    resetHandle: -1,
    resetAt: null,
    consecutive: 0,
    runStartAt: null,
    buckets: [],
    halfOpenAdmitted: 0,
    halfOpenSucceeded: 0,
    maxHalfOpenAdmitted: 0,
    live: [],
    bucket: tokenBucket(config.retry.maxTokens, config.retry.tokenRatio),
    ratio: ratioBudget(config.retry.retryRatio),
    wireAttempts: 0,
    retries: 0,
    retriesDenied: 0,
    rejectionsRetried: 0,
    staleChanges: 0,
    expiredCountedAtOpen: 0,
    wireAttemptsAtFirstOpen: null,
    logs: { attempts: [], calls: [], transitions: [] },
    attemptsSeen: 0,
    callsSeen: 0,
    transitionsSeen: 0,
  };
}

function bucketMs(c: BreakerConfig): number {
  return Math.max(1, Math.ceil(c.breaker.windowMs / 10));
}

/** Buckets still inside the window at `now` (every one starts after now − windowMs). */
function liveBuckets(s: BreakerState, now: number): Bucket[] {
  const size = bucketMs(s.config);
  return s.buckets.filter((b) => b.index * size > now - s.config.breaker.windowMs);
}

/** The window's calls and failures at `now` (corrected breaker). */
export function windowCounts(s: BreakerState, now: number): { calls: number; failures: number; rate: number } {
  let calls = 0;
  let failures = 0;
  for (const b of liveBuckets(s, now)) {
    calls += b.calls;
    failures += b.failures;
  }
  return { calls, failures, rate: calls === 0 ? 0 : failures / calls };
}

function logTransition(s: BreakerState, t: BreakerTransition): BreakerState {
  s.logs.transitions.push(t);
  return { ...s, transitionsSeen: s.logs.transitions.length };
}

function openBreaker(s: BreakerState, ctx: Ctx, why: string, expired: number): BreakerState {
  const generation = s.generation + 1;
  const resetAt = ctx.now + s.config.breaker.cooldownMs;
  const resetHandle = ctx.schedule(resetAt, BREAKER_RANK.reset, 'client', `breaker reset timer (gen ${generation})`, { kind: 'reset' });
  const next: BreakerState = {
    ...s,
    mode: 'open',
    generation,
    resetHandle,
    resetAt,
    halfOpenAdmitted: 0,
    halfOpenSucceeded: 0,
    expiredCountedAtOpen: expired,
    wireAttemptsAtFirstOpen: s.wireAttemptsAtFirstOpen ?? s.wireAttempts,
  };
  return logTransition(next, { at: ctx.now, to: 'open', generation, why });
}

function closeBreaker(s: BreakerState, ctx: Ctx, why: string): BreakerState {
  const generation = s.generation + 1;
  const next: BreakerState = { ...s, mode: 'closed', generation, buckets: [], consecutive: 0, runStartAt: null, halfOpenAdmitted: 0, halfOpenSucceeded: 0, resetAt: null, resetHandle: -1 };
  return logTransition(next, { at: ctx.now, to: 'closed', generation, why });
}

/** Asks the breaker to admit one call or attempt. Returns the new state and whether it was admitted. */
function admit(s: BreakerState): [BreakerState, boolean] {
  if (s.mode === 'closed') return [s, true];
  if (s.mode === 'open') return [s, false];
  if (!s.config.policy.halfOpenAdmitsAll && s.halfOpenAdmitted >= s.config.breaker.halfOpenPermits) return [s, false];
  const halfOpenAdmitted = s.halfOpenAdmitted + 1;
  return [{ ...s, halfOpenAdmitted, maxHalfOpenAdmitted: Math.max(s.maxHalfOpenAdmitted, halfOpenAdmitted) }, true];
}

/**
 * Records one result with the breaker. `gen` is the generation it was admitted in; the corrected
 * breaker ignores results from an earlier generation.
 */
function record(s: BreakerState, ok: boolean, gen: number, ctx: Ctx): BreakerState {
  const { policy, breaker } = s.config;
  const stale = gen !== s.generation;
  if (stale && !policy.staleResultsCounted) {
    ctx.ignore({ by: 'client', what: `${ok ? 'success' : 'failure'} from generation ${gen}`, reason: `the breaker moved to generation ${s.generation} since this call was admitted`, rule: 'breaker.generation' });
    return s;
  }
  const before = s;
  let next = s;
  if (s.mode === 'half-open') {
    if (!ok) next = openBreaker(s, ctx, 'probe failed', 0);
    else {
      const succeeded = s.halfOpenSucceeded + 1;
      next = { ...s, halfOpenSucceeded: succeeded };
      if (policy.halfOpenAdmitsAll || succeeded >= breaker.halfOpenPermits) next = closeBreaker(next, ctx, `${succeeded} probe${succeeded === 1 ? '' : 's'} succeeded`);
    }
  } else if (s.mode === 'open') {
    // Only reachable with stale results counted: a late failure "trips" an open breaker again.
    if (!ok) {
      if (policy.resetTimerLostOnRepeatOpen) {
        ctx.cancel(s.resetHandle);
        next = { ...s, resetHandle: -1, resetAt: null, consecutive: s.consecutive + 1 };
        ctx.why('Bug: a failure arrives while the breaker is already open; trip() clears the reset timer and, the state being open already, never arms a new one — the breaker stays open forever.', 'breaker.one-timer');
      } else next = { ...s, consecutive: s.consecutive + 1 };
    }
  } else if (policy.consecutiveNeverDecays) {
    const consecutive = ok ? 0 : s.consecutive + 1;
    const runStartAt = ok ? null : (s.runStartAt ?? ctx.now);
    next = { ...s, consecutive, runStartAt };
    if (!ok && consecutive >= breaker.failureThreshold) {
      const expired = runStartAt !== null && runStartAt <= ctx.now - breaker.windowMs ? 1 : 0;
      next = openBreaker(next, ctx, `${consecutive} consecutive failures`, expired);
    }
  } else {
    const size = bucketMs(s.config);
    const index = Math.floor(ctx.now / size);
    const buckets = liveBuckets(s, ctx.now);
    const last = buckets[buckets.length - 1];
    if (last && last.index === index) {
      buckets[buckets.length - 1] = { index, calls: last.calls + 1, failures: last.failures + (ok ? 0 : 1), firstFailureAt: last.firstFailureAt ?? (ok ? null : ctx.now) };
    } else buckets.push({ index, calls: 1, failures: ok ? 0 : 1, firstFailureAt: ok ? null : ctx.now });
    next = { ...s, buckets };
    if (!ok) {
      const w = windowCounts(next, ctx.now);
      if (w.calls >= breaker.failureThreshold && w.rate >= breaker.failureRateThreshold) {
        const expired = buckets.filter((b) => b.firstFailureAt !== null && b.firstFailureAt <= ctx.now - breaker.windowMs).length;
        next = openBreaker(next, ctx, `window failure rate ${Math.round(w.rate * 100)}% of ${w.calls} calls`, expired);
      }
    }
  }
  if (stale && (next.mode !== before.mode || next.consecutive !== before.consecutive || next.buckets !== before.buckets || next.resetHandle !== before.resetHandle)) {
    next = { ...next, staleChanges: next.staleChanges + 1 };
  }
  return next;
}

/** The error origin the classifier reads for a failed attempt of this downstream. */
export function downstreamOrigin(c: BreakerConfig): ErrorOrigin {
  const f = c.downstream.failWith;
  if (f.startsWith('http-')) {
    const status = Number(f.slice(5));
    const retryAfter = (status === 429 || status === 503) && c.downstream.retryAfterMs !== null ? { retryAfterMs: c.downstream.retryAfterMs } : {};
    return { kind: 'http', status, ...retryAfter };
  }
  if (f.startsWith('jsonrpc')) return { kind: 'jsonrpc', code: -Number(f.slice(8)) };
  if (f === 'tool-error') return { kind: 'tool-error' };
  if (f === 'network') return { kind: 'network' };
  if (f === 'partial-stream') return { kind: 'partial-stream' };
  return { kind: 'client-timeout' };
}

function withLive(s: BreakerState, call: LiveCall | null, key: string): BreakerState {
  const i = s.live.findIndex((c) => c.key === key);
  let live: LiveCall[];
  if (call === null) live = i < 0 ? s.live.slice() : s.live.slice(0, i).concat(s.live.slice(i + 1));
  else {
    live = s.live.slice();
    if (i < 0) live.push(call);
    else live[i] = call;
  }
  return { ...s, live };
}

function logAttempt(s: BreakerState, a: AttemptRecord): BreakerState {
  s.logs.attempts.push(a);
  return { ...s, attemptsSeen: s.logs.attempts.length };
}

function endCall(s: BreakerState, call: LiveCall, now: number, state: CallRecord['state'], reason: string): BreakerState {
  s.logs.calls.push({ key: call.key, startAt: call.startAt, endAt: now, state, attempts: call.attempt, reason });
  return { ...withLive(s, null, call.key), callsSeen: s.logs.calls.length };
}

/**
 * Why the retry policy stops after attempt `call.attempt` (attempt limit, token bucket, retry
 * ratio), or null when it may retry. A denial by a budget is counted in `retriesDenied`.
 */
function retryLimit(s: BreakerState, call: LiveCall): [BreakerState, string | null] {
  const { retry } = s.config;
  if (call.attempt >= retry.maxAttempts) return [s, `gave up after ${call.attempt} attempt${call.attempt === 1 ? '' : 's'} (maxAttempts ${retry.maxAttempts})`];
  let stop: string | null = null;
  if (retry.budget === 'token-bucket' && !bucketAllowsRetry(s.bucket)) stop = `retry denied: the token bucket holds ${s.bucket.tokensMilli / 1000} of ${s.bucket.maxMilli / 1000} tokens (retries stop at half)`;
  else if (retry.budget === 'ratio' && !ratioAllowsRetry(s.ratio)) stop = `retry denied: ${s.ratio.retries} retries for ${s.ratio.calls} calls already uses the ${s.ratio.ratioMilli / 10}% budget`;
  return stop === null ? [s, null] : [{ ...s, retriesDenied: s.retriesDenied + 1 }, stop];
}

/** Schedules attempt `call.attempt + 1` in `delayMs` and counts the retry. */
function scheduleRetry(s: BreakerState, call: LiveCall, delayMs: number, ctx: Ctx): BreakerState {
  ctx.schedule(ctx.now + delayMs, BREAKER_RANK.attempt, 'client', `${call.key} attempt ${call.attempt + 1}`, { kind: 'attempt', call: call.key });
  return withLive({ ...s, retries: s.retries + 1, ratio: { ...s.ratio, retries: s.ratio.retries + 1 } }, { ...call, attempt: call.attempt + 1 }, call.key);
}

/**
 * A breaker rejection of one attempt under retry-around-breaker, handled by `retry.onRejection`
 * (the lab's rule, after Polly's PolicyWrap guidance: a retry wrapping a breaker must not hammer
 * it). Nothing reached the downstream, so the retry is safe whatever the side effect, and the
 * downstream's health is not counted. `fail-fast` ends the call; `wait-for-reset` retries no
 * sooner than the breaker's reset time (open) or after the backoff (half-open, permits used);
 * `backoff` retries on the normal backoff, so the attempts burn against the open breaker.
 * The attempt limit and the retry budget bound both.
 */
function rejectAttempt(s: BreakerState, call: LiveCall, ctx: Ctx): BreakerState {
  const { retry } = s.config;
  const mode = s.mode;
  const [next, stop] = retry.onRejection === 'fail-fast' ? [s, 'fail fast: a rejection is returned at once'] : retryLimit(s, call);
  if (stop !== null) {
    ctx.why(() => `Attempt ${call.attempt} of ${call.key} is rejected by the ${mode} breaker; ${stop}.`, 'breaker.reject');
    return endCall(next, call, ctx.now, 'rejected', `rejected by the ${mode} breaker on attempt ${call.attempt}; ${stop}`);
  }
  const backoff = backoffDelayMs(retry.strategy, call.key, call.attempt - 1, { baseMs: retry.baseMs, capMs: retry.capMs, seed: 1 });
  const untilReset = retry.onRejection === 'wait-for-reset' && s.resetAt !== null ? s.resetAt - ctx.now : 0;
  const delay = Math.max(backoff, untilReset, 1);
  const when =
    retry.onRejection === 'backoff'
      ? `retry in ${delay} ms on the normal backoff (naive: the breaker is still ${mode}, so the attempts burn against it)`
      : untilReset > 0 && untilReset >= backoff
        ? `nothing reached the downstream, so it is safe to retry: waits ${delay} ms for the reset at ${s.resetAt} ms`
        : `nothing reached the downstream, so it is safe to retry: in ${delay} ms (backoff)`;
  ctx.why(() => `Attempt ${call.attempt} of ${call.key} is rejected by the ${mode} breaker; ${when}.`, 'breaker.reject');
  return { ...scheduleRetry(next, call, delay, ctx), rejectionsRetried: next.rejectionsRetried + 1 };
}

/** Starts attempt `call.attempt` now: asks the breaker (retry-around-breaker) and sends the request. */
function startAttempt(s: BreakerState, call: LiveCall, ctx: Ctx): BreakerState {
  const { config } = s;
  let next = s;
  let gen = call.loopGen;
  let mode = s.mode;
  if (config.composition === 'retry-around-breaker') {
    const [after, ok] = admit(s);
    if (!ok) return rejectAttempt(logAttempt(after, { call: call.key, n: call.attempt, startAt: ctx.now, endAt: ctx.now, outcome: 'rejected', mode: s.mode, stale: false }), call, ctx);
    next = after;
    gen = s.generation;
    mode = s.mode;
  }
  const meta: Record<string, Json> = { 'lab.mcp-reliability/attempt': call.attempt };
  if (config.operation.idempotencyKey.trim() !== '') meta['lab.mcp-reliability/idempotency-key'] = config.operation.idempotencyKey;
  const message = callToolRequest(config.revision, `${call.key}/${call.attempt}`, 'flaky_lookup', null) as { params: { _meta?: Record<string, Json> } };
  message.params._meta = { ...(message.params._meta ?? {}), ...meta };
  const endAt = ctx.now + config.downstream.latencyMs;
  ctx.emit({ from: 'client', transport: 'streamable-http', message: message as unknown as Json, arrivesAt: ctx.now, requestKey: call.key });
  ctx.schedule(endAt, BREAKER_RANK.result, 'upstream', `${call.key} attempt ${call.attempt} result`, { kind: 'result', call: call.key });
  const live: LiveCall = { ...call, attemptGen: gen, attemptStartAt: ctx.now, attemptMode: mode };
  next = withLive({ ...next, wireAttempts: next.wireAttempts + 1 }, live, call.key);
  ctx.why(() => `${call.key} sends attempt ${call.attempt}${config.composition === 'retry-around-breaker' ? ` (admitted by the ${mode} breaker, generation ${gen})` : ''}.`, 'retry.attempt');
  return next;
}

/** Applies one scripted event of the breaker mechanism. */
export function applyBreakerScripted(s: BreakerState, ev: ResilienceEvent, ctx: Ctx): BreakerState {
  switch (ev.kind) {
    case 'recover':
    case 'outage': {
      const healthy = ev.kind === 'recover';
      ctx.why(healthy ? 'The downstream recovers: attempts from now on succeed.' : 'The downstream starts failing.', 'downstream');
      return { ...s, healthy };
    }
    case 'request': {
      let next = s;
      const notes: string[] = [];
      for (let i = 0; i < ev.count; i++) {
        const key = ev.count === 1 ? ev.id : `${ev.id}#${i + 1}`;
        next = { ...next, ratio: { ...next.ratio, calls: next.ratio.calls + 1 } };
        const call: LiveCall = { key, startAt: ctx.now, attempt: 1, loopGen: -1, attemptGen: -1, attemptStartAt: ctx.now, attemptMode: next.mode };
        if (s.config.composition === 'breaker-around-retry') {
          const mode = next.mode;
          const [after, ok] = admit(next);
          if (!ok) {
            next = logAttempt(after, { call: key, n: 1, startAt: ctx.now, endAt: ctx.now, outcome: 'rejected', mode, stale: false });
            next = endCall(next, call, ctx.now, 'rejected', `rejected by the ${mode} breaker`);
            notes.push(`${key} rejected (${mode})`);
            continue;
          }
          next = startAttempt(after, { ...call, loopGen: next.generation, attemptMode: mode }, ctx);
        } else next = startAttempt(next, call, ctx);
        notes.push(`${key} starts`);
      }
      if (ev.count > 1) ctx.why(() => `${ev.count} concurrent calls: ${notes.join(', ')}.`, 'retry.attempt');
      return next;
    }
    default:
      ctx.ignore({ by: ev.actor, what: ev.id, reason: `"${ev.kind}" is not an event of the breaker mechanism`, rule: 'lab.mechanism' });
      ctx.why(() => `"${ev.kind}" has no meaning for the breaker; ignored.`);
      return s;
  }
}

function failureMessage(s: BreakerState, id: string): { message?: Json; http?: string } {
  const f = s.config.downstream.failWith;
  if (f.startsWith('http-')) {
    const ra = s.config.downstream.retryAfterMs;
    const status = f.slice(5);
    return { http: `HTTP ${status}${ra !== null && (status === '429' || status === '503') ? ` Retry-After: ${Math.ceil(ra / 1000)}` : ''}` };
  }
  if (f === 'jsonrpc-32603') return { message: errorResponse(id, ERROR_CODES.internalError, 'Internal error') };
  if (f === 'jsonrpc-32602') return { message: errorResponse(id, ERROR_CODES.invalidParams, 'Invalid params') };
  if (f === 'tool-error') return { message: toolResultResponse(s.config.revision, id, 'downstream unavailable', true) };
  if (f === 'network') return { http: 'connection reset before any response' };
  if (f === 'partial-stream') return { http: 'SSE response stream broken after partial output (no final result)' };
  return { http: `client timeout (${ERROR_CODES.requestTimeout} locally), outcome unknown` };
}

/** Applies one timer of the breaker mechanism. */
export function applyBreakerTimer(s: BreakerState, t: BreakerTimer, ctx: Ctx): BreakerState {
  const { config } = s;
  if (t.kind === 'reset') {
    if (s.mode !== 'open') return s;
    const generation = s.generation + 1;
    ctx.why(() => `The reset timeout (${config.breaker.cooldownMs} ms) ends: the breaker goes half-open and admits ${config.policy.halfOpenAdmitsAll ? 'every caller (naive)' : `${config.breaker.halfOpenPermits} probe${config.breaker.halfOpenPermits === 1 ? '' : 's'}`}.`, 'breaker.half-open');
    return logTransition({ ...s, mode: 'half-open', generation, resetHandle: -1, resetAt: null, halfOpenAdmitted: 0, halfOpenSucceeded: 0 }, { at: ctx.now, to: 'half-open', generation, why: 'reset timeout' });
  }
  const call = s.live.find((c) => c.key === t.call);
  if (!call) return s;
  if (t.kind === 'attempt') return startAttempt(s, call, ctx);
  // result
  const ok = s.healthy;
  const id = `${call.key}/${call.attempt}`;
  const composedPerAttempt = config.composition === 'retry-around-breaker';
  const stale = composedPerAttempt && call.attemptGen !== s.generation;
  let next = logAttempt(s, { call: call.key, n: call.attempt, startAt: call.attemptStartAt, endAt: ctx.now, outcome: ok ? 'ok' : 'failed', mode: call.attemptMode, stale });
  if (ok) ctx.emit({ from: 'server', transport: 'streamable-http', message: toolResultResponse(config.revision, id, 'ok', false), arrivesAt: ctx.now, requestKey: call.key });
  else ctx.emit({ from: 'server', transport: 'streamable-http', ...failureMessage(s, id), arrivesAt: ctx.now, requestKey: call.key });
  if (config.retry.budget === 'token-bucket') next = { ...next, bucket: bucketAfter(next.bucket, ok) };
  const modeBefore = next.mode;
  if (composedPerAttempt) next = record(next, ok, call.attemptGen, ctx);
  const modeNote = next.mode !== modeBefore ? ` The breaker goes ${next.mode}.` : stale ? (config.policy.staleResultsCounted ? ' (a stale result, counted: naive)' : ' (a stale result from an earlier generation: ignored)') : '';
  if (ok) {
    if (!composedPerAttempt) next = record(next, true, call.loopGen, ctx);
    ctx.why(() => `${call.key} attempt ${call.attempt} succeeds.${next.mode !== modeBefore ? ` The breaker goes ${next.mode}.` : modeNote}`, 'retry.attempt');
    return endCall(next, call, ctx.now, 'succeeded', `succeeded on attempt ${call.attempt}`);
  }
  const c = classifyRetry({ sideEffect: config.operation.sideEffect, idempotencyKey: config.operation.idempotencyKey, origin: downstreamOrigin(config) });
  let stop: string | null = null;
  if (!c.retry) stop = `not retried: ${c.reason}`;
  else [next, stop] = retryLimit(next, call);
  if (stop !== null) {
    if (!composedPerAttempt) {
      const before = next.mode;
      next = record(next, false, call.loopGen, ctx);
      if (next.mode !== before) stop += `; the breaker counts this exhausted loop and goes ${next.mode}`;
    }
    const text = stop;
    ctx.why(() => `${call.key} attempt ${call.attempt} fails (${config.downstream.failWith}).${modeNote} ${text.charAt(0).toUpperCase()}${text.slice(1)}.`, 'retry.stop');
    return endCall(next, call, ctx.now, 'failed', text);
  }
  const backoff = backoffDelayMs(config.retry.strategy, call.key, call.attempt - 1, { baseMs: config.retry.baseMs, capMs: config.retry.capMs, seed: 1 });
  const delay = Math.max(backoff, c.retryAfterFloorMs ?? 0);
  next = scheduleRetry(next, call, delay, ctx);
  ctx.why(() => `${call.key} attempt ${call.attempt} fails (${config.downstream.failWith}).${modeNote} ${c.verdict}: retry in ${delay} ms (${config.retry.strategy}${c.retryAfterFloorMs !== undefined ? `, Retry-After floor ${c.retryAfterFloorMs} ms` : ''}).`, 'retry.backoff');
  return next;
}

/** The outcome: per call and the breaker's history. */
export function breakerOutcome(s: BreakerState): BreakerOutcome {
  const calls = s.logs.calls.slice(0, s.callsSeen);
  const transitions = s.logs.transitions.slice(0, s.transitionsSeen);
  const requests: BreakerOutcome['requests'] = calls.map((c) => ({ key: c.key, state: c.state, atMs: c.endAt, attempts: c.attempts, reason: c.reason }));
  for (const c of s.live) requests.push({ key: c.key, state: 'in-flight', atMs: null, attempts: c.attempt, reason: 'still running' });
  const firstOpen = transitions.find((t) => t.to === 'open');
  const firstHalf = transitions.find((t) => t.to === 'half-open');
  const closedAgain = firstOpen ? transitions.find((t) => t.to === 'closed' && t.at >= firstOpen.at) : undefined;
  let succeeded = 0;
  let failed = 0;
  let rejected = 0;
  for (const c of calls) {
    if (c.state === 'succeeded') succeeded++;
    else if (c.state === 'failed') failed++;
    else rejected++;
  }
  return {
    requests,
    summary: {
      calls: s.ratio.calls,
      succeeded,
      failed,
      rejected,
      wireAttempts: s.wireAttempts,
      retries: s.retries,
      retriesDenied: s.retriesDenied,
      rejectionsRetried: s.rejectionsRetried,
      firstOpenAtMs: firstOpen?.at ?? null,
      wireAttemptsAtFirstOpen: s.wireAttemptsAtFirstOpen,
      firstHalfOpenAtMs: firstHalf?.at ?? null,
      closedAgainAtMs: closedAgain?.at ?? null,
      maxHalfOpenAdmitted: s.maxHalfOpenAdmitted,
      finalMode: s.mode,
      transitions: transitions.map((t) => `${t.to}@${t.at}`),
    },
  };
}

/** Invariants of the breaker mechanism. */
export const breakerInvariants: Invariant<BreakerState>[] = [
  {
    name: 'half-open-limit',
    description: 'Half-open admits at most halfOpenPermits probes; the rest are rejected.',
    check: (s) => (s.halfOpenAdmitted > s.config.breaker.halfOpenPermits ? `half-open admitted ${s.halfOpenAdmitted} calls with ${s.config.breaker.halfOpenPermits} permit(s)` : null),
  },
  {
    name: 'stale-result-ignored',
    description: 'A result of a call admitted before a state change never changes the breaker.',
    check: (s) => (s.staleChanges > 0 ? `${s.staleChanges} stale result(s) changed the breaker` : null),
  },
  {
    name: 'reset-timer-armed',
    description: 'While open, exactly one reset timer is pending, so the breaker always reaches half-open.',
    check: (s) => (s.mode === 'open' && s.resetHandle < 0 ? 'the breaker is open with no reset timer: it will never leave open' : null),
  },
  {
    name: 'old-failures-expire',
    description: `The breaker opens only on failures inside its window (windowMs); old failures never count.`,
    check: (s) => (s.expiredCountedAtOpen > 0 ? `the breaker opened counting failures older than ${s.config.breaker.windowMs} ms` : null),
  },
  {
    name: 'retry-budget-respected',
    description: 'Under a ratio budget, retries never exceed retryRatio × calls.',
    check: (s) => (s.config.retry.budget === 'ratio' && s.retries * 1000 > s.ratio.ratioMilli * s.ratio.calls ? `${s.retries} retries for ${s.ratio.calls} calls exceed the ${s.ratio.ratioMilli / 10}% budget` : null),
  },
];
