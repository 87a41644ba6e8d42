// TEST-ONLY ORACLE: verbatim copy of src/sim/flow/stream.ts at 377217e (import paths adjusted). Never import from app code.
import type { Json } from '../../src/sim/types';
import { progressNotification, toolResultResponse } from '../../src/sim/mcp';
import { clearRefetch, pushEvent, type BufferRun } from './buffer';
import { FLOW_RANK, proxyBuffersConfig, type FlowCtx as Ctx, type FlowState, type ProxyHeld } from './modelTypes';

/** The flow model's stream machinery: proxy buffering and read timeout, delivery, drops, server writes. */

export const NO_HELD: ProxyHeld = { progress: 0, finals: 0, keepalives: 0, opProgress: 0, opFinal: false, lastSeq: 0, finalTokens: [] };

export function http(ctx: Ctx, from: 'client' | 'server', text: string, message?: Json): void {
  ctx.emit({ from, transport: 'streamable-http', http: text, message });
}

export function proxyBuffers(s: FlowState): boolean {
  return proxyBuffersConfig(s.config);
}

export function armProxyRead(s: FlowState, ctx: Ctx): FlowState {
  const t = s.config.proxy.readTimeoutMs;
  if (!s.config.proxy.enabled || t === null || s.status !== 'open') return s;
  if (s.proxyReadHandle >= 0) ctx.cancel(s.proxyReadHandle);
  const at = ctx.now + t;
  // Past the horizon nothing periodic runs, so no deadline is armed either (the replay ends).
  if (at > s.config.horizonMs) return { ...s, proxyReadHandle: -1, proxyReadDeadlineAt: null };
  return { ...s, proxyReadDeadlineAt: at, proxyReadHandle: ctx.schedule(at, FLOW_RANK.deadline, 'proxy', 'proxy read timeout', { kind: 'proxy-read-timeout' }) };
}

export function disarmProxyRead(s: FlowState, ctx: Ctx): FlowState {
  if (s.proxyReadHandle >= 0) ctx.cancel(s.proxyReadHandle);
  return s.proxyReadHandle < 0 && s.proxyReadDeadlineAt === null ? s : { ...s, proxyReadHandle: -1, proxyReadDeadlineAt: null };
}

export function armIdle(s: FlowState, ctx: Ctx): FlowState {
  const t = s.config.client.idleTimeoutMs;
  if (t === null || s.op.state !== 'waiting') return s;
  if (s.op.idleHandle >= 0) ctx.cancel(s.op.idleHandle);
  const at = ctx.now + t;
  return { ...s, op: { ...s.op, idleDeadlineAt: at, idleHandle: ctx.schedule(at, FLOW_RANK.deadline, 'client', 'idle deadline', { kind: 'idle-deadline' }) } };
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

export function countKinds(runs: readonly BufferRun[]): { progress: number; finals: number; lastSeq: number; finalTokens: string[] } {
  let progress = 0;
  let finals = 0;
  let lastSeq = 0;
  const finalTokens: string[] = [];
  for (const r of runs) {
    if (r.kind === 'progress') progress += r.to - r.from + 1;
    else {
      finals += r.to - r.from + 1;
      finalTokens.push(r.token);
    }
    lastSeq = Math.max(lastSeq, r.to);
  }
  return { progress, finals, lastSeq, finalTokens };
}

/** The client receives a batch: counts, idle reset by the operation's progress, completion by its final, refetch of marked tokens. */
export function deliver(s: FlowState, batch: ProxyHeld, ctx: Ctx): FlowState {
  let next: FlowState = {
    ...s,
    delivered: { progress: s.delivered.progress + batch.progress, finals: s.delivered.finals + batch.finals, keepalives: s.delivered.keepalives + batch.keepalives },
    lastDeliveredSeq: Math.max(s.lastDeliveredSeq, batch.lastSeq),
    finishedTokens: batch.finalTokens.length ? [...s.finishedTokens, ...batch.finalTokens.filter((t) => !s.finishedTokens.includes(t))] : s.finishedTokens,
  };
  if (next.buffer.refetch.length > 0 && batch.progress + batch.finals > 0) {
    // The stream carries a refetch mark: the client fetches the authoritative state of those tokens.
    next = { ...next, refetched: next.refetched + next.buffer.refetch.length, buffer: clearRefetch(next.buffer) };
  }
  if (next.op.state === 'waiting') {
    if (batch.opFinal) {
      if (next.op.idleHandle >= 0) ctx.cancel(next.op.idleHandle);
      next = { ...next, op: { ...next.op, state: 'completed', atMs: ctx.now, idleDeadlineAt: null, idleHandle: -1 } };
    } else if (batch.opProgress > 0) next = armIdle(next, ctx);
    else if (batch.keepalives > 0 && next.config.bugs.keepAliveResetsIdle && next.config.client.idleTimeoutMs !== null) {
      next = armIdle(next, ctx);
      next = { ...next, op: { ...next.op, idleResetsByKeepalive: next.op.idleResetsByKeepalive + 1 } };
    }
  }
  return next;
}

/** Moves events downstream as far as they can go now (into the proxy, or to a reading client). */
export function pump(s: FlowState, ctx: Ctx): FlowState {
  if (s.status !== 'open' || s.buffer.size === 0) return s;
  const runs = s.buffer.runs;
  const op = countToken(runs, s.op.token);
  const kinds = countKinds(runs);
  if (proxyBuffers(s)) {
    const h = s.proxyHeld;
    const held: FlowState = {
      ...s,
      buffer: { ...s.buffer, runs: [], size: 0 },
      proxyHeld: {
        ...h,
        progress: h.progress + kinds.progress,
        finals: h.finals + kinds.finals,
        opProgress: h.opProgress + op.progress,
        opFinal: h.opFinal || op.final,
        lastSeq: Math.max(h.lastSeq, kinds.lastSeq),
        finalTokens: kinds.finalTokens.length ? [...h.finalTokens, ...kinds.finalTokens] : h.finalTokens,
      },
    };
    const full = s.config.proxy.bufferEvents;
    const hh = held.proxyHeld;
    if (full !== null && hh.progress + hh.finals + hh.keepalives >= full && held.stalledUntil === null) {
      ctx.why(() => `The proxy's buffer is full (${full} events): it flushes ${hh.progress} progress, ${hh.finals} final and ${hh.keepalives} keep-alive events.`, 'proxy.flush');
      return deliver({ ...held, proxyHeld: NO_HELD, proxyFlushes: held.proxyFlushes + 1 }, hh, ctx);
    }
    return held;
  }
  if (s.stalledUntil !== null) return s;
  const rate = s.config.consumer.readIntervalMs;
  if (rate === 0) {
    const drained = { ...s, buffer: { ...s.buffer, runs: [], size: 0 } };
    return deliver(drained, { progress: kinds.progress, finals: kinds.finals, keepalives: 0, opProgress: op.progress, opFinal: op.final, lastSeq: kinds.lastSeq, finalTokens: kinds.finalTokens }, ctx);
  }
  if (s.readPending) return s;
  ctx.schedule(ctx.now + rate, FLOW_RANK.delivery, 'client', 'client reads one event', { kind: 'read' });
  return { ...s, readPending: true };
}

/** The stream drops (capacity, proxy timeout, network): everything queued or held is lost, a resync is owed, a reconnect is planned. */
export function goDown(s: FlowState, reason: string, ctx: Ctx, alreadyLost = 0): FlowState {
  let refetch = s.buffer.refetch;
  const lost = alreadyLost + s.buffer.size + s.proxyHeld.progress + s.proxyHeld.finals;
  if (s.buffer.size > 0) {
    const tokens = new Set([...refetch, ...s.buffer.runs.map((r) => r.token)]);
    refetch = [...tokens].sort();
  }
  let next: FlowState = {
    ...s,
    status: 'down',
    statusReason: reason,
    buffer: { ...s.buffer, runs: [], size: 0, refetch },
    proxyHeld: NO_HELD,
    lostWhileDown: s.lostWhileDown + lost - alreadyLost,
    disconnects: s.disconnects + 1,
    firstDisconnectAtMs: s.firstDisconnectAtMs ?? ctx.now,
    resyncOwed: true,
  };
  next = disarmProxyRead(next, ctx);
  const at = Math.max(ctx.now + s.config.client.reconnectDelayMs, s.stalledUntil ?? 0);
  if (at <= s.config.horizonMs) ctx.schedule(at, FLOW_RANK.client, 'client', 'client reconnects', { kind: 'reconnect' });
  http(ctx, 'server', `stream dropped: ${reason}`);
  return next;
}

export function serverWrites(s: FlowState, kind: 'progress' | 'final', token: string, ctx: Ctx): FlowState {
  if (s.status === 'closed') {
    ctx.ignore({ by: 'server', what: `${kind} for ${token}`, reason: 'the client closed the stream; the server stops writing', rule: 'flow.closed' });
    ctx.why(() => `The stream is closed, so the server writes no ${kind}.`, 'flow.closed');
    return s;
  }
  const seq = s.seq + 1;
  const message = kind === 'progress' ? progressNotification(token, seq, null, null) : toolResultResponse(s.config.revision as '2026-07-28' | '2025-11-25', token, 'done', false);
  if (s.status === 'down') {
    ctx.ignore({ by: 'server', what: `${kind} #${seq} for ${token}`, reason: 'the stream is down; the event is lost and the reconnect resyncs it', rule: 'flow.resync' });
    ctx.why(() => `The stream is down: ${kind} #${seq} is lost (the resync after reconnecting covers it).`, 'flow.resync');
    return { ...s, seq, lastWriteToken: token, lostWhileDown: s.lostWhileDown + 1 };
  }
  ctx.emit({ from: 'server', transport: 'streamable-http', message, requestKey: token });
  let next: FlowState = armProxyRead({ ...s, seq, lastWriteToken: token }, ctx);
  const r = pushEvent(next.buffer, { kind, token, seq });
  next = { ...next, buffer: r.state };
  switch (r.outcome) {
    case 'disconnect':
      next = goDown(next, `the buffer reached its capacity of ${s.config.capacityEvents} events`, ctx, r.lost.length);
      next = { ...next, lostWhileDown: next.lostWhileDown + r.lost.length };
      ctx.why(() => `Buffer full at ${s.config.capacityEvents}: the server closes the stream (${r.lost.length} events lost, marked); the client will reconnect and resync.`, 'buffer.disconnect');
      return next;
    case 'refused':
      ctx.ignore({ by: 'server', what: `final for ${token}`, reason: r.error ?? 'refused', rule: 'buffer.final-refused' });
      ctx.why(() => r.error ?? 'refused', 'buffer.final-refused');
      return { ...next, errors: [...next.errors, `${ctx.now} ms: ${r.error}`] };
    case 'coalesced':
      ctx.why(() => `Progress #${seq} of ${token} replaces the queued one (coalesced; ${token} marked for refetch).`, 'buffer.coalesce');
      break;
    case 'dropped-oldest':
      ctx.why(() => `Buffer full: the oldest ${r.lost[0].kind} (${r.lost[0].token} #${r.lost[0].seq}) is dropped${s.config.policy === 'drop-silent' ? ' with no mark — a silent gap' : ` and ${r.lost[0].token} marked for refetch`}.`, 'buffer.drop-oldest');
      break;
    case 'discarded':
      ctx.why(() => `Only final responses are queued: progress #${seq} is discarded (${token} marked for refetch).`, 'buffer.discard');
      break;
    default:
      ctx.why(() => `The server writes ${kind} #${seq} of ${token}.`);
  }
  return pump(next, ctx);
}

