import type { CoreContext } from '../core';
import type { ResilienceEvent } from './schema';
import { cancelHopMs, STORM_RANK, stackedInProcess, type StormCore, type StormTimer } from './stormTypes';

/**
 * The rules of the retry storm on the checkpointed core: layers calling layers with their own
 * timeouts and retries, upstream executions, cancellation and the fixes, mutating one `StormCore`
 * in place. Notes are built only when the core keeps them. Rules in `stormTypes.ts`.
 */

type Ctx = CoreContext<StormTimer>;

function maxRetries(s: StormCore, layer: number): number {
  if (s.config.fixes.retryAtOneLayerOnly && layer > 0) return 0;
  if (s.config.fixes.oneRetryLayerPerProcess && stackedInProcess(s.config.layers, layer)) return 0;
  return s.config.layers[layer].maxRetries;
}

function actorOf(s: StormCore, layer: number): 'client' | 'proxy' | 'server' {
  if (layer === 0) return 'client';
  const p = s.config.layers[layer].process;
  if (p !== null && p === s.config.layers[0].process) return 'client';
  return layer === s.config.layers.length - 1 ? 'server' : 'proxy';
}

/** Creates a call at `layer` (for `parentAttempt`) and sends its first attempt. */
function openCall(s: StormCore, layer: number, parentAttempt: string | null, deadlineAt: number | null, ctx: Ctx): void {
  const id = parentAttempt === null ? `C${layer}` : `${parentAttempt}>C${layer}`;
  s.layerCalls[layer]++;
  s.calls[id] = { id, layer, parentAttempt, attempts: 0, deadlineAt, state: 'active', cancelled: false, current: null };
  sendAttempt(s, id, ctx);
}

function sendAttempt(s: StormCore, callId: string, ctx: Ctx): void {
  const call = s.calls[callId];
  const layer = call.layer;
  const n = call.attempts + 1;
  const prefix = call.parentAttempt === null ? '' : `${call.parentAttempt}/`;
  const id = `${prefix}L${layer}.${n}`;
  const { timeoutMs } = s.config.layers[layer];
  let timeoutAt = timeoutMs === null ? null : ctx.now + timeoutMs;
  if (s.config.fixes.deadlinePropagation && call.deadlineAt !== null) timeoutAt = timeoutAt === null ? call.deadlineAt : Math.min(timeoutAt, call.deadlineAt);
  const timeoutHandle = timeoutAt === null ? -1 : ctx.schedule(timeoutAt, STORM_RANK.timeout, actorOf(s, layer), `${id} timeout`, { kind: 'storm.timeout', attemptId: id });
  const attempt = { id, layer, n, callId, startAt: ctx.now, endAt: null, result: 'pending' as const, child: null as string | null, timeoutHandle };
  if (!(id in s.attempts)) s.attemptOrder.push(id);
  s.attempts[id] = attempt;
  call.attempts = n;
  call.current = id;
  const childDeadline = s.config.fixes.deadlinePropagation ? timeoutAt : null;
  if (layer < s.config.layers.length - 1) {
    attempt.child = `${id}>C${layer + 1}`;
    openCall(s, layer + 1, id, childDeadline, ctx);
    return;
  }
  startExecution(s, id, ctx);
}

function startExecution(s: StormCore, attemptId: string, ctx: Ctx): void {
  const { upstream, fixes } = s.config;
  const attempt = s.attempts[attemptId];
  if (fixes.idempotencyKeys) {
    const existing = s.executions.find((e) => e.state === 'running' || e.state === 'ok');
    if (existing) {
      attempt.child = existing.id;
      if (existing.state === 'ok') {
        ctx.why(() => `${attemptId} reaches the upstream with the action's idempotency key: ${existing.id} already finished, so the stored result comes back at once.`, 'storm.idempotency');
        resolveAttempt(s, attemptId, 'ok', ctx);
        return;
      }
      ctx.why(() => `${attemptId} reaches the upstream with the action's idempotency key: it joins the running ${existing.id} instead of starting new work.`, 'storm.idempotency');
      existing.waiters.push(attemptId);
      return;
    }
  }
  const id = `E${s.executions.length + 1}`;
  attempt.child = id;
  let running = 0;
  for (const e of s.executions) if (e.state === 'running') running++;
  if (upstream.duplicateGuardMaxRuns !== null && running >= upstream.duplicateGuardMaxRuns) {
    s.executions.push({ id, startAt: ctx.now, endAt: ctx.now, state: 'killed', waiters: [] });
    ctx.why(() => `${attemptId} starts ${id} upstream, but ${running} runs of this action are already going: the duplicate guard kills it (409).`, 'storm.guard');
    resolveAttempt(s, attemptId, 'failed', ctx);
    return;
  }
  ctx.schedule(ctx.now + upstream.runMs, STORM_RANK.upstream, 'upstream', `${id} ends`, { kind: 'storm.exec-end', execId: id });
  if (upstream.receiptAfterMs !== null && upstream.receiptAfterMs < upstream.runMs) {
    ctx.schedule(ctx.now + upstream.receiptAfterMs, STORM_RANK.upstream, 'upstream', `${id} receipt`, { kind: 'storm.receipt', execId: id });
  }
  ctx.why(() => `${attemptId} reaches the upstream API: execution ${id} starts (${upstream.runMs} ms of work).`, 'storm.upstream');
  s.executions.push({ id, startAt: ctx.now, endAt: null, state: 'running', waiters: [attemptId] });
}

/** An attempt got its answer (or timed out): update it, then let its call decide. */
function resolveAttempt(s: StormCore, attemptId: string, result: 'ok' | 'receipt' | 'failed' | 'timeout', ctx: Ctx): void {
  const attempt = s.attempts[attemptId];
  if (attempt.result !== 'pending') return;
  if (attempt.timeoutHandle >= 0 && result !== 'timeout') ctx.cancel(attempt.timeoutHandle);
  attempt.result = result;
  attempt.endAt = ctx.now;
  const call = s.calls[attempt.callId];
  if (call.state !== 'active' || call.current !== attemptId) return;
  if (result === 'ok' || result === 'receipt') return finishCall(s, call.id, result, ctx);
  if (result === 'timeout' && s.config.fixes.cancelPropagation && attempt.child !== null) propagateCancel(s, attempt.child, ctx);
  maybeRetry(s, call.id, ctx);
}

function maybeRetry(s: StormCore, callId: string, ctx: Ctx): void {
  const call = s.calls[callId];
  const layer = call.layer;
  const { backoffMs } = s.config.layers[layer];
  const retriesSoFar = call.attempts - 1;
  let stop: string | null = null;
  if (call.cancelled) stop = 'cancelled';
  else if (retriesSoFar >= maxRetries(s, layer)) stop = `out of retries (${maxRetries(s, layer)})`;
  else if (s.config.fixes.retryBudget && s.layerRetries[layer] + 1 > Math.max(1, Math.floor(s.config.retryBudgetRatio * s.layerCalls[layer]))) stop = 'retry budget spent';
  else if (s.config.fixes.deadlinePropagation && call.deadlineAt !== null && ctx.now + backoffMs >= call.deadlineAt) stop = 'no time left before the deadline';
  if (stop !== null) {
    const text = stop;
    ctx.why(() => `${callId} gives up: ${text}.`, 'storm.retry');
    return finishCall(s, callId, 'failed', ctx);
  }
  s.layerRetries[layer]++;
  ctx.schedule(ctx.now + backoffMs, STORM_RANK.retry, actorOf(s, layer), `${callId} retry`, { kind: 'storm.retry', callId });
  ctx.why(() => `${call.current} failed: ${s.config.layers[layer].name} retries in ${backoffMs} ms (retry ${retriesSoFar + 1} of ${maxRetries(s, layer)}).`, 'storm.retry');
  call.current = null;
}

function finishCall(s: StormCore, callId: string, result: 'ok' | 'receipt' | 'failed', ctx: Ctx): void {
  const call = s.calls[callId];
  call.state = result === 'failed' ? 'failed' : 'ok';
  call.current = null;
  if (call.parentAttempt !== null) return resolveAttempt(s, call.parentAttempt, result, ctx);
  if (s.user.state !== 'waiting') return;
  if (result === 'receipt') {
    ctx.schedule(ctx.now + s.config.upstream.pollIntervalMs, STORM_RANK.retry, 'client', 'poll', { kind: 'storm.poll' });
    ctx.why('The action is accepted with a receipt: the client stops holding the request and polls for the result.', 'storm.receipt');
    s.user.state = 'polling';
    return;
  }
  s.user.state = result === 'ok' ? 'succeeded' : 'failed';
  s.user.atMs = ctx.now;
}

/** A cancel leaves for `childId` (a call one layer down, or an upstream execution): it arrives one hop later. */
function propagateCancel(s: StormCore, childId: string, ctx: Ctx): void {
  const at = ctx.now + cancelHopMs(s.config);
  if (childId.startsWith('E')) ctx.schedule(at, STORM_RANK.timeout, 'upstream', `cancel reaches ${childId}`, { kind: 'storm.cancel-exec', execId: childId });
  else ctx.schedule(at, STORM_RANK.timeout, 'server', `cancel reaches ${childId}`, { kind: 'storm.cancel-arrives', callId: childId });
}

function cancelCall(s: StormCore, callId: string, ctx: Ctx): void {
  const call = s.calls[callId];
  if (!call || call.cancelled) return;
  call.cancelled = true;
  if (call.state === 'active') call.state = 'cancelled';
  if (call.current !== null) {
    const a = s.attempts[call.current];
    if (a.result === 'pending') {
      if (a.timeoutHandle >= 0) ctx.cancel(a.timeoutHandle);
      a.result = 'cancelled';
      a.endAt = ctx.now;
      if (s.config.fixes.cancelPropagation && a.child !== null) propagateCancel(s, a.child, ctx);
    }
  }
}

function runningCount(s: StormCore): number {
  let n = 0;
  for (const e of s.executions) if (e.state === 'running') n++;
  return n;
}

/** Applies one scripted event of the storm mechanism. */
export function applyStormScripted(s: StormCore, ev: ResilienceEvent, ctx: Ctx): void {
  switch (ev.kind) {
    case 'request': {
      if (s.user.state !== 'idle') {
        ctx.ignore({ by: 'client', what: ev.id, reason: 'this scenario follows one user action', rule: 'storm.one-action' });
        ctx.why('A second action is ignored: the storm follows one user action.');
        return;
      }
      ctx.why(() => `The user acts: ${s.config.layers.map((l) => `${l.name} (${maxRetries(s, s.config.layers.indexOf(l))} retries${l.timeoutMs === null ? '' : `, ${l.timeoutMs} ms timeout`})`).join(' → ')} → upstream API.`, 'storm.layers');
      s.user = { state: 'waiting', atMs: null, startAt: ctx.now, cancelAt: null };
      openCall(s, 0, null, null, ctx);
      return;
    }
    case 'cancel': {
      if (s.user.state !== 'waiting' && s.user.state !== 'polling') {
        const state = s.user.state;
        ctx.ignore({ by: 'client', what: ev.id, reason: `the action is ${state}`, rule: 'storm.cancel' });
        ctx.why(() => `The user cancels, but the action is ${state}.`, 'storm.cancel');
        return;
      }
      Object.assign(s.user, { state: 'cancelled', atMs: ctx.now, cancelAt: ctx.now });
      cancelCall(s, 'C0', ctx);
      const running = runningCount(s);
      ctx.why(() =>
        s.config.fixes.cancelPropagation
          ? `The user cancels: the client stops now; the cancel crosses the chain below in ${s.config.cancelPropagationMs} ms, ${cancelHopMs(s.config)} ms a hop (${running} upstream execution(s) still running meanwhile).`
          : `The user cancels: the client stops, but nothing tells the layers below — their retries and ${running} running upstream execution(s) go on.`,
        'storm.cancel',
      );
      return;
    }
    case 'recover':
    case 'outage':
      ctx.why(ev.kind === 'recover' ? 'The upstream API recovers: executions ending from now on succeed.' : 'The upstream API starts failing.', 'downstream');
      s.healthy = ev.kind === 'recover';
      return;
    default:
      ctx.ignore(() => ({ by: ev.actor, what: ev.id, reason: `"${ev.kind}" is not an event of the storm mechanism`, rule: 'lab.mechanism' }));
      ctx.why(() => `"${ev.kind}" has no meaning for the storm; ignored.`);
      return;
  }
}

/** Applies one timer of the storm mechanism. */
export function applyStormTimer(s: StormCore, t: StormTimer, ctx: Ctx): void {
  switch (t.kind) {
    case 'storm.retry': {
      const call = s.calls[t.callId];
      if (!call || call.state !== 'active' || call.cancelled) return;
      return sendAttempt(s, t.callId, ctx);
    }
    case 'storm.timeout': {
      const a = s.attempts[t.attemptId];
      if (!a || a.result !== 'pending') return;
      ctx.why(() => `${t.attemptId} times out at ${s.config.layers[a.layer].name}: abandoned, not stopped — ${a.child ?? 'its work'} keeps running${s.config.fixes.cancelPropagation ? ' until the cancel reaches it' : ''}.`, 'storm.timeout');
      return resolveAttempt(s, t.attemptId, 'timeout', ctx);
    }
    case 'storm.exec-end': {
      const e = s.executions.find((x) => x.id === t.execId);
      if (!e || e.state !== 'running') return;
      const ok = s.healthy;
      e.state = ok ? 'ok' : 'failed';
      e.endAt = ctx.now;
      const waiters = e.waiters.slice();
      const waiting = waiters.filter((w) => s.attempts[w].result === 'pending').length;
      for (const w of waiters) resolveAttempt(s, w, ok ? 'ok' : 'failed', ctx);
      ctx.why(() => `${e.id} ${ok ? 'finishes' : `fails (${s.config.upstream.failStatus})`}${waiting === 0 ? ' — nobody is waiting for it any more: wasted work' : ''}.`, 'storm.upstream');
      return;
    }
    case 'storm.receipt': {
      const e = s.executions.find((x) => x.id === t.execId);
      if (!e || e.state !== 'running') return;
      for (const w of e.waiters.slice()) resolveAttempt(s, w, 'receipt', ctx);
      ctx.why(() => `The server answers after ${s.config.upstream.receiptAfterMs} ms with a receipt for ${e.id}; the work goes on and nobody times out.`, 'storm.receipt');
      return;
    }
    case 'storm.poll': {
      if (s.user.state !== 'polling') return;
      const done = s.executions.find((e) => e.state === 'ok' || e.state === 'failed');
      if (done) {
        const state = done.state;
        ctx.why(() => `The poll finds ${done.id} ${state === 'ok' ? 'finished' : 'failed'}.`, 'storm.receipt');
        s.user.state = state === 'ok' ? 'succeeded' : 'failed';
        s.user.atMs = ctx.now;
        return;
      }
      ctx.schedule(ctx.now + s.config.upstream.pollIntervalMs, STORM_RANK.retry, 'client', 'poll', { kind: 'storm.poll' });
      ctx.why('The client polls: still running.', 'storm.receipt');
      return;
    }
    case 'storm.cancel-arrives': {
      ctx.why(() => `The cancel reaches ${t.callId}: it stops retrying and forwards the cancel.`, 'storm.cancel');
      return cancelCall(s, t.callId, ctx);
    }
    case 'storm.cancel-exec': {
      const e = s.executions.find((x) => x.id === t.execId);
      if (!e || e.state !== 'running') return;
      if (e.waiters.some((w) => s.attempts[w].result === 'pending')) return;
      ctx.why(() => `The cancel reaches the upstream: ${e.id} stops.`, 'storm.cancel');
      e.state = 'cancelled';
      e.endAt = ctx.now;
      return;
    }
  }
}
