import { dropCounters, type BufferRun, type BufferState } from './buffer';
import { producerLabels, proxyBuffersConfig, resyncCounters, type FleetState, type FlowState, type ProxyHeld, type ReissueState } from './modelTypes';

/**
 * The flow model's mutable state for the checkpointed core (`../core.ts`): the `FlowState` shape
 * with mutable records (buffer, proxy batch, operation, fleet) changed in place by the rules in
 * `stream.ts` and `fleet.ts`, plus cached frozen views. Every change to the buffer goes through
 * `bufferChanged`, every change to the operation through `opChanged`, every change to a fleet array
 * clears that array's cached view: `viewOf` then rebuilds only what changed, so steps and
 * checkpoints share the views of untouched parts (the old engine shared them the same way).
 */

/**
 * The buffer, mutable: `BufferState`'s fields (documented there), with mutable run records and
 * `refetch` as a mutable list (sorted, no duplicates).
 */
export type BufferCore = Omit<BufferState, 'runs' | 'refetch'> & { runs: BufferRun[]; refetch: string[] };

/** `T` with its fields writable and its read-only lists as mutable arrays (the core's copy of a view's record). */
type Thawed<T> = { -readonly [K in keyof T]: T[K] extends readonly (infer U)[] ? U[] : T[K] };

/** The proxy's held batch (or a batch handed to the client), mutable. */
export type HeldCore = Thawed<ProxyHeld>;

/** The watched operation, mutable (the view's `op` record). */
export type OpCore = FlowState['op'];

/** The operation's request across 2026-07-28 re-issues, mutable (see `ReissueState`). */
export type ReissueCore = Thawed<ReissueState>;

/** The fleet's array fields (each has its own cached view). */
export type FleetArrayField = 'since' | 'order' | 'attempts' | 'landings' | 'retriedClients' | 'lastRejectAt';

/** The fleet, mutable; `views` caches each array's frozen copy and the whole frozen fleet (null: rebuild). */
export type FleetCore = Thawed<FleetState> & { views: Record<FleetArrayField, readonly number[] | null> & { all: FleetState | null } };

/** The parts of `FlowState` the core keeps as mutable records. */
type CoreRecords = 'buffer' | 'proxyHeld' | 'finishedTokens' | 'op' | 'errors' | 'fleet' | 'reissue';

/** The hot loop's state (see the module docstring): `FlowState`'s scalars, its records mutable, plus caches. Assignable to `FlowState` for reads. */
export interface FlowCore extends Omit<FlowState, CoreRecords> {
  buffer: BufferCore;
  proxyHeld: HeldCore;
  finishedTokens: string[];
  op: OpCore;
  errors: string[];
  fleet: FleetCore | null;
  reissue: ReissueCore;
  /** Whether the proxy buffers this stream (a function of the config, computed once). */
  proxyBuffering: boolean;
  /** What the current step touched (reset before each step): the entities the invariants read. */
  touchedBuffer: boolean;
  touchedOp: boolean;
  touchedRequest: boolean;
  /**
   * Whether a broken entity is re-checked on every step, touched or not (`flowTouched`): so that
   * each step of a trace reports what is broken at it, as the old engine did. True in every run
   * that records per-step violations (seekable, steps) and in every thawed state; false only on
   * the fast path run from the start, which reports first violations alone (an entity becomes
   * broken only by a change, which marks it touched, so its first violation is seen either way).
   */
  watchBroken: boolean;
  /** The producers' timer labels (`producerLabels` of the config): one timer per event, no label built per step. */
  producerLabels: readonly string[];
  /** Cached frozen views (null: changed since). Append-only lists are cached with their length. */
  bufferView: BufferState | null;
  heldView: ProxyHeld | null;
  opView: FlowState['op'] | null;
  deliveredView: FlowState['delivered'] | null;
  reissueView: ReissueState | null;
  finishedView: readonly string[];
  errorsView: readonly string[];
}

/** A fresh, empty proxy batch. */
export function freshHeld(): HeldCore {
  return { progress: 0, finals: 0, keepalives: 0, opProgress: 0, opFinal: false, lastSeq: 0, finalTokens: [] };
}

/** The step changed the buffer: its view is dropped and it is marked touched. */
export function bufferChanged(s: FlowCore): void {
  s.bufferView = null;
  s.touchedBuffer = true;
}

/** The step changed the operation (its view is dropped and it is marked touched for the invariants). */
export function opChanged(s: FlowCore): void {
  s.opView = null;
  s.touchedOp = true;
}

/** The proxy's batch changed or was replaced (its view is dropped). */
export function heldChanged(s: FlowCore): void {
  s.heldView = null;
}

/** The delivered counters changed (their view is dropped). */
export function deliveredChanged(s: FlowCore): void {
  s.deliveredView = null;
}

/** The step changed the operation's request record (its view is dropped and it is marked touched for the invariants). */
export function reissueChanged(s: FlowCore): void {
  s.reissueView = null;
  s.touchedRequest = true;
}

/** The fleet's `fields` changed (their views and the fleet's are dropped). */
export function fleetChanged(fl: FleetCore, ...fields: FleetArrayField[]): void {
  for (const f of fields) fl.views[f] = null;
  fl.views.all = null;
}

const EMPTY: readonly string[] = Object.freeze([]);

const freezeList = <T>(xs: readonly T[]): readonly T[] => Object.freeze(xs.slice());

/** A buffer with `b`'s policy and counters and the given queue and marks. */
function bufferWith<R extends readonly BufferRun[], F extends readonly string[]>(b: BufferState | BufferCore, runs: R, refetch: F) {
  return {
    policy: b.policy,
    capacityEvents: b.capacityEvents,
    runs,
    size: b.size,
    peak: b.peak,
    ...dropCounters(b),
    lostOnDisconnect: b.lostOnDisconnect,
    silentlyLost: b.silentlyLost,
    refetch,
  };
}

function bufferViewOf(b: BufferCore): BufferState {
  const runs = new Array<BufferRun>(b.runs.length);
  for (let i = 0; i < runs.length; i++) {
    const r = b.runs[i];
    runs[i] = Object.freeze({ kind: r.kind, token: r.token, from: r.from, to: r.to });
  }
  return Object.freeze(bufferWith(b, Object.freeze(runs) as readonly BufferRun[], freezeList(b.refetch)));
}

function fleetViewOf(fl: FleetCore): FleetState {
  if (fl.views.all !== null) return fl.views.all;
  const v = fl.views;
  const list = (f: FleetArrayField) => v[f] ?? (v[f] = freezeList(fl[f]));
  return (v.all = Object.freeze({
    since: list('since'),
    order: list('order'),
    attempts: list('attempts'),
    serverUpAt: fl.serverUpAt,
    evictions: fl.evictions,
    rejections: fl.rejections,
    connects: fl.connects,
    lastChangeAtMs: fl.lastChangeAtMs,
    landings: list('landings'),
    retriedClients: list('retriedClients'),
    lastRejectAt: list('lastRejectAt'),
    lastRetryGapMs: fl.lastRetryGapMs,
  }));
}

function heldViewOf(h: HeldCore): ProxyHeld {
  return Object.freeze({ progress: h.progress, finals: h.finals, keepalives: h.keepalives, opProgress: h.opProgress, opFinal: h.opFinal, lastSeq: h.lastSeq, finalTokens: freezeList(h.finalTokens) });
}

/** The frozen `FlowState` view of `s` (same fields, same key order as the old model's states). */
export function viewOf(s: FlowCore): FlowState {
  if (s.finishedView.length !== s.finishedTokens.length) s.finishedView = freezeList(s.finishedTokens);
  if (s.errorsView.length !== s.errors.length) s.errorsView = freezeList(s.errors);
  const op = s.op;
  return Object.freeze({
    config: s.config,
    buffer: s.bufferView ?? (s.bufferView = bufferViewOf(s.buffer)),
    seq: s.seq,
    lastWriteToken: s.lastWriteToken,
    status: s.status,
    statusReason: s.statusReason,
    stalledUntil: s.stalledUntil,
    readPending: s.readPending,
    proxyHeld: s.heldView ?? (s.heldView = heldViewOf(s.proxyHeld)),
    proxyReadDeadlineAt: s.proxyReadDeadlineAt,
    proxyReadHandle: s.proxyReadHandle,
    proxyFlushes: s.proxyFlushes,
    proxyTimeouts: s.proxyTimeouts,
    delivered: s.deliveredView ?? (s.deliveredView = Object.freeze({ progress: s.delivered.progress, finals: s.delivered.finals, keepalives: s.delivered.keepalives })),
    lastDeliveredSeq: s.lastDeliveredSeq,
    finishedTokens: s.finishedView,
    op: s.opView ?? (s.opView = Object.freeze({ token: op.token, state: op.state, atMs: op.atMs, idleDeadlineAt: op.idleDeadlineAt, idleHandle: op.idleHandle, idleResetsByKeepalive: op.idleResetsByKeepalive })),
    ...resyncCounters(s),
    lostWhileDown: s.lostWhileDown,
    resyncOwed: s.resyncOwed,
    errors: s.errorsView,
    fleet: s.fleet === null ? null : fleetViewOf(s.fleet),
    scenarioSeed: s.scenarioSeed,
    reissue: s.reissueView ?? (s.reissueView = Object.freeze({ ...s.reissue, handles: freezeList(s.reissue.handles) })),
  });
}

/** A mutable fleet equal to `f` (which is reused as the cached views when frozen). */
function thawFleet(f: FleetState): FleetCore {
  const frozen = Object.isFrozen(f);
  return {
    since: f.since.slice(),
    order: f.order.slice(),
    attempts: f.attempts.slice(),
    serverUpAt: f.serverUpAt,
    evictions: f.evictions,
    rejections: f.rejections,
    connects: f.connects,
    lastChangeAtMs: f.lastChangeAtMs,
    landings: f.landings.slice(),
    retriedClients: f.retriedClients.slice(),
    lastRejectAt: f.lastRejectAt.slice(),
    lastRetryGapMs: f.lastRetryGapMs,
    views: frozen
      ? { since: f.since, order: f.order, attempts: f.attempts, landings: f.landings, retriedClients: f.retriedClients, lastRejectAt: f.lastRejectAt, all: f }
      : { since: null, order: null, attempts: null, landings: null, retriedClients: null, lastRejectAt: null, all: null },
  };
}

/** A fresh mutable fleet from plain arrays (what `fleetInit` builds). */
export function newFleet(f: Omit<FleetCore, 'views'>): FleetCore {
  return { ...f, views: { since: null, order: null, attempts: null, landings: null, retriedClients: null, lastRejectAt: null, all: null } };
}

/** A mutable state equal to `v` (the view is not changed; its frozen parts become the cached views). */
export function thaw(v: FlowState): FlowCore {
  const b = v.buffer;
  const h = v.proxyHeld;
  const frozen = Object.isFrozen(v);
  return {
    config: v.config,
    buffer: bufferWith(b, b.runs.map((r) => ({ kind: r.kind, token: r.token, from: r.from, to: r.to })), b.refetch.slice()),
    seq: v.seq,
    lastWriteToken: v.lastWriteToken,
    status: v.status,
    statusReason: v.statusReason,
    stalledUntil: v.stalledUntil,
    readPending: v.readPending,
    proxyHeld: { progress: h.progress, finals: h.finals, keepalives: h.keepalives, opProgress: h.opProgress, opFinal: h.opFinal, lastSeq: h.lastSeq, finalTokens: h.finalTokens.slice() },
    proxyReadDeadlineAt: v.proxyReadDeadlineAt,
    proxyReadHandle: v.proxyReadHandle,
    proxyFlushes: v.proxyFlushes,
    proxyTimeouts: v.proxyTimeouts,
    delivered: { progress: v.delivered.progress, finals: v.delivered.finals, keepalives: v.delivered.keepalives },
    lastDeliveredSeq: v.lastDeliveredSeq,
    finishedTokens: v.finishedTokens.slice(),
    op: { ...v.op },
    ...resyncCounters(v),
    lostWhileDown: v.lostWhileDown,
    resyncOwed: v.resyncOwed,
    errors: v.errors.slice(),
    fleet: v.fleet === null ? null : thawFleet(v.fleet),
    scenarioSeed: v.scenarioSeed,
    reissue: { ...v.reissue, handles: v.reissue.handles.slice() },
    proxyBuffering: proxyBuffersConfig(v.config),
    touchedBuffer: false,
    touchedOp: false,
    touchedRequest: false,
    watchBroken: true,
    producerLabels: producerLabels(v.config),
    bufferView: frozen && Object.isFrozen(b) ? b : null,
    heldView: frozen && Object.isFrozen(h) ? h : null,
    opView: frozen && Object.isFrozen(v.op) ? v.op : null,
    deliveredView: frozen && Object.isFrozen(v.delivered) ? v.delivered : null,
    reissueView: frozen && Object.isFrozen(v.reissue) ? v.reissue : null,
    finishedView: frozen ? v.finishedTokens : EMPTY,
    errorsView: frozen ? v.errors : EMPTY,
  };
}
