// TEST-ONLY ORACLE: verbatim copy of src/sim/flow/model.ts at 377217e (import paths adjusted). Never import from app code.
import type { Invariant, Json, Model, ScriptedEvent } from '../../src/sim/types';
import { clearRefetch, emptyBuffer, type BufferPolicy } from './buffer';
import type { FlowConfig, FlowEvent } from '../../src/sim/flow/schema';
import { FLOW_RANK, proxyBuffersConfig, sentSseHeaders, type FlowCtx as Ctx, type FlowState, type FlowTimer } from './modelTypes';
import { armIdle, armProxyRead, deliver, disarmProxyRead, goDown, NO_HELD, proxyBuffers, pump, serverWrites, http } from './stream';
import { fleetConnect, fleetInit, fleetRestart } from './fleet';

export * from './modelTypes';

/*
 * The flow model (what it models and its rules: `modelTypes.ts`): timers, scripted events, the
 * outcome and the invariants. Stream machinery (proxy, delivery, drops) in `stream.ts`, the fleet
 * in `fleet.ts`.
 */

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
