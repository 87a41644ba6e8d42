import { callToolRequest, declaringVersion, elicitResult, ERROR_CODES, errorResponse, inputRequiredResponse, missingCapabilityResponse, POST_OPENS_STREAM, postLine, requestHeaders2026, toolResultResponse, type RequestId } from '../mcp';
import type { Json } from '../types';
import type { RacesConfig, RacesEvent } from './schema';
import { idKey, RANK, type RequestState } from './types';
import { addRequest, newRequest, changed, clearDeadlines, describeId, findLatest, NO_KEYS, setLedger, settle, touch, type Ctx, type RacesCore } from './state';

/**
 * Re-issues, MRTR retries and the server's side-effect ledger (issue 11), kept apart from the
 * older rules in `client.ts` / `server.ts`.
 *
 * - A broken 2026-07-28 response stream loses the in-flight request: the client re-issues it as a
 *   new request with a new id (`reissueLost`). Source: 2026-07-28 `changelog` major item 9 ("A
 *   broken response stream loses the in-flight request; clients MUST re-issue it as a new request
 *   with a new request ID"); `basic/transports/streamable-http` ("Resumable SSE streams via
 *   `Last-Event-ID` are not supported").
 * - MRTR: the server answers with `InputRequiredResult` (`serverInputRequired`); the client
 *   retries the original request with `inputResponses` under a new id (`clientInputResponse`).
 *   Source: 2026-07-28 `basic/patterns/mrtr` ("The JSON-RPC `id` MUST be different between the
 *   initial request and the retry, as they are independent requests").
 * - Every new id is a new request to the server: a side-effecting tool executes again unless the
 *   request carries an idempotency key the server deduplicates on (`recordExecution`,
 *   `storedResult`) — the ledger lab's lesson (scenario F, the lost response).
 */

/** The ledger entry name for `req`: its idempotency key, else its operation (the first request of the chain). */
export function ledgerName(req: RequestState): string {
  return req.idempotencyKey !== undefined ? `key:${req.idempotencyKey}` : `op:${req.op ?? req.key}`;
}

/** The next free integer request id: one more than the highest integer id used so far (at least 1). */
export function nextFreeId(state: RacesCore): number {
  let max = 0;
  for (const r of state.requests) if (typeof r.id === 'number' && r.id > max) max = r.id;
  return max + 1;
}

/**
 * What the races client declares under `_meta["io.modelcontextprotocol/clientCapabilities"]` on
 * every 2026-07-28 request: `{ elicitation: { form: {} } }` (it answers form elicitations with
 * `input-response`), or nothing under `clientElicitation: "none"`. Source: 2026-07-28
 * `client/elicitation` ("Clients that support elicitation MUST declare the elicitation capability
 * in _meta.io.modelcontextprotocol/clientCapabilities on each request").
 */
export function racesClientCapabilities(config: RacesConfig): Json {
  return config.clientElicitation === 'none' ? {} : { elicitation: { form: {} } };
}

/**
 * Sends `from`'s call again as a new request (`newId`, or `from.id` when the buggy
 * `policy.retrySameId` is on): same tool, arguments, idempotency key, progress token and
 * timeouts (fresh deadlines from now); `extra` adds the MRTR `inputResponses`/`requestState`.
 * Returns the new request. Throws nothing: a clash with an active id is impossible here because
 * the caller settled `from` first and integer ids are picked free.
 */
export function issueRetry(state: RacesCore, from: RequestState, newId: RequestId, kind: 'reissue' | 'mrtr' | 'version', ctx: Ctx, input?: { inputResponses: Json; requestState?: string }, protocolVersion?: string): RequestState {
  const { config } = state;
  const extra = input ?? from.retryInput;
  const id = config.policy.retrySameId ? from.id : newId;
  const instance = state.requests.filter((r) => idKey(r.id) === idKey(id)).length + 1;
  const key = instance === 1 ? idKey(id) : `${idKey(id)}#${instance}`;
  const built = callToolRequest(config.revision, id, from.tool, from.wireToken, { idempotencyKey: from.idempotencyKey, clientCapabilities: racesClientCapabilities(config), ...extra });
  const message = protocolVersion !== undefined && protocolVersion !== config.revision ? declaringVersion(built, protocolVersion) : built;
  const arrivesAt = ctx.now + config.latencyMs.clientToServer;
  const http = config.transport === 'streamable-http';
  const missing = from.missingHeaders;
  const headers = http && config.revision === '2026-07-28' ? requestHeaders2026(message, missing !== undefined) : undefined;
  ctx.emit({
    from: 'client',
    transport: config.transport,
    message,
    http: http ? postLine(config.revision, headers, POST_OPENS_STREAM) : undefined,
    headers,
    arrivesAt,
    requestKey: key,
  });
  ctx.schedule(arrivesAt, RANK.arrival, 'server', `request ${key} arrives`, { kind: 'arrive.request', key });
  let idleHandle = -1;
  let maxHandle = -1;
  const maxDeadlineAt = from.maxTimeoutMs === null ? null : ctx.now + from.maxTimeoutMs;
  const idleDeadlineAt = from.idleTimeoutMs === null ? null : ctx.now + from.idleTimeoutMs;
  if (maxDeadlineAt !== null && !config.policy.idleTimeoutOnly && !config.policy.maximumCheckedOnProgress) maxHandle = ctx.schedule(maxDeadlineAt, RANK.maxDeadline, 'client', `maximum deadline ${key}`, { kind: 'deadline.max', key });
  if (idleDeadlineAt !== null) idleHandle = ctx.schedule(idleDeadlineAt, RANK.idleDeadline, 'client', `idle deadline ${key}`, { kind: 'deadline.idle', key });
  const req: RequestState = {
    ...newRequest(key, id, ctx.now, { ...from, idleDeadlineAt, maxDeadlineAt, idleHandle, maxHandle }),
    op: from.op ?? from.key,
    retryOf: from.key,
    retryKind: kind,
  };
  if (from.sideEffect !== undefined) req.sideEffect = from.sideEffect;
  if (from.idempotencyKey !== undefined) req.idempotencyKey = from.idempotencyKey;
  if (missing !== undefined) req.missingHeaders = missing;
  if (extra !== undefined) req.retryInput = Object.freeze(extra);
  from.op = from.op ?? from.key;
  from.retriedAs = key;
  state.views[state.indexOf[from.key]] = null;
  addRequest(state, req);
  state.touched = Object.freeze([from.key, key]);
  return req;
}

/**
 * After a broken response stream under 2026-07-28 (the old request already settled
 * `connection-closed`): re-issue it as a new request with `reissueId` or the next free integer id.
 */
export function reissueLost(state: RacesCore, lost: RequestState, reissueId: RequestId | undefined, ctx: Ctx): RequestState {
  const next = issueRetry(state, lost, reissueId ?? nextFreeId(state), 'reissue', ctx);
  const sameId = next.id === lost.id;
  const effect = lost.sideEffect ? (lost.idempotencyKey !== undefined ? ` It carries idempotency key ${JSON.stringify(lost.idempotencyKey)}, so a server that already executed it answers with the stored result.` : ' It changes the world and carries no idempotency key: if the first execution already happened, this one runs it a second time (the ledger lab\'s lost response).') : '';
  ctx.why(
    () => `The response stream of ${describeId(lost.id)} drops: that call fails with ${ERROR_CODES.connectionClosed} and, under 2026-07-28, the request is lost (no resumption; the server treats the close as cancellation), so the client re-issues the call as ${describeId(next.id)}${sameId ? ' — with the same id (bug: it MUST be a new one)' : ', a new request with a new id'}.${effect}`,
    'disconnect.2026',
  );
  return next;
}

/**
 * The scripted `input-required` event: the server answers a working `tools/call` with
 * `InputRequiredResult` (2026-07-28 MRTR); the request is over on both sides once it arrives.
 * Ignored under 2025-11-25 (no MRTR; servers sent elicitation/create as their own request, which
 * the lab does not draw), for listen streams, and for requests not working on the server.
 */
export function serverInputRequired(state: RacesCore, ev: Extract<RacesEvent, { kind: 'input-required' }>, ctx: Ctx): void {
  const { config } = state;
  const req = findLatest(state, ev.requestId);
  const why = (reason: string, rule: string) => {
    ctx.ignore(() => ({ by: 'server', what: `input-required ${describeId(ev.requestId)}`, reason, rule }));
    ctx.why(() => `The server cannot answer ${describeId(ev.requestId)} with InputRequiredResult: ${reason}.`, rule);
    touch(state, req ? req.self : NO_KEYS);
  };
  if (config.revision !== '2026-07-28') return why('MRTR exists from 2026-07-28; under 2025-11-25 a server sends elicitation/create as its own request', 'mrtr.2026-only');
  if (!req || req.server.state !== 'working') return why(!req ? 'the server never received a request with that id' : `the request is ${req.server.state}`, 'mrtr.retry-new-id');
  if (req.method !== 'tools/call') return why('only tools/call, resources/read and prompts/get may get InputRequiredResult', 'mrtr.retry-new-id');
  if (req.server.streamClosed) return why('its response stream is closed', 'mrtr.retry-new-id');
  const undeclared = config.clientElicitation === 'none';
  if (undeclared && !config.policy.inputRequestsUndeclared) return refuseUndeclaredInput(state, req, ctx);
  const s = req.server;
  const message = inputRequiredResponse(req.id, ev.inputKey, ev.message, ev.requestState);
  const arrivesAt = ctx.now + config.latencyMs.serverToClient;
  s.state = 'completed';
  s.atMs = ctx.now;
  s.responseSentAt = ctx.now;
  s.workEndedAt = ctx.now;
  req.inputRequest = ev.requestState !== undefined ? { inputKey: ev.inputKey, requestState: ev.requestState } : { inputKey: ev.inputKey };
  req.op = req.op ?? req.key;
  const http = config.transport === 'streamable-http';
  ctx.emit({ from: 'server', transport: config.transport, message, http: http ? 'SSE event with the InputRequiredResult; the server then closes the stream' : undefined, arrivesAt, requestKey: req.key });
  ctx.schedule(arrivesAt, RANK.arrival, 'client', `response ${req.key} arrives`, { kind: 'arrive.response', key: req.key, ok: true, inputRequired: true });
  if (req.client.responseFate === 'none') req.client.responseFate = 'in-flight';
  if (undeclared) {
    req.undeclaredInput = true;
    ctx.why(() => `The server needs the user's input for ${describeId(req.id)} and puts elicitation/create in inputRequests although the client declared no elicitation (bug: it MUST NOT); the client cannot answer it.`, 'mrtr.capabilities');
    return changed(state, req);
  }
  ctx.why(() => `The server needs the user's input for ${describeId(req.id)}: instead of sending elicitation/create as its own request, it answers with InputRequiredResult (inputRequests.${ev.inputKey}). This request is over; the client must retry the call with a new id.`, 'mrtr.retry-new-id');
  changed(state, req);
}

/**
 * The call `req` needs the user's confirmation, but its client declared no elicitation: the server
 * MUST NOT ask for it in `inputRequests` and answers -32021 MissingRequiredClientCapability with
 * `data.requiredCapabilities: { elicitation: { form: {} } }` (HTTP: 400 Bad Request); the tool does
 * not run. Sources: 2026-07-28 `basic/patterns/mrtr` ("Servers MUST NOT send an inputRequests that
 * the client has not declared support for in its capabilities"); `basic/index` (the -32021 MUST).
 */
function refuseUndeclaredInput(state: RacesCore, req: RequestState, ctx: Ctx): void {
  const { config } = state;
  const s = req.server;
  s.state = 'failed';
  s.atMs = ctx.now;
  s.responseSentAt = ctx.now;
  s.workEndedAt = ctx.now;
  const arrivesAt = ctx.now + config.latencyMs.serverToClient;
  const message = missingCapabilityResponse(req.id, { elicitation: { form: {} } }, 'Missing required client capability: elicitation (the tool needs the user\'s confirmation)');
  ctx.emit({ from: 'server', transport: config.transport, message, http: config.transport === 'streamable-http' ? 'HTTP 400 Bad Request with the JSON-RPC error' : undefined, arrivesAt, requestKey: req.key });
  ctx.schedule(arrivesAt, RANK.arrival, 'client', `response ${req.key} arrives`, { kind: 'arrive.response', key: req.key, ok: false });
  if (req.client.responseFate === 'none') req.client.responseFate = 'in-flight';
  ctx.why(() => `${describeId(req.id)} needs the user's confirmation, but the client declared no elicitation: the server may not ask for it, so it answers ${ERROR_CODES.missingRequiredClientCapability} MissingRequiredClientCapability (requiredCapabilities: elicitation) and the tool does not run.`, 'mrtr.capabilities');
  changed(state, req);
}

/** The client receives an `InputRequiredResult` for `req` (pending): that request settles `input-required`. */
export function clientInputRequired(state: RacesCore, req: RequestState, ctx: Ctx): void {
  const inputKey = req.inputRequest?.inputKey ?? 'input';
  clearDeadlines(req, ctx);
  req.client.responseFate = 'accepted';
  settle(req, ctx.now, 'input-required', `InputRequiredResult received at ${ctx.now} ms (inputRequests.${inputKey}): this request is over; retry the call with inputResponses under a new id`, 'mrtr.retry-new-id');
  ctx.why(() => `InputRequiredResult for ${describeId(req.id)} reaches the client: that request is finished; the client asks the user (${inputKey}) and will retry the original call as a new request.`, 'mrtr.retry-new-id');
  changed(state, req);
}

/** The client retries an `input-required` request with the user's answer in `inputResponses` (2026-07-28 MRTR). */
export function clientInputResponse(state: RacesCore, ev: Extract<RacesEvent, { kind: 'input-response' }>, ctx: Ctx): void {
  const req = findLatest(state, ev.requestId);
  if (!req || req.client.state !== 'input-required' || req.retriedAs !== undefined) {
    const reason = !req ? 'no request with that id' : req.retriedAs !== undefined ? `it was already retried as ${req.retriedAs}` : `the request is ${req.client.state}, not input-required`;
    ctx.ignore(() => ({ by: 'client', what: `input-response ${describeId(ev.requestId)}`, reason, rule: 'mrtr.retry-new-id' }));
    ctx.why(() => `Nothing to retry for ${describeId(ev.requestId)}: ${reason}.`, 'mrtr.retry-new-id');
    return touch(state, req ? req.self : NO_KEYS);
  }
  const inputKey = req.inputRequest?.inputKey ?? 'input';
  if (state.config.clientElicitation === 'none') {
    ctx.ignore(() => ({ by: 'client', what: `input-response ${describeId(ev.requestId)}`, reason: `the client supports no elicitation: it cannot answer inputRequests.${inputKey}`, rule: 'mrtr.capabilities' }));
    ctx.why(() => `The client declared no elicitation and cannot show inputRequests.${inputKey} to the user: ${describeId(req.id)} stays answered with a question nobody can answer, and the call never runs.`, 'mrtr.capabilities');
    return touch(state, req.self);
  }
  const next = issueRetry(state, req, ev.newRequestId ?? nextFreeId(state), 'mrtr', ctx, {
    inputResponses: { [inputKey]: elicitResult(ev.action) },
    ...(req.inputRequest?.requestState !== undefined ? { requestState: req.inputRequest.requestState } : {}),
  });
  ctx.why(
    () => `The user answers (${ev.action}); the client retries the original call with inputResponses.${inputKey}${req.inputRequest?.requestState !== undefined ? ' and the echoed requestState' : ''} as ${describeId(next.id)}${next.id === req.id ? ' — the same id (bug: the retry MUST use a new id)' : ', a new request'}.${req.sideEffect && req.idempotencyKey === undefined ? ' It carries no idempotency key: every further retry of this mutation is a new request to the server.' : ''}`,
    'mrtr.retry-new-id',
  );
}

/** The server answers `req` the moment it arrives (no work runs): received, answered and done at `now`. */
function answeredOnArrival(req: RequestState, state: 'completed' | 'failed', now: number): void {
  const s = req.server;
  s.state = state;
  s.atMs = now;
  s.receivedAt = now;
  s.responseSentAt = now;
  s.workEndedAt = now;
}

/**
 * When a keyed request reaches the server and its key already committed a result, the server
 * answers with the stored result (no second execution). Returns true when it did.
 */
export function answerFromLedger(state: RacesCore, req: RequestState, ctx: Ctx): boolean {
  if (req.idempotencyKey === undefined || state.ledger === undefined) return false;
  const entry = state.ledger[ledgerName(req)];
  if (entry === undefined || entry.result === null) return false;
  const { config } = state;
  answeredOnArrival(req, 'completed', ctx.now);
  req.server.dedupedAt = ctx.now;
  const arrivesAt = ctx.now + config.latencyMs.serverToClient;
  const http = config.transport === 'streamable-http';
  ctx.emit({ from: 'server', transport: config.transport, message: toolResultResponse(config.revision, req.id, entry.result, false), http: http ? 'SSE event with the stored result; the server then closes the stream' : undefined, arrivesAt, requestKey: req.key });
  ctx.schedule(arrivesAt, RANK.arrival, 'client', `response ${req.key} arrives`, { kind: 'arrive.response', key: req.key, ok: true });
  req.client.responseFate = 'in-flight';
  ctx.why(() => `${describeId(req.id)} carries idempotency key ${JSON.stringify(req.idempotencyKey)}, which already executed (${entry.by.join(', ')}): the server answers with the stored result and does not execute again.`, 'idempotency.key');
  changed(state, req);
  return true;
}

/** A side-effecting request's work completed on the server: one more execution in the ledger. */
export function recordExecution(state: RacesCore, req: RequestState, resultText: string): void {
  if (!req.sideEffect) return;
  const name = ledgerName(req);
  const old = state.ledger?.[name];
  const executions = (old?.executions ?? 0) + 1;
  setLedger(state, name, { executions, result: resultText, by: Object.freeze([...(old?.by ?? []), req.key]) });
  req.op = req.op ?? req.key;
  req.server.opExecutions = executions;
}

/**
 * 2026-07-28 HTTP: a request that lacks a required header (`Mcp-Name`, by the buggy
 * `policy.mcpNameHeaderOmitted`) is rejected with 400 Bad Request and -32020 HeaderMismatch.
 * Returns true when it was. Source: `basic/transports/streamable-http` Server Validation ("A
 * required standard header (`MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name`) is missing").
 */
export function rejectMissingHeaders(state: RacesCore, req: RequestState, ctx: Ctx): boolean {
  const missing = req.missingHeaders;
  if (missing === undefined || missing.length === 0) return false;
  const { config } = state;
  answeredOnArrival(req, 'failed', ctx.now);
  const arrivesAt = ctx.now + config.latencyMs.serverToClient;
  const text = `Header mismatch: required header ${missing.join(', ')} is missing`;
  ctx.emit({ from: 'server', transport: config.transport, message: errorResponse(req.id, ERROR_CODES.headerMismatch, text), http: 'HTTP 400 Bad Request with the JSON-RPC error', arrivesAt, requestKey: req.key });
  ctx.schedule(arrivesAt, RANK.arrival, 'client', `response ${req.key} arrives`, { kind: 'arrive.response', key: req.key, ok: false });
  req.client.responseFate = 'in-flight';
  ctx.why(() => `The POST for ${describeId(req.id)} lacks ${missing.join(', ')}: the server MUST reject it with 400 Bad Request and ${ERROR_CODES.headerMismatch} HeaderMismatch; the tool never runs.`, 'http.headers-2026');
  changed(state, req);
  return true;
}
