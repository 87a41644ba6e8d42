import type { Json } from '../types';
import { cancelledNotification, ERROR_CODES, errorResponse, idProblem, listenAcknowledgedNotification, listenResultResponse, progressNotification, toolResultResponse, type RequestId } from '../mcp';
import { answerFromLedger, recordExecution, rejectMissingHeaders } from './retry';
import type { RacesEvent } from './schema';
import { RANK, type RequestState, type ServerState } from './types';
import { byKey, changed, changedAt, describeId, findLatest, hotLabelsAt, latestIndex, NO_KEYS, serverEnded, TERMINAL_SERVER, touch, type Ctx, type RacesCore } from './state';
import { isSdk, sdkMajor, sdkServerIgnoresCancel } from './sdkProfile';
import { ignoredBySdk, sdkAbortsUncancellable } from './sdkClient';
import { receiveLoopDeadSince, receiveLoopDiesOnCancel, unreadCancel, unreadRequest } from './mechanics/receiveLoop';
import { strayProgressSent } from './mechanics/strayProgress';
import { hopArms, hopCutAt, hopDisarms, hopPassesProgress } from './mechanics/hop';
import { cancelInWriteWindow, deferWrite, inWriteWindow, requestToCrashedServer, serverCrashedSince } from './mechanics/writeWindow';
import { mark } from './mechanics/marks';
import { serverRejectsVersion } from './mechanics/versions';

/**
 * Server-side rules of the races model: receiving a request, the worker's progress, keep-alives,
 * completion and errors, a server's cancellation of a listen stream, and what the server does
 * with a cancellation notification or a closed response stream. Rules cited are in `rules.ts`.
 */

export function serverReceive(state: RacesCore, key: string, ctx: Ctx): void {
  const req = byKey(state, key);
  if (!req) return touch(state, NO_KEYS);
  if (req.server.streamClosed) return touch(state, NO_KEYS);
  const crashed = serverCrashedSince(state);
  if (crashed !== null && crashed <= ctx.now) return requestToCrashedServer(state, req, crashed, ctx);
  const dead = receiveLoopDeadSince(state);
  if (dead !== null && dead <= ctx.now) return unreadRequest(state, req, dead, ctx);
  if (req.op !== undefined && (rejectMissingHeaders(state, req, ctx) || answerFromLedger(state, req, ctx))) return;
  if (req.mech?.versionDeclared !== undefined && serverRejectsVersion(state, req, ctx)) return;
  const s = req.server;
  s.state = 'working';
  s.atMs = ctx.now;
  s.receivedAt = ctx.now;
  hopArms(state, req, ctx);
  if (req.method === 'subscriptions/listen') return openListen(state, req, ctx);
  if (ctx.keepsNotes) ctx.why(`The server receives ${describeId(req.id)} and starts the work.`);
  else ctx.why('');
  changed(state, req);
}

/**
 * The server opens the listen stream `req` and sends `notifications/subscriptions/acknowledged`
 * as its first message on it (on HTTP, the first SSE event of the listen stream). The buggy
 * `policy.listenAckOmitted` sends nothing (invariant `listen-acknowledged-first`). Source:
 * 2026-07-28 `basic/patterns/subscriptions` ("The server MUST send
 * notifications/subscriptions/acknowledged as the first message … and MUST NOT send any
 * notification on the subscription before it").
 */
function openListen(state: RacesCore, req: RequestState, ctx: Ctx): void {
  const { config } = state;
  if (config.policy.listenAckOmitted) {
    ctx.why(() => `The server opens listen stream ${describeId(req.id)} but sends no notifications/subscriptions/acknowledged first (bug): the client cannot tell an open subscription from a stalled one.`, 'listen.acknowledged-first');
    return changed(state, req);
  }
  const arrivesAt = ctx.now + config.latencyMs.serverToClient;
  const http = config.transport === 'streamable-http' ? 'the first SSE event of the listen stream' : undefined;
  ctx.emitWire('server', config.transport, listenAcknowledgedNotification(req.id), http, arrivesAt, req.key);
  req.server.listenAckAt = ctx.now;
  ctx.why(() => `The server opens listen stream ${describeId(req.id)} and acknowledges it first (notifications/subscriptions/acknowledged, subscriptionId ${describeId(req.id)}).`, 'listen.acknowledged-first');
  changed(state, req);
}

/**
 * The server tears down the open listen stream `req` (2026-07-28, either transport) with the
 * signal `config.listenTeardown` names: `notifications/cancelled` referencing the listen id (the
 * default, the cancellation page's MUST) or a successful `subscriptions/listen` result (the
 * subscriptions page's SHOULD); on HTTP the stream then closes. The buggy
 * `policy.listenTeardownSilent` sends nothing and the client's stream stays pending (invariant
 * `listen-teardown-signalled`). The two pages disagree: modelcontextprotocol#3348.
 */
function tearDownListen(state: RacesCore, req: RequestState, reason: string, ctx: Ctx): void {
  const { config } = state;
  const s = req.server;
  const http = config.transport === 'streamable-http';
  const s2cArrives = ctx.now + config.latencyMs.serverToClient;
  s.atMs = ctx.now;
  s.workEndedAt = ctx.now;
  if (config.policy.listenTeardownSilent) {
    s.state = 'cancelled';
    s.teardown = 'none';
    ctx.why(() => `The server tears down listen stream ${describeId(req.id)} and sends nothing (bug): the client's stream stays pending and cannot tell a teardown from a stall.`, 'cancel.server-listen-only');
    return changed(state, req);
  }
  if ((config.listenTeardown ?? 'notifications/cancelled') === 'listen-result') {
    s.state = 'completed';
    s.teardown = 'listen-result';
    ctx.emitWire('server', config.transport, listenResultResponse(req.id), http ? 'SSE event with the subscriptions/listen result; the server then closes the listen stream' : undefined, s2cArrives, req.key);
    ctx.schedule(s2cArrives, RANK.arrival, 'client', `response ${req.key} arrives`, { kind: 'arrive.response', key: req.key, ok: true });
    s.responseSentAt = ctx.now;
    if (req.client.responseFate === 'none') req.client.responseFate = 'in-flight';
    ctx.why(() => `The server ends listen stream ${describeId(req.id)} gracefully with a successful subscriptions/listen result (the subscriptions page's SHOULD; setting listenTeardown: listen-result).`, 'cancel.server-listen-only');
    return changed(state, req);
  }
  s.state = 'cancelled';
  s.teardown = 'notifications/cancelled';
  ctx.emit({ from: 'server', transport: config.transport, message: cancelledNotification(req.id, reason), http: http ? 'SSE event on the listen stream; the server then closes it' : undefined, arrivesAt: s2cArrives, requestKey: req.key });
  ctx.schedule(s2cArrives, RANK.arrival, 'client', `server cancel ${req.key} arrives`, { kind: 'arrive.server-cancel', key: req.key });
  ctx.why(() => `The server tears down listen stream ${describeId(req.id)} with notifications/cancelled — the only request a server may cancel (the cancellation page's MUST, the default reading).`, 'cancel.server-listen-only');
  changed(state, req);
}

export function serverWorkEvent(
  state: RacesCore,
  ev: Extract<RacesEvent, { kind: 'progress' | 'keepalive' | 'complete' | 'error' | 'server-cancel' }>,
  ctx: Ctx,
): void {
  const index = latestIndex(state, ev.requestId);
  const req = index < 0 ? undefined : state.requests[index];
  const { config } = state;
  if (!req || req.server.state === 'not-received') {
    const reason = req ? 'the request has not reached the server yet' : 'the server never received a request with that id';
    ctx.ignore(() => ({ by: 'server', what: `${ev.kind} ${describeId(ev.requestId)}`, reason }));
    ctx.why(() => `The server cannot ${ev.kind} ${describeId(ev.requestId)}: ${reason}.`);
    return touch(state, req ? req.self : NO_KEYS);
  }
  const s = req.server;
  const serverState = s.state;
  const ended = serverEnded(serverState);
  const s2cArrives = ctx.now + config.latencyMs.serverToClient;
  const http = config.transport === 'streamable-http';

  if (ev.kind === 'progress') {
    if (ended && config.policy.progressAfterResult && serverState !== 'cancelled' && req.wireToken !== null) return strayProgressSent(state, req, ev, ctx);
    if (ended) {
      const rule = serverState === 'cancelled' ? 'cancel.receiver-stops' : 'progress.after-end';
      ctx.ignore(() => ({ by: 'server', what: `progress ${ev.progress} for ${req.key}`, reason: `the request already ended (${serverState})`, rule }));
      ctx.why(() => `The worker would report progress ${ev.progress}, but ${describeId(req.id)} is ${serverState}: no notification goes out.`, rule);
      return touch(state, req.self);
    }
    // Only real advances count as the worker being alive (the value must increase).
    if (s.lastProgressValue === null || ev.progress > s.lastProgressValue) {
      s.lastWorkerProgressAt = ctx.now;
      s.lastProgressValue = ev.progress;
    }
    if (req.wireToken === null) {
      ctx.ignore(() => ({ by: 'server', what: `progress ${ev.progress} for ${req.key}`, reason: 'the request carried no progressToken', rule: 'progress.needs-token' }));
      ctx.why(() => `The worker makes progress (${ev.progress}) but the request carried no progressToken, so the server cannot report it: the client hears nothing.`, 'progress.needs-token');
      return changed(state, req);
    }
    const cutAt = hopCutAt(req);
    if (cutAt !== null) {
      ctx.ignore(() => ({ by: 'server', what: `progress ${ev.progress} for ${req.key}`, reason: `the hop cut the call at ${cutAt} ms and forwards nothing more for it`, rule: 'mech.hop' }));
      ctx.why(() => `The worker reports progress ${ev.progress}, but the hop cut ${describeId(req.id)} at ${cutAt} ms: it goes no further.`, 'mech.hop');
      return changed(state, req);
    }
    const message = progressNotification(req.wireToken, ev.progress, ev.total, ev.message);
    ctx.emitWire('server', config.transport, message, http ? 'SSE event on the request\'s response stream' : undefined, s2cArrives, req.key);
    ctx.schedule(s2cArrives, RANK.arrival, 'client', hotLabelsAt(state, index, req).progressArrives, { kind: 'arrive.progress', key: req.key, i: index, progress: ev.progress });
    const viaHop = req.mech?.hopIdleHandle !== undefined ? hopPassesProgress(state, req, ctx) : '';
    if (ctx.keepsNotes) ctx.why(`The server reports progress ${ev.progress}${ev.total !== null ? `/${ev.total}` : ''} for ${describeId(req.id)}.${viaHop}`, viaHop !== '' ? 'mech.hop' : 'progress.resets-idle');
    else ctx.why('', viaHop !== '' ? 'mech.hop' : 'progress.resets-idle');
    return changedAt(state, index, req);
  }

  if (ev.kind === 'keepalive') {
    if (!http) {
      ctx.ignore(() => ({ by: 'server', what: `keep-alive for ${req.key}`, reason: 'stdio has no SSE stream', rule: 'transport.no-sse-on-stdio' }));
      ctx.why('stdio has no SSE stream, so there is no keep-alive comment to send.', 'transport.no-sse-on-stdio');
      return touch(state, req.self);
    }
    if (ended || s.streamClosed) {
      ctx.ignore(() => ({ by: 'server', what: `keep-alive for ${req.key}`, reason: 'the stream is closed', rule: 'sse.keepalive' }));
      ctx.why('The stream is closed; no keep-alive goes out.', 'sse.keepalive');
      return touch(state, req.self);
    }
    ctx.emit({ from: 'server', transport: config.transport, http: 'SSE comment line ": keep-alive" (not a JSON-RPC message)', arrivesAt: s2cArrives, requestKey: req.key });
    ctx.schedule(s2cArrives, RANK.arrival, 'client', `keep-alive ${req.key} arrives`, { kind: 'arrive.keepalive', key: req.key });
    ctx.why('The server writes an SSE comment to keep proxies from closing the quiet stream.', 'sse.keepalive');
    return touch(state, req.self);
  }

  if (ev.kind === 'server-cancel') {
    const isListen = req.method === 'subscriptions/listen';
    if (!(config.revision === '2026-07-28' && isListen)) {
      const reason = !isListen
        ? 'a server never cancels the client\'s requests with notifications/cancelled'
        : 'subscriptions/listen does not exist in 2025-11-25';
      ctx.ignore(() => ({ by: 'server', what: `server-cancel ${req.key}`, reason, rule: 'cancel.server-listen-only' }));
      ctx.why(() => `The server does not send notifications/cancelled for ${describeId(req.id)}: ${reason}.`, 'cancel.server-listen-only');
      return touch(state, req.self);
    }
    if (ended) {
      ctx.ignore(() => ({ by: 'server', what: `server-cancel ${req.key}`, reason: 'the listen stream already ended', rule: 'cancel.server-listen-only' }));
      ctx.why('The listen stream already ended; there is nothing to tear down.', 'cancel.server-listen-only');
      return touch(state, req.self);
    }
    return tearDownListen(state, req, ev.reason, ctx);
  }

  // complete | error
  const ok = ev.kind === 'complete';
  if (serverState === 'cancelled' && config.policy.respondAfterCancel && s.responseSentAt === null) {
    const message = ok ? toolResultResponse(config.revision, req.id, ev.text, ev.isError) : errorResponse(req.id, ev.code, ev.message);
    if (s.streamClosed) {
      // 2026-07-28 Streamable HTTP: the client cancelled by closing the request's response stream, the only
      // stream that response may travel on ("the server MUST send the response on the same stream"): it goes nowhere.
      ctx.emit({ from: 'server', transport: config.transport, message, http: 'written to the response stream the client already closed (its cancellation): it reaches nobody', requestKey: req.key });
      s.responseSentAt = ctx.now;
      req.client.responseFate = 'undeliverable';
      ctx.why(() => `The server accepted the cancellation of ${describeId(req.id)} at ${s.cancelAcceptedAt} ms yet still writes a response (bug); the client closed that stream as its cancellation, so the response reaches nobody.`, 'cancel.receiver-stops');
      return changed(state, req);
    }
    ctx.emit({ from: 'server', transport: config.transport, message, http: http ? 'SSE event on a stream the client already closed' : undefined, arrivesAt: s2cArrives, requestKey: req.key });
    ctx.schedule(s2cArrives, RANK.arrival, 'client', `response ${req.key} arrives`, { kind: 'arrive.response', key: req.key, ok: ok && !ev.isError });
    s.responseSentAt = ctx.now;
    ctx.why(() => `The server accepted the cancellation of ${describeId(req.id)} at ${s.cancelAcceptedAt} ms yet still sends a response (bug).`, 'cancel.receiver-stops');
    if (req.client.responseFate === 'none') req.client.responseFate = 'in-flight';
    return changed(state, req);
  }
  if (ended) {
    const rule = serverState === 'cancelled' ? 'cancel.receiver-stops' : undefined;
    const reason = serverState === 'cancelled' ? `the request was cancelled at ${s.cancelAcceptedAt} ms; no response is sent` : `the request already ended (${serverState})`;
    ctx.ignore({ by: 'server', what: `${ev.kind} ${req.key}`, reason, rule });
    ctx.why(() => (serverState === 'cancelled' ? `The work would finish now, but ${describeId(req.id)} was cancelled first: the response is suppressed.` : `${describeId(req.id)} already ended; nothing more is sent.`), rule);
    return touch(state, req.self);
  }
  const isListen = req.method === 'subscriptions/listen';
  const message = ok
    ? isListen
      ? listenResultResponse(req.id)
      : toolResultResponse(config.revision, req.id, ev.text, ev.isError)
    : errorResponse(req.id, ev.code, ev.message);
  const nextState: ServerState = ok ? 'completed' : 'failed';
  if (ok && req.sideEffect) recordExecution(state, req, ev.text);
  s.state = nextState;
  s.atMs = ctx.now;
  s.workEndedAt = ctx.now;
  const isError = ok && ev.isError;
  if (ev.kind === 'complete' && ev.resultBytes !== undefined) mark(req, { resultBytes: ev.resultBytes });
  const writeDelayMs = ev.kind === 'complete' ? (ev.writeDelayMs ?? 0) : 0;
  if (writeDelayMs > 0) return deferWrite(state, req, message, ok, isError, ctx.now + writeDelayMs, ctx);
  writeResponse(state, req, message, ok, isError, ctx);
}

/**
 * The server writes the final response `message` of `req` (at once, or after its handler's write
 * window): to the client, or nowhere when the response stream is closed or a hop already cut the call.
 */
export function writeResponse(state: RacesCore, req: RequestState, message: Json, ok: boolean, isError: boolean, ctx: Ctx): void {
  const { config } = state;
  const s = req.server;
  const http = config.transport === 'streamable-http';
  s.responseSentAt = ctx.now;
  hopDisarms(req, ctx);
  if (s.streamClosed) {
    ctx.emit({ from: 'server', transport: config.transport, message, http: 'the response stream is already closed: nowhere to write the response', requestKey: req.key });
    req.client.responseFate = 'undeliverable';
    ctx.why(() =>
      config.revision === '2025-11-25'
        ? `The work on ${describeId(req.id)} finishes, but its response stream was dropped and a 2025-11-25 disconnect is not a cancellation: the work ran to the end for nobody.`
        : `The uncancellable work on ${describeId(req.id)} finishes, but its response stream is closed: the result has nowhere to go.`,
    config.revision === '2025-11-25' ? 'disconnect.2025' : 'disconnect.2026');
    return changed(state, req);
  }
  const cutAt = hopCutAt(req);
  if (cutAt !== null) {
    ctx.emit({ from: 'server', transport: config.transport, message, http: http ? 'SSE event to the hop, which already answered the client: dropped there' : undefined, requestKey: req.key });
    req.client.responseFate = 'undeliverable';
    ctx.why(() => `The uncancellable work on ${describeId(req.id)} finishes and the server sends its response, but the hop cut the call at ${cutAt} ms and already answered the client: the hop drops it.`, 'mech.hop');
    return changed(state, req);
  }
  const s2cArrives = ctx.now + config.latencyMs.serverToClient;
  ctx.emitWire('server', config.transport, message, http ? 'SSE event with the final response; the server then closes the stream' : undefined, s2cArrives, req.key);
  ctx.schedule(s2cArrives, RANK.arrival, 'client', `response ${req.key} arrives`, { kind: 'arrive.response', key: req.key, ok: ok && !isError });
  if (req.client.responseFate === 'none') req.client.responseFate = 'in-flight';
  req.client.isError = isError;
  const bytes = req.mech?.resultBytes;
  ctx.why(() => `The server finishes ${describeId(req.id)} and sends its final ${ok ? (isError ? 'result (isError: true)' : 'result') : `error ${(message as { error?: { code?: number } }).error?.code}`}${bytes !== undefined ? `: one ${bytes}-byte line` : ''}.`, 'cancel.complete-first');
  changed(state, req);
}

/** Server handling of a cancellation notification (well-formed or not). */
export function serverCancelNotification(state: RacesCore, message: Json, posted: boolean, ctx: Ctx): void {
  const { config } = state;
  const what = 'notifications/cancelled';
  const malformed = (reason: string) => {
    ctx.ignore({ by: 'server', what, reason, rule: 'cancel.ignore-invalid' });
    ctx.why(() => `The server ignores a cancellation: ${reason} (fire and forget).`, 'cancel.ignore-invalid');
    touch(state, NO_KEYS);
  };
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return malformed('the message is not a JSON object');
  const dead = receiveLoopDeadSince(state);
  if (dead !== null) return unreadCancel(state, dead, ctx);
  const major = sdkMajor(config);
  const sdkIgnores = major !== null ? sdkServerIgnoresCancel(message, major) : null;
  if (sdkIgnores !== null) return ignoredBySdk(state, sdkIgnores, ctx);
  if ('id' in message && message.method === 'notifications/cancelled') return answerMethodNotFound(state, message, ctx);
  if (message.jsonrpc !== '2.0') return malformed(message.jsonrpc === undefined ? 'jsonrpc is missing (it must be "2.0")' : `jsonrpc is ${JSON.stringify(message.jsonrpc)}, not "2.0"`);
  if (message.method !== 'notifications/cancelled') return malformed(`unsupported method ${JSON.stringify(message.method) ?? '(none)'}`);
  const params = message.params;
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return malformed('params is missing or not an object');
  const rawId = (params as Record<string, Json>).requestId;
  const problem = idProblem(rawId);
  if (problem !== null) return malformed(`requestId is ${problem}, not a string or an integer`);
  const reason = (params as Record<string, Json>).reason;
  if (reason !== undefined && typeof reason !== 'string') return malformed(`reason is ${JSON.stringify(reason)}, not a string`);
  if (config.transport === 'streamable-http' && config.revision === '2026-07-28') return ignorePostedCancel(state, rawId, ctx);
  const req = findLatest(state, rawId);
  if (!req || req.server.state === 'not-received') {
    ctx.ignore(() => ({ by: 'server', what: `${what} ${describeId(rawId)}`, reason: 'unknown request id', rule: 'cancel.ignore-invalid' }));
    ctx.why(() => `The server has no request ${describeId(rawId)}: the cancellation is ignored.`, 'cancel.ignore-invalid');
    return touch(state, req ? req.self : NO_KEYS);
  }
  if (inWriteWindow(req, ctx.now)) return cancelInWriteWindow(state, req, ctx);
  const s = req.server;
  const serverState = s.state;
  if (TERMINAL_SERVER.has(serverState)) {
    const done = serverState === 'cancelled' ? 'was already cancelled' : `already ${serverState} at ${s.atMs} ms`;
    const rule = serverState === 'cancelled' ? 'cancel.ignore-invalid' : 'cancel.complete-first';
    ctx.ignore({ by: 'server', what: `${what} ${req.key}`, reason: `the request ${done}`, rule });
    ctx.why(() =>
      serverState === 'cancelled'
        ? `A second cancellation for ${describeId(req.id)} arrives; it was already cancelled. Ignored.`
        : `The cancellation for ${describeId(req.id)} arrives after the server ${serverState === 'completed' ? 'completed it' : 'finished it'}: the response stands and the late cancel is ignored.`,
    rule);
    return touch(state, req.self);
  }
  if (!req.cancellable && !isSdk(config)) {
    ctx.ignore({ by: 'server', what: `${what} ${req.key}`, reason: 'this work cannot be stopped; the receiver MAY ignore the cancellation', rule: 'cancel.ignore-invalid' });
    ctx.why(() => `The server cannot stop ${describeId(req.id)} (uncancellable work) and ignores the cancellation: its response will still come, and the client must drop it.`, 'cancel.ignore-invalid');
    return touch(state, req.self);
  }
  s.state = 'cancelled';
  s.atMs = ctx.now;
  s.cancelAcceptedAt = ctx.now;
  s.workEndedAt = ctx.now;
  if (!req.cancellable) return sdkAbortsUncancellable(state, req, ctx); // only under the SDK profile (checked above)
  const via = posted ? ' (POSTed over HTTP)' : '';
  const unexpected = posted && config.revision === '2026-07-28' ? ' Under 2026-07-28 this POST is not expected: closing the stream was the signal.' : '';
  ctx.why(() => `The server accepts the cancellation of ${describeId(req.id)}${via}: it stops the work and will send no response.${unexpected}`, 'cancel.receiver-stops');
  changed(state, req);
  if (config.policy.receiveLoopDiesOnCancel) receiveLoopDiesOnCancel(state, req, ctx);
}

/**
 * A `notifications/cancelled` carrying an `id` is a request for a method the server does not
 * have: it answers JSON-RPC -32601 Method not found (2026-07-28 HTTP: with 404 Not Found) and
 * cancels nothing. Sources: JSON-RPC 2.0 §4 and §5.1; 2026-07-28 `basic/index` ("Notifications
 * MUST NOT include an ID"); `basic/transports/streamable-http` ("If the server does not implement
 * the requested RPC method, it MUST respond with 404 Not Found and a JSON-RPC error with code -32601").
 */
function answerMethodNotFound(state: RacesCore, message: Record<string, Json>, ctx: Ctx): void {
  const { config } = state;
  const id = message.id;
  ctx.ignore({ by: 'server', what: 'notifications/cancelled', reason: 'it carries an id, so it is a request, not a notification: nothing is cancelled', rule: 'cancel.malformed' });
  if (idProblem(id) !== null) {
    ctx.why(() => `The server ignores a cancellation with an invalid id ${describeId(id)}: not a notification, and no answerable request.`, 'cancel.malformed');
    return touch(state, NO_KEYS);
  }
  const http = config.transport === 'streamable-http' ? (config.revision === '2026-07-28' ? 'HTTP 404 Not Found with the JSON-RPC error' : 'the POST is answered with the JSON-RPC error') : undefined;
  ctx.emit({ from: 'server', transport: config.transport, message: errorResponse(id as RequestId, ERROR_CODES.methodNotFound, 'Method not found'), http, arrivesAt: ctx.now + config.latencyMs.serverToClient });
  ctx.why(() => `A notifications/cancelled with an id (${describeId(id)}) is a request: the server answers ${ERROR_CODES.methodNotFound} Method not found and the work goes on.`, 'cancel.malformed');
  touch(state, NO_KEYS);
}

/**
 * Under 2026-07-28 on Streamable HTTP a POSTed `notifications/cancelled` is not the cancellation
 * signal (closing the request's stream is): the server leaves the request alone. Sources:
 * `basic/transports/streamable-http` ("This revision of the core protocol defines no
 * client-to-server notifications over Streamable HTTP. The only client-sent notification in the
 * core protocol, `notifications/cancelled`, is used only on the stdio transport"); `basic/patterns/cancellation`.
 */
function ignorePostedCancel(state: RacesCore, rawId: Json, ctx: Ctx): void {
  const req = findLatest(state, rawId);
  ctx.ignore(() => ({ by: 'server', what: `notifications/cancelled ${describeId(rawId)}`, reason: 'under 2026-07-28 a POSTed notifications/cancelled is not the cancellation signal on Streamable HTTP; closing the stream is', rule: 'cancel.http-2026-no-notification' }));
  ctx.why(() => `A notifications/cancelled for ${describeId(rawId)} is POSTed, but on Streamable HTTP under 2026-07-28 only closing the response stream cancels: the server ignores it${req && req.server.state === 'working' ? ' and the work goes on' : ''}.`, 'cancel.http-2026-no-notification');
  touch(state, req ? req.self : NO_KEYS);
}

export function serverStreamClose(state: RacesCore, key: string, cause: 'cancel' | 'network', ctx: Ctx): void {
  const req = byKey(state, key);
  if (!req) return touch(state, NO_KEYS);
  const { config } = state;
  const s = req.server;
  const serverState = s.state;
  s.streamClosed = true;
  if (TERMINAL_SERVER.has(serverState)) {
    ctx.ignore({ by: 'server', what: `stream close ${req.key}`, reason: `the request already ended (${serverState})`, rule: 'cancel.complete-first' });
    ctx.why(() => `The client's stream close for ${describeId(req.id)} reaches the server after it already ${serverState === 'cancelled' ? 'cancelled' : 'finished'}; nothing changes.`, 'cancel.complete-first');
    return changed(state, req);
  }
  if (config.revision === '2026-07-28' && !req.cancellable && !isSdk(config)) {
    ctx.ignore({ by: 'server', what: `stream close ${req.key}`, reason: 'this work cannot be stopped', rule: 'cancel.ignore-invalid' });
    ctx.why(() => `The stream of ${describeId(req.id)} closed; the server cannot stop the work, and has nowhere left to send its result.`, 'cancel.http-2026');
    return changed(state, req);
  }
  if (config.revision === '2026-07-28') {
    s.state = 'cancelled';
    s.atMs = ctx.now;
    s.cancelAcceptedAt = ctx.now;
    s.workEndedAt = ctx.now;
    ctx.why(() => `The server sees ${describeId(req.id)}'s response stream close${cause === 'network' ? ' (a network drop)' : ''} and, under 2026-07-28, treats it as cancellation: the work stops, no further messages.`, 'cancel.http-2026');
    if (!req.cancellable) return sdkAbortsUncancellable(state, req, ctx); // only under an SDK profile (checked above)
    return changed(state, req);
  }
  ctx.ignore({ by: 'server', what: `stream close ${req.key}`, reason: 'under 2025-11-25 a disconnect is not a cancellation', rule: 'disconnect.2025' });
  ctx.why(() => `The response stream of ${describeId(req.id)} closed, but under 2025-11-25 a disconnect SHOULD NOT be read as cancellation: the work goes on.`, 'disconnect.2025');
  changed(state, req);
}
