import type { Json } from '../types';
import { progressNotification, toolResultResponse } from '../mcp';
import type { BufferRun } from './buffer';
import { lastLoss, pushInto } from './bufferCore';
import type { PushOutcome } from './buffer';
import { FLOW_RANK, type FlowCtx as Ctx, type FlowTimer, type ProxyHeld } from './modelTypes';
import { executionCompleted, loseInFlight, REISSUE_RULE, responseIdOf, writesForLostRequest } from './reissue';
import { bufferChanged, deliveredChanged, freshHeld, heldChanged, opChanged, type FlowCore, type HeldCore } from './state';

/**
 * The flow model's stream machinery: proxy buffering and read timeout, delivery, drops, server
 * writes. Every function mutates the core state `s` in place (see `state.ts`).
 */

/** An empty batch (never mutated). */
export const NO_HELD: ProxyHeld = Object.freeze({ progress: 0, finals: 0, keepalives: 0, opProgress: 0, opFinal: false, lastSeq: 0, finalTokens: Object.freeze([]) as readonly string[] });

/** Shared timer payloads without fields (frozen: the queue and checkpoints share them). */
export const TIMER: Readonly<Record<'open' | 'read' | 'stall-end' | 'flush' | 'keepalive' | 'idle-deadline' | 'proxy-read-timeout' | 'reconnect' | 'fleet-restart' | 'fleet-up', FlowTimer>> = Object.freeze({
  open: Object.freeze({ kind: 'open' }),
  read: Object.freeze({ kind: 'read' }),
  'stall-end': Object.freeze({ kind: 'stall-end' }),
  flush: Object.freeze({ kind: 'flush' }),
  keepalive: Object.freeze({ kind: 'keepalive' }),
  'idle-deadline': Object.freeze({ kind: 'idle-deadline' }),
  'proxy-read-timeout': Object.freeze({ kind: 'proxy-read-timeout' }),
  reconnect: Object.freeze({ kind: 'reconnect' }),
  'fleet-restart': Object.freeze({ kind: 'fleet-restart' }),
  'fleet-up': Object.freeze({ kind: 'fleet-up' }),
});

/** Emits an HTTP-level wire effect (Streamable HTTP) with optional JSON-RPC message. */
export function http(ctx: Ctx, from: 'client' | 'server', text: string, message?: Json): void {
  ctx.emitWire(from, 'streamable-http', message, text, undefined, undefined);
}

/** (Re)arms the proxy's read timeout from now, unless the proxy has none or the stream is not open. */
export function armProxyRead(s: FlowCore, ctx: Ctx): void {
  const t = s.config.proxy.readTimeoutMs;
  if (!s.config.proxy.enabled || t === null || s.status !== 'open') return;
  if (s.proxyReadHandle >= 0) ctx.cancel(s.proxyReadHandle);
  const at = ctx.now + t;
  // Past the horizon nothing periodic runs, so no deadline is armed either (the replay ends) —
  // except on the stream of a re-issued call still waiting for its result (2026-07-28): that call
  // meets the same read timeout as the one it replaces, and leaving the deadline out would let its
  // result through only because the horizon ended first (issue 23).
  if (at > s.config.horizonMs && !(s.op.state === 'waiting' && s.reissue.reissues > 0)) {
    s.proxyReadHandle = -1;
    s.proxyReadDeadlineAt = null;
    return;
  }
  s.proxyReadDeadlineAt = at;
  s.proxyReadHandle = ctx.schedule(at, FLOW_RANK.deadline, 'proxy', 'proxy read timeout', TIMER['proxy-read-timeout']);
}

export function disarmProxyRead(s: FlowCore, ctx: Ctx): void {
  if (s.proxyReadHandle >= 0) ctx.cancel(s.proxyReadHandle);
  s.proxyReadHandle = -1;
  s.proxyReadDeadlineAt = null;
}

/** (Re)arms the operation's idle deadline from now while it is waiting and has an idle timeout. */
export function armIdle(s: FlowCore, ctx: Ctx): void {
  const t = s.config.client.idleTimeoutMs;
  const op = s.op;
  if (t === null || op.state !== 'waiting') return;
  if (op.idleHandle >= 0) ctx.cancel(op.idleHandle);
  const at = ctx.now + t;
  op.idleDeadlineAt = at;
  op.idleHandle = ctx.schedule(at, FLOW_RANK.deadline, 'client', 'idle deadline', TIMER['idle-deadline']);
  opChanged(s);
}

/** Counts items of `token` in runs by kind. */
export function countToken(runs: readonly BufferRun[], token: string | null): { progress: number; final: boolean } {
  let progress = 0;
  let final = false;
  if (token === null) return { progress, final };
  for (const r of runs) {
    if (r.token !== token) continue;
    if (r.kind === 'progress') progress += r.to - r.from + 1;
    else final = true;
  }
  return { progress, final };
}

/** The whole queue as one batch for the client (progress and finals by count; one final token per run). */
function batchOf(runs: readonly BufferRun[], token: string | null): HeldCore {
  const b = freshHeld();
  for (const r of runs) {
    const n = r.to - r.from + 1;
    if (r.kind === 'progress') {
      b.progress += n;
      if (r.token === token) b.opProgress += n;
    } else {
      b.finals += n;
      b.finalTokens.push(r.token);
      if (r.token === token) b.opFinal = true;
    }
    if (r.to > b.lastSeq) b.lastSeq = r.to;
  }
  return b;
}

/** Empties the buffer's queue (its items moved on or were lost). */
function takeAll(s: FlowCore): void {
  s.buffer.runs = [];
  s.buffer.size = 0;
  bufferChanged(s);
}

/** The client receives a batch: counts, idle reset by the operation's progress, completion by its final, refetch of marked tokens. */
export function deliver(s: FlowCore, batch: ProxyHeld, ctx: Ctx): void {
  const d = s.delivered;
  d.progress += batch.progress;
  d.finals += batch.finals;
  d.keepalives += batch.keepalives;
  deliveredChanged(s);
  if (batch.lastSeq > s.lastDeliveredSeq) s.lastDeliveredSeq = batch.lastSeq;
  const ft = batch.finalTokens;
  if (ft.length > 0) {
    const finished = s.finishedTokens;
    const known = finished.length;
    for (const t of ft) {
      let seen = false;
      for (let i = 0; i < known && !seen; i++) seen = finished[i] === t;
      if (!seen) finished.push(t);
    }
  }
  if (s.buffer.refetch.length > 0 && batch.progress + batch.finals > 0) {
    // The stream carries a refetch mark: the client fetches the authoritative state of those tokens.
    s.refetched += s.buffer.refetch.length;
    s.buffer.refetch = [];
    bufferChanged(s);
  }
  const op = s.op;
  if (op.state !== 'waiting') return;
  if (batch.opFinal) {
    if (op.idleHandle >= 0) ctx.cancel(op.idleHandle);
    op.state = 'completed';
    op.atMs = ctx.now;
    op.idleDeadlineAt = null;
    op.idleHandle = -1;
    opChanged(s);
  } else if (batch.opProgress > 0) armIdle(s, ctx);
  else if (batch.keepalives > 0 && s.config.bugs.keepAliveResetsIdle && s.config.client.idleTimeoutMs !== null) {
    armIdle(s, ctx);
    op.idleResetsByKeepalive++;
  }
}

/** Moves events downstream as far as they can go now (into the proxy, or to a reading client). */
export function pump(s: FlowCore, ctx: Ctx): void {
  if (s.status !== 'open' || s.buffer.size === 0) return;
  if (s.proxyBuffering) {
    const batch = batchOf(s.buffer.runs, s.op.token);
    takeAll(s);
    const h = s.proxyHeld;
    h.progress += batch.progress;
    h.finals += batch.finals;
    h.opProgress += batch.opProgress;
    h.opFinal = h.opFinal || batch.opFinal;
    if (batch.lastSeq > h.lastSeq) h.lastSeq = batch.lastSeq;
    for (const t of batch.finalTokens) h.finalTokens.push(t);
    heldChanged(s);
    const full = s.config.proxy.bufferEvents;
    if (full !== null && h.progress + h.finals + h.keepalives >= full && s.stalledUntil === null) {
      ctx.why(ctx.keepsNotes ? `The proxy's buffer is full (${full} events): it flushes ${h.progress} progress, ${h.finals} final and ${h.keepalives} keep-alive events.` : '', 'proxy.flush');
      s.proxyHeld = freshHeld();
      heldChanged(s);
      s.proxyFlushes++;
      deliver(s, h, ctx);
    }
    return;
  }
  if (s.stalledUntil !== null) return;
  const rate = s.config.consumer.readIntervalMs;
  if (rate === 0) {
    const batch = batchOf(s.buffer.runs, s.op.token);
    takeAll(s);
    deliver(s, batch, ctx);
    return;
  }
  if (s.readPending) return;
  ctx.schedule(ctx.now + rate, FLOW_RANK.delivery, 'client', 'client reads one event', TIMER.read);
  s.readPending = true;
}

/**
 * The stream drops (capacity, proxy timeout, network): everything queued or held is lost, a resync
 * is owed, a reconnect is planned; under 2026-07-28 the in-flight request is lost too
 * (`loseInFlight`). Items the caller took out itself (a disconnect at capacity) it counts itself.
 * Returns the text the caller adds to its note about the lost request ('' when none).
 */
export function goDown(s: FlowCore, reason: string, ctx: Ctx): string {
  const b = s.buffer;
  const lost = b.size + s.proxyHeld.progress + s.proxyHeld.finals;
  if (b.size > 0) {
    const tokens = new Set([...b.refetch, ...b.runs.map((r) => r.token)]);
    b.refetch = [...tokens].sort();
  }
  s.status = 'down';
  s.statusReason = reason;
  takeAll(s);
  s.proxyHeld = freshHeld();
  heldChanged(s);
  s.lostWhileDown += lost;
  s.disconnects++;
  s.firstDisconnectAtMs ??= ctx.now;
  s.resyncOwed = true;
  disarmProxyRead(s, ctx);
  const lostNote = loseInFlight(s, ctx);
  const at = Math.max(ctx.now + s.config.client.reconnectDelayMs, s.stalledUntil ?? 0);
  if (at <= s.config.horizonMs) ctx.schedule(at, FLOW_RANK.client, 'client', 'client reconnects', TIMER.reconnect);
  http(ctx, 'server', `stream dropped: ${reason}`);
  return lostNote;
}

/**
 * The server writes a progress notification or the final response of `token` (numbered `seq + 1`);
 * a final of the watched operation completes an execution (`executionCompleted`) unless it is the
 * key's `stored` result answering a re-issue.
 */
export function serverWrites(s: FlowCore, kind: 'progress' | 'final', token: string, ctx: Ctx, stored = false): void {
  // Notes and ignored items are built inline only when kept: no closure, so the fast path allocates no context per write.
  if (s.status === 'closed') {
    if (ctx.keepsIgnored) ctx.ignore({ by: 'server', what: `${kind} for ${token}`, reason: 'the client closed the stream; the server stops writing', rule: 'flow.closed' });
    ctx.why(ctx.keepsNotes ? `The stream is closed, so the server writes no ${kind}.` : '', 'flow.closed');
    return;
  }
  if (writesForLostRequest(s, token)) {
    if (ctx.keepsIgnored) ctx.ignore({ by: 'server', what: `${kind} for ${token}`, reason: `request ${JSON.stringify(s.reissue.lostRequestId)} was lost with its stream; the server stopped its execution`, rule: REISSUE_RULE });
    ctx.why(ctx.keepsNotes ? `Request ${JSON.stringify(s.reissue.lostRequestId)} was lost with its 2026-07-28 stream and its execution stopped: no ${kind} is written for it.` : '', REISSUE_RULE);
    return;
  }
  if (kind === 'final' && token === s.op.token && !stored) executionCompleted(s);
  const seq = s.seq + 1;
  s.seq = seq;
  s.lastWriteToken = token;
  if (s.status === 'down') {
    if (ctx.keepsIgnored) ctx.ignore({ by: 'server', what: `${kind} #${seq} for ${token}`, reason: 'the stream is down; the event is lost and the reconnect resyncs it', rule: 'flow.resync' });
    ctx.why(ctx.keepsNotes ? `The stream is down: ${kind} #${seq} is lost (the resync after reconnecting covers it).` : '', 'flow.resync');
    s.lostWhileDown++;
    return;
  }
  const message = kind === 'progress' ? progressNotification(token, seq, null, null) : toolResultResponse(s.config.revision, responseIdOf(s, token), 'done', false);
  ctx.emitWire('server', 'streamable-http', message, undefined, undefined, token);
  armProxyRead(s, ctx);
  const outcome = pushInto(s.buffer, kind, token, seq);
  bufferChanged(s);
  if (!pushed(s, outcome, kind, token, seq, ctx)) pump(s, ctx);
}

/** The rest of a write after `pushInto` said `outcome`: the loss and the note; true when the stream went down (nothing to pump). */
function pushed(s: FlowCore, outcome: PushOutcome, kind: 'progress' | 'final', token: string, seq: number, ctx: Ctx): boolean {
  const r = lastLoss();
  const notes = ctx.keepsNotes;
  switch (outcome) {
    case 'disconnect': {
      const lostCount = r.count;
      const lostNote = goDown(s, `the buffer reached its capacity of ${s.config.capacityEvents} events`, ctx);
      s.lostWhileDown += lostCount;
      ctx.why(notes ? `Buffer full at ${s.config.capacityEvents}: the server closes the stream (${lostCount} events lost, marked); the client will reconnect and resync.${lostNote}` : '', 'buffer.disconnect');
      return true;
    }
    case 'refused': {
      const error = r.error as string;
      if (ctx.keepsIgnored) ctx.ignore({ by: 'server', what: `final for ${token}`, reason: error, rule: 'buffer.final-refused' });
      ctx.why(error, 'buffer.final-refused');
      s.errors.push(`${ctx.now} ms: ${error}`);
      return true;
    }
    case 'coalesced':
      ctx.why(notes ? `Progress #${seq} of ${token} replaces the queued one (coalesced; ${token} marked for refetch).` : '', 'buffer.coalesce');
      return false;
    case 'dropped-oldest':
      ctx.why(notes ? `Buffer full: the oldest ${r.first.kind} (${r.first.token} #${r.first.seq}) is dropped${s.config.policy === 'drop-silent' ? ' with no mark — a silent gap' : ` and ${r.first.token} marked for refetch`}.` : '', 'buffer.drop-oldest');
      return false;
    case 'discarded':
      ctx.why(notes ? `Only final responses are queued: progress #${seq} is discarded (${token} marked for refetch).` : '', 'buffer.discard');
      return false;
    default:
      ctx.why(notes ? `The server writes ${kind} #${seq} of ${token}.` : '');
      return false;
  }
}
