// TEST-ONLY ORACLE: verbatim copy of src/sim/resilience/storm.ts at 377217e (import paths adjusted). Never import from app code.
import type { ApplyContext, Invariant } from '../../src/sim/types';
import type { ResilienceEvent, StormConfig } from '../../src/sim/resilience/schema';

/**
 * A retry storm across layers (issue 5 item 4): a user action enters layer 0 (the client), each
 * layer calls the next with its own per-attempt timeout, retries and fixed backoff, and the last
 * layer calls the upstream API, where each attempt starts an execution. With every layer retrying
 * 3 times, one action reaches the upstream up to 4 × 4 × 4 = 64 times.
 *
 * A timed-out attempt is abandoned, not stopped: its subtree keeps running unless cancellation is
 * propagated (one hop per `cancelPropagationMs`, the postmortem's 320 ms). The fixes, one by one:
 * retry at one layer only, deadlines passed down, per-layer retry budgets, cancellation
 * propagated, idempotency keys upstream (a repeat joins the running or finished execution).
 * Upstream options for the gateway field case: a duplicate guard that kills a new run when
 * `duplicateGuardMaxRuns` already run, and a receipt answered after `receiptAfterMs` that the
 * caller then polls instead of holding the request.
 *
 * Stacked retry layers inside one client (issue 11; the thread number nanobot#2760 and its figures
 * come from the issue text): layers that name the same `process` are two retry loops in one
 * program — the application's loop around its SDK's loop — each unaware of the other. The
 * application's 4 attempts × the SDK's 3 attempts = 12 upstream requests against a 429. The fix
 * `oneRetryLayerPerProcess` keeps the outermost loop of each process and turns the inner ones off
 * (4 requests); the invariant `one-retry-layer-per-process` names the stacking.
 */

/** One attempt a layer sends to the next layer (or to the upstream API, from the last layer). */
export interface StormAttempt {
  /** Path id, e.g. `L0.2/L1.1/L2.3` (layer 0 attempt 2 → layer 1 attempt 1 → layer 2 attempt 3). */
  id: string;
  layer: number;
  n: number;
  callId: string;
  startAt: number;
  endAt: number | null;
  result: 'pending' | 'ok' | 'receipt' | 'failed' | 'timeout' | 'abandoned' | 'cancelled';
  /** The call inside the next layer this attempt created, or the upstream execution. */
  child: string | null;
  timeoutHandle: number;
}

/** A layer handling one request (from the layer above, or the user's action at layer 0). */
export interface StormCall {
  id: string;
  layer: number;
  parentAttempt: string | null;
  attempts: number;
  deadlineAt: number | null;
  state: 'active' | 'ok' | 'failed' | 'cancelled';
  /** Cancelled (by the user, or by a propagated cancel) — takes no more attempts. */
  cancelled: boolean;
  current: string | null;
}

/** One execution of the action at the upstream API. */
export interface StormExecution {
  id: string;
  startAt: number;
  endAt: number | null;
  state: 'running' | 'ok' | 'failed' | 'killed' | 'cancelled';
  /** Attempts waiting on it (several with idempotency keys). */
  waiters: readonly string[];
}

/** State of the storm mechanism. */
export interface StormState {
  mechanism: 'storm';
  config: StormConfig;
  healthy: boolean;
  calls: Readonly<Record<string, StormCall>>;
  attempts: Readonly<Record<string, StormAttempt>>;
  attemptOrder: readonly string[];
  executions: readonly StormExecution[];
  /** Per layer: calls received and retries made (budgets). */
  layerCalls: readonly number[];
  layerRetries: readonly number[];
  user: { state: 'idle' | 'waiting' | 'polling' | 'succeeded' | 'failed' | 'cancelled'; atMs: number | null; startAt: number | null; cancelAt: number | null };
}

/** Timers of the storm mechanism. */
export type StormTimer =
  | { kind: 'storm.retry'; callId: string }
  | { kind: 'storm.timeout'; attemptId: string }
  | { kind: 'storm.exec-end'; execId: string }
  | { kind: 'storm.receipt'; execId: string }
  | { kind: 'storm.poll' }
  | { kind: 'storm.cancel-arrives'; callId: string }
  | { kind: 'storm.cancel-exec'; execId: string };

/** Tie ranks: upstream ends and receipts, then timeouts, then scripted, then retries and polls. */
export const STORM_RANK = { upstream: 0, timeout: 1, scripted: 2, retry: 3 } as const;

/** The storm's outcome. */
export interface StormOutcome {
  requests: { key: 'action'; state: StormState['user']['state']; atMs: number | null }[];
  summary: {
    attemptsPerLayer: number[];
    upstreamAttempts: number;
    executions: number;
    killedByGuard: number;
    executionsCompleted: number;
    /** Executions running at the user's cancel, or started after it. */
    duplicateWorkAfterCancel: number;
    /** Executions still running when the trace ends. */
    executionsRunningAtEnd: number;
    lastExecutionEndAtMs: number | null;
  };
}

type Ctx = ApplyContext<StormTimer>;

/** Initial state: no action yet. */
export function initStorm(config: StormConfig): StormState {
  return {
    mechanism: 'storm',
    config,
    healthy: !config.upstream.failingAtStart,
    calls: {},
    attempts: {},
    attemptOrder: [],
    executions: [],
    layerCalls: config.layers.map(() => 0),
    layerRetries: config.layers.map(() => 0),
    user: { state: 'idle', atMs: null, startAt: null, cancelAt: null },
  };
}

/**
 * True when `layer` runs in the same process as a layer above it (`process` set and equal): an
 * inner retry loop stacked inside one client.
 */
export function stackedInProcess(layers: StormConfig['layers'], layer: number): boolean {
  const p = layers[layer].process;
  return p !== null && layers.slice(0, layer).some((l) => l.process === p);
}

function maxRetries(s: StormState, layer: number): number {
  if (s.config.fixes.retryAtOneLayerOnly && layer > 0) return 0;
  if (s.config.fixes.oneRetryLayerPerProcess && stackedInProcess(s.config.layers, layer)) return 0;
  return s.config.layers[layer].maxRetries;
}

function setCall(s: StormState, c: StormCall): StormState {
  return { ...s, calls: { ...s.calls, [c.id]: c } };
}
function setAttempt(s: StormState, a: StormAttempt): StormState {
  const isNew = !(a.id in s.attempts);
  return { ...s, attempts: { ...s.attempts, [a.id]: a }, attemptOrder: isNew ? s.attemptOrder.concat(a.id) : s.attemptOrder };
}
function setExec(s: StormState, e: StormExecution): StormState {
  const executions = s.executions.slice();
  const i = executions.findIndex((x) => x.id === e.id);
  if (i < 0) executions.push(e);
  else executions[i] = e;
  return { ...s, executions };
}

/** Creates a call at `layer` (for `parentAttempt`) and sends its first attempt. */
function openCall(s: StormState, layer: number, parentAttempt: string | null, deadlineAt: number | null, ctx: Ctx): StormState {
  const id = parentAttempt === null ? `C${layer}` : `${parentAttempt}>C${layer}`;
  const layerCalls = s.layerCalls.slice();
  layerCalls[layer]++;
  const call: StormCall = { id, layer, parentAttempt, attempts: 0, deadlineAt, state: 'active', cancelled: false, current: null };
  return sendAttempt(setCall({ ...s, layerCalls }, call), id, ctx);
}

function sendAttempt(s: StormState, callId: string, ctx: Ctx): StormState {
  const call = s.calls[callId];
  const layer = call.layer;
  const n = call.attempts + 1;
  const prefix = call.parentAttempt === null ? '' : `${call.parentAttempt}/`;
  const id = `${prefix}L${layer}.${n}`;
  const { timeoutMs } = s.config.layers[layer];
  let timeoutAt = timeoutMs === null ? null : ctx.now + timeoutMs;
  if (s.config.fixes.deadlinePropagation && call.deadlineAt !== null) timeoutAt = timeoutAt === null ? call.deadlineAt : Math.min(timeoutAt, call.deadlineAt);
  const timeoutHandle = timeoutAt === null ? -1 : ctx.schedule(timeoutAt, STORM_RANK.timeout, actorOf(s, layer), `${id} timeout`, { kind: 'storm.timeout', attemptId: id });
  const attempt: StormAttempt = { id, layer, n, callId, startAt: ctx.now, endAt: null, result: 'pending', child: null, timeoutHandle };
  let next = setCall(setAttempt(s, attempt), { ...call, attempts: n, current: id });
  const childDeadline = s.config.fixes.deadlinePropagation ? timeoutAt : null;
  if (layer < s.config.layers.length - 1) {
    next = setAttempt(next, { ...attempt, child: `${id}>C${layer + 1}` });
    return openCall(next, layer + 1, id, childDeadline, ctx);
  }
  return startExecution(next, id, ctx);
}

function actorOf(s: StormState, layer: number): 'client' | 'proxy' | 'server' {
  if (layer === 0) return 'client';
  const p = s.config.layers[layer].process;
  if (p !== null && p === s.config.layers[0].process) return 'client';
  return layer === s.config.layers.length - 1 ? 'server' : 'proxy';
}

function startExecution(s: StormState, attemptId: string, ctx: Ctx): StormState {
  const { upstream, fixes } = s.config;
  const attempt = s.attempts[attemptId];
  if (fixes.idempotencyKeys) {
    const existing = s.executions.find((e) => e.state === 'running' || e.state === 'ok');
    if (existing) {
      if (existing.state === 'ok') {
        ctx.why(() => `${attemptId} reaches the upstream with the action's idempotency key: ${existing.id} already finished, so the stored result comes back at once.`, 'storm.idempotency');
        return resolveAttempt(setAttempt(s, { ...attempt, child: existing.id }), attemptId, 'ok', ctx);
      }
      ctx.why(() => `${attemptId} reaches the upstream with the action's idempotency key: it joins the running ${existing.id} instead of starting new work.`, 'storm.idempotency');
      return setExec(setAttempt(s, { ...attempt, child: existing.id }), { ...existing, waiters: existing.waiters.concat(attemptId) });
    }
  }
  const id = `E${s.executions.length + 1}`;
  const running = s.executions.filter((e) => e.state === 'running').length;
  if (upstream.duplicateGuardMaxRuns !== null && running >= upstream.duplicateGuardMaxRuns) {
    const next = setExec(setAttempt(s, { ...attempt, child: id }), { id, startAt: ctx.now, endAt: ctx.now, state: 'killed', waiters: [] });
    ctx.why(() => `${attemptId} starts ${id} upstream, but ${running} runs of this action are already going: the duplicate guard kills it (409).`, 'storm.guard');
    return resolveAttempt(next, attemptId, 'failed', ctx);
  }
  ctx.schedule(ctx.now + upstream.runMs, STORM_RANK.upstream, 'upstream', `${id} ends`, { kind: 'storm.exec-end', execId: id });
  if (upstream.receiptAfterMs !== null && upstream.receiptAfterMs < upstream.runMs) {
    ctx.schedule(ctx.now + upstream.receiptAfterMs, STORM_RANK.upstream, 'upstream', `${id} receipt`, { kind: 'storm.receipt', execId: id });
  }
  ctx.why(() => `${attemptId} reaches the upstream API: execution ${id} starts (${upstream.runMs} ms of work).`, 'storm.upstream');
  return setExec(setAttempt(s, { ...attempt, child: id }), { id, startAt: ctx.now, endAt: null, state: 'running', waiters: [attemptId] });
}

/** An attempt got its answer (or timed out): update it, then let its call decide. */
function resolveAttempt(s: StormState, attemptId: string, result: 'ok' | 'receipt' | 'failed' | 'timeout', ctx: Ctx): StormState {
  const attempt = s.attempts[attemptId];
  if (attempt.result !== 'pending') return s;
  if (attempt.timeoutHandle >= 0 && result !== 'timeout') ctx.cancel(attempt.timeoutHandle);
  let next = setAttempt(s, { ...attempt, result, endAt: ctx.now });
  const call = next.calls[attempt.callId];
  if (call.state !== 'active' || call.current !== attemptId) return next;
  if (result === 'ok' || result === 'receipt') return finishCall(next, call.id, result, ctx);
  if (result === 'timeout' && s.config.fixes.cancelPropagation && attempt.child !== null) next = propagateCancel(next, attempt.child, ctx);
  return maybeRetry(next, call.id, ctx);
}

function maybeRetry(s: StormState, callId: string, ctx: Ctx): StormState {
  const call = s.calls[callId];
  const layer = call.layer;
  const { backoffMs } = s.config.layers[layer];
  const retriesSoFar = call.attempts - 1;
  let stop: string | null = null;
  if (call.cancelled) stop = 'cancelled';
  else if (retriesSoFar >= maxRetries(s, layer)) stop = `out of retries (${maxRetries(s, layer)})`;
  else if (s.config.fixes.retryBudget && (s.layerRetries[layer] + 1) > Math.max(1, Math.floor(s.config.retryBudgetRatio * s.layerCalls[layer]))) stop = 'retry budget spent';
  else if (s.config.fixes.deadlinePropagation && call.deadlineAt !== null && ctx.now + backoffMs >= call.deadlineAt) stop = 'no time left before the deadline';
  if (stop !== null) {
    const text = stop;
    ctx.why(() => `${callId} gives up: ${text}.`, 'storm.retry');
    return finishCall(s, callId, 'failed', ctx);
  }
  const layerRetries = s.layerRetries.slice();
  layerRetries[layer]++;
  ctx.schedule(ctx.now + backoffMs, STORM_RANK.retry, actorOf(s, layer), `${callId} retry`, { kind: 'storm.retry', callId });
  ctx.why(() => `${call.current} failed: ${s.config.layers[layer].name} retries in ${backoffMs} ms (retry ${retriesSoFar + 1} of ${maxRetries(s, layer)}).`, 'storm.retry');
  return setCall({ ...s, layerRetries }, { ...call, current: null });
}

function finishCall(s: StormState, callId: string, result: 'ok' | 'receipt' | 'failed', ctx: Ctx): StormState {
  const call = s.calls[callId];
  let next = setCall(s, { ...call, state: result === 'failed' ? 'failed' : 'ok', current: null });
  if (call.parentAttempt !== null) return resolveAttempt(next, call.parentAttempt, result, ctx);
  if (next.user.state !== 'waiting') return next;
  if (result === 'receipt') {
    ctx.schedule(ctx.now + s.config.upstream.pollIntervalMs, STORM_RANK.retry, 'client', 'poll', { kind: 'storm.poll' });
    ctx.why('The action is accepted with a receipt: the client stops holding the request and polls for the result.', 'storm.receipt');
    return { ...next, user: { ...next.user, state: 'polling' } };
  }
  next = { ...next, user: { ...next.user, state: result === 'ok' ? 'succeeded' : 'failed', atMs: ctx.now } };
  return next;
}

/** A cancel reaches `callId` (after the hop delay was already applied): stop it and forward down. */
function propagateCancel(s: StormState, childId: string, ctx: Ctx): StormState {
  const at = ctx.now + s.config.cancelPropagationMs;
  if (childId.startsWith('E')) ctx.schedule(at, STORM_RANK.timeout, 'upstream', `cancel reaches ${childId}`, { kind: 'storm.cancel-exec', execId: childId });
  else ctx.schedule(at, STORM_RANK.timeout, 'server', `cancel reaches ${childId}`, { kind: 'storm.cancel-arrives', callId: childId });
  return s;
}

function cancelCall(s: StormState, callId: string, ctx: Ctx): StormState {
  const call = s.calls[callId];
  if (!call || call.cancelled) return s;
  let next = setCall(s, { ...call, cancelled: true, state: call.state === 'active' ? 'cancelled' : call.state });
  if (call.current !== null) {
    const a = next.attempts[call.current];
    if (a.result === 'pending') {
      if (a.timeoutHandle >= 0) ctx.cancel(a.timeoutHandle);
      next = setAttempt(next, { ...a, result: 'cancelled', endAt: ctx.now });
      if (s.config.fixes.cancelPropagation && a.child !== null) next = propagateCancel(next, a.child, ctx);
    }
  }
  return next;
}

/** Applies one scripted event of the storm mechanism. */
export function applyStormScripted(s: StormState, ev: ResilienceEvent, ctx: Ctx): StormState {
  switch (ev.kind) {
    case 'request': {
      if (s.user.state !== 'idle') {
        ctx.ignore({ by: 'client', what: ev.id, reason: 'this scenario follows one user action', rule: 'storm.one-action' });
        ctx.why('A second action is ignored: the storm follows one user action.');
        return s;
      }
      ctx.why(() => `The user acts: ${s.config.layers.map((l) => `${l.name} (${maxRetries(s, s.config.layers.indexOf(l))} retries${l.timeoutMs === null ? '' : `, ${l.timeoutMs} ms timeout`})`).join(' → ')} → upstream API.`, 'storm.layers');
      return openCall({ ...s, user: { state: 'waiting', atMs: null, startAt: ctx.now, cancelAt: null } }, 0, null, null, ctx);
    }
    case 'cancel': {
      if (s.user.state !== 'waiting' && s.user.state !== 'polling') {
        ctx.ignore({ by: 'client', what: ev.id, reason: `the action is ${s.user.state}`, rule: 'storm.cancel' });
        ctx.why(() => `The user cancels, but the action is ${s.user.state}.`, 'storm.cancel');
        return s;
      }
      const next = cancelCall({ ...s, user: { ...s.user, state: 'cancelled', atMs: ctx.now, cancelAt: ctx.now } }, 'C0', ctx);
      const running = next.executions.filter((e) => e.state === 'running').length;
      ctx.why(() =>
        s.config.fixes.cancelPropagation
          ? `The user cancels: the client stops now; the cancel reaches each layer below ${s.config.cancelPropagationMs} ms per hop (${running} upstream execution(s) still running meanwhile).`
          : `The user cancels: the client stops, but nothing tells the layers below — their retries and ${running} running upstream execution(s) go on.`,
        'storm.cancel',
      );
      return next;
    }
    case 'recover':
    case 'outage':
      ctx.why(ev.kind === 'recover' ? 'The upstream API recovers: executions ending from now on succeed.' : 'The upstream API starts failing.', 'downstream');
      return { ...s, healthy: ev.kind === 'recover' };
    default:
      ctx.ignore({ by: ev.actor, what: ev.id, reason: `"${ev.kind}" is not an event of the storm mechanism`, rule: 'lab.mechanism' });
      ctx.why(() => `"${ev.kind}" has no meaning for the storm; ignored.`);
      return s;
  }
}

/** Applies one timer of the storm mechanism. */
export function applyStormTimer(s: StormState, t: StormTimer, ctx: Ctx): StormState {
  switch (t.kind) {
    case 'storm.retry': {
      const call = s.calls[t.callId];
      if (!call || call.state !== 'active' || call.cancelled) return s;
      return sendAttempt(s, t.callId, ctx);
    }
    case 'storm.timeout': {
      const a = s.attempts[t.attemptId];
      if (!a || a.result !== 'pending') return s;
      ctx.why(() => `${t.attemptId} times out at ${s.config.layers[a.layer].name}: abandoned, not stopped — ${a.child ?? 'its work'} keeps running${s.config.fixes.cancelPropagation ? ' until the cancel reaches it' : ''}.`, 'storm.timeout');
      return resolveAttempt(s, t.attemptId, 'timeout', ctx);
    }
    case 'storm.exec-end': {
      const e = s.executions.find((x) => x.id === t.execId);
      if (!e || e.state !== 'running') return s;
      const ok = s.healthy;
      let next = setExec(s, { ...e, state: ok ? 'ok' : 'failed', endAt: ctx.now });
      const waiting = e.waiters.filter((w) => next.attempts[w].result === 'pending');
      for (const w of e.waiters) next = resolveAttempt(next, w, ok ? 'ok' : 'failed', ctx);
      ctx.why(() => `${e.id} ${ok ? 'finishes' : `fails (${s.config.upstream.failStatus})`}${waiting.length === 0 ? ' — nobody is waiting for it any more: wasted work' : ''}.`, 'storm.upstream');
      return next;
    }
    case 'storm.receipt': {
      const e = s.executions.find((x) => x.id === t.execId);
      if (!e || e.state !== 'running') return s;
      let next = s;
      for (const w of e.waiters) next = resolveAttempt(next, w, 'receipt', ctx);
      ctx.why(() => `The server answers after ${s.config.upstream.receiptAfterMs} ms with a receipt for ${e.id}; the work goes on and nobody times out.`, 'storm.receipt');
      return next;
    }
    case 'storm.poll': {
      if (s.user.state !== 'polling') return s;
      const done = s.executions.find((e) => e.state === 'ok' || e.state === 'failed');
      if (done) {
        ctx.why(() => `The poll finds ${done.id} ${done.state === 'ok' ? 'finished' : 'failed'}.`, 'storm.receipt');
        return { ...s, user: { ...s.user, state: done.state === 'ok' ? 'succeeded' : 'failed', atMs: ctx.now } };
      }
      ctx.schedule(ctx.now + s.config.upstream.pollIntervalMs, STORM_RANK.retry, 'client', 'poll', { kind: 'storm.poll' });
      ctx.why('The client polls: still running.', 'storm.receipt');
      return s;
    }
    case 'storm.cancel-arrives': {
      ctx.why(() => `The cancel reaches ${t.callId}: it stops retrying and forwards the cancel.`, 'storm.cancel');
      return cancelCall(s, t.callId, ctx);
    }
    case 'storm.cancel-exec': {
      const e = s.executions.find((x) => x.id === t.execId);
      if (!e || e.state !== 'running') return s;
      const stillWanted = e.waiters.some((w) => s.attempts[w].result === 'pending');
      if (stillWanted) return s;
      ctx.why(() => `The cancel reaches the upstream: ${e.id} stops.`, 'storm.cancel');
      return setExec(s, { ...e, state: 'cancelled', endAt: ctx.now });
    }
  }
}

/** The storm's outcome. */
export function stormOutcome(s: StormState): StormOutcome {
  const perLayer = s.config.layers.map(() => 0);
  for (const id of s.attemptOrder) perLayer[s.attempts[id].layer]++;
  const cancelAt = s.user.cancelAt;
  const ends = s.executions.filter((e) => e.endAt !== null && e.state !== 'killed').map((e) => e.endAt as number);
  return {
    requests: [{ key: 'action', state: s.user.state, atMs: s.user.atMs }],
    summary: {
      attemptsPerLayer: perLayer,
      upstreamAttempts: perLayer[perLayer.length - 1],
      executions: s.executions.length,
      killedByGuard: s.executions.filter((e) => e.state === 'killed').length,
      executionsCompleted: s.executions.filter((e) => e.state === 'ok').length,
      duplicateWorkAfterCancel: cancelAt === null ? 0 : s.executions.filter((e) => e.state !== 'killed' && (e.endAt === null || e.endAt > cancelAt)).length,
      executionsRunningAtEnd: s.executions.filter((e) => e.state === 'running').length,
      lastExecutionEndAtMs: ends.length === 0 ? null : Math.max(...ends),
    },
  };
}

/** Invariants of the storm. */
export const stormInvariants: Invariant<StormState>[] = [
  {
    name: 'one-execution-per-action',
    description: 'One user action executes upstream at most once (killed duplicates aside).',
    check: (s) => {
      const n = s.executions.filter((e) => e.state !== 'killed').length;
      return n > 1 ? `${n} upstream executions for one action` : null;
    },
  },
  {
    name: 'no-work-after-cancel',
    description: 'After the user cancels, no new upstream execution starts.',
    check: (s) => {
      const at = s.user.cancelAt;
      if (at === null) return null;
      const late = s.executions.filter((e) => e.startAt > at && e.state !== 'killed').length;
      return late > 0 ? `${late} upstream execution(s) started after the user cancelled at ${at} ms` : null;
    },
  },
  {
    name: 'one-retry-layer-per-process',
    description: 'Inside one process at most one layer retries (stacked loops multiply: 4 application attempts × 3 SDK attempts = 12 requests, nanobot#2760).',
    check: (s) => {
      const byProcess = new Map<string, string[]>();
      s.config.layers.forEach((l, i) => {
        if (l.process !== null && s.layerRetries[i] > 0) byProcess.set(l.process, [...(byProcess.get(l.process) ?? []), `${l.name} (${s.layerRetries[i]} retries)`]);
      });
      const stacked = [...byProcess.entries()].filter(([, names]) => names.length > 1);
      return stacked.length ? stacked.map(([p, names]) => `process ${p}: ${names.join(' and ')} both retried, each unaware of the other`).join('; ') : null;
    },
  },
];
