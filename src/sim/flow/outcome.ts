import type { EntityInvariant } from '../core';
import type { Invariant, Json } from '../types';
import { dropCounters, type BufferState } from './buffer';
import { resyncCounters, type FlowState, type ReissueState } from './modelTypes';
import type { FlowConfig } from './schema';
import type { FlowCore, OpCore } from './state';

/** The flow model's outcome (the counters the lesson's expectations name) and its invariants. */

/** The model's summary: counters the lesson's expectations name. */
export interface FlowOutcome {
  summary: Record<string, Json>;
  errors: readonly string[];
}

/** The outcome of a state (a view or the core's mutable state; `errors` is shared with it). */
export function flowOutcome(s: FlowState): FlowOutcome {
  const b = s.buffer;
  const summary: Record<string, Json> = {
    policy: s.config.policy,
    capacityEvents: s.config.capacityEvents,
    peakDepth: b.peak,
    depth: b.size,
    emitted: s.seq,
    ...dropCounters(b),
    silentlyLost: b.silentlyLost,
    lostWhileDown: s.lostWhileDown,
    gapMarked: b.dropped + b.finalsDropped - b.silentlyLost + s.lostWhileDown > 0,
    ...resyncCounters(s),
    stream: s.status,
    deliveredProgress: s.delivered.progress,
    deliveredFinals: s.delivered.finals,
    deliveredKeepalives: s.delivered.keepalives,
    operation: s.op.state,
    operationEndedAtMs: s.op.atMs,
    proxyFlushes: s.proxyFlushes,
    proxyTimeouts: s.proxyTimeouts,
    operationRequestId: s.reissue.requestId,
    reissues: s.reissue.reissues,
    operationExecutions: s.reissue.executions,
    sideEffectExecutions: s.reissue.sideEffects,
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

/**
 * A message built from up to three values, memoised on the last values seen. A broken state is
 * checked after every step while it stays broken (see `flowTouched`), so its message repeats:
 * one string for the run of steps, not one each (issue 10: the seekable trace keeps every step's
 * violations). Same text either way.
 */
function lastText<A, B = undefined, C = undefined>(build: (a: A, b: B, c: C) => string): (a: A, b: B, c: C) => string {
  let la: A | undefined;
  let lb: B | undefined;
  let lc: C | undefined;
  let text: string | undefined;
  return (a, b, c) => {
    if (text === undefined || a !== la || b !== lb || c !== lc) {
      la = a;
      lb = b;
      lc = c;
      text = build(a, b, c);
    }
    return text;
  };
}

const OVER_CAPACITY = lastText((size: number, capacity: number) => `the buffer holds ${size} events, over its capacity of ${capacity}`);
const FINALS_DROPPED = lastText((n: number) => `${n} final response(s) dropped`);
const SILENTLY_LOST = lastText((n: number) => `${n} event(s) lost with no refetch mark`);
const KEEPALIVE_RESETS = lastText((n: number) => `a keep-alive comment reset the idle timeout ${n} time(s)`);
const RESUMED = lastText((atMs: number | null, requestId: string | null, n: number) => `the stream broke at ${atMs} ms with request ${JSON.stringify(requestId)} in flight and the client continued it instead of re-issuing it with a new id (${n} time(s))`);
const SIDE_EFFECTS = lastText((n: number) => `the side-effecting operation completed ${n} times (no idempotency key deduplicated the re-issue)`);

/** One check over the buffer (with the config), null when it holds. */
type BufferCheck = (b: BufferState, config: FlowConfig) => string | null;

const BUFFER_CHECKS: { name: string; description: string; check: BufferCheck }[] = [
  {
    name: 'buffer-within-capacity',
    description: 'The SSE buffer never holds more than capacityEvents (an unbounded buffer grows with the backlog).',
    check: (b, c) => (b.size > c.capacityEvents ? OVER_CAPACITY(b.size, c.capacityEvents, undefined) : null),
  },
  {
    name: 'final-never-dropped',
    description: 'A final response is never dropped from the buffer (it evicts progress, or is refused with an error).',
    check: (b) => (b.finalsDropped > 0 ? FINALS_DROPPED(b.finalsDropped, undefined, undefined) : null),
  },
  {
    name: 'no-silent-gap',
    description: 'Every lost event leaves a refetch mark or a resync; no gap is silent.',
    check: (b) => (b.silentlyLost > 0 ? SILENTLY_LOST(b.silentlyLost, undefined, undefined) : null),
  },
];

const KEEPALIVE_CHECK = {
  name: 'keepalive-not-progress',
  description: 'Keep-alive comments never reset the operation\'s idle timeout (rule sse.keepalive).',
  check: (op: { idleResetsByKeepalive: number }) => (op.idleResetsByKeepalive > 0 ? KEEPALIVE_RESETS(op.idleResetsByKeepalive, undefined, undefined) : null),
};

/** One check over the operation's request record, null when it holds (names as in the races lab). */
const REQUEST_CHECKS: { name: string; description: string; check: (r: ReissueState) => string | null }[] = [
  {
    name: 'retry-new-id',
    description: 'Under 2026-07-28 a broken response stream loses the in-flight request: the client re-issues it as a new request with a new id, never continues the old one (changelog item 9).',
    check: (r) => (r.resumed > 0 ? RESUMED(r.firstResumedAtMs, r.requestId, r.resumed) : null),
  },
  {
    name: 'side-effect-once',
    description: 'A side-effecting operation executes at most once across its re-issues (the idempotency key deduplicates).',
    check: (r) => (r.sideEffects > 1 ? SIDE_EFFECTS(r.sideEffects, undefined, undefined) : null),
  },
];

/** Whether the request record breaks one of its invariants now (kept under watch while broken). */
function requestBroken(r: ReissueState): boolean {
  return r.resumed > 0 || r.sideEffects > 1;
}

/** Whether the buffer breaks one of its invariants now (a broken buffer stays under watch: see `flowTouched`); its `capacityEvents` is the config's. */
function bufferBroken(b: BufferState): boolean {
  return b.size > b.capacityEvents || b.finalsDropped > 0 || b.silentlyLost > 0;
}

/**
 * The core's pre-check (`CoreModel.surelyHolds`): true only when no invariant reading `kind` can
 * fail on `entity` — the negation of that kind's checks, so the core runs none of them on a
 * healthy entity (a test proves it never clears one a check fails on).
 */
export function flowInvariantsSurelyHold(kind: string, entity: never): boolean {
  if (kind === 'buffer') return !bufferBroken(entity as BufferState);
  if (kind === 'request') return !requestBroken(entity as ReissueState);
  return (entity as OpCore).idleResetsByKeepalive === 0;
}

/**
 * The invariants for the checkpointed core. Three read the entity kind 'buffer' (one entity, id
 * 'buffer'), one reads 'operation' (id 'operation'), two read 'request' (id 'request'); the core runs them after the steps that
 * touched that entity, and — so that a broken state is reported at every step, as the old engine
 * did — on every step while it is broken (`flowTouched`).
 */
export const FLOW_ENTITY_INVARIANTS: EntityInvariant<FlowCore>[] = [
  ...BUFFER_CHECKS.map((c) => ({ name: c.name, description: c.description, reads: 'buffer', check: (b: BufferState, s: FlowCore) => c.check(b, s.config) })),
  { name: KEEPALIVE_CHECK.name, description: KEEPALIVE_CHECK.description, reads: 'operation', check: (op: OpCore) => KEEPALIVE_CHECK.check(op) },
  ...REQUEST_CHECKS.map((c) => ({ name: c.name, description: c.description, reads: 'request', check: (r: ReissueState) => c.check(r) })),
] as EntityInvariant<FlowCore>[];

/** The same invariants over a `FlowState` view (the historic `Invariant` shape: checked after every step). */
export const FLOW_INVARIANTS: Invariant<FlowState>[] = [
  ...BUFFER_CHECKS.map((c) => ({ name: c.name, description: c.description, check: (s: FlowState) => c.check(s.buffer, s.config) })),
  { name: KEEPALIVE_CHECK.name, description: KEEPALIVE_CHECK.description, check: (s: FlowState) => KEEPALIVE_CHECK.check(s.op) },
  ...REQUEST_CHECKS.map((c) => ({ name: c.name, description: c.description, check: (s: FlowState) => c.check(s.reissue) })),
];

const BUFFER_IDS: readonly string[] = Object.freeze(['buffer']);
const OP_IDS: readonly string[] = Object.freeze(['operation']);
const REQUEST_IDS: readonly string[] = Object.freeze(['request']);
const NO_IDS: readonly string[] = Object.freeze([]);

/** The entities of `kind` the last step touched (changed), plus a broken one while `watchBroken` (see `FLOW_ENTITY_INVARIANTS`). */
export function flowTouched(s: FlowCore, kind: string): readonly string[] {
  const watch = s.watchBroken;
  if (kind === 'buffer') return s.touchedBuffer || (watch && bufferBroken(s.buffer)) ? BUFFER_IDS : NO_IDS;
  if (kind === 'request') return s.touchedRequest || (watch && requestBroken(s.reissue)) ? REQUEST_IDS : NO_IDS;
  return s.touchedOp || (watch && s.op.idleResetsByKeepalive > 0) ? OP_IDS : NO_IDS;
}

/** The entity of `kind` with `id`: the buffer, the operation or the operation's request record. */
export function flowEntity(s: FlowCore, kind: string): unknown {
  return kind === 'buffer' ? s.buffer : kind === 'operation' ? s.op : kind === 'request' ? s.reissue : undefined;
}
