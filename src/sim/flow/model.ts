import type { ApplyContext, Invariant, Json, Model, ScriptedEvent } from '../types';
import { progressNotification, toolResultResponse } from '../mcp';
import { clientHash, jitterUnit } from './backoff';
import { clearRefetch, emptyBuffer, pushEvent, type BufferPolicy, type BufferRun, type BufferState } from './buffer';
import type { FleetConfig, FlowConfig, FlowEvent } from './schema';

/**
 * The flow model: a server producing SSE events into a bounded buffer, an optional proxy (buffering
 * and flushing, with a read timeout), a client that reads, stalls, watches one operation's idle
 * timeout, and reconnects and resyncs when the stream drops; plus, optionally, a fleet of clients
 * holding streams to a server with a stream cap and restarts (issue 4, items 1, 2 and 6).
 *
 * Rules: keep-alive comments (`:` lines) reach the client and reset the proxy's read timeout (they
 * are bytes), but never the operation's idle timeout (they are not progress) — the races model's
 * `sse.keepalive` rule. The SSE response carries `Content-Type: text/event-stream`,
 * `Cache-Control: no-cache`, `X-Accel-Buffering: no`.
 */

/** The exact SSE response headers the server sends (X-Accel-Buffering tells nginx-style proxies not to buffer). */
export const SSE_HEADERS = ['Content-Type: text/event-stream', 'Cache-Control: no-cache', 'X-Accel-Buffering: no'] as const;

/**
 * The response headers the server actually sends under `config`: `SSE_HEADERS`, minus
 * `X-Accel-Buffering: no` when the `omitAccelBufferingHeader` bug is on.
 */
export function sentSseHeaders(config: FlowConfig): readonly string[] {
  return config.bugs.omitAccelBufferingHeader ? SSE_HEADERS.slice(0, 2) : SSE_HEADERS;
}

/**
 * Whether the proxy holds events back under `config`: it is enabled and buffering, and the response
 * does not switch buffering off — an nginx-like proxy (`honoursAccelBuffering`) passes a response
 * carrying `X-Accel-Buffering: no` through unbuffered (nginx docs, `proxy_buffering` /
 * `X-Accel-Buffering`). Without the header, the same proxy buffers: events wait for the next flush
 * (every `flushIntervalMs`, or when `bufferEvents` are held).
 */
export function proxyBuffersConfig(config: FlowConfig): boolean {
  const p = config.proxy;
  if (!p.enabled || !p.buffering) return false;
  return !(p.honoursAccelBuffering && !config.bugs.omitAccelBufferingHeader);
}

/** Tie ranks, lowest first at the same millisecond. */
export const FLOW_RANK = { deadline: 0, client: 1, server: 2, delivery: 3 } as const;

export type StreamStatus = 'open' | 'down' | 'closed';
export type OperationState = 'none' | 'waiting' | 'completed' | 'timeout-idle';

/** Events the proxy is holding (buffering on) and has not flushed yet. */
export interface ProxyHeld {
  progress: number;
  finals: number;
  keepalives: number;
  opProgress: number;
  opFinal: boolean;
  /** Highest emission number among the events in this batch (0: none). */
  lastSeq: number;
  /** Tokens whose final response is in this batch. */
  finalTokens: readonly string[];
}

export interface FleetState {
  /** Per client (index 0 = `c1`): virtual time its stream opened, or -1 when not connected. */
  since: readonly number[];
  /** Connected clients, oldest stream first (for evict-oldest). */
  order: readonly number[];
  /** Per client: connection attempts after the first (retries), for jitter draws. */
  attempts: readonly number[];
  serverUpAt: number;
  evictions: number;
  rejections: number;
  connects: number;
  /** Last time the set of open streams changed (ms). */
  lastChangeAtMs: number;
  /** Successful reconnects after a restart (ms), in order. */
  landings: readonly number[];
  /** Clients that got a 503 at least once and retried, and the times of their retries. */
  retriedClients: readonly number[];
  /** Per client: time of its last 503 (-1 when none); the gap between two is the retry interval. */
  lastRejectAt: readonly number[];
  lastRetryGapMs: number | null;
}

export interface FlowState {
  config: FlowConfig;
  buffer: BufferState;
  /** Emission counter (every progress and final the server writes). */
  seq: number;
  /** Token of the event numbered `seq` (the last one the server wrote, delivered or lost); null before any. */
  lastWriteToken: string | null;
  status: StreamStatus;
  statusReason: string;
  stalledUntil: number | null;
  readPending: boolean;
  proxyHeld: ProxyHeld;
  proxyReadDeadlineAt: number | null;
  proxyReadHandle: number;
  proxyFlushes: number;
  proxyTimeouts: number;
  delivered: { progress: number; finals: number; keepalives: number };
  /** Highest emission number (`seq`) that has reached the client: the SSE id it would send as Last-Event-ID (0: none). */
  lastDeliveredSeq: number;
  /** Tokens whose final response has reached the client, in arrival order (their calls are finished). */
  finishedTokens: readonly string[];
  op: { token: string | null; state: OperationState; atMs: number | null; idleDeadlineAt: number | null; idleHandle: number; idleResetsByKeepalive: number };
  disconnects: number;
  firstDisconnectAtMs: number | null;
  reconnects: number;
  resyncs: number;
  firstResyncAtMs: number | null;
  /** Tokens refetched at resyncs (sum over resyncs). */
  refetched: number;
  /** Events the server wrote while the stream was down or lost with it (covered by the resync). */
  lostWhileDown: number;
  /** A resync is owed (the stream dropped). */
  resyncOwed: boolean;
  errors: readonly string[];
  fleet: FleetState | null;
  /** The fleet's jitter seed: the first draw of the scenario's seeded generator (a pure function of `scenario.seed`). */
  scenarioSeed: number;
}

export type FlowTimer =
  | { kind: 'produce'; producer: number; n: number }
  | { kind: 'open' }
  | { kind: 'read' }
  | { kind: 'stall-end' }
  | { kind: 'flush' }
  | { kind: 'keepalive' }
  | { kind: 'idle-deadline' }
  | { kind: 'proxy-read-timeout' }
  | { kind: 'reconnect' }
  | { kind: 'fleet-connect'; client: number; reason: 'initial' | 'evicted' | 'retry' | 'restart' }
  | { kind: 'fleet-restart' }
  | { kind: 'fleet-up' };

type Ctx = ApplyContext<FlowTimer>;

const NO_HELD: ProxyHeld = { progress: 0, finals: 0, keepalives: 0, opProgress: 0, opFinal: false, lastSeq: 0, finalTokens: [] };

function http(ctx: Ctx, from: 'client' | 'server', text: string, message?: Json): void {
  ctx.emit({ from, transport: 'streamable-http', http: text, message });
}

function proxyBuffers(s: FlowState): boolean {
  return proxyBuffersConfig(s.config);
}

function armProxyRead(s: FlowState, ctx: Ctx): FlowState {
  const t = s.config.proxy.readTimeoutMs;
  if (!s.config.proxy.enabled || t === null || s.status !== 'open') return s;
  if (s.proxyReadHandle >= 0) ctx.cancel(s.proxyReadHandle);
  const at = ctx.now + t;
  // Past the horizon nothing periodic runs, so no deadline is armed either (the replay ends).
  if (at > s.config.horizonMs) return { ...s, proxyReadHandle: -1, proxyReadDeadlineAt: null };
  return { ...s, proxyReadDeadlineAt: at, proxyReadHandle: ctx.schedule(at, FLOW_RANK.deadline, 'proxy', 'proxy read timeout', { kind: 'proxy-read-timeout' }) };
}

function disarmProxyRead(s: FlowState, ctx: Ctx): FlowState {
  if (s.proxyReadHandle >= 0) ctx.cancel(s.proxyReadHandle);
  return s.proxyReadHandle < 0 && s.proxyReadDeadlineAt === null ? s : { ...s, proxyReadHandle: -1, proxyReadDeadlineAt: null };
}

function armIdle(s: FlowState, ctx: Ctx): FlowState {
  const t = s.config.client.idleTimeoutMs;
  if (t === null || s.op.state !== 'waiting') return s;
  if (s.op.idleHandle >= 0) ctx.cancel(s.op.idleHandle);
  const at = ctx.now + t;
  return { ...s, op: { ...s.op, idleDeadlineAt: at, idleHandle: ctx.schedule(at, FLOW_RANK.deadline, 'client', 'idle deadline', { kind: 'idle-deadline' }) } };
}

/** Counts items of `token` in runs by kind. */
function countToken(runs: readonly BufferRun[], token: string | null): { progress: number; final: boolean } {
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

function countKinds(runs: readonly BufferRun[]): { progress: number; finals: number; lastSeq: number; finalTokens: string[] } {
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
function deliver(s: FlowState, batch: ProxyHeld, ctx: Ctx): FlowState {
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
function pump(s: FlowState, ctx: Ctx): FlowState {
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
function goDown(s: FlowState, reason: string, ctx: Ctx, alreadyLost = 0): FlowState {
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

function serverWrites(s: FlowState, kind: 'progress' | 'final', token: string, ctx: Ctx): FlowState {
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

// ───────────────────────────── fleet ─────────────────────────────

function fleetJitter(f: FleetConfig, seed: number, client: number, attempt: number): number {
  if (f.jitterMs === 0) return 0;
  const u = jitterUnit(seed, clientHash(`c${client + 1}`), attempt);
  return Math.floor(u * (2 * f.jitterMs + 1)) - f.jitterMs;
}

function fleetInit(f: FleetConfig, ctx: Ctx): FleetState {
  const n = f.clients;
  const since = new Array<number>(n).fill(-1);
  const order: number[] = [];
  if (f.connectAtMs === null) {
    for (let i = 0; i < n; i++) {
      since[i] = 0;
      order.push(i);
    }
  } else {
    for (let i = 0; i < n; i++) ctx.schedule(f.connectAtMs, FLOW_RANK.client, 'client', `c${i + 1} connects`, { kind: 'fleet-connect', client: i, reason: 'initial' });
  }
  if (f.restart) ctx.schedule(f.restart.atMs, FLOW_RANK.server, 'server', 'server restarts', { kind: 'fleet-restart' });
  return { since, order, attempts: new Array<number>(n).fill(0), serverUpAt: 0, evictions: 0, rejections: 0, connects: order.length, lastChangeAtMs: 0, landings: [], retriedClients: [], lastRejectAt: new Array<number>(n).fill(-1), lastRetryGapMs: null };
}

function fleetConnect(s: FlowState, client: number, reason: 'initial' | 'evicted' | 'retry' | 'restart', ctx: Ctx): FlowState {
  const f = s.config.fleet as FleetConfig;
  const fl = s.fleet as FleetState;
  const name = `c${client + 1}`;
  if (fl.since[client] >= 0) return s;
  if (ctx.now < fl.serverUpAt) {
    const attempts = fl.attempts.slice();
    attempts[client]++;
    const at = ctx.now + Math.max(1, f.reconnectDelayMs + fleetJitter(f, s.scenarioSeed, client, attempts[client]));
    if (at <= s.config.horizonMs) ctx.schedule(at, FLOW_RANK.client, 'client', `${name} reconnects`, { kind: 'fleet-connect', client, reason: 'restart' });
    ctx.why(() => `${name} finds the server down (restarting until ${fl.serverUpAt} ms) and tries again at ${at} ms.`, 'fleet.down');
    return { ...s, fleet: { ...fl, attempts } };
  }
  const cap = f.maxStreams;
  const since = fl.since.slice();
  let order = fl.order;
  let evictions = fl.evictions;
  if (cap !== null && order.length >= cap) {
    if (f.atCap === 'reject') {
      const retryMs = f.retryAfterS * 1000;
      const at = ctx.now + retryMs;
      if (at <= s.config.horizonMs) ctx.schedule(at, FLOW_RANK.client, 'client', `${name} retries after Retry-After`, { kind: 'fleet-connect', client, reason: 'retry' });
      http(ctx, 'server', `HTTP/1.1 503 Service Unavailable · Retry-After: ${f.retryAfterS} (${name}; ${cap} streams open)`);
      ctx.why(() => `The server is at its cap of ${cap} streams: ${name} gets 503 with Retry-After: ${f.retryAfterS} and waits ${retryMs} ms.`, 'fleet.reject');
      const retried = fl.retriedClients.includes(client) ? fl.retriedClients : [...fl.retriedClients, client];
      const lastRejectAt = fl.lastRejectAt.slice();
      const gap = lastRejectAt[client] >= 0 ? ctx.now - lastRejectAt[client] : fl.lastRetryGapMs;
      lastRejectAt[client] = ctx.now;
      return { ...s, fleet: { ...fl, rejections: fl.rejections + 1, retriedClients: retried, lastRetryGapMs: gap, lastRejectAt } };
    }
    const victim = order[0];
    order = order.slice(1);
    since[victim] = -1;
    evictions++;
    const at = ctx.now + f.evictedReconnectMs;
    if (at <= s.config.horizonMs) ctx.schedule(at, FLOW_RANK.client, 'client', `c${victim + 1} reconnects after eviction`, { kind: 'fleet-connect', client: victim, reason: 'evicted' });
    http(ctx, 'server', `closes the oldest stream (c${victim + 1}) to admit ${name}`);
  }
  since[client] = ctx.now;
  order = [...order, client];
  const landings = reason === 'restart' ? [...fl.landings, ctx.now] : fl.landings;
  http(ctx, 'server', `HTTP/1.1 200 OK · ${SSE_HEADERS.join(' · ')} (${name})`);
  ctx.why(() => (evictions > fl.evictions ? `${name} connects; the server evicts the oldest stream to make room — that client will come back in ${f.evictedReconnectMs} ms and evict another.` : `${name} opens its stream (${order.length} open).`), 'fleet.connect');
  return { ...s, fleet: { ...fl, since, order, evictions, connects: fl.connects + 1, lastChangeAtMs: ctx.now, landings } };
}

function fleetRestart(s: FlowState, ctx: Ctx): FlowState {
  const f = s.config.fleet as FleetConfig;
  const fl = s.fleet as FleetState;
  const restart = f.restart as { atMs: number; durationMs: number };
  const upAt = ctx.now + restart.durationMs;
  for (const c of fl.order) {
    const at = ctx.now + Math.max(0, f.reconnectDelayMs + fleetJitter(f, s.scenarioSeed, c, 0));
    ctx.schedule(at, FLOW_RANK.client, 'client', `c${c + 1} reconnects`, { kind: 'fleet-connect', client: c, reason: 'restart' });
  }
  ctx.schedule(upAt, FLOW_RANK.server, 'server', 'server is back', { kind: 'fleet-up' });
  http(ctx, 'server', `restarts: ${fl.order.length} streams drop; back at ${upAt} ms`);
  ctx.why(() => `The server restarts: all ${fl.order.length} streams drop. Each client reconnects after ${f.reconnectDelayMs} ms${f.jitterMs ? ` ± ${f.jitterMs} ms of jitter` : ' — all at the same moment'}.`, 'fleet.restart');
  return { ...s, fleet: { ...fl, since: fl.since.map(() => -1), order: [], serverUpAt: upAt, lastChangeAtMs: ctx.now } };
}

// ───────────────────────────── model ─────────────────────────────

function applyTimer(s: FlowState, t: FlowTimer, ctx: Ctx): FlowState {
  const c = s.config;
  switch (t.kind) {
    case 'open': {
      http(ctx, 'server', `HTTP/1.1 200 OK · ${sentSseHeaders(c).join(' · ')}`);
      ctx.why(
        () =>
          c.proxy.enabled && c.proxy.buffering && c.proxy.honoursAccelBuffering
            ? c.bugs.omitAccelBufferingHeader
              ? 'The server opens the SSE response WITHOUT X-Accel-Buffering: no, so the nginx-like proxy buffers it: events wait for its flush.'
              : 'The server opens the SSE response with X-Accel-Buffering: no: the nginx-like proxy passes every event through unbuffered.'
            : `The server opens the SSE response (${sentSseHeaders(c).join(', ')}).`,
        'proxy.accel-buffering',
      );
      return s;
    }
    case 'produce': {
      const p = c.producers[t.producer];
      const next = t.n + 1;
      if ((next < p.count || (next === p.count && p.final)) && s.status !== 'closed') {
        ctx.schedule(ctx.now + p.intervalMs, FLOW_RANK.server, 'server', `${p.token} producer`, { kind: 'produce', producer: t.producer, n: next });
      }
      return serverWrites(s, t.n < p.count ? 'progress' : 'final', p.token, ctx);
    }
    case 'read': {
      let next: FlowState = { ...s, readPending: false };
      if (next.status !== 'open' || next.stalledUntil !== null || next.buffer.size === 0) return next;
      const head = next.buffer.runs[0];
      const isOp = head.token === next.op.token;
      const rest = head.from === head.to ? next.buffer.runs.slice(1) : [{ ...head, from: head.from + 1 }, ...next.buffer.runs.slice(1)];
      next = { ...next, buffer: { ...next.buffer, runs: rest, size: next.buffer.size - 1 } };
      next = deliver(
        next,
        { progress: head.kind === 'progress' ? 1 : 0, finals: head.kind === 'final' ? 1 : 0, keepalives: 0, opProgress: isOp && head.kind === 'progress' ? 1 : 0, opFinal: isOp && head.kind === 'final', lastSeq: head.from, finalTokens: head.kind === 'final' ? [head.token] : [] },
        ctx,
      );
      ctx.why(() => `The client reads ${head.kind} #${head.from} of ${head.token}.`);
      return pump(next, ctx);
    }
    case 'stall-end': {
      if (s.stalledUntil === null || ctx.now < s.stalledUntil) return s;
      ctx.why(() => 'The client resumes reading.', 'flow.stall');
      return pump({ ...s, stalledUntil: null }, ctx);
    }
    case 'flush': {
      if (s.status === 'closed') return s;
      if (ctx.now + c.proxy.flushIntervalMs <= c.horizonMs) ctx.schedule(ctx.now + c.proxy.flushIntervalMs, FLOW_RANK.delivery, 'proxy', 'proxy flushes', { kind: 'flush' });
      const h = s.proxyHeld;
      if (s.status !== 'open' || s.stalledUntil !== null || h.progress + h.finals + h.keepalives === 0) {
        ctx.why(() => 'The proxy flushes: nothing to pass on.', 'proxy.flush');
        return { ...s, proxyFlushes: s.proxyFlushes + 1 };
      }
      ctx.why(() => `The proxy flushes ${h.progress} progress, ${h.finals} final and ${h.keepalives} keep-alive events it held back.`, 'proxy.flush');
      return deliver({ ...s, proxyHeld: NO_HELD, proxyFlushes: s.proxyFlushes + 1 }, h, ctx);
    }
    case 'keepalive': {
      if (s.status === 'closed') return s;
      if (ctx.now + (c.keepAliveIntervalMs as number) <= c.horizonMs) ctx.schedule(ctx.now + (c.keepAliveIntervalMs as number), FLOW_RANK.server, 'server', 'keep-alive', { kind: 'keepalive' });
      return keepAlive(s, ctx);
    }
    case 'idle-deadline': {
      if (s.op.state !== 'waiting') return s;
      let next: FlowState = { ...s, op: { ...s.op, state: 'timeout-idle', atMs: ctx.now, idleDeadlineAt: null, idleHandle: -1 }, status: 'closed', statusReason: 'the client timed out and closed the stream' };
      next = disarmProxyRead(next, ctx);
      http(ctx, 'client', 'closes the SSE response stream (idle timeout; under 2026-07-28 this is the cancellation signal)');
      ctx.why(() => `No progress of ${s.op.token} reached the client for ${c.client.idleTimeoutMs} ms: the idle timeout fires${proxyBuffers(s) ? ' — the proxy is still holding the progress the server sent' : ''}. Keep-alive comments never count as progress.`, 'sse.keepalive');
      return next;
    }
    case 'proxy-read-timeout': {
      if (s.status !== 'open') return s;
      ctx.why(() => `The proxy saw no byte from the server for ${c.proxy.readTimeoutMs} ms and closes the stream (504). Keep-alive comments would have kept it open.`, 'proxy.read-timeout');
      const next = goDown({ ...s, proxyTimeouts: s.proxyTimeouts + 1, proxyReadHandle: -1 }, `proxy read timeout after ${c.proxy.readTimeoutMs} ms`, ctx);
      return next;
    }
    case 'reconnect': {
      if (s.status !== 'down') return s;
      if (s.stalledUntil !== null && ctx.now < s.stalledUntil) {
        ctx.schedule(s.stalledUntil, FLOW_RANK.client, 'client', 'client reconnects', { kind: 'reconnect' });
        return s;
      }
      const tokens = s.buffer.refetch;
      http(ctx, 'client', c.revision === '2026-07-28'
        ? `reconnects: re-issues the request with a new JSON-RPC id (no Last-Event-ID) and refetches ${tokens.length ? tokens.join(', ') : 'its state'}`
        : 'reconnects: GET with Last-Event-ID to resume from the event store, then refetches what the store no longer holds');
      let next: FlowState = {
        ...s,
        status: 'open',
        statusReason: 'reconnected',
        reconnects: s.reconnects + 1,
        resyncs: s.resyncs + 1,
        firstResyncAtMs: s.firstResyncAtMs ?? ctx.now,
        refetched: s.refetched + tokens.length,
        buffer: clearRefetch(s.buffer),
        resyncOwed: false,
      };
      http(ctx, 'server', `HTTP/1.1 200 OK · ${sentSseHeaders(c).join(' · ')}`);
      next = armProxyRead(next, ctx);
      ctx.why(() => `The client reconnects and resyncs: the authoritative state replaces whatever the dropped stream lost.`, 'flow.resync');
      return pump(next, ctx);
    }
    case 'fleet-connect':
      return fleetConnect(s, t.client, t.reason, ctx);
    case 'fleet-restart':
      return fleetRestart(s, ctx);
    case 'fleet-up':
      ctx.why(() => 'The server is back and accepts connections.', 'fleet.up');
      return s;
  }
}

function keepAlive(s: FlowState, ctx: Ctx): FlowState {
  if (s.status !== 'open') {
    ctx.ignore({ by: 'server', what: 'keep-alive', reason: 'the stream is down', rule: 'sse.keepalive' });
    return s;
  }
  http(ctx, 'server', 'SSE comment line ": keep-alive" (not a JSON-RPC message)');
  const next = armProxyRead(s, ctx);
  if (proxyBuffers(next)) {
    ctx.why(() => 'A keep-alive comment: the proxy\'s read timeout resets, but the proxy holds the comment until it flushes.', 'sse.keepalive');
    return { ...next, proxyHeld: { ...next.proxyHeld, keepalives: next.proxyHeld.keepalives + 1 } };
  }
  if (next.stalledUntil !== null) {
    ctx.why(() => 'A keep-alive comment: the proxy\'s read timeout resets; the stalled client reads it later.', 'sse.keepalive');
    return next;
  }
  const idle = next.op.idleDeadlineAt;
  ctx.why(() => `A keep-alive comment reaches the client: bytes for the proxy, not progress — the idle deadline ${idle === null ? 'is unaffected' : `stays at ${idle} ms`}${next.config.bugs.keepAliveResetsIdle ? ' (but this buggy client resets it)' : ''}.`, 'sse.keepalive');
  return deliver(next, { ...NO_HELD, keepalives: 1 }, ctx);
}

function applyScripted(s: FlowState, event: ScriptedEvent, ctx: Ctx): FlowState {
  const ev = event as unknown as FlowEvent;
  switch (ev.kind) {
    case 'progress':
    case 'final':
      return serverWrites(s, ev.kind, ev.token, ctx);
    case 'keepalive':
      return keepAlive(s, ctx);
    case 'stall': {
      const until = Math.max(s.stalledUntil ?? 0, ctx.now + ev.durationMs);
      ctx.schedule(until, FLOW_RANK.client, 'client', 'client resumes', { kind: 'stall-end' });
      ctx.why(() => `The client stops reading until ${until} ms; events pile up in the buffer.`, 'flow.stall');
      return { ...s, stalledUntil: until };
    }
    case 'drop': {
      if (s.status !== 'open') {
        ctx.ignore({ by: 'wire', what: 'drop', reason: 'the stream is not open', rule: 'flow.resync' });
        return s;
      }
      ctx.why(() => 'The connection drops: whatever was queued is lost and marked; the client will reconnect and resync.', 'flow.resync');
      return goDown(s, 'the network dropped the connection', ctx);
    }
  }
}

/** The model's summary: counters the lesson's expectations name. */
export interface FlowOutcome {
  summary: Record<string, Json>;
  errors: readonly string[];
}

export function flowOutcome(s: FlowState): FlowOutcome {
  const b = s.buffer;
  const summary: Record<string, Json> = {
    policy: s.config.policy,
    capacityEvents: s.config.capacityEvents,
    peakDepth: b.peak,
    depth: b.size,
    emitted: s.seq,
    dropped: b.dropped,
    coalesced: b.coalesced,
    droppedOldest: b.droppedOldest,
    discarded: b.discarded,
    finalsRefused: b.finalsRefused,
    finalsDropped: b.finalsDropped,
    silentlyLost: b.silentlyLost,
    lostWhileDown: s.lostWhileDown,
    gapMarked: b.dropped + b.finalsDropped - b.silentlyLost + s.lostWhileDown > 0,
    disconnects: s.disconnects,
    firstDisconnectAtMs: s.firstDisconnectAtMs,
    reconnects: s.reconnects,
    resyncs: s.resyncs,
    firstResyncAtMs: s.firstResyncAtMs,
    refetched: s.refetched,
    stream: s.status,
    deliveredProgress: s.delivered.progress,
    deliveredFinals: s.delivered.finals,
    deliveredKeepalives: s.delivered.keepalives,
    operation: s.op.state,
    operationEndedAtMs: s.op.atMs,
    proxyFlushes: s.proxyFlushes,
    proxyTimeouts: s.proxyTimeouts,
  };
  if (s.fleet) {
    const f = s.fleet;
    const landings = f.landings;
    // Peak over fixed 100 ms buckets [k·100, k·100 + 99] (the herd plot's buckets).
    let peak = 0;
    for (let i = 0, run = 0; i < landings.length; i++) {
      run = i > 0 && Math.floor(landings[i] / 100) === Math.floor(landings[i - 1] / 100) ? run + 1 : 1;
      peak = Math.max(peak, run);
    }
    summary.fleet = {
      openStreams: f.order.length,
      connects: f.connects,
      evictions: f.evictions,
      rejections: f.rejections,
      retryingClients: f.retriedClients.length,
      retryIntervalMs: f.lastRetryGapMs,
      lastChangeAtMs: f.lastChangeAtMs,
      settled: f.lastChangeAtMs <= s.config.horizonMs / 2,
      reconnected: landings.length,
      firstReconnectAtMs: landings.length ? landings[0] : null,
      lastReconnectAtMs: landings.length ? landings[landings.length - 1] : null,
      reconnectSpreadMs: landings.length ? landings[landings.length - 1] - landings[0] : null,
      peakReconnectsPer100Ms: peak,
    };
  }
  return { summary, errors: s.errors };
}

const invariants: Invariant<FlowState>[] = [
  {
    name: 'buffer-within-capacity',
    description: 'The SSE buffer never holds more than capacityEvents (an unbounded buffer grows with the backlog).',
    check: (s) => (s.buffer.size > s.config.capacityEvents ? `the buffer holds ${s.buffer.size} events, over its capacity of ${s.config.capacityEvents}` : null),
  },
  {
    name: 'final-never-dropped',
    description: 'A final response is never dropped from the buffer (it evicts progress, or is refused with an error).',
    check: (s) => (s.buffer.finalsDropped > 0 ? `${s.buffer.finalsDropped} final response(s) dropped` : null),
  },
  {
    name: 'no-silent-gap',
    description: 'Every lost event leaves a refetch mark or a resync; no gap is silent.',
    check: (s) => (s.buffer.silentlyLost > 0 ? `${s.buffer.silentlyLost} event(s) lost with no refetch mark` : null),
  },
  {
    name: 'keepalive-not-progress',
    description: 'Keep-alive comments never reset the operation\'s idle timeout (rule sse.keepalive).',
    check: (s) => (s.op.idleResetsByKeepalive > 0 ? `a keep-alive comment reset the idle timeout ${s.op.idleResetsByKeepalive} time(s)` : null),
  },
];

/** The flow lab model (see the module docstring). */
export const flowModel: Model<FlowConfig, FlowState, FlowOutcome, FlowTimer> = {
  lab: 'flow',
  tieRule: [
    { rank: FLOW_RANK.deadline, name: 'deadline', why: 'Idle and proxy read deadlines are inclusive: they fire before anything else in the same millisecond.' },
    { rank: FLOW_RANK.client, name: 'client action', why: 'The client stalls, resumes or reconnects before the server writes in the same millisecond.' },
    { rank: FLOW_RANK.server, name: 'server write', why: 'Server writes (progress, finals, keep-alives) in scenario order, then producers in scheduling order.' },
    { rank: FLOW_RANK.delivery, name: 'delivery', why: 'Proxy flushes and paced client reads come last, so they see every write of that millisecond.' },
  ],
  scriptedRank: (e) => (e.actor === 'server' ? FLOW_RANK.server : FLOW_RANK.client),
  init(config, ctx) {
    const opToken = config.client.operationToken ?? config.producers[0]?.token ?? null;
    let s: FlowState = {
      config,
      buffer: emptyBuffer(config.policy as BufferPolicy, config.capacityEvents),
      seq: 0,
      lastWriteToken: null,
      status: 'open',
      statusReason: 'open',
      stalledUntil: null,
      readPending: false,
      proxyHeld: NO_HELD,
      proxyReadDeadlineAt: null,
      proxyReadHandle: -1,
      proxyFlushes: 0,
      proxyTimeouts: 0,
      delivered: { progress: 0, finals: 0, keepalives: 0 },
      lastDeliveredSeq: 0,
      finishedTokens: [],
      op: { token: opToken, state: opToken === null ? 'none' : 'waiting', atMs: null, idleDeadlineAt: null, idleHandle: -1, idleResetsByKeepalive: 0 },
      disconnects: 0,
      firstDisconnectAtMs: null,
      reconnects: 0,
      resyncs: 0,
      firstResyncAtMs: null,
      refetched: 0,
      lostWhileDown: 0,
      resyncOwed: false,
      errors: [],
      fleet: null,
      scenarioSeed: Math.floor(ctx.random() * 4294967296),
    };
    const hasStream = config.producers.length > 0 || config.fleet === null;
    if (hasStream) {
      ctx.schedule(0, FLOW_RANK.client, 'server', 'SSE response headers', { kind: 'open' });
      config.producers.forEach((p, i) => {
        if (p.count > 0 || p.final) ctx.schedule(p.startMs, FLOW_RANK.server, 'server', `${p.token} producer`, { kind: 'produce', producer: i, n: 0 });
      });
      if (config.keepAliveIntervalMs !== null && config.keepAliveIntervalMs <= config.horizonMs) ctx.schedule(config.keepAliveIntervalMs, FLOW_RANK.server, 'server', 'keep-alive', { kind: 'keepalive' });
      if (proxyBuffersConfig(config)) ctx.schedule(config.proxy.flushIntervalMs, FLOW_RANK.delivery, 'proxy', 'proxy flushes', { kind: 'flush' });
      s = armProxyRead(s, ctx);
      s = armIdle(s, ctx);
    }
    if (config.fleet) s = { ...s, fleet: fleetInit(config.fleet, ctx) };
    return s;
  },
  applyScripted,
  applyTimer,
  outcome: (s) => flowOutcome(s),
  invariants,
};
