import type { BreakerConfig } from './schema';
import { ratioBudget, tokenBucket, type RatioBudget, type TokenBucket } from '../retry/budget';

/**
 * A circuit breaker with a retry policy in front of a flaky downstream (issue 5 items 2–3).
 *
 * The corrected breaker (all `policy` switches false): a sliding time window (`windowMs`, ten
 * buckets) that opens once it holds `failureThreshold` calls and the failure rate reaches
 * `failureRateThreshold`; exactly `halfOpenPermits` probes in half-open, the rest rejected; results
 * of calls admitted before a state change are ignored (each state change starts a new generation);
 * one reset timer per opening, even when failures arrive together; only transport failures count
 * (an `isError` tool result is a completed round trip, a success to the breaker); a tool with a
 * side effect is probed in half-open with a side-effect-free request (ping / server/discover),
 * never with a real call (hermes-agent#11113).
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
 * much of them it has seen), so 100,000 calls replay in linear time. On the checkpointed core the
 * hot loop mutates one `BreakerCore` (calls in flight in a Map, buckets and budgets in place);
 * traces and checkpoints hold `BreakerState` views (`breakerView`).
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

/** One bucket of the sliding window (`windowMs / 10` wide). */
export interface Bucket {
  index: number;
  calls: number;
  failures: number;
  firstFailureAt: number | null;
}

/** A call in flight. */
export interface LiveCall {
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
  /** Side-effect-free half-open probes sent (ping / server/discover; a tool with a side effect, corrected breaker). */
  probesSent: number;
  /** Half-open probes that were real tools/call attempts of a tool with a side effect (bug `halfOpenProbeIsRealCall`; must stay 0). */
  probeSideEffects: number;
  /** isError tool results the breaker counted as failures (bug `toolErrorsCounted`; must stay 0). */
  toolErrorsCounted: number;
  /** Shared append-only logs and how much of each this state has seen. */
  logs: { attempts: AttemptRecord[]; calls: CallRecord[]; transitions: BreakerTransition[] };
  attemptsSeen: number;
  callsSeen: number;
  transitionsSeen: number;
}

/** Timers of the breaker mechanism. */
export type BreakerTimer =
  | { kind: 'reset' }
  /** `id`: the JSON-RPC id of the attempt's request, which the reply echoes (one string for both). */
  | { kind: 'result'; call: string; id: string }
  | { kind: 'attempt'; call: string }
  /** A side-effect-free half-open probe's answer arrives (`id`: its JSON-RPC id; `gen`: the half-open generation that sent it). */
  | { kind: 'probe'; id: string; gen: number };

/** Tie ranks: the reset timer first, then attempt results (and probe answers), then scripted events, then retries. */
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
    /** Side-effect-free half-open probes sent (ping / server/discover). */
    probesSent: number;
    /** Half-open probes that repeated a tool's side effect (bug `halfOpenProbeIsRealCall`). */
    probeSideEffects: number;
    /** isError tool results counted as breaker failures (bug `toolErrorsCounted`). */
    toolErrorsCounted: number;
    finalMode: BreakerMode;
    transitions: string[];
  };
}

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
    probesSent: 0,
    probeSideEffects: 0,
    toolErrorsCounted: 0,
    logs: { attempts: [], calls: [], transitions: [] },
    attemptsSeen: 0,
    callsSeen: 0,
    transitionsSeen: 0,
  };
}


/** A call in flight on the core: `LiveCall`'s fields, changed in place, plus its cached frozen view (null: changed since). */
export interface LiveCallCore extends LiveCall {
  view: LiveCall | null;
}

/**
 * The mutable state of the breaker on the core: the fields of `BreakerState`, with the calls in
 * flight in a Map (insertion order = the view's array order) and budgets and calls changed in
 * place. The logs are shared with the views (append-only; views read their seen counts).
 * Structural sharing (issue 10: the full trace keeps a state per step): a bucket record and the
 * token bucket are values (replaced on change, never changed), so views share them; each call
 * caches its frozen view and the state its frozen `live` and `buckets` lists until they change
 * (`callChanged`, `liveChanged`, `bucketsChanged`), so a step's view copies only what the step changed.
 */
export interface BreakerCore extends Omit<BreakerState, 'buckets' | 'live' | 'bucket' | 'ratio'> {
  buckets: Bucket[];
  live: Map<string, LiveCallCore>;
  bucket: TokenBucket;
  ratio: RatioBudget;
  liveView: readonly LiveCall[] | null;
  bucketsView: readonly Bucket[] | null;
}

/** Call `call` changed (or joined the calls in flight): its view and the list's are rebuilt at the next view. */
export function callChanged(s: BreakerCore, call: LiveCallCore): void {
  call.view = null;
  s.liveView = null;
}

/** The set of calls in flight changed (a call ended). */
export function liveChanged(s: BreakerCore): void {
  s.liveView = null;
}

/** The window's buckets changed (one added, replaced or dropped). */
export function bucketsChanged(s: BreakerCore): void {
  s.bucketsView = null;
}

function liveViewOf(s: BreakerCore): readonly LiveCall[] {
  const live: LiveCall[] = [];
  for (const c of s.live.values()) {
    live.push((c.view ??= Object.freeze({ key: c.key, startAt: c.startAt, attempt: c.attempt, loopGen: c.loopGen, attemptGen: c.attemptGen, attemptStartAt: c.attemptStartAt, attemptMode: c.attemptMode })));
  }
  return Object.freeze(live);
}

/** The mutable core state at the start (`initBreaker`'s state). */
export function initBreakerCore(config: BreakerConfig): BreakerCore {
  return breakerThaw(initBreaker(config));
}

/** An immutable view of `s` in `BreakerState`'s shape and key order (unchanged calls, buckets and the token bucket shared with earlier views; logs shared). */
export function breakerView(s: BreakerCore): BreakerState {
  return {
    mechanism: 'breaker',
    config: s.config,
    healthy: s.healthy,
    mode: s.mode,
    generation: s.generation,
    resetHandle: s.resetHandle,
    resetAt: s.resetAt,
    consecutive: s.consecutive,
    runStartAt: s.runStartAt,
    buckets: (s.bucketsView ??= Object.freeze(s.buckets.slice())),
    halfOpenAdmitted: s.halfOpenAdmitted,
    halfOpenSucceeded: s.halfOpenSucceeded,
    maxHalfOpenAdmitted: s.maxHalfOpenAdmitted,
    live: (s.liveView ??= liveViewOf(s)),
    bucket: s.bucket,
    ratio: { ...s.ratio },
    wireAttempts: s.wireAttempts,
    retries: s.retries,
    retriesDenied: s.retriesDenied,
    rejectionsRetried: s.rejectionsRetried,
    staleChanges: s.staleChanges,
    expiredCountedAtOpen: s.expiredCountedAtOpen,
    wireAttemptsAtFirstOpen: s.wireAttemptsAtFirstOpen,
    probesSent: s.probesSent,
    probeSideEffects: s.probeSideEffects,
    toolErrorsCounted: s.toolErrorsCounted,
    logs: s.logs,
    attemptsSeen: s.attemptsSeen,
    callsSeen: s.callsSeen,
    transitionsSeen: s.transitionsSeen,
  };
}

/**
 * A fresh mutable state equal to `v`. The logs are copied up to the view's seen counts, so a run
 * resumed from a checkpoint appends to its own logs, never to those of the trace it came from.
 */
export function breakerThaw(v: BreakerState): BreakerCore {
  const live = new Map<string, LiveCallCore>();
  // A frozen part of the view is its cached view from the start (views are never changed).
  for (const c of v.live) live.set(c.key, { ...c, view: Object.isFrozen(c) ? c : null });
  return {
    ...v,
    buckets: v.buckets.slice(),
    live,
    bucket: { ...v.bucket },
    ratio: { ...v.ratio },
    logs: { attempts: v.logs.attempts.slice(0, v.attemptsSeen), calls: v.logs.calls.slice(0, v.callsSeen), transitions: v.logs.transitions.slice(0, v.transitionsSeen) },
    liveView: Object.isFrozen(v.live) ? v.live : null,
    bucketsView: null,
  };
}
