import type { CoreContext } from '../core';
import { cancelledNotification, idProblem, malformedCancelledNotification, postLine, requestHeaders2026, type MalformedCancel, type RequestId } from '../mcp';
import type { RacesConfig } from './schema';
import { idKey, RANK, type ClientState, type LedgerEntry, type RacesState, type ReadMessage, type RacesTimer, type RequestState, type ServerState } from './types';

/**
 * The races model's mutable state for the checkpointed core, and the helpers its rules share.
 * Requests are records changed in place; every rule that changes one calls `changed` (which also
 * marks it touched for the invariants), every rule that only looks at one calls `touch`. A frozen
 * view (`viewOf`) is cached per request and rebuilt only after the request changed, so steps and
 * checkpoints share the views of untouched requests.
 */

/** The hot loop's state: the `RacesState` shape, mutable, plus the cached frozen views. */
export interface RacesCore {
  config: RacesConfig;
  requests: RequestState[];
  latest: Record<string, number>;
  indexOf: Record<string, number>;
  /** The request keys the last step touched (changed or inspected): what the invariants read. */
  touched: readonly string[];
  /**
   * The request record the last `changed` call named. When `touched` is that request's own `self`
   * list, it is the one entity the invariants read (`racesTouchedSurelyHold`), found without a lookup.
   */
  touchedReq: RequestState | undefined;
  /**
   * No request before this index in `requests` is pending (a call is pending only from its start
   * until it settles; nothing sets it pending again), so scans for pending calls start here.
   */
  pendingFrom: number;
  /** Frozen view per request, null once the request changed since its view was made. */
  views: (RequestState | null)[];
  latestView: Readonly<Record<string, number>> | null;
  indexOfView: Readonly<Record<string, number>> | null;
  /** Per request index: its hot-path timer labels and idle payload, made once (not part of views). */
  hot: (HotLabels | undefined)[];
  /** The side-effect ledger (see `RacesState.ledger`); absent until a side effect runs. Entries are replaced, never changed in place. */
  ledger?: Record<string, LedgerEntry>;
  ledgerView?: Readonly<Record<string, LedgerEntry>> | null;
  /** See `RacesState.readQueue`; replaced, never changed in place. */
  readQueue?: readonly ReadMessage[];
}

/** Strings and the payload the progress path would otherwise rebuild at every step. */
export interface HotLabels {
  idleDeadline: string;
  progressArrives: string;
  idlePayload: RacesTimer;
}

/** The hot-path labels of `req` (made on first use). */
export function hotLabels(state: RacesCore, req: RequestState): HotLabels {
  return hotLabelsAt(state, state.indexOf[req.key], req);
}

/** `hotLabels` of `req`, which is `state.requests[i]` (no lookup of its index). */
export function hotLabelsAt(state: RacesCore, i: number, req: RequestState): HotLabels {
  let h = state.hot[i];
  if (h === undefined) {
    h = state.hot[i] = { idleDeadline: `idle deadline ${req.key}`, progressArrives: `progress ${req.key} arrives`, idlePayload: Object.freeze({ kind: 'deadline.idle', key: req.key }) };
  }
  return h;
}

export type Ctx = CoreContext<RacesTimer>;

export const NO_KEYS: readonly string[] = Object.freeze([]);

export const TERMINAL_SERVER: ReadonlySet<ServerState> = new Set(['completed', 'failed', 'cancelled']);

/** `TERMINAL_SERVER.has(s)`, without the set lookup (hot path). */
export function serverEnded(s: ServerState): boolean {
  return s === 'completed' || s === 'failed' || s === 'cancelled';
}

/** A fresh state for `config`. */
export function initialCore(config: RacesConfig): RacesCore {
  return { config, requests: [], latest: {}, indexOf: {}, touched: [], touchedReq: undefined, pendingFrom: 0, views: [], latestView: null, indexOfView: null, hot: [] };
}

/** The step inspected requests `keys` without changing them. */
export function touch(state: RacesCore, keys: readonly string[]): void {
  state.touched = keys;
}

/** The step changed `req` (in place): its cached view is dropped and it is marked touched. */
export function changed(state: RacesCore, req: RequestState): void {
  changedAt(state, state.indexOf[req.key], req);
}

/** `changed` of `req`, which is `state.requests[i]` (no lookup of its index). */
export function changedAt(state: RacesCore, i: number, req: RequestState): void {
  state.views[i] = null;
  state.touched = req.self;
  state.touchedReq = req;
}

export function byKey(state: RacesCore, key: string): RequestState | undefined {
  const index = state.indexOf[key];
  return index === undefined ? undefined : state.requests[index];
}

export function findLatest(state: RacesCore, id: unknown): RequestState | undefined {
  const index = latestIndex(state, id);
  return index < 0 ? undefined : state.requests[index];
}

/**
 * Index in `state.requests` of the latest instance of request id `id`, or -1 when there is none
 * or `id` is no valid request id (a string or an integer; see `idProblem`).
 */
export function latestIndex(state: RacesCore, id: unknown): number {
  let index: number | undefined;
  // An integer indexes the record directly: a number property key is its String(), which is `idKey`.
  if (typeof id === 'number') index = Number.isInteger(id) ? state.latest[id] : undefined;
  else index = idProblem(id) === null ? state.latest[idKey(id as RequestId)] : undefined;
  return index === undefined ? -1 : index;
}

/** What a new request instance takes from its start event (or from the request it re-issues): its shape, token, timeouts and armed deadlines. */
export type RequestStart = Pick<RequestState, 'method' | 'tool' | 'cancellable' | 'progressToken' | 'wireToken' | 'idleTimeoutMs' | 'maxTimeoutMs' | 'idleDeadlineAt' | 'maxDeadlineAt' | 'idleHandle' | 'maxHandle'>;

/** A fresh request instance `key` (id `id`) sent at `now` (ms): the client waiting on it, the server not reached yet. */
export function newRequest(key: string, id: RequestId, now: number, from: RequestStart): RequestState {
  return {
    key,
    self: Object.freeze([key]),
    id,
    method: from.method,
    tool: from.tool,
    cancellable: from.cancellable,
    startAt: now,
    progressToken: from.progressToken,
    wireToken: from.wireToken,
    idleTimeoutMs: from.idleTimeoutMs,
    maxTimeoutMs: from.maxTimeoutMs,
    idleDeadlineAt: from.idleDeadlineAt,
    maxDeadlineAt: from.maxDeadlineAt,
    idleHandle: from.idleHandle,
    maxHandle: from.maxHandle,
    client: {
      state: 'pending', atMs: null, reason: 'waiting for the server', rule: undefined, terminalSets: 0, lastProgress: null, progressAccepted: 0,
      progressAfterEnd: 0, cancelRequestedAt: null, cancelSignal: 'none', responseFate: 'none', isError: false,
    },
    server: { state: 'not-received', atMs: null, receivedAt: null, cancelAcceptedAt: null, responseSentAt: null, lastWorkerProgressAt: null, lastProgressValue: null, workEndedAt: null, streamClosed: false },
  };
}

/** The first index in `state.requests` from which a pending call may be found (advances `pendingFrom`). */
export function firstPendingIndex(state: RacesCore): number {
  const requests = state.requests;
  let i = state.pendingFrom;
  while (i < requests.length && requests[i].client.state !== 'pending') i++;
  state.pendingFrom = i;
  return i;
}

/** Appends a new request instance `req` (its id's latest) to the state and marks it touched. */
export function addRequest(state: RacesCore, req: RequestState): void {
  const index = state.requests.length;
  state.requests.push(req);
  state.views.push(null);
  state.latest[idKey(req.id)] = index;
  state.indexOf[req.key] = index;
  state.latestView = null;
  state.indexOfView = null;
  state.touched = req.self;
  state.touchedReq = req;
}

/** Sets the client's terminal state (counting how often, for `one-terminal-state`). */
export function settle(req: RequestState, now: number, clientState: ClientState, reason: string, rule: string | undefined): void {
  const c = req.client;
  c.state = clientState;
  c.atMs = now;
  c.reason = reason;
  c.rule = rule;
  c.terminalSets = c.terminalSets + 1;
}

export function clearDeadlines(req: RequestState, ctx: Ctx): void {
  ctx.cancel(req.idleHandle);
  ctx.cancel(req.maxHandle);
  req.idleHandle = -1;
  req.maxHandle = -1;
}

export function describeId(id: unknown): string {
  return JSON.stringify(id) ?? String(id);
}

/**
 * The client puts the transport's cancellation signal on the wire for `req` (unless a broken
 * policy suppresses it) and records it in `cancelSignal`.
 * stdio: notifications/cancelled. HTTP 2026-07-28: close the request's SSE stream (no POST).
 * HTTP 2025-11-25: POST notifications/cancelled.
 */
export function sendCancelSignal(state: RacesCore, req: RequestState, reason: string, ctx: Ctx, malformed?: MalformedCancel): void {
  const { transport, revision, latencyMs, policy } = state.config;
  const arrivesAt = ctx.now + latencyMs.clientToServer;
  const message = malformed === undefined ? cancelledNotification(req.id, reason) : malformedCancelledNotification(req.id, reason, malformed, `cancel-${String(req.id)}`);
  const bad = malformed === undefined ? undefined : true;
  if (transport === 'stdio') {
    // Bug policy.contentLengthFraming (mechanics/firstRead.ts): framed LSP-style, the cancel never reaches a newline-delimited server.
    const unread = policy.contentLengthFraming;
    ctx.emit({ from: 'client', transport, message, malformed: bad ?? (unread ? true : undefined), arrivesAt, requestKey: req.key });
    if (!unread) ctx.schedule(arrivesAt, RANK.arrival, 'server', `cancel ${req.key} arrives`, { kind: 'arrive.cancel', message, posted: false });
    req.client.cancelSignal = 'notifications/cancelled';
    return;
  }
  if (revision === '2026-07-28') {
    ctx.emit({ from: 'client', transport, http: `client closes the SSE response stream of request ${describeId(req.id)} (no body is sent)`, arrivesAt, requestKey: req.key });
    ctx.schedule(arrivesAt, RANK.arrival, 'server', `stream close ${req.key} arrives`, { kind: 'arrive.stream-close', key: req.key, cause: 'cancel' });
    if (policy.httpPostsCancel) {
      const headers = requestHeaders2026(message);
      ctx.emit({ from: 'client', transport, message, malformed: bad, http: postLine(revision, headers, '202 Accepted (a notification)'), headers, arrivesAt, requestKey: req.key });
      ctx.schedule(arrivesAt, RANK.arrival, 'server', `cancel ${req.key} arrives`, { kind: 'arrive.cancel', message, posted: true });
      req.client.cancelSignal = 'stream-close+notifications/cancelled';
      return;
    }
    req.client.cancelSignal = 'stream-close';
    return;
  }
  ctx.emit({ from: 'client', transport, message, malformed: bad, http: 'POST /mcp (notification) → 202 Accepted', arrivesAt, requestKey: req.key });
  ctx.schedule(arrivesAt, RANK.arrival, 'server', `cancel ${req.key} arrives`, { kind: 'arrive.cancel', message, posted: true });
  req.client.cancelSignal = 'notifications/cancelled';
}

export function signalRule(config: RacesConfig): string {
  if (config.transport === 'stdio') return 'cancel.stdio';
  return config.revision === '2026-07-28' ? 'cancel.http-2026' : 'cancel.http-2025';
}

export function signalText(config: RacesConfig): string {
  if (config.transport === 'stdio') return 'sends notifications/cancelled';
  return config.revision === '2026-07-28' ? 'closes the request\'s SSE stream (no notification)' : 'POSTs notifications/cancelled';
}

// ───────────────────────────── views and checkpoints ─────────────────────────────

/** A mutable copy of a request (three objects). */
export function copyRequest(r: RequestState): RequestState {
  return copyOptional(r, copyBase(r));
}

function copyBase(r: RequestState): RequestState {
  const c = r.client;
  const s = r.server;
  const copy: RequestState = {
    key: r.key,
    self: r.self,
    id: r.id,
    method: r.method,
    tool: r.tool,
    cancellable: r.cancellable,
    startAt: r.startAt,
    progressToken: r.progressToken,
    wireToken: r.wireToken,
    idleTimeoutMs: r.idleTimeoutMs,
    maxTimeoutMs: r.maxTimeoutMs,
    idleDeadlineAt: r.idleDeadlineAt,
    maxDeadlineAt: r.maxDeadlineAt,
    idleHandle: r.idleHandle,
    maxHandle: r.maxHandle,
    client: {
      state: c.state,
      atMs: c.atMs,
      reason: c.reason,
      rule: c.rule,
      terminalSets: c.terminalSets,
      lastProgress: c.lastProgress,
      progressAccepted: c.progressAccepted,
      progressAfterEnd: c.progressAfterEnd,
      cancelRequestedAt: c.cancelRequestedAt,
      cancelSignal: c.cancelSignal,
      responseFate: c.responseFate,
      isError: c.isError,
    },
    server: {
      state: s.state,
      atMs: s.atMs,
      receivedAt: s.receivedAt,
      cancelAcceptedAt: s.cancelAcceptedAt,
      responseSentAt: s.responseSentAt,
      lastWorkerProgressAt: s.lastWorkerProgressAt,
      lastProgressValue: s.lastProgressValue,
      workEndedAt: s.workEndedAt,
      streamClosed: s.streamClosed,
    },
  };
  if (r.sdkDefaultIdle) copy.sdkDefaultIdle = true;
  if (r.sdkStreamCutAt !== undefined) copy.sdkStreamCutAt = r.sdkStreamCutAt;
  if (r.mech) copy.mech = r.mech;
  if (s.listenAckAt !== undefined) copy.server.listenAckAt = s.listenAckAt;
  if (s.teardown !== undefined) copy.server.teardown = s.teardown;
  return copy;
}

/** Copies the optional fields of `r` (only requests with an `op` or a malformed cancel have any). */
function copyOptional(r: RequestState, v: RequestState): RequestState {
  if (r.malformedCancel !== undefined) v.malformedCancel = r.malformedCancel;
  if (r.op === undefined) return v;
  v.op = r.op;
  if (r.sideEffect !== undefined) v.sideEffect = r.sideEffect;
  if (r.idempotencyKey !== undefined) v.idempotencyKey = r.idempotencyKey;
  if (r.retryOf !== undefined) v.retryOf = r.retryOf;
  if (r.retriedAs !== undefined) v.retriedAs = r.retriedAs;
  if (r.retryKind !== undefined) v.retryKind = r.retryKind;
  if (r.inputRequest !== undefined) v.inputRequest = r.inputRequest;
  if (r.undeclaredInput !== undefined) v.undeclaredInput = r.undeclaredInput;
  if (r.retryInput !== undefined) v.retryInput = r.retryInput;
  if (r.missingHeaders !== undefined) v.missingHeaders = r.missingHeaders;
  if (r.server.opExecutions !== undefined) v.server.opExecutions = r.server.opExecutions;
  if (r.server.dedupedAt !== undefined) v.server.dedupedAt = r.server.dedupedAt;
  return v;
}

function frozenRequest(r: RequestState): RequestState {
  const v = copyRequest(r);
  Object.freeze(v.client);
  Object.freeze(v.server);
  return Object.freeze(v);
}

/** The frozen `RacesState` view of `state`: O(requests), rebuilding only changed requests. */
export function viewOf(state: RacesCore): RacesState {
  const n = state.requests.length;
  const requests = new Array<RequestState>(n);
  const views = state.views;
  for (let i = 0; i < n; i++) {
    let v = views[i];
    if (v === null) v = views[i] = frozenRequest(state.requests[i]);
    requests[i] = v;
  }
  const latest = state.latestView ?? (state.latestView = Object.freeze({ ...state.latest }));
  const indexOf = state.indexOfView ?? (state.indexOfView = Object.freeze({ ...state.indexOf }));
  if (state.readQueue !== undefined) {
    // Only with the reading-order bug (mechanics/firstRead.ts): kept off the common path below.
    const ledgerPart = state.ledger === undefined ? {} : { ledger: state.ledgerView ?? (state.ledgerView = Object.freeze({ ...state.ledger })) };
    return Object.freeze({ config: state.config, requests: Object.freeze(requests), latest, indexOf, touched: state.touched, ...ledgerPart, readQueue: Object.freeze(state.readQueue) });
  }
  if (state.ledger === undefined) return Object.freeze({ config: state.config, requests: Object.freeze(requests), latest, indexOf, touched: state.touched });
  const ledger = state.ledgerView ?? (state.ledgerView = Object.freeze({ ...state.ledger }));
  return Object.freeze({ config: state.config, requests: Object.freeze(requests), latest, indexOf, touched: state.touched, ledger });
}

/** Replaces the ledger entry `name` (the ledger is copied on write, so views stay frozen). */
export function setLedger(state: RacesCore, name: string, entry: LedgerEntry): void {
  state.ledger = { ...(state.ledger ?? {}), [name]: Object.freeze(entry) };
  state.ledgerView = null;
}

/** A mutable state equal to `view` (which stays untouched and is reused as the cached views). */
export function thaw(view: RacesState): RacesCore {
  return {
    config: view.config,
    requests: view.requests.map(copyRequest),
    latest: { ...view.latest },
    indexOf: { ...view.indexOf },
    touched: view.touched,
    touchedReq: undefined,
    pendingFrom: 0,
    views: Object.isFrozen(view.requests[0] ?? {}) ? view.requests.slice() : view.requests.map(() => null),
    latestView: Object.isFrozen(view.latest) ? view.latest : null,
    indexOfView: Object.isFrozen(view.indexOf) ? view.indexOf : null,
    hot: [],
    ...(view.ledger !== undefined ? { ledger: { ...view.ledger }, ledgerView: view.ledger } : {}),
    ...(view.readQueue !== undefined ? { readQueue: view.readQueue } : {}),
  };
}
