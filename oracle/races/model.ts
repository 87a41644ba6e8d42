// TEST-ONLY ORACLE: verbatim copy of src/sim/races/model.ts at 3802fb5 (import paths adjusted). Never import from app code.
import type { ApplyContext, Invariant, Json, Model, ScriptedEvent, Step } from '../../src/sim/types';
import {
  callToolRequest,
  cancelledNotification,
  errorResponse,
  ERROR_CODES,
  idProblem,
  listenRequest,
  listenResultResponse,
  progressNotification,
  toolResultResponse,
  type RequestId,
} from '../../src/sim/mcp';
import type { RacesConfig, RacesEventBeforeMrtr as RacesEvent } from '../../src/sim/races/schema';

/**
 * The request lifecycle model: one MCP client and one server exchanging `tools/call` and
 * `subscriptions/listen` requests over stdio or Streamable HTTP, under revision 2026-07-28 or
 * 2025-11-25, with idle and maximum timeouts, progress, cancellation and the races between them.
 * Rules are in `rules.ts` and `../../shared/SPEC-NOTES.md`.
 */

/** The caller's view of a request. Everything but `pending` is terminal. */
export type ClientState =
  | 'pending'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'timeout-idle'
  | 'timeout-max'
  | 'connection-closed'
  | 'ended-by-server'
  | 'rejected';

/** The server's view of a request. `working` means work (or an open listen stream) is in flight. */
export type ServerState = 'not-received' | 'working' | 'completed' | 'failed' | 'cancelled';

/** The signal the client put on the wire to cancel, if any. */
export type CancelSignal = 'none' | 'notifications/cancelled' | 'stream-close' | 'stream-close+notifications/cancelled';

/** Where the server's final response went. */
export type ResponseFate = 'none' | 'in-flight' | 'accepted' | 'ignored-late' | 'lost-with-stream' | 'undeliverable';

/** One request's state on both sides. Immutable: every change makes a new object. */
export interface RequestState {
  /** Instance key: the JSON-encoded id, with `#n` appended when an id is reused after it ended. */
  key: string;
  /** `[key]`, made once, so steps that touch only this request share one list. */
  self: readonly string[];
  id: RequestId;
  method: 'tools/call' | 'subscriptions/listen';
  tool: string;
  /** false: the server's work cannot be stopped, so it MAY ignore the cancellation. */
  cancellable: boolean;
  startAt: number;
  /** Token declared by the scenario, and the one actually on the wire (null when omitted by the bug). */
  progressToken: RequestId | null;
  wireToken: RequestId | null;
  idleTimeoutMs: number | null;
  maxTimeoutMs: number | null;
  /** Current deadlines (ms) and their timer handles (-1 when none is scheduled). */
  idleDeadlineAt: number | null;
  maxDeadlineAt: number | null;
  idleHandle: number;
  maxHandle: number;
  client: {
    state: ClientState;
    atMs: number | null;
    reason: string;
    rule: string | undefined;
    /** How many times the terminal state was set (must stay ≤ 1). */
    terminalSets: number;
    lastProgress: number | null;
    progressAccepted: number;
    /** Progress accepted after the call was terminal (must stay 0). */
    progressAfterEnd: number;
    cancelRequestedAt: number | null;
    cancelSignal: CancelSignal;
    responseFate: ResponseFate;
    isError: boolean;
  };
  server: {
    state: ServerState;
    atMs: number | null;
    receivedAt: number | null;
    cancelAcceptedAt: number | null;
    /** Time the final response was sent (ms), or null. */
    responseSentAt: number | null;
    /** Last time the worker made progress (an increasing scripted progress while working), ms. */
    lastWorkerProgressAt: number | null;
    /** The worker's last progress value. */
    lastProgressValue: number | null;
    /** When the work stopped (completed, failed, or cancelled), ms. */
    workEndedAt: number | null;
    /** The HTTP response stream was closed by the client (or the network). */
    streamClosed: boolean;
  };
}

/** The whole model state. `touched` lists the request keys the last step changed (for invariants). */
export interface RacesState {
  config: RacesConfig;
  requests: readonly RequestState[];
  /** Latest instance index per JSON-encoded request id. */
  latest: Readonly<Record<string, number>>;
  /** Index in `requests` per instance key. */
  indexOf: Readonly<Record<string, number>>;
  touched: readonly string[];
}

/** Timers and deliveries the model schedules. */
export type RacesTimer =
  | { kind: 'deadline.max'; key: string }
  | { kind: 'deadline.idle'; key: string }
  | { kind: 'arrive.request'; key: string }
  | { kind: 'arrive.cancel'; message: Json; posted: boolean }
  | { kind: 'arrive.stream-close'; key: string; cause: 'cancel' | 'network' }
  | { kind: 'arrive.raw'; message: Json }
  | { kind: 'arrive.progress'; key: string; progress: number }
  | { kind: 'arrive.keepalive'; key: string }
  | { kind: 'arrive.response'; key: string; ok: boolean }
  | { kind: 'arrive.server-cancel'; key: string };

/** One request's outcome, as printed by the CLI and shown in the outcome panel. */
export interface RequestOutcome {
  requestId: RequestId;
  key: string;
  method: RequestState['method'];
  state: ClientState;
  reason: string;
  rule: string | undefined;
  atMs: number | null;
  /** The server sent a final response (result or error) for this request. */
  finalResponse: boolean;
  responseFate: ResponseFate;
  cancelSignal: CancelSignal;
  serverState: ServerState;
  workEndedAtMs: number | null;
  isError: boolean;
}

/** The model outcome: per request, plus counts. */
export interface RacesOutcome {
  requests: RequestOutcome[];
  summary: {
    requests: number;
    states: Partial<Record<ClientState, number>>;
    finalResponses: number;
    cancelSignals: number;
    /** Requests whose server-side work is still running at the end of the trace. */
    workInFlight: number;
    /** Latest time any tools/call work stopped (ms), or null. */
    lastWorkEndedAtMs: number | null;
    lateResponsesDropped: number;
  };
}

/** Tie ranks (lowest first at the same millisecond). */
export const RANK = { maxDeadline: 0, idleDeadline: 1, arrival: 2, scripted: 3 } as const;

const TERMINAL_SERVER: ReadonlySet<ServerState> = new Set(['completed', 'failed', 'cancelled']);

/** Encodes a request id as the instance-independent key `JSON.stringify(id)`. */
export function idKey(id: RequestId): string {
  return JSON.stringify(id);
}

type Ctx = ApplyContext<RacesTimer>;

// Explicit copies (not object spread with extra fields, which V8 runs on a slow path): every
// update copies the changed objects and shares the rest, so earlier steps' states stay intact.
const NO_KEYS: readonly string[] = Object.freeze([]);

function cloneRequest(r: RequestState): RequestState {
  return {
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
    client: r.client,
    server: r.server,
  };
}

function cloneClient(c: RequestState['client']): RequestState['client'] {
  return {
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
  };
}

function cloneServer(s: RequestState['server']): RequestState['server'] {
  return {
    state: s.state,
    atMs: s.atMs,
    receivedAt: s.receivedAt,
    cancelAcceptedAt: s.cancelAcceptedAt,
    responseSentAt: s.responseSentAt,
    lastWorkerProgressAt: s.lastWorkerProgressAt,
    lastProgressValue: s.lastProgressValue,
    workEndedAt: s.workEndedAt,
    streamClosed: s.streamClosed,
  };
}

function cloneState(s: RacesState): RacesState {
  return { config: s.config, requests: s.requests, latest: s.latest, indexOf: s.indexOf, touched: s.touched };
}

/** A copy of `r` with `patch` applied. */
function withReq(r: RequestState, patch: Partial<RequestState>): RequestState {
  return Object.assign(cloneRequest(r), patch);
}

/** A copy of `r` whose client side has `patch` applied. */
function withClient(r: RequestState, patch: Partial<RequestState['client']>): RequestState {
  const next = cloneRequest(r);
  next.client = Object.assign(cloneClient(r.client), patch);
  return next;
}

/** A copy of `r` whose server side has `patch` applied. */
function withServer(r: RequestState, patch: Partial<RequestState['server']>): RequestState {
  const next = cloneRequest(r);
  next.server = Object.assign(cloneServer(r.server), patch);
  return next;
}

/** The same state, marking which requests this step touched (for the invariants). */
function touch(state: RacesState, keys: readonly string[]): RacesState {
  const next = cloneState(state);
  next.touched = keys;
  return next;
}

function replaceRequest(state: RacesState, req: RequestState): RacesState {
  const index = state.indexOf[req.key];
  const requests = state.requests.slice();
  requests[index] = req;
  const next = cloneState(state);
  next.requests = requests;
  next.touched = req.self;
  return next;
}

function byKey(state: RacesState, key: string): RequestState | undefined {
  const index = state.indexOf[key];
  return index === undefined ? undefined : state.requests[index];
}

function findLatest(state: RacesState, id: unknown): RequestState | undefined {
  if (idProblem(id) !== null) return undefined;
  const index = state.latest[idKey(id as RequestId)];
  return index === undefined ? undefined : state.requests[index];
}

function settle(
  req: RequestState,
  now: number,
  clientState: ClientState,
  reason: string,
  rule: string | undefined,
  extra: Partial<RequestState['client']> = {},
): RequestState {
  const next = withClient(req, extra);
  const c = next.client;
  c.state = clientState;
  c.atMs = now;
  c.reason = reason;
  c.rule = rule;
  c.terminalSets = req.client.terminalSets + 1;
  return next;
}

function clearDeadlines(req: RequestState, ctx: Ctx): RequestState {
  ctx.cancel(req.idleHandle);
  ctx.cancel(req.maxHandle);
  return withReq(req, { idleHandle: -1, maxHandle: -1 });
}

function describeId(id: unknown): string {
  return JSON.stringify(id) ?? String(id);
}

/**
 * The client puts the transport's cancellation signal on the wire for `req` (unless a broken
 * policy suppresses it) and returns the request with `cancelSignal` recorded.
 * stdio: notifications/cancelled. HTTP 2026-07-28: close the request's SSE stream (no POST).
 * HTTP 2025-11-25: POST notifications/cancelled.
 */
function sendCancelSignal(state: RacesState, req: RequestState, reason: string, ctx: Ctx): RequestState {
  const { transport, revision, latencyMs, policy } = state.config;
  const arrivesAt = ctx.now + latencyMs.clientToServer;
  const message = cancelledNotification(req.id, reason);
  if (transport === 'stdio') {
    ctx.emit({ from: 'client', transport, message, arrivesAt, requestKey: req.key });
    ctx.schedule(arrivesAt, RANK.arrival, 'server', `cancel ${req.key} arrives`, { kind: 'arrive.cancel', message, posted: false });
    return withClient(req, { cancelSignal: 'notifications/cancelled' });
  }
  if (revision === '2026-07-28') {
    ctx.emit({ from: 'client', transport, http: `client closes the SSE response stream of request ${describeId(req.id)} (no body is sent)`, arrivesAt, requestKey: req.key });
    ctx.schedule(arrivesAt, RANK.arrival, 'server', `stream close ${req.key} arrives`, { kind: 'arrive.stream-close', key: req.key, cause: 'cancel' });
    if (policy.httpPostsCancel) {
      ctx.emit({ from: 'client', transport, message, http: 'POST /mcp (notification) → 202 Accepted', arrivesAt, requestKey: req.key });
      ctx.schedule(arrivesAt, RANK.arrival, 'server', `cancel ${req.key} arrives`, { kind: 'arrive.cancel', message, posted: true });
      return withClient(req, { cancelSignal: 'stream-close+notifications/cancelled' });
    }
    return withClient(req, { cancelSignal: 'stream-close' });
  }
  ctx.emit({ from: 'client', transport, message, http: 'POST /mcp (notification) → 202 Accepted', arrivesAt, requestKey: req.key });
  ctx.schedule(arrivesAt, RANK.arrival, 'server', `cancel ${req.key} arrives`, { kind: 'arrive.cancel', message, posted: true });
  return withClient(req, { cancelSignal: 'notifications/cancelled' });
}

function signalRule(config: RacesConfig): string {
  if (config.transport === 'stdio') return 'cancel.stdio';
  return config.revision === '2026-07-28' ? 'cancel.http-2026' : 'cancel.http-2025';
}

function signalText(config: RacesConfig): string {
  if (config.transport === 'stdio') return 'sends notifications/cancelled';
  return config.revision === '2026-07-28' ? 'closes the request\'s SSE stream (no notification)' : 'POSTs notifications/cancelled';
}

// ───────────────────────────── client side ─────────────────────────────

function clientStart(state: RacesState, ev: Extract<RacesEvent, { kind: 'start' }>, ctx: Ctx): RacesState {
  const { config } = state;
  const reject = (why: string, rule: string) => {
    ctx.ignore({ by: 'client', what: `start ${describeId(ev.requestId)}`, reason: why, rule });
    ctx.why(() => `Rejected before sending: ${why}.`, rule);
    return touch(state, NO_KEYS);
  };
  const idIssue = idProblem(ev.requestId);
  if (idIssue !== null) return reject(`requestId must be a string or an integer, got ${idIssue}`, 'jsonrpc.id');
  const id = ev.requestId as RequestId;
  const hasToken = ev.progressToken !== undefined;
  if (hasToken) {
    const tokenIssue = idProblem(ev.progressToken);
    if (tokenIssue !== null) return reject(`progressToken must be a string or an integer, got ${tokenIssue}`, 'progress.token');
  }
  const token = hasToken ? (ev.progressToken as RequestId) : null;
  const prevIndex = state.latest[idKey(id)];
  const prev = prevIndex === undefined ? undefined : state.requests[prevIndex];
  if (prev && prev.client.state === 'pending') return reject(`request id ${describeId(id)} is already in use by an active request`, 'jsonrpc.id');
  if (token !== null) {
    const clash = state.requests.find((r) => r.client.state === 'pending' && r.progressToken !== null && idKey(r.progressToken) === idKey(token));
    if (clash) return reject(`progressToken ${describeId(token)} is already in use by active request ${describeId(clash.id)}`, 'progress.token');
  }
  if (ev.method === 'subscriptions/listen' && config.revision !== '2026-07-28') {
    return reject('subscriptions/listen does not exist in 2025-11-25 (the GET stream does that job)', 'listen.2026-only');
  }
  const isListen = ev.method === 'subscriptions/listen';
  const idle = isListen ? null : ev.idleTimeoutMs;
  const max = isListen ? null : ev.maxTimeoutMs;
  if (idle !== null && max === null) {
    return reject(`idleTimeoutMs is ${idle} ms but maxTimeoutMs is missing — a maximum timeout must cover the idle timeout, or progress could keep the call alive forever`, 'timeout.must-cover');
  }
  const instance = prev ? state.requests.filter((r) => r.id === id).length + 1 : 1;
  const key = instance === 1 ? idKey(id) : `${idKey(id)}#${instance}`;
  const wireToken = config.policy.progressTokenOmitted ? null : token;

  let idleHandle = -1;
  let maxHandle = -1;
  const maxDeadlineAt = max === null ? null : ctx.now + max;
  const idleDeadlineAt = idle === null ? null : ctx.now + idle;
  const enforceMaxByTimer = !config.policy.idleTimeoutOnly && !config.policy.maximumCheckedOnProgress;
  if (maxDeadlineAt !== null && enforceMaxByTimer) {
    maxHandle = ctx.schedule(maxDeadlineAt, RANK.maxDeadline, 'client', `maximum deadline ${key}`, { kind: 'deadline.max', key });
  }
  if (idleDeadlineAt !== null) {
    idleHandle = ctx.schedule(idleDeadlineAt, RANK.idleDeadline, 'client', `idle deadline ${key}`, { kind: 'deadline.idle', key });
  }

  const message = isListen ? listenRequest(id) : callToolRequest(config.revision, id, ev.tool, wireToken);
  const arrivesAt = ctx.now + config.latencyMs.clientToServer;
  const http = config.transport === 'streamable-http'
    ? `POST /mcp (MCP-Protocol-Version: ${config.revision}) → 200 Content-Type: text/event-stream; this request's SSE response stream opens`
    : undefined;
  ctx.emit({ from: 'client', transport: config.transport, message, http, arrivesAt, requestKey: key });
  ctx.schedule(arrivesAt, RANK.arrival, 'server', `request ${key} arrives`, { kind: 'arrive.request', key });

  const req: RequestState = {
    key,
    self: [key],
    id,
    method: ev.method,
    tool: ev.tool,
    cancellable: ev.cancellable,
    startAt: ctx.now,
    progressToken: token,
    wireToken,
    idleTimeoutMs: idle,
    maxTimeoutMs: max,
    idleDeadlineAt,
    maxDeadlineAt,
    idleHandle,
    maxHandle,
    client: {
      state: 'pending',
      atMs: null,
      reason: 'waiting for the server',
      rule: undefined,
      terminalSets: 0,
      lastProgress: null,
      progressAccepted: 0,
      progressAfterEnd: 0,
      cancelRequestedAt: null,
      cancelSignal: 'none',
      responseFate: 'none',
      isError: false,
    },
    server: {
      state: 'not-received',
      atMs: null,
      receivedAt: null,
      cancelAcceptedAt: null,
      responseSentAt: null,
      lastWorkerProgressAt: null,
      lastProgressValue: null,
      workEndedAt: null,
      streamClosed: false,
    },
  };
  const parts: string[] = [`Client sends ${ev.method} ${describeId(id)}`];
  if (token !== null && wireToken === null) parts.push(`without its progressToken (bug: token omitted), so progress can never reset the idle clock`);
  else if (wireToken !== null) parts.push(`with progressToken ${describeId(wireToken)}`);
  if (idle !== null) parts.push(`idle timeout ${idle} ms (deadline ${idleDeadlineAt})`);
  if (max !== null) parts.push(`maximum ${max} ms (deadline ${maxDeadlineAt}${enforceMaxByTimer ? '' : config.policy.idleTimeoutOnly ? ', ignored: idle-only bug' : ', checked only on progress: bug'})`);
  if (idle === null && max === null && !isListen) parts.push('and no timeout at all');
  if (idle !== null && max !== null && max < idle) parts.push(`— note: the maximum is shorter than idle, so the idle timeout can never fire first`);
  ctx.why(() => parts.join(', ') + '.', token !== null ? 'progress.resets-idle' : 'timeout.idle');

  const requests = state.requests.concat(req);
  return {
    ...state,
    requests,
    latest: { ...state.latest, [idKey(id)]: requests.length - 1 },
    indexOf: { ...state.indexOf, [key]: requests.length - 1 },
    touched: [key],
  };
}

function clientCancel(state: RacesState, ev: Extract<RacesEvent, { kind: 'cancel' }>, ctx: Ctx): RacesState {
  const req = findLatest(state, ev.requestId);
  if (!req) {
    ctx.ignore({ by: 'client', what: `cancel ${describeId(ev.requestId)}`, reason: 'no request with that id was started', rule: 'cancel.ignore-invalid' });
    ctx.why(() => `The user asks to cancel ${describeId(ev.requestId)}, but the client never started it: nothing to cancel.`, 'cancel.ignore-invalid');
    return touch(state, NO_KEYS);
  }
  if (req.client.state !== 'pending' || req.client.cancelRequestedAt !== null) {
    const already = req.client.cancelRequestedAt !== null ? 'a cancellation was already sent' : `the call already ended ${req.client.state} at ${req.client.atMs} ms`;
    ctx.ignore({ by: 'client', what: `cancel ${req.key}`, reason: already, rule: 'cancel.ignore-invalid' });
    ctx.why(() => `The user clicks cancel on ${describeId(req.id)}, but ${already}: the client sends nothing.`, 'cancel.ignore-invalid');
    return touch(state, req.self);
  }
  let next = sendCancelSignal(state, req, ev.reason, ctx);
  next = withClient(next, { cancelRequestedAt: ctx.now });
  if (state.config.policy.clientNeverSettles) {
    ctx.why(() => `The client ${signalText(state.config)} for ${describeId(req.id)} but leaves its own call pending (bug: never settles) — the caller hangs.`, 'cancel.settle');
    return replaceRequest(state, next);
  }
  next = clearDeadlines(next, ctx);
  next = settle(next, ctx.now, 'cancelled', `cancelled by the caller at ${ctx.now} ms; the client ${signalText(state.config)}`, signalRule(state.config));
  ctx.why(() => `The caller cancels ${describeId(req.id)}: the call settles as cancelled now and the client ${signalText(state.config)}.`, signalRule(state.config));
  return replaceRequest(state, next);
}

function clientDisconnect(state: RacesState, ev: Extract<RacesEvent, { kind: 'disconnect' }>, ctx: Ctx): RacesState {
  const req = findLatest(state, ev.requestId);
  const { config } = state;
  if (config.transport === 'stdio') {
    ctx.ignore({ by: 'client', what: `disconnect ${describeId(ev.requestId)}`, reason: 'stdio has no per-request stream to drop', rule: 'transport.no-sse-on-stdio' });
    ctx.why(() => 'On stdio there is no per-request stream, so a per-request disconnect cannot happen; ignored.', 'transport.no-sse-on-stdio');
    return touch(state, NO_KEYS);
  }
  if (!req || req.client.state !== 'pending') {
    ctx.ignore({ by: 'client', what: `disconnect ${describeId(ev.requestId)}`, reason: req ? 'the request already ended; its stream is closed' : 'no such request', rule: 'cancel.ignore-invalid' });
    ctx.why(() => `No open response stream for ${describeId(ev.requestId)}; nothing drops.`, 'cancel.ignore-invalid');
    return touch(state, req ? req.self : NO_KEYS);
  }
  const arrivesAt = ctx.now + config.latencyMs.clientToServer;
  ctx.emit({ from: 'client', transport: config.transport, http: `network drops the SSE response stream of request ${describeId(req.id)}`, arrivesAt, requestKey: req.key });
  ctx.schedule(arrivesAt, RANK.arrival, 'server', `stream drop ${req.key} arrives`, { kind: 'arrive.stream-close', key: req.key, cause: 'network' });
  let next = clearDeadlines(req, ctx);
  const rule = config.revision === '2026-07-28' ? 'disconnect.2026' : 'disconnect.2025';
  next = settle(next, ctx.now, 'connection-closed', `stream dropped at ${ctx.now} ms: error ${ERROR_CODES.connectionClosed} (connection closed), outcome unknown`, rule);
  ctx.why(() => 
    config.revision === '2026-07-28'
      ? `The response stream of ${describeId(req.id)} drops: the call fails with ${ERROR_CODES.connectionClosed} (outcome unknown). Under 2026-07-28 the server will treat the close as cancellation; to get the result the client must re-issue with a new id.`
      : `The response stream of ${describeId(req.id)} drops: the call fails with ${ERROR_CODES.connectionClosed} (outcome unknown). Under 2025-11-25 a disconnect is not a cancellation, so the server keeps working.`,
    rule,
  );
  return replaceRequest(state, next);
}

function clientInject(state: RacesState, ev: Extract<RacesEvent, { kind: 'inject' }>, ctx: Ctx): RacesState {
  const { config } = state;
  const arrivesAt = ctx.now + config.latencyMs.clientToServer;
  const message = (ev.message ?? null) as Json;
  ctx.emit({ from: 'client', transport: config.transport, message, malformed: true, http: config.transport === 'streamable-http' ? 'POST /mcp → 202 Accepted' : undefined, arrivesAt });
  ctx.schedule(arrivesAt, RANK.arrival, 'server', 'raw message arrives', { kind: 'arrive.raw', message });
  ctx.why(() => 'A faulty client writes a raw message to the wire exactly as scripted.', 'cancel.ignore-invalid');
  return touch(state, NO_KEYS);
}

function deadline(state: RacesState, key: string, which: 'idle' | 'max', ctx: Ctx): RacesState {
  const req = byKey(state, key);
  if (!req || req.client.state !== 'pending') return touch(state, NO_KEYS);
  const { config } = state;
  const abandoned = req.client.cancelRequestedAt !== null; // only when the client never settles its cancel
  let next: RequestState = cloneRequest(req);
  if (which === 'idle') next = withReq(next, { idleHandle: -1 });
  else next = withReq(next, { maxHandle: -1 });
  next = clearDeadlines(next, ctx);
  const timeoutMs = which === 'idle' ? req.idleTimeoutMs : req.maxTimeoutMs;
  const since = which === 'idle' && req.client.lastProgress !== null ? 'since the last accepted progress' : 'since the request was sent';
  const label = which === 'idle' ? 'idle timeout' : 'maximum timeout';
  if (!config.policy.timeoutWithoutCancel && !abandoned) next = sendCancelSignal(state, next, `Request timed out (${label})`, ctx);
  const signal = config.policy.timeoutWithoutCancel ? 'sends no cancellation (bug), so the server keeps working' : signalText(config);
  next = settle(next, ctx.now, which === 'idle' ? 'timeout-idle' : 'timeout-max', `${label} of ${timeoutMs} ms ${since}: error ${ERROR_CODES.requestTimeout} (request timeout); the client ${signal}`, which === 'idle' ? 'timeout.idle' : 'timeout.max');
  ctx.why(() => 
    `${which === 'idle' ? 'Idle' : 'Maximum'} deadline reached at ${ctx.now} ms (${timeoutMs} ms ${since}, inclusive): the call fails with ${ERROR_CODES.requestTimeout} and the client ${signal}.`,
    which === 'idle' ? 'timeout.idle' : 'timeout.max',
  );
  return replaceRequest(state, next);
}

function clientProgress(state: RacesState, key: string, progress: number, ctx: Ctx): RacesState {
  const req = byKey(state, key);
  if (!req) return touch(state, NO_KEYS);
  const { config } = state;
  if (req.client.state !== 'pending') {
    ctx.ignore({ by: 'client', what: `progress ${progress} for ${req.key}`, reason: `the call already ended ${req.client.state}`, rule: 'progress.after-end' });
    ctx.why(() => `Progress ${progress} for ${describeId(req.id)} arrives after the call ended (${req.client.state}); the client drops it.`, 'progress.after-end');
    return touch(state, req.self);
  }
  if (req.client.lastProgress !== null && !(progress > req.client.lastProgress)) {
    ctx.ignore({ by: 'client', what: `progress ${progress} for ${req.key}`, reason: `not greater than the last progress ${req.client.lastProgress}`, rule: 'progress.increase' });
    ctx.why(() => `Progress ${progress} does not increase past ${req.client.lastProgress}: the client ignores it and the idle clock does not reset.`, 'progress.increase');
    return touch(state, req.self);
  }
  let next: RequestState = withClient(req, { lastProgress: progress, progressAccepted: req.client.progressAccepted + 1 });
  const notes: string[] = [`Progress ${progress} for ${describeId(req.id)} reaches the client`];
  let rule = 'progress.resets-idle';
  if (config.policy.maximumCheckedOnProgress && req.maxDeadlineAt !== null && ctx.now >= req.maxDeadlineAt) {
    next = clearDeadlines(next, ctx);
    if (!config.policy.timeoutWithoutCancel) next = sendCancelSignal(state, next, 'Request timed out (maximum timeout)', ctx);
    next = settle(next, ctx.now, 'timeout-max', `maximum timeout of ${req.maxTimeoutMs} ms noticed only when progress arrived at ${ctx.now} ms (bug: checked only on progress)`, 'timeout.max');
    ctx.why(() => `Progress arrives at ${ctx.now} ms and only now does the client check the maximum (deadline was ${req.maxDeadlineAt} ms): the call fails late.`, 'timeout.max');
    return replaceRequest(state, next);
  }
  if (config.progressResetsIdleTimeout && next.idleTimeoutMs !== null && next.wireToken !== null) {
    ctx.cancel(next.idleHandle);
    const idleDeadlineAt = ctx.now + next.idleTimeoutMs;
    const idleHandle = ctx.schedule(idleDeadlineAt, RANK.idleDeadline, 'client', `idle deadline ${key}`, { kind: 'deadline.idle', key });
    next = withReq(next, { idleDeadlineAt, idleHandle });
    notes.push(`the idle deadline moves to ${idleDeadlineAt} ms`);
  } else if (next.idleTimeoutMs !== null) {
    notes.push('the idle deadline stays (progressResetsIdleTimeout is off)');
  }
  if (next.maxTimeoutMs !== null) {
    if (config.policy.progressResetsMaximum) {
      ctx.cancel(next.maxHandle);
      const maxDeadlineAt = ctx.now + next.maxTimeoutMs;
      const maxHandle = ctx.schedule(maxDeadlineAt, RANK.maxDeadline, 'client', `maximum deadline ${key}`, { kind: 'deadline.max', key });
      next = withReq(next, { maxDeadlineAt, maxHandle });
      notes.push(`and (bug) the maximum deadline moves too, to ${maxDeadlineAt} ms`);
      rule = 'timeout.max';
    } else {
      notes.push(`the maximum stays at ${next.maxDeadlineAt} ms`);
    }
  }
  ctx.why(() => notes.join('; ') + '.', rule);
  return replaceRequest(state, next);
}

function clientResponse(state: RacesState, key: string, ok: boolean, ctx: Ctx): RacesState {
  const req = byKey(state, key);
  if (!req) return touch(state, NO_KEYS);
  // Issue 27 (the one rule change since 3802fb5, see README): a response written to a dropped stream never reaches the client.
  if (req.client.state === 'connection-closed') {
    const next: RequestState = withClient(req, { responseFate: 'lost-with-stream' });
    ctx.why(() => `The response to ${describeId(req.id)} was written to the stream dropped at ${req.client.atMs} ms: it never reaches the client (lost with the stream). The client only knows the call ended ${req.client.state}.`, state.config.revision === '2026-07-28' ? 'disconnect.2026' : 'disconnect.2025');
    return replaceRequest(state, next);
  }
  if (req.client.state !== 'pending') {
    const next: RequestState = withClient(req, { responseFate: 'ignored-late' });
    ctx.ignore({ by: 'client', what: `response to ${req.key}`, reason: `the call already ended ${req.client.state} at ${req.client.atMs} ms`, rule: 'cancel.late-response' });
    ctx.why(() => `The response to ${describeId(req.id)} arrives after the call ended ${req.client.state}: it is logged and dropped, never shown as success.`, 'cancel.late-response');
    return replaceRequest(state, next);
  }
  let next = clearDeadlines(req, ctx);
  next = withClient(next, { responseFate: 'accepted' });
  const isListen = req.method === 'subscriptions/listen';
  if (ok) {
    next = settle(next, ctx.now, isListen ? 'ended-by-server' : 'completed', isListen ? `the server ended the listen stream gracefully at ${ctx.now} ms` : `response received at ${ctx.now} ms`, undefined);
    ctx.why(() => isListen ? `The server ends the listen stream ${describeId(req.id)} with its result.` : `The response to ${describeId(req.id)} arrives in time: the call completes.`, req.client.cancelRequestedAt !== null ? 'cancel.settle' : undefined);
  } else {
    next = settle(next, ctx.now, 'failed', `error response received at ${ctx.now} ms`, undefined);
    ctx.why(() => `The server's error response to ${describeId(req.id)} arrives: the call fails with that error.`);
  }
  return replaceRequest(state, next);
}

function clientServerCancel(state: RacesState, key: string, ctx: Ctx): RacesState {
  const req = byKey(state, key);
  if (!req) return touch(state, NO_KEYS);
  if (req.client.state !== 'pending') {
    ctx.ignore({ by: 'client', what: `server cancellation of ${req.key}`, reason: 'the stream already ended', rule: 'cancel.ignore-invalid' });
    ctx.why(() => 'The server\'s cancellation arrives for a stream that already ended; ignored.', 'cancel.ignore-invalid');
    return touch(state, req.self);
  }
  let next = clearDeadlines(req, ctx);
  next = settle(next, ctx.now, 'ended-by-server', `the server ended the subscriptions/listen stream with notifications/cancelled at ${ctx.now} ms`, 'cancel.server-listen-only');
  ctx.why(() => `The server's notifications/cancelled ends listen stream ${describeId(req.id)}; the client may open a new one with a new id.`, 'cancel.server-listen-only');
  return replaceRequest(state, next);
}

function clientKeepalive(state: RacesState, key: string, ctx: Ctx): RacesState {
  const req = byKey(state, key);
  if (!req) return touch(state, NO_KEYS);
  const deadlineText = req.idleDeadlineAt !== null && req.client.state === 'pending' ? ` The idle deadline stays at ${req.idleDeadlineAt} ms.` : '';
  ctx.ignore({ by: 'client', what: `SSE comment on ${req.key}`, reason: 'a keep-alive comment is not an MCP message', rule: 'sse.keepalive' });
  ctx.why(() => `A keep-alive comment reaches the client: it keeps proxies from closing the stream but is not progress.${deadlineText}`, 'sse.keepalive');
  return touch(state, req.self);
}

// ───────────────────────────── server side ─────────────────────────────

function serverReceive(state: RacesState, key: string, ctx: Ctx): RacesState {
  const req = byKey(state, key);
  if (!req) return touch(state, NO_KEYS);
  if (req.server.streamClosed) return touch(state, NO_KEYS);
  const next: RequestState = withServer(req, { state: 'working', atMs: ctx.now, receivedAt: ctx.now });
  ctx.why(() => req.method === 'subscriptions/listen' ? `The server opens listen stream ${describeId(req.id)}.` : `The server receives ${describeId(req.id)} and starts the work.`);
  return replaceRequest(state, next);
}

function serverWorkEvent(
  state: RacesState,
  ev: Extract<RacesEvent, { kind: 'progress' | 'keepalive' | 'complete' | 'error' | 'server-cancel' }>,
  ctx: Ctx,
): RacesState {
  const req = findLatest(state, ev.requestId);
  const { config } = state;
  if (!req || req.server.state === 'not-received') {
    const reason = req ? 'the request has not reached the server yet' : 'the server never received a request with that id';
    ctx.ignore({ by: 'server', what: `${ev.kind} ${describeId(ev.requestId)}`, reason });
    ctx.why(() => `The server cannot ${ev.kind} ${describeId(ev.requestId)}: ${reason}.`);
    return touch(state, req ? req.self : NO_KEYS);
  }
  const s = req.server;
  const ended = TERMINAL_SERVER.has(s.state);
  const s2cArrives = ctx.now + config.latencyMs.serverToClient;
  const http = config.transport === 'streamable-http';

  if (ev.kind === 'progress') {
    if (ended) {
      const rule = s.state === 'cancelled' ? 'cancel.receiver-stops' : 'progress.after-end';
      ctx.ignore({ by: 'server', what: `progress ${ev.progress} for ${req.key}`, reason: `the request already ended (${s.state})`, rule });
      ctx.why(() => `The worker would report progress ${ev.progress}, but ${describeId(req.id)} is ${s.state}: no notification goes out.`, rule);
      return touch(state, req.self);
    }
    // Only real advances count as the worker being alive (the value must increase).
    const advanced = s.lastProgressValue === null || ev.progress > s.lastProgressValue;
    const worked: RequestState = advanced ? withServer(req, { lastWorkerProgressAt: ctx.now, lastProgressValue: ev.progress }) : req;
    if (req.wireToken === null) {
      ctx.ignore({ by: 'server', what: `progress ${ev.progress} for ${req.key}`, reason: 'the request carried no progressToken', rule: 'progress.needs-token' });
      ctx.why(() => `The worker makes progress (${ev.progress}) but the request carried no progressToken, so the server cannot report it: the client hears nothing.`, 'progress.needs-token');
      return replaceRequest(state, worked);
    }
    const message = progressNotification(req.wireToken, ev.progress, ev.total, ev.message);
    ctx.emit({ from: 'server', transport: config.transport, message, http: http ? 'SSE event on the request\'s response stream' : undefined, arrivesAt: s2cArrives, requestKey: req.key });
    ctx.schedule(s2cArrives, RANK.arrival, 'client', `progress ${req.key} arrives`, { kind: 'arrive.progress', key: req.key, progress: ev.progress });
    ctx.why(() => `The server reports progress ${ev.progress}${ev.total !== null ? `/${ev.total}` : ''} for ${describeId(req.id)}.`, 'progress.resets-idle');
    return replaceRequest(state, worked);
  }

  if (ev.kind === 'keepalive') {
    if (!http) {
      ctx.ignore({ by: 'server', what: `keep-alive for ${req.key}`, reason: 'stdio has no SSE stream', rule: 'transport.no-sse-on-stdio' });
      ctx.why(() => 'stdio has no SSE stream, so there is no keep-alive comment to send.', 'transport.no-sse-on-stdio');
      return touch(state, req.self);
    }
    if (ended || s.streamClosed) {
      ctx.ignore({ by: 'server', what: `keep-alive for ${req.key}`, reason: 'the stream is closed', rule: 'sse.keepalive' });
      ctx.why(() => 'The stream is closed; no keep-alive goes out.', 'sse.keepalive');
      return touch(state, req.self);
    }
    ctx.emit({ from: 'server', transport: config.transport, http: 'SSE comment line ": keep-alive" (not a JSON-RPC message)', arrivesAt: s2cArrives, requestKey: req.key });
    ctx.schedule(s2cArrives, RANK.arrival, 'client', `keep-alive ${req.key} arrives`, { kind: 'arrive.keepalive', key: req.key });
    ctx.why(() => 'The server writes an SSE comment to keep proxies from closing the quiet stream.', 'sse.keepalive');
    return touch(state, req.self);
  }

  if (ev.kind === 'server-cancel') {
    const isListen = req.method === 'subscriptions/listen';
    if (!(config.revision === '2026-07-28' && !http && isListen)) {
      const reason = !isListen
        ? 'a server never cancels the client\'s requests with notifications/cancelled'
        : http
          ? 'on Streamable HTTP the server ends a listen stream by sending its result or closing the stream, not with notifications/cancelled'
          : 'subscriptions/listen does not exist in 2025-11-25';
      ctx.ignore({ by: 'server', what: `server-cancel ${req.key}`, reason, rule: 'cancel.server-listen-only' });
      ctx.why(() => `The server does not send notifications/cancelled for ${describeId(req.id)}: ${reason}.`, 'cancel.server-listen-only');
      return touch(state, req.self);
    }
    if (ended) {
      ctx.ignore({ by: 'server', what: `server-cancel ${req.key}`, reason: 'the listen stream already ended', rule: 'cancel.server-listen-only' });
      ctx.why(() => 'The listen stream already ended; there is nothing to tear down.', 'cancel.server-listen-only');
      return touch(state, req.self);
    }
    const message = cancelledNotification(req.id, ev.reason);
    ctx.emit({ from: 'server', transport: config.transport, message, arrivesAt: s2cArrives, requestKey: req.key });
    ctx.schedule(s2cArrives, RANK.arrival, 'client', `server cancel ${req.key} arrives`, { kind: 'arrive.server-cancel', key: req.key });
    const next: RequestState = withServer(req, { state: 'cancelled', atMs: ctx.now, workEndedAt: ctx.now });
    ctx.why(() => `The server tears down listen stream ${describeId(req.id)} with notifications/cancelled — the only request a server may cancel (stdio, 2026-07-28).`, 'cancel.server-listen-only');
    return replaceRequest(state, next);
  }

  // complete | error
  const ok = ev.kind === 'complete';
  if (s.state === 'cancelled' && config.policy.respondAfterCancel && s.responseSentAt === null) {
    const message = ok ? toolResultResponse(config.revision, req.id, ev.text, ev.isError) : errorResponse(req.id, ev.code, ev.message);
    if (s.streamClosed) {
      // The same one rule as src/sim/races/server.ts: under 2026-07-28 HTTP the cancel closed the only stream the response may use.
      ctx.emit({ from: 'server', transport: config.transport, message, http: 'written to the response stream the client already closed (its cancellation): it reaches nobody', requestKey: req.key });
      const closed: RequestState = withServer(req, { responseSentAt: ctx.now });
      ctx.why(() => `The server accepted the cancellation of ${describeId(req.id)} at ${s.cancelAcceptedAt} ms yet still writes a response (bug); the client closed that stream as its cancellation, so the response reaches nobody.`, 'cancel.receiver-stops');
      return replaceRequest(state, withClient(closed, { responseFate: 'undeliverable' }));
    }
    ctx.emit({ from: 'server', transport: config.transport, message, http: http ? 'SSE event on a stream the client already closed' : undefined, arrivesAt: s2cArrives, requestKey: req.key });
    ctx.schedule(s2cArrives, RANK.arrival, 'client', `response ${req.key} arrives`, { kind: 'arrive.response', key: req.key, ok: ok && !ev.isError });
    const next: RequestState = withServer(req, { responseSentAt: ctx.now });
    ctx.why(() => `The server accepted the cancellation of ${describeId(req.id)} at ${s.cancelAcceptedAt} ms yet still sends a response (bug).`, 'cancel.receiver-stops');
    return replaceRequest(state, withClient(next, { responseFate: next.client.responseFate === 'none' ? 'in-flight' : next.client.responseFate }));
  }
  if (ended) {
    const rule = s.state === 'cancelled' ? 'cancel.receiver-stops' : undefined;
    const reason = s.state === 'cancelled' ? `the request was cancelled at ${s.cancelAcceptedAt} ms; no response is sent` : `the request already ended (${s.state})`;
    ctx.ignore({ by: 'server', what: `${ev.kind} ${req.key}`, reason, rule });
    ctx.why(() => s.state === 'cancelled' ? `The work would finish now, but ${describeId(req.id)} was cancelled first: the response is suppressed.` : `${describeId(req.id)} already ended; nothing more is sent.`, rule);
    return touch(state, req.self);
  }
  const isListen = req.method === 'subscriptions/listen';
  const message = ok
    ? isListen
      ? listenResultResponse(req.id)
      : toolResultResponse(config.revision, req.id, ev.text, ev.isError)
    : errorResponse(req.id, ev.code, ev.message);
  const serverState: ServerState = ok ? 'completed' : 'failed';
  let next: RequestState = withServer(req, { state: serverState, atMs: ctx.now, responseSentAt: ctx.now, workEndedAt: ctx.now });
  if (s.streamClosed) {
    ctx.emit({ from: 'server', transport: config.transport, message, http: 'the response stream is already closed: nowhere to write the response', requestKey: req.key });
    next = withClient(next, { responseFate: 'undeliverable' });
    ctx.why(() => 
      config.revision === '2025-11-25'
        ? `The work on ${describeId(req.id)} finishes, but its response stream was dropped and a 2025-11-25 disconnect is not a cancellation: the work ran to the end for nobody.`
        : `The uncancellable work on ${describeId(req.id)} finishes, but its response stream is closed: the result has nowhere to go.`,
      config.revision === '2025-11-25' ? 'disconnect.2025' : 'disconnect.2026',
    );
    return replaceRequest(state, next);
  }
  ctx.emit({ from: 'server', transport: config.transport, message, http: http ? 'SSE event with the final response; the server then closes the stream' : undefined, arrivesAt: s2cArrives, requestKey: req.key });
  ctx.schedule(s2cArrives, RANK.arrival, 'client', `response ${req.key} arrives`, { kind: 'arrive.response', key: req.key, ok: ok && !ev.isError });
  next = withClient(next, { responseFate: next.client.responseFate === 'none' ? 'in-flight' : next.client.responseFate, isError: ok && ev.isError });
  ctx.why(() => `The server finishes ${describeId(req.id)} and sends its final ${ok ? (ev.isError ? 'result (isError: true)' : 'result') : `error ${ev.code}`}.`, 'cancel.complete-first');
  return replaceRequest(state, next);
}

/** Server handling of a cancellation notification (well-formed or not). */
function serverCancelNotification(state: RacesState, message: Json, posted: boolean, ctx: Ctx): RacesState {
  const { config } = state;
  const what = 'notifications/cancelled';
  const malformed = (reason: string) => {
    ctx.ignore({ by: 'server', what, reason, rule: 'cancel.ignore-invalid' });
    ctx.why(() => `The server ignores a cancellation: ${reason} (fire and forget).`, 'cancel.ignore-invalid');
    return touch(state, NO_KEYS);
  };
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return malformed('the message is not a JSON object');
  if (message.method !== 'notifications/cancelled') return malformed(`unsupported method ${JSON.stringify(message.method) ?? '(none)'}`);
  const params = message.params;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return malformed('params is missing or not an object');
  const rawId = (params as Record<string, Json>).requestId;
  const problem = idProblem(rawId);
  if (problem !== null) return malformed(`requestId is ${problem}, not a string or an integer`);
  const req = findLatest(state, rawId);
  if (!req || req.server.state === 'not-received') {
    ctx.ignore({ by: 'server', what: `${what} ${describeId(rawId)}`, reason: 'unknown request id', rule: 'cancel.ignore-invalid' });
    ctx.why(() => `The server has no request ${describeId(rawId)}: the cancellation is ignored.`, 'cancel.ignore-invalid');
    return touch(state, req ? req.self : NO_KEYS);
  }
  if (TERMINAL_SERVER.has(req.server.state)) {
    const done = req.server.state === 'cancelled' ? 'was already cancelled' : `already ${req.server.state} at ${req.server.atMs} ms`;
    const rule = req.server.state === 'cancelled' ? 'cancel.ignore-invalid' : 'cancel.complete-first';
    ctx.ignore({ by: 'server', what: `${what} ${req.key}`, reason: `the request ${done}`, rule });
    ctx.why(() => 
      req.server.state === 'cancelled'
        ? `A second cancellation for ${describeId(req.id)} arrives; it was already cancelled. Ignored.`
        : `The cancellation for ${describeId(req.id)} arrives after the server ${req.server.state === 'completed' ? 'completed it' : 'finished it'}: the response stands and the late cancel is ignored.`,
      rule,
    );
    return touch(state, req.self);
  }
  if (!req.cancellable) {
    ctx.ignore({ by: 'server', what: `${what} ${req.key}`, reason: 'this work cannot be stopped; the receiver MAY ignore the cancellation', rule: 'cancel.ignore-invalid' });
    ctx.why(() => `The server cannot stop ${describeId(req.id)} (uncancellable work) and ignores the cancellation: its response will still come, and the client must drop it.`, 'cancel.ignore-invalid');
    return touch(state, req.self);
  }
  const next: RequestState = withServer(req, { state: 'cancelled', atMs: ctx.now, cancelAcceptedAt: ctx.now, workEndedAt: ctx.now });
  const via = posted ? ' (POSTed over HTTP)' : '';
  const unexpected = posted && config.revision === '2026-07-28' ? ' Under 2026-07-28 this POST is not expected: closing the stream was the signal.' : '';
  ctx.why(() => `The server accepts the cancellation of ${describeId(req.id)}${via}: it stops the work and will send no response.${unexpected}`, 'cancel.receiver-stops');
  return replaceRequest(state, next);
}

function serverStreamClose(state: RacesState, key: string, cause: 'cancel' | 'network', ctx: Ctx): RacesState {
  const req = byKey(state, key);
  if (!req) return touch(state, NO_KEYS);
  const { config } = state;
  let next: RequestState = withServer(req, { streamClosed: true });
  if (TERMINAL_SERVER.has(req.server.state)) {
    ctx.ignore({ by: 'server', what: `stream close ${req.key}`, reason: `the request already ended (${req.server.state})`, rule: 'cancel.complete-first' });
    ctx.why(() => `The client's stream close for ${describeId(req.id)} reaches the server after it already ${req.server.state === 'cancelled' ? 'cancelled' : 'finished'}; nothing changes.`, 'cancel.complete-first');
    return replaceRequest(state, next);
  }
  if (config.revision === '2026-07-28' && !req.cancellable) {
    ctx.ignore({ by: 'server', what: `stream close ${req.key}`, reason: 'this work cannot be stopped', rule: 'cancel.ignore-invalid' });
    ctx.why(() => `The stream of ${describeId(req.id)} closed; the server cannot stop the work, and has nowhere left to send its result.`, 'cancel.http-2026');
    return replaceRequest(state, next);
  }
  if (config.revision === '2026-07-28') {
    next = withServer(next, { state: 'cancelled', atMs: ctx.now, cancelAcceptedAt: ctx.now, workEndedAt: ctx.now });
    ctx.why(() => `The server sees ${describeId(req.id)}'s response stream close${cause === 'network' ? ' (a network drop)' : ''} and, under 2026-07-28, treats it as cancellation: the work stops, no further messages.`, 'cancel.http-2026');
    return replaceRequest(state, next);
  }
  ctx.ignore({ by: 'server', what: `stream close ${req.key}`, reason: 'under 2025-11-25 a disconnect is not a cancellation', rule: 'disconnect.2025' });
  ctx.why(() => `The response stream of ${describeId(req.id)} closed, but under 2025-11-25 a disconnect SHOULD NOT be read as cancellation: the work goes on.`, 'disconnect.2025');
  return replaceRequest(state, next);
}

// ───────────────────────────── invariants ─────────────────────────────

/**
 * Runs `check` on each request the last step touched (usually none or one) and returns the first
 * problem, or null. No allocation on the hot path.
 */
function firstTouched(state: RacesState, step: Step<RacesState>, check: (r: RequestState, state: RacesState, step: Step<RacesState>) => string | null): string | null {
  const keys = state.touched;
  for (let i = 0; i < keys.length; i++) {
    const r = byKey(state, keys[i]);
    if (r === undefined) continue;
    const problem = check(r, state, step);
    if (problem !== null) return problem;
  }
  return null;
}

function originalMaxDeadline(r: RequestState): number | null {
  return r.maxTimeoutMs === null ? null : r.startAt + r.maxTimeoutMs;
}

type Check = (r: RequestState, state: RacesState, step: Step<RacesState>) => string | null;

const oneTerminal: Check = (r) => (r.client.terminalSets > 1 ? `${r.key} was settled ${r.client.terminalSets} times` : null);

const noResponseAfterCancel: Check = (r) => {
  const s = r.server;
  return s.cancelAcceptedAt !== null && s.responseSentAt !== null && s.responseSentAt >= s.cancelAcceptedAt
    ? `the server sent a response to ${r.key} at ${s.responseSentAt} ms after accepting its cancellation at ${s.cancelAcceptedAt} ms`
    : null;
};

const progressIncreasing: Check = (r) => (r.client.progressAfterEnd > 0 ? `${r.key} accepted progress after it ended` : null);

const maximumFixed: Check = (r) => {
  const original = originalMaxDeadline(r);
  return original !== null && r.maxDeadlineAt !== original ? `${r.key}'s maximum deadline moved from ${original} ms to ${r.maxDeadlineAt} ms` : null;
};

// Checked on the requests each step touches (O(1) per step); a call past its deadline is caught
// the next time anything happens to it (progress, a response, a cancel, a timeout).
const maximumEnforced: Check = (r, _state, step) => {
  const original = originalMaxDeadline(r);
  if (original === null || step.at <= original) return null;
  if (r.client.state === 'pending') return `${r.key} is still open at ${step.at} ms, past its maximum deadline ${original} ms`;
  if (r.client.atMs === step.at) return `${r.key} ended ${r.client.state} at ${r.client.atMs} ms, after its maximum deadline ${original} ms`;
  return null;
};

const progressKeepsAlive: Check = (r, state, step) => {
  if (r.client.state !== 'timeout-idle' || r.progressToken === null || r.idleTimeoutMs === null) return null;
  const last = r.server.lastWorkerProgressAt;
  // When that progress would have reached the client; arriving at the deadline itself is too late (inclusive).
  const arrival = last === null ? null : last + state.config.latencyMs.serverToClient;
  return arrival !== null && arrival < step.at && arrival + r.idleTimeoutMs > step.at
    ? `${r.key} timed out idle at ${step.at} ms although its worker made progress at ${last} ms (the progress never reached the client)`
    : null;
};

const cancelSettles: Check = (r) =>
  r.client.cancelRequestedAt !== null && r.client.state === 'pending' ? `${r.key} was cancelled at ${r.client.cancelRequestedAt} ms but is still pending` : null;

const cancelledNeverSucceeds: Check = (r) =>
  r.client.cancelRequestedAt !== null && r.client.state === 'completed'
    ? `${r.key} was cancelled at ${r.client.cancelRequestedAt} ms yet reported success at ${r.client.atMs} ms`
    : null;

const abandonSignals: Check = (r) => {
  const abandoned = r.client.state === 'cancelled' || r.client.state === 'timeout-idle' || r.client.state === 'timeout-max';
  return abandoned && r.client.cancelSignal === 'none' ? `${r.key} ended ${r.client.state} without any cancellation signal: the server keeps working` : null;
};

const transportSignal: Check = (r, state) => {
  const sig = r.client.cancelSignal;
  if (sig === 'none') return null;
  const { transport, revision } = state.config;
  const expected: CancelSignal = transport === 'stdio' || revision === '2025-11-25' ? 'notifications/cancelled' : 'stream-close';
  return sig !== expected ? `${r.key} was cancelled with ${sig}; ${transport} under ${revision} expects ${expected}` : null;
};

/** The invariants checked after every step. Broken policies must visibly break them. */
export const RACES_INVARIANTS: Invariant<RacesState>[] = [
  { name: 'one-terminal-state', description: 'A call settles at most once: its terminal state, once set, never changes.', check: (state, step) => firstTouched(state, step, oneTerminal) },
  { name: 'no-response-after-cancel', description: 'After the server accepts a cancellation it sends no response for that request.', check: (state, step) => firstTouched(state, step, noResponseAfterCancel) },
  { name: 'progress-increasing', description: 'Accepted progress strictly increases, and none is accepted after the call ended.', check: (state, step) => firstTouched(state, step, progressIncreasing) },
  { name: 'maximum-deadline-fixed', description: 'The maximum deadline is start + maxTimeoutMs and never moves, whatever progress arrives.', check: (state, step) => firstTouched(state, step, maximumFixed) },
  { name: 'maximum-enforced', description: 'No call stays open past its maximum deadline, and none ends later than it.', check: (state, step) => firstTouched(state, step, maximumEnforced) },
  {
    name: 'progress-keeps-alive',
    description: 'With a progressToken and progressResetsIdleTimeout, an idle timeout fires only after a full idle window of worker silence.',
    check: (state, step) => (step.entry.kind !== 'deadline.idle' || !state.config.progressResetsIdleTimeout ? null : firstTouched(state, step, progressKeepsAlive)),
  },
  { name: 'cancel-settles', description: 'When the caller cancels, its call settles at once.', check: (state, step) => firstTouched(state, step, cancelSettles) },
  { name: 'cancelled-never-succeeds', description: 'A call the caller cancelled never reports success; a late response is dropped.', check: (state, step) => firstTouched(state, step, cancelledNeverSucceeds) },
  { name: 'abandon-signals-server', description: "Whenever the client stops waiting (cancel or timeout), it puts the transport's cancellation signal on the wire.", check: (state, step) => firstTouched(state, step, abandonSignals) },
  {
    name: 'transport-signal',
    description: 'The cancellation signal matches the transport: stdio and 2025-11-25 HTTP send notifications/cancelled; 2026-07-28 HTTP only closes the stream.',
    check: (state, step) => firstTouched(state, step, transportSignal),
  },
];

// ───────────────────────────── the model ─────────────────────────────

function dispatchTimer(state: RacesState, t: RacesTimer, ctx: Ctx): RacesState {
  switch (t.kind) {
    case 'deadline.max':
      return deadline(state, t.key, 'max', ctx);
    case 'deadline.idle':
      return deadline(state, t.key, 'idle', ctx);
    case 'arrive.request':
      return serverReceive(state, t.key, ctx);
    case 'arrive.cancel':
      return serverCancelNotification(state, t.message, t.posted, ctx);
    case 'arrive.raw':
      return serverCancelNotification(state, t.message, false, ctx);
    case 'arrive.stream-close':
      return serverStreamClose(state, t.key, t.cause, ctx);
    case 'arrive.progress':
      return clientProgress(state, t.key, t.progress, ctx);
    case 'arrive.keepalive':
      return clientKeepalive(state, t.key, ctx);
    case 'arrive.response':
      return clientResponse(state, t.key, t.ok, ctx);
    case 'arrive.server-cancel':
      return clientServerCancel(state, t.key, ctx);
  }
}

function toOutcome(r: RequestState): RequestOutcome {
  return {
    requestId: r.id,
    key: r.key,
    method: r.method,
    state: r.client.state,
    reason: r.client.reason,
    rule: r.client.rule,
    atMs: r.client.atMs,
    finalResponse: r.server.responseSentAt !== null,
    responseFate: r.client.responseFate,
    cancelSignal: r.client.cancelSignal,
    serverState: r.server.state,
    workEndedAtMs: r.server.workEndedAt,
    isError: r.client.isError,
  };
}

/** Outcome of a races state (also used by the UI for the state at the playhead). */
export function racesOutcome(state: RacesState): RacesOutcome {
  const requests = state.requests.map(toOutcome);
  const states: Partial<Record<ClientState, number>> = {};
  let finalResponses = 0;
  let cancelSignals = 0;
  let workInFlight = 0;
  let lastWorkEndedAtMs: number | null = null;
  let lateResponsesDropped = 0;
  for (const r of state.requests) {
    states[r.client.state] = (states[r.client.state] ?? 0) + 1;
    if (r.server.responseSentAt !== null) finalResponses++;
    if (r.client.cancelSignal !== 'none') cancelSignals++;
    if (r.method === 'tools/call') {
      if (r.server.state === 'working') workInFlight++;
      if (r.server.workEndedAt !== null) lastWorkEndedAtMs = Math.max(lastWorkEndedAtMs ?? 0, r.server.workEndedAt);
    }
    if (r.client.responseFate === 'ignored-late') lateResponsesDropped++;
  }
  return { requests, summary: { requests: requests.length, states, finalResponses, cancelSignals, workInFlight, lastWorkEndedAtMs, lateResponsesDropped } };
}

/** The races lab model (request lifecycle). See the module comment. */
export const racesModel: Model<RacesConfig, RacesState, RacesOutcome, RacesTimer> = {
  lab: 'races',
  tieRule: [
    { rank: RANK.maxDeadline, name: 'maximum deadline', why: 'Deadlines are inclusive, and the maximum wins when both are due.' },
    { rank: RANK.idleDeadline, name: 'idle deadline', why: 'An idle deadline fires before anything that arrives in the same millisecond.' },
    { rank: RANK.arrival, name: 'message arrival', why: 'Messages already on the wire land before anyone acts, in the order they were sent.' },
    { rank: RANK.scripted, name: 'scripted action', why: 'Actions by the client, server and worker run last, in the scenario\'s list order (reorder them to change who wins).' },
  ],
  scriptedRank: () => RANK.scripted,
  init: (config) => ({ config, requests: [], latest: {}, indexOf: {}, touched: [] }),
  applyScripted(state, event: ScriptedEvent, ctx) {
    const ev = event as unknown as RacesEvent;
    switch (ev.kind) {
      case 'start':
        return clientStart(state, ev, ctx);
      case 'cancel':
        return clientCancel(state, ev, ctx);
      case 'disconnect':
        return clientDisconnect(state, ev, ctx);
      case 'inject':
        return clientInject(state, ev, ctx);
      default:
        return serverWorkEvent(state, ev, ctx);
    }
  },
  applyTimer: dispatchTimer,
  outcome: (state) => racesOutcome(state),
  invariants: RACES_INVARIANTS,
};

/** Exposed for tests: the step type of a races trace. */
export type RacesStep = Step<RacesState>;
