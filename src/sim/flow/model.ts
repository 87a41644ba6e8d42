import { asCoreContext, oneStepMethods, type CoreModel } from '../core';
import type { Model, ScriptedEvent } from '../types';
import { capacityProblem, type BufferPolicy } from './buffer';
import type { FlowConfig, FlowEvent } from './schema';
import { FLOW_RANK, producerLabels, proxyBuffersConfig, sentSseHeaders, type FlowCtx as Ctx, type FlowState, type FlowTimer } from './modelTypes';
import { armIdle, armProxyRead, deliver, disarmProxyRead, goDown, NO_HELD, pump, serverWrites, http, TIMER } from './stream';
import { fleetConnect, fleetInit, fleetRestart } from './fleet';
import { initialReissue, REISSUE_RULE, reissueLost, trackProducer } from './reissue';
import { bufferChanged, freshHeld, heldChanged, opChanged, thaw, viewOf, type FlowCore, type HeldCore } from './state';
import { FLOW_ENTITY_INVARIANTS, FLOW_INVARIANTS, flowEntity, flowInvariantsSurelyHold, flowOutcome, flowTouched, type FlowOutcome } from './outcome';

export * from './modelTypes';
export { flowOutcome, FLOW_INVARIANTS, FLOW_ENTITY_INVARIANTS, type FlowOutcome } from './outcome';
export type { FlowCore } from './state';

/*
 * The flow model (what it models and its rules: `modelTypes.ts`) on the checkpointed core: timers
 * and scripted events mutate the core state (`state.ts`) in place. Stream machinery (proxy,
 * delivery, drops) in `stream.ts`, the buffer in `bufferCore.ts`, the fleet in `fleet.ts`, the
 * outcome and invariants in `outcome.ts`.
 */

function applyTimer(s: FlowCore, t: FlowTimer, ctx: Ctx): void {
  s.touchedBuffer = false;
  s.touchedOp = false;
  s.touchedRequest = false;
  const c = s.config;
  switch (t.kind) {
    case 'open': {
      http(ctx, 'server', `HTTP/1.1 200 OK · ${sentSseHeaders(c).join(' · ')}`);
      ctx.why(
        !ctx.keepsNotes
          ? ''
          : c.proxy.enabled && c.proxy.buffering && c.proxy.honoursAccelBuffering
            ? c.bugs.omitAccelBufferingHeader
              ? 'The server opens the SSE response WITHOUT X-Accel-Buffering: no, so the nginx-like proxy buffers it: events wait for its flush.'
              : 'The server opens the SSE response with X-Accel-Buffering: no: the nginx-like proxy passes every event through unbuffered.'
            : `The server opens the SSE response (${sentSseHeaders(c).join(', ')}).`,
        'proxy.accel-buffering',
      );
      return;
    }
    case 'produce': {
      const p = c.producers[t.producer];
      const next = t.n + 1;
      if ((next < p.count || (next === p.count && p.final)) && s.status !== 'closed') {
        trackProducer(s, t.producer, ctx.schedule(ctx.now + p.intervalMs, FLOW_RANK.server, 'server', s.producerLabels[t.producer], { kind: 'produce', producer: t.producer, n: next }));
      } else trackProducer(s, t.producer, -1);
      return serverWrites(s, t.n < p.count ? 'progress' : 'final', p.token, ctx);
    }
    case 'read': {
      s.readPending = false;
      if (s.status !== 'open' || s.stalledUntil !== null || s.buffer.size === 0) return;
      const runs = s.buffer.runs;
      const head = runs[0];
      const { kind, token, from } = head;
      const isOp = token === s.op.token;
      if (head.from === head.to) runs.shift();
      else head.from++;
      s.buffer.size--;
      bufferChanged(s);
      // One event: the shared one-event batch, refilled (deliver reads it at once and keeps nothing of it).
      const batch = READ_BATCH;
      if (batch.finalTokens.length !== 0) batch.finalTokens.length = 0;
      if (kind === 'progress') {
        batch.progress = 1;
        batch.finals = 0;
        batch.opProgress = isOp ? 1 : 0;
        batch.opFinal = false;
      } else {
        batch.progress = 0;
        batch.finals = 1;
        batch.opProgress = 0;
        batch.opFinal = isOp;
        batch.finalTokens.push(token);
      }
      batch.lastSeq = from;
      deliver(s, batch, ctx);
      ctx.why(ctx.keepsNotes ? `The client reads ${kind} #${from} of ${token}.` : '');
      return pump(s, ctx);
    }
    case 'stall-end': {
      if (s.stalledUntil === null || ctx.now < s.stalledUntil) return;
      ctx.why(ctx.keepsNotes ? 'The client resumes reading.' : '', 'flow.stall');
      s.stalledUntil = null;
      return pump(s, ctx);
    }
    case 'flush': {
      if (s.status === 'closed') return;
      if (ctx.now + c.proxy.flushIntervalMs <= c.horizonMs) ctx.schedule(ctx.now + c.proxy.flushIntervalMs, FLOW_RANK.delivery, 'proxy', 'proxy flushes', TIMER.flush);
      const h = s.proxyHeld;
      s.proxyFlushes++;
      if (s.status !== 'open' || s.stalledUntil !== null || h.progress + h.finals + h.keepalives === 0) {
        ctx.why(ctx.keepsNotes ? 'The proxy flushes: nothing to pass on.' : '', 'proxy.flush');
        return;
      }
      ctx.why(ctx.keepsNotes ? `The proxy flushes ${h.progress} progress, ${h.finals} final and ${h.keepalives} keep-alive events it held back.` : '', 'proxy.flush');
      s.proxyHeld = freshHeld();
      heldChanged(s);
      return deliver(s, h, ctx);
    }
    case 'keepalive': {
      if (s.status === 'closed') return;
      if (ctx.now + (c.keepAliveIntervalMs as number) <= c.horizonMs) ctx.schedule(ctx.now + (c.keepAliveIntervalMs as number), FLOW_RANK.server, 'server', 'keep-alive', TIMER.keepalive);
      return keepAlive(s, ctx);
    }
    case 'idle-deadline': {
      const op = s.op;
      if (op.state !== 'waiting') return;
      op.state = 'timeout-idle';
      op.atMs = ctx.now;
      op.idleDeadlineAt = null;
      op.idleHandle = -1;
      opChanged(s);
      s.status = 'closed';
      s.statusReason = 'the client timed out and closed the stream';
      disarmProxyRead(s, ctx);
      http(ctx, 'client', 'closes the SSE response stream (idle timeout; under 2026-07-28 this is the cancellation signal)');
      ctx.why(ctx.keepsNotes ? `No progress of ${op.token} reached the client for ${c.client.idleTimeoutMs} ms: the idle timeout fires${s.proxyBuffering ? ' — the proxy is still holding the progress the server sent' : ''}. Keep-alive comments never count as progress.` : '', 'sse.keepalive');
      return;
    }
    case 'proxy-read-timeout': {
      if (s.status !== 'open') return;
      s.proxyTimeouts++;
      s.proxyReadHandle = -1;
      const lostNote = goDown(s, `proxy read timeout after ${c.proxy.readTimeoutMs} ms`, ctx);
      ctx.why(ctx.keepsNotes ? `The proxy saw no byte from the server for ${c.proxy.readTimeoutMs} ms and closes the stream (504). Keep-alive comments would have kept it open.${lostNote}` : '', 'proxy.read-timeout');
      return;
    }
    case 'reconnect': {
      if (s.status !== 'down') return;
      if (s.stalledUntil !== null && ctx.now < s.stalledUntil) {
        ctx.schedule(s.stalledUntil, FLOW_RANK.client, 'client', 'client reconnects', TIMER.reconnect);
        return;
      }
      const tokens = s.buffer.refetch;
      const refetches = tokens.length ? tokens.join(', ') : 'its state';
      const lost = s.reissue.lostRequestId !== null;
      if (c.revision === '2025-11-25') http(ctx, 'client', 'reconnects: GET with Last-Event-ID to resume from the event store, then refetches what the store no longer holds');
      // The lab's old 2026 text, kept for the resumeUnder2026 bug: it says "re-issues" but the client goes on waiting for the old request.
      else if (c.bugs.resumeUnder2026) http(ctx, 'client', `reconnects: re-issues the request with a new JSON-RPC id (no Last-Event-ID) and refetches ${refetches}`);
      else if (!lost) http(ctx, 'client', `reconnects with a new request (no Last-Event-ID: 2026-07-28 has no resumption) and refetches ${refetches}`);
      const reissued = lost ? reissueLost(s, ctx) : null;
      if (reissued && tokens.length) http(ctx, 'client', `refetches ${refetches}`);
      s.status = 'open';
      s.statusReason = 'reconnected';
      s.reconnects++;
      s.resyncs++;
      s.firstResyncAtMs ??= ctx.now;
      s.refetched += tokens.length;
      if (tokens.length > 0) {
        s.buffer.refetch = [];
        bufferChanged(s);
      }
      s.resyncOwed = false;
      http(ctx, 'server', `HTTP/1.1 200 OK · ${sentSseHeaders(c).join(' · ')}`);
      armProxyRead(s, ctx);
      if (reissued === null) ctx.why(ctx.keepsNotes ? `The client reconnects and resyncs: the authoritative state replaces whatever the dropped stream lost.` : '', 'flow.resync');
      else {
        ctx.why(reissued.text, REISSUE_RULE);
        armIdle(s, ctx);
        if (reissued.stored) return serverWrites(s, 'final', s.op.token as string, ctx, true);
      }
      return pump(s, ctx);
    }
    case 'fleet-connect':
      return fleetConnect(s, t.client, t.reason, ctx);
    case 'fleet-restart':
      return fleetRestart(s, ctx);
    case 'fleet-up':
      ctx.why(ctx.keepsNotes ? 'The server is back and accepts connections.' : '', 'fleet.up');
      return;
  }
}

function keepAlive(s: FlowCore, ctx: Ctx): void {
  if (s.status !== 'open') {
    if (ctx.keepsIgnored) ctx.ignore({ by: 'server', what: 'keep-alive', reason: 'the stream is down', rule: 'sse.keepalive' });
    return;
  }
  http(ctx, 'server', 'SSE comment line ": keep-alive" (not a JSON-RPC message)');
  armProxyRead(s, ctx);
  if (s.proxyBuffering) {
    ctx.why(ctx.keepsNotes ? 'A keep-alive comment: the proxy\'s read timeout resets, but the proxy holds the comment until it flushes.' : '', 'sse.keepalive');
    s.proxyHeld.keepalives++;
    heldChanged(s);
    return;
  }
  if (s.stalledUntil !== null) {
    ctx.why(ctx.keepsNotes ? 'A keep-alive comment: the proxy\'s read timeout resets; the stalled client reads it later.' : '', 'sse.keepalive');
    return;
  }
  const idle = s.op.idleDeadlineAt;
  ctx.why(ctx.keepsNotes ? `A keep-alive comment reaches the client: bytes for the proxy, not progress — the idle deadline ${idle === null ? 'is unaffected' : `stays at ${idle} ms`}${s.config.bugs.keepAliveResetsIdle ? ' (but this buggy client resets it)' : ''}.` : '', 'sse.keepalive');
  deliver(s, KEEPALIVE_BATCH, ctx);
}

/** The batch a paced read hands to the client (one event; refilled by every read, never kept). */
const READ_BATCH: HeldCore = freshHeld();

/** One keep-alive comment handed to the client. */
const KEEPALIVE_BATCH = Object.freeze({ ...NO_HELD, keepalives: 1 });

function applyScripted(s: FlowCore, event: ScriptedEvent, ctx: Ctx): void {
  s.touchedBuffer = false;
  s.touchedOp = false;
  s.touchedRequest = false;
  const ev = event as unknown as FlowEvent;
  switch (ev.kind) {
    case 'progress':
    case 'final':
      return serverWrites(s, ev.kind, ev.token, ctx);
    case 'keepalive':
      return keepAlive(s, ctx);
    case 'stall': {
      const until = Math.max(s.stalledUntil ?? 0, ctx.now + ev.durationMs);
      ctx.schedule(until, FLOW_RANK.client, 'client', 'client resumes', TIMER['stall-end']);
      ctx.why(ctx.keepsNotes ? `The client stops reading until ${until} ms; events pile up in the buffer.` : '', 'flow.stall');
      s.stalledUntil = until;
      return;
    }
    case 'drop': {
      if (s.status !== 'open') {
        if (ctx.keepsIgnored) ctx.ignore({ by: 'wire', what: 'drop', reason: 'the stream is not open', rule: 'flow.resync' });
        return;
      }
      const lostNote = goDown(s, 'the network dropped the connection', ctx);
      ctx.why(ctx.keepsNotes ? `The connection drops: whatever was queued is lost and marked; the client will reconnect and resync.${lostNote}` : '', lostNote ? REISSUE_RULE : 'flow.resync');
      return;
    }
  }
}

function init(config: FlowConfig, ctx: Ctx): FlowCore {
  const opToken = config.client.operationToken ?? config.producers[0]?.token ?? null;
  const s: FlowCore = {
    config,
    buffer: { policy: config.policy as BufferPolicy, capacityEvents: config.capacityEvents, runs: [], size: 0, peak: 0, dropped: 0, coalesced: 0, droppedOldest: 0, discarded: 0, finalsRefused: 0, finalsDropped: 0, lostOnDisconnect: 0, silentlyLost: 0, refetch: [] },
    seq: 0,
    lastWriteToken: null,
    status: 'open',
    statusReason: 'open',
    stalledUntil: null,
    readPending: false,
    proxyHeld: freshHeld(),
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
    reissue: initialReissue(config, opToken),
    proxyBuffering: proxyBuffersConfig(config),
    touchedBuffer: false,
    touchedOp: false,
    touchedRequest: false,
    // Ignored items are kept exactly by the recorders that keep per-step violations (seekable, steps).
    watchBroken: ctx.keepsIgnored,
    producerLabels: producerLabels(config),
    bufferView: null,
    heldView: null,
    opView: null,
    deliveredView: null,
    reissueView: null,
    finishedView: [],
    errorsView: [],
  };
  const capacity = capacityProblem(config.policy as BufferPolicy, config.capacityEvents);
  if (capacity !== null) throw new RangeError(capacity);
  const hasStream = config.producers.length > 0 || config.fleet === null;
  if (hasStream) {
    ctx.schedule(0, FLOW_RANK.client, 'server', 'SSE response headers', TIMER.open);
    config.producers.forEach((p, i) => {
      if (p.count > 0 || p.final) trackProducer(s, i, ctx.schedule(p.startMs, FLOW_RANK.server, 'server', s.producerLabels[i], { kind: 'produce', producer: i, n: 0 }));
    });
    if (config.keepAliveIntervalMs !== null && config.keepAliveIntervalMs <= config.horizonMs) ctx.schedule(config.keepAliveIntervalMs, FLOW_RANK.server, 'server', 'keep-alive', TIMER.keepalive);
    if (s.proxyBuffering) ctx.schedule(config.proxy.flushIntervalMs, FLOW_RANK.delivery, 'proxy', 'proxy flushes', TIMER.flush);
    armProxyRead(s, ctx);
    armIdle(s, ctx);
  }
  if (config.fleet) s.fleet = fleetInit(config.fleet, ctx);
  return s;
}

const TIE_RULE = [
  { rank: FLOW_RANK.deadline, name: 'deadline', why: 'Idle and proxy read deadlines are inclusive: they fire before anything else in the same millisecond.' },
  { rank: FLOW_RANK.client, name: 'client action', why: 'The client stalls, resumes or reconnects before the server writes in the same millisecond.' },
  { rank: FLOW_RANK.server, name: 'server write', why: 'Server writes (progress, finals, keep-alives) in scenario order, then producers in scheduling order.' },
  { rank: FLOW_RANK.delivery, name: 'delivery', why: 'Proxy flushes and paced client reads come last, so they see every write of that millisecond.' },
];

const scriptedRank = (e: ScriptedEvent) => (e.actor === 'server' ? FLOW_RANK.server : FLOW_RANK.client);

/**
 * The flow model on the checkpointed core: mutable `FlowCore` in the hot loop, frozen `FlowState`
 * views in traces and checkpoints. Entity kinds: 'buffer' and 'operation' (one of each).
 */
export const flowCore: CoreModel<FlowConfig, FlowCore, FlowState, FlowOutcome, FlowTimer> = {
  lab: 'flow',
  tieRule: TIE_RULE,
  scriptedRank,
  init,
  applyScripted,
  applyTimer,
  touched: flowTouched,
  entity: flowEntity,
  surelyHolds: flowInvariantsSurelyHold,
  invariants: FLOW_ENTITY_INVARIANTS,
  view: viewOf,
  thaw,
  // The outcome must not share the mutable error list with a state that keeps running.
  outcome: (s) => ({ summary: flowOutcome(s).summary, errors: s.errors.slice() }),
};

/**
 * The flow lab model (see the module docstring). `replay(flowModel, …)` runs it on the checkpointed
 * core (`core`); the one-step methods keep the historic immutable interface (each call copies the
 * state, so they are for tests and tools, not for the hot loop).
 */
export const flowModel: Model<FlowConfig, FlowState, FlowOutcome, FlowTimer> & { core: typeof flowCore } = {
  lab: 'flow',
  tieRule: TIE_RULE,
  scriptedRank,
  init: (config, ctx) => viewOf(init(config, asCoreContext(ctx))),
  ...oneStepMethods(thaw, viewOf, applyScripted, applyTimer),
  outcome: (s) => flowOutcome(s),
  invariants: FLOW_INVARIANTS,
  core: flowCore,
};
