import { cancelledNotification, ERROR_CODES, errorResponse } from '../../mcp';
import { RANK, type RequestState } from '../types';
import { byKey, changed, clearDeadlines, describeId, NO_KEYS, settle, touch, type Ctx, type RacesCore } from '../state';
import { mark } from './marks';

/**
 * An intermediary hop (gateway, relay, host process) between client and server, with its own
 * timers (`config.hop`). It sits next to the server: it sees a request when the server receives
 * it, every progress notification and the response when the server sends them (the scenario's
 * latency is between the client and the hop). Per tools/call it arms an idle timer of
 * `hop.idleTimeoutMs` and, when set, a maximum of `hop.maxTimeoutMs` from the request's arrival.
 *
 * Correct: progress passing through resets the hop's idle timer, as a client's would ("Implementations
 * MAY choose to reset the timeout clock when receiving a progress notification … However,
 * implementations SHOULD always enforce a maximum timeout", 2026-07-28 `basic/patterns/cancellation`
 * Timeouts; "SDKs and other middleware SHOULD allow these timeouts to be configured"), and the
 * hop's maximum is reported in the error it answers with. Bug (`policy.hopIgnoresProgress`): the
 * hop's idle timer is not reset by progress passing through, so a long call that keeps reporting
 * progress is cut by the hop although the client's own idle timeout is fine.
 *
 * When a hop timer fires the hop cuts the call on both sides of the wire: upstream it cancels
 * with the transport's signal (stdio and 2025-11-25 HTTP: `notifications/cancelled`; 2026-07-28
 * HTTP: it closes the request's upstream SSE stream), downstream it answers the client with a
 * JSON-RPC error for the request id (-32603 Internal error: the spec defines no gateway-timeout
 * code, and 2026-07-28 makes -32000…-32019 legacy codes a receiver must not assume a meaning for).
 * It then forwards nothing more for that id: a later response or progress is dropped at the hop.
 */

/** The hop's name and timers, defaults filled (`config.hop` may come through overrides unparsed). */
export function hopOf(state: RacesCore): { name: string; idleTimeoutMs: number; maxTimeoutMs: number | null } | null {
  const hop = state.config.hop;
  return hop === undefined ? null : { name: hop.name ?? 'gateway', idleTimeoutMs: hop.idleTimeoutMs, maxTimeoutMs: hop.maxTimeoutMs ?? null };
}

/** The request reached the server through the hop: the hop arms its timers for it. */
export function hopArms(state: RacesCore, req: RequestState, ctx: Ctx): void {
  const hop = hopOf(state);
  if (hop === null || req.method !== 'tools/call') return;
  const hopIdleDeadlineAt = ctx.now + hop.idleTimeoutMs;
  const hopIdleHandle = ctx.schedule(hopIdleDeadlineAt, RANK.idleDeadline, 'server', `${hop.name} idle deadline ${req.key}`, { kind: 'deadline.hop', key: req.key, which: 'idle' });
  let hopMaxHandle = -1;
  if (hop.maxTimeoutMs !== null) hopMaxHandle = ctx.schedule(ctx.now + hop.maxTimeoutMs, RANK.maxDeadline, 'server', `${hop.name} maximum deadline ${req.key}`, { kind: 'deadline.hop', key: req.key, which: 'max' });
  mark(req, { hopIdleHandle, hopIdleDeadlineAt, hopMaxHandle });
}

/** Progress for `req` passes through the hop: it resets the hop's idle timer (or, with the bug, does not). Returns the note to add. */
export function hopPassesProgress(state: RacesCore, req: RequestState, ctx: Ctx): string {
  const hop = hopOf(state);
  const m = req.mech;
  if (hop === null || m?.hopIdleHandle === undefined || m.hopCut !== undefined) return '';
  if (state.config.policy.hopIgnoresProgress) {
    mark(req, { hopLastProgressAt: ctx.now });
    return ` It passes through the ${hop.name}, whose idle timer is not reset by it (bug): the ${hop.name}'s idle deadline stays at ${m.hopIdleDeadlineAt} ms.`;
  }
  ctx.cancel(m.hopIdleHandle);
  const hopIdleDeadlineAt = ctx.now + hop.idleTimeoutMs;
  const hopIdleHandle = ctx.schedule(hopIdleDeadlineAt, RANK.idleDeadline, 'server', `${hop.name} idle deadline ${req.key}`, { kind: 'deadline.hop', key: req.key, which: 'idle' });
  mark(req, { hopLastProgressAt: ctx.now, hopIdleHandle, hopIdleDeadlineAt });
  return ` It passes through the ${hop.name}, which resets its own idle deadline to ${hopIdleDeadlineAt} ms.`;
}

/** The response of `req` passes through the hop: its timers stop. */
export function hopDisarms(req: RequestState, ctx: Ctx): void {
  const m = req.mech;
  if (m?.hopIdleHandle === undefined) return;
  ctx.cancel(m.hopIdleHandle);
  if (m.hopMaxHandle !== undefined) ctx.cancel(m.hopMaxHandle);
  mark(req, { hopIdleHandle: -1, hopMaxHandle: -1 });
}

/** The hop already cut `req`: it forwards nothing more for it (the time it cut, or null). */
export function hopCutAt(req: RequestState): number | null {
  return req.mech?.hopCut?.at ?? null;
}

/** A hop timer of `key` fires: the hop cuts the call — the transport's cancel upstream, an error downstream. */
export function hopDeadline(state: RacesCore, key: string, which: 'idle' | 'max', ctx: Ctx): void {
  const req = byKey(state, key);
  const hop = hopOf(state);
  if (!req || hop === null || req.mech?.hopCut !== undefined || req.server.responseSentAt !== null || req.server.state !== 'working') return touch(state, req ? req.self : NO_KEYS);
  const { config } = state;
  const now = ctx.now;
  hopDisarms(req, ctx);
  const timeoutMs = which === 'idle' ? hop.idleTimeoutMs : hop.maxTimeoutMs!;
  const label = which === 'idle' ? 'idle timeout' : 'maximum timeout';
  const reason = `${hop.name} ${label} (${timeoutMs} ms)`;
  // Upstream: the transport's cancellation signal, from the hop (next to the server: it lands now).
  if (config.transport === 'streamable-http' && config.revision === '2026-07-28') {
    ctx.emit({ from: 'client', transport: config.transport, http: `the ${hop.name} closes the upstream SSE response stream of request ${describeId(req.id)} (the cancellation signal)`, arrivesAt: now, requestKey: req.key });
    ctx.schedule(now, RANK.arrival, 'server', `${hop.name} stream close ${req.key} arrives`, { kind: 'arrive.stream-close', key: req.key, cause: 'cancel' });
  } else {
    const message = cancelledNotification(req.id, reason);
    ctx.emit({ from: 'client', transport: config.transport, message, http: config.transport === 'streamable-http' ? `the ${hop.name} POSTs notifications/cancelled upstream → 202 Accepted` : undefined, arrivesAt: now, requestKey: req.key });
    ctx.schedule(now, RANK.arrival, 'server', `${hop.name} cancel ${req.key} arrives`, { kind: 'arrive.cancel', message, posted: config.transport === 'streamable-http' });
  }
  // Downstream: the hop's own error for the request id.
  const arrivesAt = now + config.latencyMs.serverToClient;
  const text = which === 'max' ? `${hop.name} maximum timeout of ${timeoutMs} ms reached` : `${hop.name} idle timeout of ${timeoutMs} ms reached`;
  ctx.emit({ from: 'server', transport: config.transport, message: errorResponse(req.id, ERROR_CODES.internalError, text), http: config.transport === 'streamable-http' ? `SSE event from the ${hop.name} with its error; it then closes the client's stream` : undefined, arrivesAt, requestKey: req.key });
  ctx.schedule(arrivesAt, RANK.arrival, 'client', `${hop.name} error ${req.key} arrives`, { kind: 'arrive.hop-error', key: req.key });
  const lastProgressAt = req.mech?.hopLastProgressAt ?? null;
  mark(req, { hopCut: { at: now, which, idleTimeoutMs: hop.idleTimeoutMs, lastProgressAt, text } });
  if (req.client.responseFate === 'none') req.client.responseFate = 'in-flight';
  ctx.why(() =>
    which === 'max'
      ? `The ${hop.name}'s maximum timeout of ${timeoutMs} ms is reached at ${now} ms, progress or not: it cancels ${describeId(req.id)} upstream and answers the client with error ${ERROR_CODES.internalError} naming its maximum (reported, so the client can tell whose limit it hit).`
      : lastProgressAt !== null && now - lastProgressAt < hop.idleTimeoutMs
        ? `The ${hop.name}'s idle deadline fires at ${now} ms although progress for ${describeId(req.id)} passed through it at ${lastProgressAt} ms (bug: its timer is not reset by progress): it cancels the call upstream and answers the client with error ${ERROR_CODES.internalError}.`
        : `Nothing has passed through the ${hop.name} for ${describeId(req.id)} for ${timeoutMs} ms: its idle timeout cancels the call upstream and answers the client with error ${ERROR_CODES.internalError}.`,
  'mech.hop');
  changed(state, req);
}

/** The hop's error for `key` reaches the client. */
export function clientHopError(state: RacesCore, key: string, ctx: Ctx): void {
  const req = byKey(state, key);
  const cut = req?.mech?.hopCut;
  if (!req || cut === undefined) return touch(state, NO_KEYS);
  const c = req.client;
  if (c.state !== 'pending') {
    c.responseFate = 'ignored-late';
    ctx.ignore({ by: 'client', what: `error from the hop for ${req.key}`, reason: `the call already ended ${c.state} at ${c.atMs} ms`, rule: 'cancel.late-response' });
    ctx.why(() => `The hop's error for ${describeId(req.id)} arrives after the call ended; dropped.`, 'cancel.late-response');
    return changed(state, req);
  }
  const own = req.idleDeadlineAt !== null ? ` The client's own idle deadline was ${req.idleDeadlineAt} ms` : ' The client had no idle deadline of its own';
  clearDeadlines(req, ctx);
  c.responseFate = 'accepted';
  const now = ctx.now;
  settle(req, now, 'failed', `error ${ERROR_CODES.internalError} from the hop at ${now} ms: "${cut.text}".${own}.`, 'mech.hop');
  ctx.why(() => `The hop's error reaches the client at ${now} ms: ${describeId(req.id)} fails with "${cut.text}".${own}, not reached.`, 'mech.hop');
  changed(state, req);
}
