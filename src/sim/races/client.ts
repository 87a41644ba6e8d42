import type { Json } from '../types';
import { callToolRequest, declaringVersion, ERROR_CODES, idProblem, listenRequest, POST_OPENS_STREAM, postLine, requestHeaders2026, type RequestId } from '../mcp';
import { clientInputRequired, racesClientCapabilities, reissueLost } from './retry';
import type { RacesEvent } from './schema';
import { idKey, RANK, type RequestState } from './types';
import {
  addRequest,
  newRequest,
  byKey,
  changed,
  changedAt,
  clearDeadlines,
  describeId,
  findLatest,
  firstPendingIndex,
  hotLabelsAt,
  NO_KEYS,
  sendCancelSignal,
  settle,
  signalRule,
  signalText,
  touch,
  type Ctx,
  type RacesCore,
} from './state';
import { isSdk, isSdkV1, sdkIdleTimeoutMs, sdkMajor, sdkIdleTimeoutRules, sdkStaleIdleTimer, sdkTimeoutCancelReason } from './sdkProfile';
import { sdkAbortAfterEnd, sdkClientProgress, sdkLostOnCutStream, sdkStaleIdleFires, sdkV2StreamCut } from './sdkClient';
import { clientReconnectsOnLateResponse, hostTearsDown } from './mechanics/strayProgress';
import { silentResend } from './mechanics/silentRetry';
import { countArrival, ignoreDuplicate } from './mechanics/writeWindow';
import { callOnClosedTransport, cancelEndsProcess, cancelKillsProcess, processKilledSince } from './mechanics/cancelKill';
import { callAfterPrefixStop, largeResponseBytes, prefixLimitStoppedAt, readLargeResponse } from './mechanics/stdioLimit';
import { mark } from './mechanics/marks';
import { clientVersionRejected, currentVersion, versionsApply } from './mechanics/versions';
import { claimQueued, framedUnread, framesWithContentLength, pairsByReadOrder, readInOrder } from './mechanics/firstRead';

/**
 * Client-side rules of the races model (the caller's view of each request): start, cancel,
 * disconnect, raw injection, idle and maximum deadlines, and what the client does with progress,
 * keep-alives, responses and a server's cancellation as they arrive. Rules cited are in `rules.ts`.
 * Notes (`ctx.why`) read only values the step has not changed yet, or locals.
 */

export function clientStart(state: RacesCore, ev: Extract<RacesEvent, { kind: 'start' }>, ctx: Ctx): void {
  const { config } = state;
  const reject = (why: string, rule: string) => {
    ctx.ignore({ by: 'client', what: `start ${describeId(ev.requestId)}`, reason: why, rule });
    ctx.why(() => `Rejected before sending: ${why}.`, rule);
    touch(state, NO_KEYS);
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
    const tokenKey = idKey(token);
    let clash: RequestState | undefined;
    const requests = state.requests;
    for (let i = firstPendingIndex(state); i < requests.length; i++) {
      const r = requests[i];
      if (r.client.state === 'pending' && r.progressToken !== null && idKey(r.progressToken) === tokenKey) {
        clash = r;
        break;
      }
    }
    if (clash) return reject(`progressToken ${describeId(token)} is already in use by active request ${describeId(clash.id)}`, 'progress.token');
  }
  if (ev.method === 'subscriptions/listen' && config.revision !== '2026-07-28') {
    return reject('subscriptions/listen does not exist in 2025-11-25 (the GET stream does that job)', 'listen.2026-only');
  }
  const isListen = ev.method === 'subscriptions/listen';
  const sdk = isSdk(config);
  const idle = isListen ? null : sdk ? sdkIdleTimeoutMs(ev.idleTimeoutMs) : ev.idleTimeoutMs;
  const max = isListen ? null : ev.maxTimeoutMs;
  if (idle !== null && max === null && !sdk) {
    return reject(`idleTimeoutMs is ${idle} ms but maxTimeoutMs is missing — a maximum timeout must cover the idle timeout, or progress could keep the call alive forever`, 'timeout.must-cover');
  }
  const instance = prev ? state.requests.filter((r) => r.id === id).length + 1 : 1;
  const key = instance === 1 ? idKey(id) : `${idKey(id)}#${instance}`;
  const wireToken = config.policy.progressTokenOmitted ? null : token;

  let idleHandle = -1;
  let maxHandle = -1;
  const maxDeadlineAt = max === null ? null : ctx.now + max;
  const idleDeadlineAt = idle === null ? null : ctx.now + idle;
  const killedAt = config.policy.cancelKillsServerProcess ? processKilledSince(state) : null;
  if (killedAt !== null) {
    return callOnClosedTransport(state, key, id, killedAt, { method: ev.method, tool: ev.tool, cancellable: ev.cancellable, progressToken: token, wireToken, idleTimeoutMs: idle, maxTimeoutMs: max, idleDeadlineAt, maxDeadlineAt, idleHandle, maxHandle }, ctx);
  }
  const stoppedAt = config.policy.limitCheckedOnPrefix ? prefixLimitStoppedAt(state) : null;
  if (stoppedAt !== null) {
    return callAfterPrefixStop(state, key, id, stoppedAt, { method: ev.method, tool: ev.tool, cancellable: ev.cancellable, progressToken: token, wireToken, idleTimeoutMs: idle, maxTimeoutMs: max, idleDeadlineAt, maxDeadlineAt, idleHandle, maxHandle }, ctx);
  }
  const enforceMaxByTimer = !config.policy.idleTimeoutOnly && !config.policy.maximumCheckedOnProgress && !sdk;
  if (maxDeadlineAt !== null && enforceMaxByTimer) {
    maxHandle = ctx.schedule(maxDeadlineAt, RANK.maxDeadline, 'client', `maximum deadline ${key}`, { kind: 'deadline.max', key });
  }
  if (idleDeadlineAt !== null) {
    idleHandle = ctx.schedule(idleDeadlineAt, RANK.idleDeadline, 'client', `idle deadline ${key}`, { kind: 'deadline.idle', key });
  }

  const idempotencyKey = ev.idempotencyKey !== undefined && !config.policy.idempotencyKeyOmitted && !isListen ? ev.idempotencyKey : undefined;
  const clientCapabilities = racesClientCapabilities(config);
  const built = isListen ? listenRequest(id, clientCapabilities) : callToolRequest(config.revision, id, ev.tool, wireToken, idempotencyKey !== undefined ? { idempotencyKey, clientCapabilities } : { clientCapabilities });
  const version = config.protocolVersions !== undefined && versionsApply(state) ? currentVersion(state) : null;
  const message = version !== null && version !== config.revision ? declaringVersion(built, version) : built;
  const arrivesAt = ctx.now + config.latencyMs.clientToServer;
  const onHttp = config.transport === 'streamable-http';
  const http2026 = onHttp && config.revision === '2026-07-28';
  const omitName = http2026 && !isListen && config.policy.mcpNameHeaderOmitted;
  const headers = http2026 ? requestHeaders2026(message, omitName) : undefined;
  const http = onHttp ? postLine(config.revision, headers, POST_OPENS_STREAM) : undefined;
  const contentLength = framesWithContentLength(state);
  ctx.emit({ from: 'client', transport: config.transport, message, http, headers, arrivesAt, requestKey: key, ...(contentLength ? { malformed: true } : {}) });
  if (!contentLength) ctx.schedule(arrivesAt, RANK.arrival, 'server', `request ${key} arrives`, { kind: 'arrive.request', key });

  const req = newRequest(key, id, ctx.now, { method: ev.method, tool: ev.tool, cancellable: ev.cancellable, progressToken: token, wireToken, idleTimeoutMs: idle, maxTimeoutMs: max, idleDeadlineAt, maxDeadlineAt, idleHandle, maxHandle });

  if (ev.sideEffect !== undefined || ev.idempotencyKey !== undefined || omitName) {
    req.op = key;
    if (ev.sideEffect !== undefined) req.sideEffect = ev.sideEffect;
    if (idempotencyKey !== undefined) req.idempotencyKey = idempotencyKey;
    if (omitName) req.missingHeaders = Object.freeze(['Mcp-Name']);
  }
  ctx.why(() => {
    const parts: string[] = [`Client sends ${ev.method} ${describeId(id)}`];
    if (version !== null) parts.push(`declaring protocol version ${JSON.stringify(version)}`);
    if (idempotencyKey !== undefined) parts.push(`with idempotency key ${JSON.stringify(idempotencyKey)}`);
    else if (ev.idempotencyKey !== undefined) parts.push('without its idempotency key (bug: key omitted)');
    if (omitName) parts.push('without the Mcp-Name header (bug)');
    if (token !== null && wireToken === null) parts.push(`without its progressToken (bug: token omitted), so progress can never reset the idle clock`);
    else if (wireToken !== null) parts.push(`with progressToken ${describeId(wireToken)}`);
    if (idle !== null) parts.push(`idle timeout ${idle} ms (deadline ${idleDeadlineAt}${sdk && ev.idleTimeoutMs === null ? ': the TypeScript SDK v1 default, always armed' : ''})`);
    if (max !== null) parts.push(`maximum ${max} ms (deadline ${maxDeadlineAt}${enforceMaxByTimer ? '' : config.policy.idleTimeoutOnly ? ', ignored: idle-only bug' : sdk ? ', no timer: TypeScript SDK v1 checks it only when progress resets the idle timer' : ', checked only on progress: bug'})`);
    if (idle === null && max === null && !isListen) parts.push('and no timeout at all');
    if (idle !== null && max !== null && max < idle) parts.push(`— note: the maximum is shorter than idle, so the idle timeout can never fire first`);
    return parts.join(', ') + '.';
  }, sdk && !isListen && idle !== null && max === null && ev.idleTimeoutMs !== null ? 'sdk.maximum-optional' : token !== null ? 'progress.resets-idle' : 'timeout.idle');

  if (sdk && !isListen && ev.idleTimeoutMs === null) req.sdkDefaultIdle = true;
  if (version !== null) mark(req, { versionDeclared: version });
  addRequest(state, req);
  if (contentLength) framedUnread(req, ctx);
  else if (state.readQueue !== undefined && pairsByReadOrder(state)) claimQueued(state, req, ctx);
}

export function clientCancel(state: RacesCore, ev: Extract<RacesEvent, { kind: 'cancel' }>, ctx: Ctx): void {
  const req = findLatest(state, ev.requestId);
  if (!req) {
    ctx.ignore(() => ({ by: 'client', what: `cancel ${describeId(ev.requestId)}`, reason: 'no request with that id was started', rule: 'cancel.ignore-invalid' }));
    ctx.why(() => `The user asks to cancel ${describeId(ev.requestId)}, but the client never started it: nothing to cancel.`, 'cancel.ignore-invalid');
    return touch(state, NO_KEYS);
  }
  if (req.client.state !== 'pending' && req.client.cancelRequestedAt === null && isSdkV1(state.config)) return sdkAbortAfterEnd(state, req, ev.reason, ctx);
  if (req.client.state !== 'pending' || req.client.cancelRequestedAt !== null) {
    const already = req.client.cancelRequestedAt !== null ? 'a cancellation was already sent' : `the call already ended ${req.client.state} at ${req.client.atMs} ms`;
    ctx.ignore({ by: 'client', what: `cancel ${req.key}`, reason: already, rule: 'cancel.ignore-invalid' });
    ctx.why(() => `The user clicks cancel on ${describeId(req.id)}, but ${already}: the client sends nothing.`, 'cancel.ignore-invalid');
    return touch(state, req.self);
  }
  const { config } = state;
  if (config.policy.cancelKillsServerProcess && cancelEndsProcess(state)) return cancelKillsProcess(state, req, ev.reason, ctx);
  sendCancelSignal(state, req, ev.reason, ctx, ev.malformed);
  if (ev.malformed !== undefined && (config.transport === 'stdio' || config.revision === '2025-11-25' || config.policy.httpPostsCancel)) req.malformedCancel = ev.malformed;
  req.client.cancelRequestedAt = ctx.now;
  if (config.policy.clientNeverSettles) {
    ctx.why(() => `The client ${signalText(config)} for ${describeId(req.id)} but leaves its own call pending (bug: never settles) — the caller hangs.`, 'cancel.settle');
    return changed(state, req);
  }
  clearDeadlines(req, ctx);
  settle(req, ctx.now, 'cancelled', `cancelled by the caller at ${ctx.now} ms; the client ${signalText(config)}`, signalRule(config));
  ctx.why(() => `The caller cancels ${describeId(req.id)}: the call settles as cancelled now and the client ${signalText(config)}.`, signalRule(config));
  changed(state, req);
}

export function clientDisconnect(state: RacesCore, ev: Extract<RacesEvent, { kind: 'disconnect' }>, ctx: Ctx): void {
  const req = findLatest(state, ev.requestId);
  const { config } = state;
  if (config.transport === 'stdio') {
    ctx.ignore(() => ({ by: 'client', what: `disconnect ${describeId(ev.requestId)}`, reason: 'stdio has no per-request stream to drop', rule: 'transport.no-sse-on-stdio' }));
    ctx.why('On stdio there is no per-request stream, so a per-request disconnect cannot happen; ignored.', 'transport.no-sse-on-stdio');
    return touch(state, NO_KEYS);
  }
  if (!req || req.client.state !== 'pending') {
    ctx.ignore(() => ({ by: 'client', what: `disconnect ${describeId(ev.requestId)}`, reason: req ? 'the request already ended; its stream is closed' : 'no such request', rule: 'cancel.ignore-invalid' }));
    ctx.why(() => `No open response stream for ${describeId(ev.requestId)}; nothing drops.`, 'cancel.ignore-invalid');
    return touch(state, req ? req.self : NO_KEYS);
  }
  const arrivesAt = ctx.now + config.latencyMs.clientToServer;
  ctx.emit({ from: 'client', transport: config.transport, http: `network drops the SSE response stream of request ${describeId(req.id)}`, arrivesAt, requestKey: req.key });
  ctx.schedule(arrivesAt, RANK.arrival, 'server', `stream drop ${req.key} arrives`, { kind: 'arrive.stream-close', key: req.key, cause: 'network' });
  if (sdkMajor(config) === 2) return sdkV2StreamCut(state, req, ctx);
  clearDeadlines(req, ctx);
  const rule = config.revision === '2026-07-28' ? 'disconnect.2026' : 'disconnect.2025';
  settle(req, ctx.now, 'connection-closed', `stream dropped at ${ctx.now} ms: error ${ERROR_CODES.connectionClosed} (connection closed), outcome unknown`, rule);
  ctx.why(() =>
    config.revision === '2026-07-28'
      ? `The response stream of ${describeId(req.id)} drops: the call fails with ${ERROR_CODES.connectionClosed} (outcome unknown). Under 2026-07-28 the server will treat the close as cancellation; to get the result the client must re-issue with a new id.`
      : `The response stream of ${describeId(req.id)} drops: the call fails with ${ERROR_CODES.connectionClosed} (outcome unknown). Under 2025-11-25 a disconnect is not a cancellation, so the server keeps working.`,
  rule);
  changed(state, req);
  if (config.revision === '2026-07-28' && req.method === 'tools/call') reissueLost(state, req, ev.reissueId, ctx);
}

export function clientInject(state: RacesCore, ev: Extract<RacesEvent, { kind: 'inject' }>, ctx: Ctx): void {
  const { config } = state;
  const arrivesAt = ctx.now + config.latencyMs.clientToServer;
  const message = (ev.message ?? null) as Json;
  ctx.emit({ from: 'client', transport: config.transport, message, malformed: true, http: config.transport === 'streamable-http' ? 'POST /mcp → 202 Accepted' : undefined, arrivesAt });
  ctx.schedule(arrivesAt, RANK.arrival, 'server', 'raw message arrives', { kind: 'arrive.raw', message });
  ctx.why('A faulty client writes a raw message to the wire exactly as scripted.', 'cancel.ignore-invalid');
  touch(state, NO_KEYS);
}

export function deadline(state: RacesCore, key: string, which: 'idle' | 'max', ctx: Ctx): void {
  const req = byKey(state, key);
  if (req && which === 'idle' && sdkStaleIdleTimer(req) && isSdkV1(state.config)) return sdkStaleIdleFires(state, req, ctx);
  if (!req || req.client.state !== 'pending') return touch(state, NO_KEYS);
  const { config } = state;
  if (config.policy.silentRetryOnTimeout && req.client.cancelRequestedAt === null && req.mech?.resendOf === undefined) return silentResend(state, req, which, ctx, clientStart);
  const abandoned = req.client.cancelRequestedAt !== null; // only when the client never settles its cancel
  if (which === 'idle') req.idleHandle = -1;
  else req.maxHandle = -1;
  clearDeadlines(req, ctx);
  const timeoutMs = which === 'idle' ? req.idleTimeoutMs : req.maxTimeoutMs;
  const since = which === 'idle' && req.client.lastProgress !== null ? 'since the last accepted progress' : 'since the request was sent';
  const label = which === 'idle' ? 'idle timeout' : 'maximum timeout';
  if (!config.policy.timeoutWithoutCancel && !abandoned) sendCancelSignal(state, req, isSdk(config) ? sdkTimeoutCancelReason(config) : `Request timed out (${label})`, ctx);
  const signal = config.policy.timeoutWithoutCancel ? 'sends no cancellation (bug), so the server keeps working' : signalText(config);
  const sdk = which === 'idle' && isSdk(config) ? sdkIdleTimeoutRules(req, ctx.now, sdkMajor(config) ?? 1) : null;
  const rule = sdk ? sdk.settleRule : which === 'idle' ? 'timeout.idle' : 'timeout.max';
  settle(req, ctx.now, which === 'idle' ? 'timeout-idle' : 'timeout-max', `${label} of ${timeoutMs} ms ${since}: error ${ERROR_CODES.requestTimeout} (request timeout); the client ${signal}${sdk ? sdk.text : ''}`, rule);
  const now = ctx.now;
  ctx.why(() => `${which === 'idle' ? 'Idle' : 'Maximum'} deadline reached at ${now} ms (${timeoutMs} ms ${since}, inclusive): the call fails with ${ERROR_CODES.requestTimeout} and the client ${signal}${sdk ? sdk.text : ''}.`, sdk ? sdk.noteRule : rule);
  changed(state, req);
}

/** Progress `progress` for the request at index `index` of `state.requests` reaches the client. */
export function clientProgress(state: RacesCore, index: number, progress: number, ctx: Ctx): void {
  const req = state.requests[index];
  if (!req) return touch(state, NO_KEYS);
  const key = req.key;
  const { config } = state;
  const c = req.client;
  if (req.sdkStreamCutAt !== undefined) return sdkLostOnCutStream(state, req, `progress ${progress}`, ctx);
  if (config.policy.replyIsFirstMessageRead && pairsByReadOrder(state) && readInOrder(state, req, { kind: 'progress', key: req.key, of: describeId(req.id), progress }, ctx)) return;
  if (c.state !== 'pending') {
    if (config.policy.strayProgressKillsConnection) return hostTearsDown(state, req, progress, ctx);
    ctx.ignore(() => ({ by: 'client', what: `progress ${progress} for ${req.key}`, reason: `the call already ended ${c.state}`, rule: 'progress.after-end' }));
    ctx.why(() => `Progress ${progress} for ${describeId(req.id)} arrives after the call ended (${c.state}); the client drops it.`, 'progress.after-end');
    return touch(state, req.self);
  }
  if (isSdk(config)) return sdkClientProgress(state, req, progress, ctx);
  const last = c.lastProgress;
  if (last !== null && !(progress > last)) {
    ctx.ignore(() => ({ by: 'client', what: `progress ${progress} for ${req.key}`, reason: `not greater than the last progress ${last}`, rule: 'progress.increase' }));
    ctx.why(() => `Progress ${progress} does not increase past ${last}: the client ignores it and the idle clock does not reset.`, 'progress.increase');
    return touch(state, req.self);
  }
  c.lastProgress = progress;
  c.progressAccepted++;
  if (config.policy.maximumCheckedOnProgress && req.maxDeadlineAt !== null && ctx.now >= req.maxDeadlineAt) {
    clearDeadlines(req, ctx);
    if (!config.policy.timeoutWithoutCancel) sendCancelSignal(state, req, 'Request timed out (maximum timeout)', ctx);
    settle(req, ctx.now, 'timeout-max', `maximum timeout of ${req.maxTimeoutMs} ms noticed only when progress arrived at ${ctx.now} ms (bug: checked only on progress)`, 'timeout.max');
    const now = ctx.now;
    ctx.why(() => `Progress arrives at ${now} ms and only now does the client check the maximum (deadline was ${req.maxDeadlineAt} ms): the call fails late.`, 'timeout.max');
    return changed(state, req);
  }
  const notes: string[] | null = ctx.keepsNotes ? [`Progress ${progress} for ${describeId(req.id)} reaches the client`] : null;
  let rule = 'progress.resets-idle';
  if (config.progressResetsIdleTimeout && req.idleTimeoutMs !== null && req.wireToken !== null) {
    ctx.cancel(req.idleHandle);
    const idleDeadlineAt = ctx.now + req.idleTimeoutMs;
    const hot = hotLabelsAt(state, index, req);
    req.idleHandle = ctx.schedule(idleDeadlineAt, RANK.idleDeadline, 'client', hot.idleDeadline, hot.idlePayload);
    req.idleDeadlineAt = idleDeadlineAt;
    notes?.push(`the idle deadline moves to ${idleDeadlineAt} ms`);
  } else if (req.idleTimeoutMs !== null) {
    notes?.push('the idle deadline stays (progressResetsIdleTimeout is off)');
  }
  if (req.maxTimeoutMs !== null) {
    if (config.policy.progressResetsMaximum) {
      ctx.cancel(req.maxHandle);
      const maxDeadlineAt = ctx.now + req.maxTimeoutMs;
      req.maxHandle = ctx.schedule(maxDeadlineAt, RANK.maxDeadline, 'client', `maximum deadline ${key}`, { kind: 'deadline.max', key });
      req.maxDeadlineAt = maxDeadlineAt;
      notes?.push(`and (bug) the maximum deadline moves too, to ${maxDeadlineAt} ms`);
      rule = 'timeout.max';
    } else {
      notes?.push(`the maximum stays at ${req.maxDeadlineAt} ms`);
    }
  }
  ctx.why(notes === null ? '' : notes.join('; ') + '.', rule);
  changedAt(state, index, req);
}

export function clientResponse(state: RacesCore, key: string, ok: boolean, ctx: Ctx, inputRequired = false): void {
  const req = byKey(state, key);
  if (!req) return touch(state, NO_KEYS);
  const c = req.client;
  if (req.sdkStreamCutAt !== undefined) return sdkLostOnCutStream(state, req, 'the response', ctx);
  if (c.state === 'connection-closed') return responseLostWithStream(state, req, ctx);
  if (state.config.policy.replyIsFirstMessageRead && pairsByReadOrder(state) && readInOrder(state, req, { kind: 'response', key: req.key, of: describeId(req.id), ok }, ctx)) return;
  if (req.mech?.versionRejectedAt !== undefined && c.state === 'pending') return clientVersionRejected(state, req, ctx);
  if (state.config.stdioReader !== undefined) {
    const bytes = largeResponseBytes(state, req);
    if (bytes !== null && readLargeResponse(state, req, bytes, ctx)) return;
  }
  if (countArrival(req) && !state.config.policy.lateResponseReconnects) return ignoreDuplicate(state, req, ctx);
  if (inputRequired && c.state === 'pending') return clientInputRequired(state, req, ctx);
  if (c.state !== 'pending') {
    if (state.config.policy.lateResponseReconnects) return clientReconnectsOnLateResponse(state, req, ctx);
    c.responseFate = 'ignored-late';
    ctx.ignore(() => ({ by: 'client', what: `response to ${req.key}`, reason: `the call already ended ${c.state} at ${c.atMs} ms`, rule: 'cancel.late-response' }));
    ctx.why(() => `The response to ${describeId(req.id)} arrives after the call ended ${c.state}: it is logged and dropped, never shown as success.`, 'cancel.late-response');
    return changed(state, req);
  }
  clearDeadlines(req, ctx);
  c.responseFate = 'accepted';
  const isListen = req.method === 'subscriptions/listen';
  const cancelRequested = c.cancelRequestedAt !== null;
  if (ok) {
    settle(req, ctx.now, isListen ? 'ended-by-server' : 'completed', isListen ? `the server ended the listen stream gracefully at ${ctx.now} ms` : `response received at ${ctx.now} ms`, undefined);
    ctx.why(() => (isListen ? `The server ends the listen stream ${describeId(req.id)} with its result.` : `The response to ${describeId(req.id)} arrives in time: the call completes.`), cancelRequested ? 'cancel.settle' : undefined);
  } else {
    settle(req, ctx.now, 'failed', `error response received at ${ctx.now} ms`, undefined);
    ctx.why(() => `The server's error response to ${describeId(req.id)} arrives: the call fails with that error.`);
  }
  changed(state, req);
}

/**
 * A response written to a stream (or connection) the client already dropped never reaches the
 * client (MCP `basic/transports`: the response is sent on the request's SSE stream; once that
 * stream is gone there is nothing to read it from). Its arrival time passes with nothing received:
 * no client-side "ignored", no late-response rule — the fate is `lost-with-stream`.
 */
function responseLostWithStream(state: RacesCore, req: RequestState, ctx: Ctx): void {
  const c = req.client;
  c.responseFate = 'lost-with-stream';
  ctx.why(() => `The response to ${describeId(req.id)} was written to the stream dropped at ${c.atMs} ms: it never reaches the client (lost with the stream). The client only knows the call ended ${c.state}.`, state.config.revision === '2026-07-28' ? 'disconnect.2026' : 'disconnect.2025');
  changed(state, req);
}

export function clientServerCancel(state: RacesCore, key: string, ctx: Ctx): void {
  const req = byKey(state, key);
  if (!req) return touch(state, NO_KEYS);
  if (req.client.state !== 'pending') {
    ctx.ignore({ by: 'client', what: `server cancellation of ${req.key}`, reason: 'the stream already ended', rule: 'cancel.ignore-invalid' });
    ctx.why('The server\'s cancellation arrives for a stream that already ended; ignored.', 'cancel.ignore-invalid');
    return touch(state, req.self);
  }
  clearDeadlines(req, ctx);
  settle(req, ctx.now, 'ended-by-server', `the server ended the subscriptions/listen stream with notifications/cancelled at ${ctx.now} ms`, 'cancel.server-listen-only');
  ctx.why(() => `The server's notifications/cancelled ends listen stream ${describeId(req.id)}; the client may open a new one with a new id.`, 'cancel.server-listen-only');
  changed(state, req);
}

export function clientKeepalive(state: RacesCore, key: string, ctx: Ctx): void {
  const req = byKey(state, key);
  if (!req) return touch(state, NO_KEYS);
  ctx.ignore(() => ({ by: 'client', what: `SSE comment on ${req.key}`, reason: 'a keep-alive comment is not an MCP message', rule: 'sse.keepalive' }));
  ctx.why(() => {
    const deadlineText = req.idleDeadlineAt !== null && req.client.state === 'pending' ? ` The idle deadline stays at ${req.idleDeadlineAt} ms.` : '';
    return `A keep-alive comment reaches the client: it keeps proxies from closing the stream but is not progress.${deadlineText}`;
  }, 'sse.keepalive');
  touch(state, req.self);
}
