import { backoffDelayMs } from '../retry/backoff';
import type { BreakerConfig, ResilienceEvent } from './schema';
import { classifyRetry, type ErrorOrigin } from '../retry/classify';
import { bucketAfter, bucketAllowsRetry, ratioAllowsRetry } from '../retry/budget';
import { BREAKER_RANK, callChanged, liveChanged, type AttemptRecord, type BreakerCore, type BreakerTimer, type CallRecord, type LiveCallCore } from './breakerTypes';
import { admit, halfOpen, record, type BreakerCtx } from './breakerWindow';
import { attemptFailure, attemptRequest, attemptSuccess, probeAnswer, probeMessage } from './breakerWire';
import { TextCache } from './textCache';

/**
 * Calls, attempts and retries in front of the breaker, on the checkpointed core: the scripted
 * events and timers of the breaker mechanism, mutating the `BreakerCore` in place (calls in flight
 * are mutable records in a Map). Notes are built only when the core keeps them. Rules in
 * `breakerTypes.ts`.
 */

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

/** The classifier's verdict on a failed attempt depends on the config alone: computed once per config. */
const VERDICTS = new WeakMap<BreakerConfig, ReturnType<typeof classifyRetry>>();
function verdictOf(config: BreakerConfig): ReturnType<typeof classifyRetry> {
  let c = VERDICTS.get(config);
  if (c === undefined) {
    c = classifyRetry({ sideEffect: config.operation.sideEffect, idempotencyKey: config.operation.idempotencyKey, origin: downstreamOrigin(config) });
    VERDICTS.set(config, c);
  }
  return c;
}

function logAttempt(s: BreakerCore, a: AttemptRecord): void {
  s.logs.attempts.push(a);
  s.attemptsSeen = s.logs.attempts.length;
}

function endCall(s: BreakerCore, call: LiveCallCore, now: number, state: CallRecord['state'], reason: string): void {
  s.logs.calls.push({ key: call.key, startAt: call.startAt, endAt: now, state, attempts: call.attempt, reason });
  if (s.live.delete(call.key)) liveChanged(s);
  s.callsSeen = s.logs.calls.length;
}

/** The repeated texts of calls and retry stops, interned (`TextCache`). */
const GAVE_UP = new TextCache((attempt: number, maxAttempts: number) => `gave up after ${attempt} attempt${attempt === 1 ? '' : 's'} (maxAttempts ${maxAttempts})`);
const BUCKET_DENIED = new TextCache((tokensMilli: number, maxMilli: number) => `retry denied: the token bucket holds ${tokensMilli / 1000} of ${maxMilli / 1000} tokens (retries stop at half)`);
const SUCCEEDED = new TextCache((attempt: number, _: null) => `succeeded on attempt ${attempt}`);
const REJECTED = new TextCache((mode: string, _: null) => `rejected by the ${mode} breaker`);
const MODES: readonly BreakerCore['mode'][] = ['closed', 'open', 'half-open'];
/** Key: attempt × 4 + the mode's index in `MODES`. */
const REJECTED_ON = new TextCache((stop: string, attemptMode: number) => `rejected by the ${MODES[attemptMode % 4]} breaker on attempt ${Math.floor(attemptMode / 4)}; ${stop}`);
const LOOP_COUNTED = new TextCache((stop: string, mode: string) => `${stop}; the breaker counts this exhausted loop and goes ${mode}`);

/**
 * Why the retry policy stops after attempt `call.attempt` (attempt limit, token bucket, retry
 * ratio), or null when it may retry. A denial by a budget is counted in `retriesDenied`.
 */
function retryLimit(s: BreakerCore, call: LiveCallCore): string | null {
  const { retry } = s.config;
  if (call.attempt >= retry.maxAttempts) return GAVE_UP.get(call.attempt, retry.maxAttempts);
  let stop: string | null = null;
  if (retry.budget === 'token-bucket' && !bucketAllowsRetry(s.bucket)) stop = BUCKET_DENIED.get(s.bucket.tokensMilli, s.bucket.maxMilli);
  else if (retry.budget === 'ratio' && !ratioAllowsRetry(s.ratio)) stop = `retry denied: ${s.ratio.retries} retries for ${s.ratio.calls} calls already uses the ${s.ratio.ratioMilli / 10}% budget`;
  if (stop !== null) s.retriesDenied++;
  return stop;
}

/** Schedules attempt `call.attempt + 1` in `delayMs` and counts the retry. */
function scheduleRetry(s: BreakerCore, call: LiveCallCore, delayMs: number, ctx: BreakerCtx): void {
  ctx.schedule(ctx.now + delayMs, BREAKER_RANK.attempt, 'client', `${call.key} attempt ${call.attempt + 1}`, { kind: 'attempt', call: call.key });
  s.retries++;
  s.ratio.retries++;
  call.attempt++;
  callChanged(s, call);
}

/** The backoff before retry `attempt` (1-based attempt that failed) of `key`. */
function backoffOf(config: BreakerConfig, key: string, attempt: number): number {
  const { retry } = config;
  return backoffDelayMs(retry.strategy, key, attempt - 1, { baseMs: retry.baseMs, capMs: retry.capMs, seed: 1 });
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
function rejectAttempt(s: BreakerCore, call: LiveCallCore, ctx: BreakerCtx): void {
  const { retry } = s.config;
  const mode = s.mode;
  const stop = retry.onRejection === 'fail-fast' ? 'fail fast: a rejection is returned at once' : retryLimit(s, call);
  if (stop !== null) {
    ctx.why(ctx.keepsNotes ? `Attempt ${call.attempt} of ${call.key} is rejected by the ${mode} breaker; ${stop}.` : '', 'breaker.reject');
    endCall(s, call, ctx.now, 'rejected', REJECTED_ON.get(stop, call.attempt * 4 + MODES.indexOf(mode)));
    return;
  }
  const backoff = backoffOf(s.config, call.key, call.attempt);
  const resetAt = s.resetAt;
  const untilReset = retry.onRejection === 'wait-for-reset' && resetAt !== null ? resetAt - ctx.now : 0;
  const delay = Math.max(backoff, untilReset, 1);
  if (ctx.keepsNotes) {
    const when =
      retry.onRejection === 'backoff'
        ? `retry in ${delay} ms on the normal backoff (naive: the breaker is still ${mode}, so the attempts burn against it)`
        : untilReset > 0 && untilReset >= backoff
          ? `nothing reached the downstream, so it is safe to retry: waits ${delay} ms for the reset at ${resetAt} ms`
          : `nothing reached the downstream, so it is safe to retry: in ${delay} ms (backoff)`;
    ctx.why(`Attempt ${call.attempt} of ${call.key} is rejected by the ${mode} breaker; ${when}.`, 'breaker.reject');
  } else ctx.why('', 'breaker.reject');
  scheduleRetry(s, call, delay, ctx);
  s.rejectionsRetried++;
}

/** Starts attempt `call.attempt` now: asks the breaker (retry-around-breaker) and sends the request. */
function startAttempt(s: BreakerCore, call: LiveCallCore, ctx: BreakerCtx): void {
  const { config } = s;
  let gen = call.loopGen;
  let mode = s.mode;
  if (config.composition === 'retry-around-breaker') {
    if (!admitOrProbe(s, ctx)) {
      logAttempt(s, { call: call.key, n: call.attempt, startAt: ctx.now, endAt: ctx.now, outcome: 'rejected', mode: s.mode, stale: false });
      rejectAttempt(s, call, ctx);
      return;
    }
    gen = s.generation;
    mode = s.mode;
  }
  // A real call admitted as a half-open probe (breaker-around-retry: the loop's first attempt) repeats the tool's side effect.
  if (mode === 'half-open' && config.operation.sideEffect && (config.composition === 'retry-around-breaker' || call.attempt === 1)) s.probeSideEffects++;
  const endAt = ctx.now + config.downstream.latencyMs;
  const id = `${call.key}/${call.attempt}`;
  ctx.emitWire('client', 'streamable-http', attemptRequest(config, id, call.attempt), undefined, ctx.now, call.key);
  ctx.schedule(endAt, BREAKER_RANK.result, 'upstream', `${call.key} attempt ${call.attempt} result`, { kind: 'result', call: call.key, id });
  call.attemptGen = gen;
  call.attemptStartAt = ctx.now;
  call.attemptMode = mode;
  callChanged(s, call);
  s.wireAttempts++;
  // The note's closure is made only when notes are kept (the fast path builds none).
  ctx.why(ctx.keepsNotes ? `${call.key} sends attempt ${call.attempt}${config.composition === 'retry-around-breaker' ? ` (admitted by the ${mode} breaker, generation ${gen})` : ''}.` : '', 'retry.attempt');
}

/** Applies one scripted event of the breaker mechanism. */
export function applyBreakerScripted(s: BreakerCore, ev: ResilienceEvent, ctx: BreakerCtx): void {
  switch (ev.kind) {
    case 'recover':
    case 'outage': {
      const healthy = ev.kind === 'recover';
      ctx.why(healthy ? 'The downstream recovers: attempts from now on succeed.' : 'The downstream starts failing.', 'downstream');
      s.healthy = healthy;
      return;
    }
    case 'request': {
      const notes: string[] | null = ctx.keepsNotes && ev.count > 1 ? [] : null;
      for (let i = 0; i < ev.count; i++) {
        const key = ev.count === 1 ? ev.id : `${ev.id}#${i + 1}`;
        s.ratio.calls++;
        const call: LiveCallCore = { key, startAt: ctx.now, attempt: 1, loopGen: -1, attemptGen: -1, attemptStartAt: ctx.now, attemptMode: s.mode, view: null };
        if (s.config.composition === 'breaker-around-retry') {
          const mode = s.mode;
          if (!admitOrProbe(s, ctx)) {
            logAttempt(s, { call: key, n: 1, startAt: ctx.now, endAt: ctx.now, outcome: 'rejected', mode, stale: false });
            endCall(s, call, ctx.now, 'rejected', REJECTED.get(mode, null));
            notes?.push(`${key} rejected (${mode})`);
            continue;
          }
          call.loopGen = s.generation;
          call.attemptMode = mode;
        }
        // In flight from now (a rejected first attempt ends it again); the Map's order is the order calls started.
        s.live.set(key, call);
        startAttempt(s, call, ctx);
        notes?.push(`${key} starts`);
      }
      if (ev.count > 1) ctx.why(ctx.keepsNotes ? `${ev.count} concurrent calls: ${(notes as string[]).join(', ')}.` : '', 'retry.attempt');
      return;
    }
    default:
      if (ctx.keepsIgnored) ctx.ignore({ by: ev.actor, what: ev.id, reason: `"${ev.kind}" is not an event of the breaker mechanism`, rule: 'lab.mechanism' });
      ctx.why(ctx.keepsNotes ? `"${ev.kind}" has no meaning for the breaker; ignored.` : '');
      return;
  }
}

/** What the result did to the breaker, for the note (" The breaker goes open.", a stale result, or nothing). */
function modeNote(before: BreakerCore['mode'], after: BreakerCore['mode'], stale: boolean, config: BreakerConfig): string {
  if (after !== before) return ` The breaker goes ${after}.`;
  if (!stale) return '';
  return config.policy.staleResultsCounted ? ' (a stale result, counted: naive)' : ' (a stale result from an earlier generation: ignored)';
}

const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/**
 * Whether half-open probes with a side-effect-free request (ping / server/discover) instead of the
 * next real call: the corrected breaker does so for a tool with a side effect (hermes-agent#11113);
 * a read-only tool's call is its own probe, as before.
 */
export function probesWithoutSideEffect(config: BreakerConfig): boolean {
  return config.operation.sideEffect && !config.policy.halfOpenProbeIsRealCall;
}

/**
 * Records one attempt's (or loop's) result with the breaker. `answered`: the server answered with
 * an isError tool result — a completed round trip, which the corrected breaker counts as a success;
 * bug `toolErrorsCounted` counts it as a failure (hermes-agent#11113), tallied in `toolErrorsCounted`
 * unless the breaker ignores the result as stale.
 */
function recordResult(s: BreakerCore, ok: boolean, answered: boolean, gen: number, ctx: BreakerCtx): void {
  const { policy } = s.config;
  if (answered && policy.toolErrorsCounted) {
    if (gen === s.generation || policy.staleResultsCounted) s.toolErrorsCounted++;
    record(s, false, gen, ctx);
    return;
  }
  record(s, ok || answered, gen, ctx);
}

/**
 * Asks the breaker to admit one call or attempt (`admit`), except that a half-open breaker probing
 * without side effect (`probesWithoutSideEffect`) answers the first call of its half-open period by
 * sending its probes and rejecting the call: the call's side effect is never risked on a server not
 * yet known to be up. The probes take every permit, so calls are rejected until they answer.
 * Probing on demand keeps a server that never comes back from being probed forever with no caller.
 */
function admitOrProbe(s: BreakerCore, ctx: BreakerCtx): boolean {
  if (s.mode === 'half-open' && s.halfOpenAdmitted === 0 && probesWithoutSideEffect(s.config)) {
    sendProbes(s, ctx);
    return false;
  }
  return admit(s);
}

/** Sends `halfOpenPermits` side-effect-free probes at once, taking every half-open permit. */
function sendProbes(s: BreakerCore, ctx: BreakerCtx): void {
  const { config } = s;
  const permits = config.breaker.halfOpenPermits;
  for (let i = 1; i <= permits; i++) {
    const id = permits === 1 ? `probe-${s.generation}` : `probe-${s.generation}/${i}`;
    ctx.emitWire('client', 'streamable-http', probeMessage(config, id), undefined, ctx.now, id);
    ctx.schedule(ctx.now + config.downstream.latencyMs, BREAKER_RANK.result, 'upstream', `${id} answer`, { kind: 'probe', id, gen: s.generation });
  }
  s.halfOpenAdmitted = permits;
  if (permits > s.maxHalfOpenAdmitted) s.maxHalfOpenAdmitted = permits;
  s.probesSent += permits;
}

/** Applies one timer of the breaker mechanism. */
export function applyBreakerTimer(s: BreakerCore, t: BreakerTimer, ctx: BreakerCtx): void {
  const { config } = s;
  if (t.kind === 'reset') {
    if (s.mode !== 'open') return;
    ctx.why(ctx.keepsNotes ? `The reset timeout (${config.breaker.cooldownMs} ms) ends: the breaker goes half-open and admits ${config.policy.halfOpenAdmitsAll ? 'every caller (naive)' : `${config.breaker.halfOpenPermits} probe${config.breaker.halfOpenPermits === 1 ? '' : 's'}`}.` : '', 'breaker.half-open');
    halfOpen(s, ctx);
    return;
  }
  if (t.kind === 'probe') {
    // The server's transport answers a probe whenever it is up: a downstream failing only with isError tool results is up.
    const ok = s.healthy || config.downstream.failWith === 'tool-error';
    if (ok) ctx.emitWire('server', 'streamable-http', probeAnswer(config, t.id), undefined, ctx.now, t.id);
    else {
      const f = attemptFailure(config, t.id);
      ctx.emitWire('server', 'streamable-http', f.message, f.http, ctx.now, t.id);
    }
    const before = s.mode;
    record(s, ok, t.gen, ctx);
    ctx.why(ctx.keepsNotes ? `Probe ${t.id} ${ok ? 'is answered: the server is reachable' : `fails (${config.downstream.failWith})`}.${modeNote(before, s.mode, t.gen !== s.generation, config)}` : '', 'breaker.probe');
    return;
  }
  const call = s.live.get(t.call);
  if (call === undefined) return;
  if (t.kind === 'attempt') return startAttempt(s, call, ctx);
  // result
  const ok = s.healthy;
  // The server answered with an isError tool result: a completed round trip, not a transport failure.
  const answered = !ok && config.downstream.failWith === 'tool-error';
  const id = t.id;
  const composedPerAttempt = config.composition === 'retry-around-breaker';
  const stale = composedPerAttempt && call.attemptGen !== s.generation;
  logAttempt(s, { call: call.key, n: call.attempt, startAt: call.attemptStartAt, endAt: ctx.now, outcome: ok ? 'ok' : 'failed', mode: call.attemptMode, stale });
  if (ok) ctx.emitWire('server', 'streamable-http', attemptSuccess(config, id), undefined, ctx.now, call.key);
  else {
    const f = attemptFailure(config, id);
    ctx.emitWire('server', 'streamable-http', f.message, f.http, ctx.now, call.key);
  }
  if (config.retry.budget === 'token-bucket') s.bucket = bucketAfter(s.bucket, ok);
  const modeBefore = s.mode;
  if (composedPerAttempt) recordResult(s, ok, answered, call.attemptGen, ctx);
  const modeAfter = s.mode;
  if (ok) {
    if (!composedPerAttempt) record(s, true, call.loopGen, ctx);
    ctx.why(ctx.keepsNotes ? `${call.key} attempt ${call.attempt} succeeds.${s.mode !== modeBefore ? ` The breaker goes ${s.mode}.` : modeNote(modeBefore, modeAfter, stale, config)}` : '', 'retry.attempt');
    endCall(s, call, ctx.now, 'succeeded', SUCCEEDED.get(call.attempt, null));
    return;
  }
  const c = verdictOf(config);
  let stop: string | null = null;
  if (!c.retry) stop = `not retried: ${c.reason}`;
  else stop = retryLimit(s, call);
  if (stop !== null) {
    if (!composedPerAttempt) {
      const before = s.mode;
      recordResult(s, false, answered, call.loopGen, ctx);
      if (s.mode !== before) stop = LOOP_COUNTED.get(stop, s.mode);
    }
    const text = stop;
    ctx.why(ctx.keepsNotes ? `${call.key} attempt ${call.attempt} fails (${config.downstream.failWith}).${modeNote(modeBefore, modeAfter, stale, config)} ${capitalized(text)}.` : '', 'retry.stop');
    endCall(s, call, ctx.now, 'failed', text);
    return;
  }
  const backoff = backoffOf(config, call.key, call.attempt);
  const delay = Math.max(backoff, c.retryAfterFloorMs ?? 0);
  ctx.why(ctx.keepsNotes ? `${call.key} attempt ${call.attempt} fails (${config.downstream.failWith}).${modeNote(modeBefore, modeAfter, stale, config)} ${c.verdict}: retry in ${delay} ms (${config.retry.strategy}${c.retryAfterFloorMs !== undefined ? `, Retry-After floor ${c.retryAfterFloorMs} ms` : ''}).` : '', 'retry.backoff');
  scheduleRetry(s, call, delay, ctx);
}
