import type { CoreContext } from '../core';
import type { BreakerConfig } from './schema';
import { BREAKER_RANK, bucketsChanged, type Bucket, type BreakerCore, type BreakerTimer, type BreakerTransition } from './breakerTypes';

/**
 * The breaker proper, on the checkpointed core: its sliding window, state changes (each starting
 * a new generation), admission and the recording of one result — all mutating the `BreakerCore`
 * in place. Rules in `breakerTypes.ts`.
 */

/** The core context of the breaker mechanism. */
export type BreakerCtx = CoreContext<BreakerTimer>;

/** Width of one window bucket: a tenth of the window, at least 1 ms. */
export function bucketMs(c: BreakerConfig): number {
  return Math.max(1, Math.ceil(c.breaker.windowMs / 10));
}

/** The window's calls and failures at `now` (corrected breaker); reads a view or the core state. */
export function windowCounts(s: { config: BreakerConfig; buckets: readonly Bucket[] }, now: number): { calls: number; failures: number; rate: number } {
  const size = bucketMs(s.config);
  let calls = 0;
  let failures = 0;
  for (const b of s.buckets) {
    if (b.index * size <= now - s.config.breaker.windowMs) continue;
    calls += b.calls;
    failures += b.failures;
  }
  return { calls, failures, rate: calls === 0 ? 0 : failures / calls };
}

function logTransition(s: BreakerCore, t: BreakerTransition): void {
  s.logs.transitions.push(t);
  s.transitionsSeen = s.logs.transitions.length;
}

/** Opens the breaker: a new generation and one reset timer. */
export function openBreaker(s: BreakerCore, ctx: BreakerCtx, why: string, expired: number): void {
  const generation = s.generation + 1;
  const resetAt = ctx.now + s.config.breaker.cooldownMs;
  s.resetHandle = ctx.schedule(resetAt, BREAKER_RANK.reset, 'client', `breaker reset timer (gen ${generation})`, { kind: 'reset' });
  s.mode = 'open';
  s.generation = generation;
  s.resetAt = resetAt;
  s.halfOpenAdmitted = 0;
  s.halfOpenSucceeded = 0;
  s.expiredCountedAtOpen = expired;
  s.wireAttemptsAtFirstOpen = s.wireAttemptsAtFirstOpen ?? s.wireAttempts;
  logTransition(s, { at: ctx.now, to: 'open', generation, why });
}

function closeBreaker(s: BreakerCore, ctx: BreakerCtx, why: string): void {
  const generation = s.generation + 1;
  s.mode = 'closed';
  s.generation = generation;
  s.buckets = [];
  bucketsChanged(s);
  s.consecutive = 0;
  s.runStartAt = null;
  s.halfOpenAdmitted = 0;
  s.halfOpenSucceeded = 0;
  s.resetAt = null;
  s.resetHandle = -1;
  logTransition(s, { at: ctx.now, to: 'closed', generation, why });
}

/** The reset timeout ends: open → half-open (a new generation). */
export function halfOpen(s: BreakerCore, ctx: BreakerCtx): void {
  const generation = s.generation + 1;
  s.mode = 'half-open';
  s.generation = generation;
  s.resetHandle = -1;
  s.resetAt = null;
  s.halfOpenAdmitted = 0;
  s.halfOpenSucceeded = 0;
  logTransition(s, { at: ctx.now, to: 'half-open', generation, why: 'reset timeout' });
}

/** Asks the breaker to admit one call or attempt; true when admitted (a half-open probe is counted). */
export function admit(s: BreakerCore): boolean {
  if (s.mode === 'closed') return true;
  if (s.mode === 'open') return false;
  if (!s.config.policy.halfOpenAdmitsAll && s.halfOpenAdmitted >= s.config.breaker.halfOpenPermits) return false;
  s.halfOpenAdmitted++;
  if (s.halfOpenAdmitted > s.maxHalfOpenAdmitted) s.maxHalfOpenAdmitted = s.halfOpenAdmitted;
  return true;
}

/**
 * Records one result with the breaker. `gen` is the generation it was admitted in; the corrected
 * breaker ignores results from an earlier generation. A stale result that changes the mode, the
 * consecutive count, the window or the reset timer is counted in `staleChanges`.
 */
export function record(s: BreakerCore, ok: boolean, gen: number, ctx: BreakerCtx): void {
  const { policy, breaker } = s.config;
  const stale = gen !== s.generation;
  if (stale && !policy.staleResultsCounted) {
    if (ctx.keepsIgnored) ctx.ignore({ by: 'client', what: `${ok ? 'success' : 'failure'} from generation ${gen}`, reason: `the breaker moved to generation ${s.generation} since this call was admitted`, rule: 'breaker.generation' });
    return;
  }
  const mode0 = s.mode;
  const consecutive0 = s.consecutive;
  const reset0 = s.resetHandle;
  let windowChanged = false;
  if (s.mode === 'half-open') {
    if (!ok) openBreaker(s, ctx, 'probe failed', 0);
    else {
      const succeeded = ++s.halfOpenSucceeded;
      if (policy.halfOpenAdmitsAll || succeeded >= breaker.halfOpenPermits) {
        closeBreaker(s, ctx, `${succeeded} probe${succeeded === 1 ? '' : 's'} succeeded`);
        windowChanged = true;
      }
    }
  } else if (s.mode === 'open') {
    // Only reachable with stale results counted: a late failure "trips" an open breaker again.
    if (!ok) {
      if (policy.resetTimerLostOnRepeatOpen) {
        ctx.cancel(s.resetHandle);
        s.resetHandle = -1;
        s.resetAt = null;
        ctx.why('Bug: a failure arrives while the breaker is already open; trip() clears the reset timer and, the state being open already, never arms a new one — the breaker stays open forever.', 'breaker.one-timer');
      }
      s.consecutive++;
    }
  } else if (policy.consecutiveNeverDecays) {
    s.consecutive = ok ? 0 : s.consecutive + 1;
    s.runStartAt = ok ? null : (s.runStartAt ?? ctx.now);
    if (!ok && s.consecutive >= breaker.failureThreshold) {
      const expired = s.runStartAt !== null && s.runStartAt <= ctx.now - breaker.windowMs ? 1 : 0;
      openBreaker(s, ctx, `${s.consecutive} consecutive failures`, expired);
    }
  } else {
    // The sliding window: drop the buckets that left it (a prefix: buckets are in time order), then count.
    const size = bucketMs(s.config);
    const index = Math.floor(ctx.now / size);
    const buckets = s.buckets;
    const horizon = ctx.now - breaker.windowMs;
    let gone = 0;
    while (gone < buckets.length && buckets[gone].index * size <= horizon) gone++;
    if (gone > 0) buckets.splice(0, gone);
    const last = buckets.length > 0 ? buckets[buckets.length - 1] : undefined;
    // A bucket record is a value shared with the views (`BreakerCore`): replaced, never changed.
    if (last !== undefined && last.index === index) {
      buckets[buckets.length - 1] = { index, calls: last.calls + 1, failures: ok ? last.failures : last.failures + 1, firstFailureAt: ok || last.firstFailureAt !== null ? last.firstFailureAt : ctx.now };
    } else buckets.push({ index, calls: 1, failures: ok ? 0 : 1, firstFailureAt: ok ? null : ctx.now });
    bucketsChanged(s);
    windowChanged = true;
    if (!ok) {
      let calls = 0;
      let failures = 0;
      for (let i = 0; i < buckets.length; i++) {
        calls += buckets[i].calls;
        failures += buckets[i].failures;
      }
      const rate = calls === 0 ? 0 : failures / calls;
      if (calls >= breaker.failureThreshold && rate >= breaker.failureRateThreshold) {
        let expired = 0;
        for (const b of buckets) if (b.firstFailureAt !== null && b.firstFailureAt <= horizon) expired++;
        openBreaker(s, ctx, `window failure rate ${Math.round(rate * 100)}% of ${calls} calls`, expired);
      }
    }
  }
  if (stale && (s.mode !== mode0 || s.consecutive !== consecutive0 || windowChanged || s.resetHandle !== reset0)) s.staleChanges++;
}
