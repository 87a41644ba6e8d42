import type { Json } from '../../types';
import { errorResponse, ERROR_CODES } from '../../mcp';
import { RANK, type RequestState } from '../types';
import { byKey, changed, describeId, NO_KEYS, touch, type Ctx, type RacesCore } from '../state';
import { failCall, failCallsInFlight, touchAll, victimText } from './strayProgress';
import { mark } from './marks';

/**
 * The window between a handler's return and its response write (`complete.writeDelayMs`): the
 * work is done at the `complete` event, the response is written `writeDelayMs` later (a large
 * result serialised, a slow pipe). A cancellation that lands in that window refers to a request
 * whose processing has completed. Correct: the server MAY ignore it ("Servers MAY ignore
 * cancellation notifications if: … Processing has already completed", 2026-07-28
 * `basic/patterns/cancellation`; "Receivers MAY ignore …", 2025-11-25 `basic/utilities/cancellation`)
 * and writes its one response, which the client drops ("The client SHOULD ignore any response to
 * the cancelled request that arrives afterward"). The lab's server ignores it; stopping the write
 * instead would also be allowed. One response per request either way (JSON-RPC 2.0 §5: the server
 * replies with a Response; `basic/index`: "Responses are sent in reply to requests").
 *
 * Bugs: `policy.duplicateResponseOnCancel` — the cancel path writes an error response for the id
 * and the pending write goes out too: two responses for one request id (the client must ignore the
 * second). `policy.crashOnCancelInWriteWindow` — the write finds its request cancelled and the
 * server process crashes: the response is never written, every call in flight fails with -32000,
 * and a call sent afterwards finds no server.
 */

/** The error the duplicate-writing server sends from its cancel path. */
export const CANCEL_PATH_ERROR = { code: ERROR_CODES.internalError, message: 'Request cancelled' } as const;

/** The handler of `req` returned; its response `message` is written at `writeAt` (scheduled here). */
export function deferWrite(state: RacesCore, req: RequestState, message: Json, ok: boolean, isError: boolean, writeAt: number, ctx: Ctx): void {
  ctx.schedule(writeAt, RANK.arrival, 'server', `response write ${req.key}`, { kind: 'write.response', key: req.key });
  mark(req, { writePending: { at: writeAt, message, ok, isError } });
  const now = ctx.now;
  ctx.why(() => `The handler of ${describeId(req.id)} returns at ${now} ms; its response is written at ${writeAt} ms. Until then a cancellation refers to work already done.`, 'mech.write-window');
  changed(state, req);
}

/** `req` is in the window (handler returned, response not yet written) at `now`. */
export function inWriteWindow(req: RequestState, now: number): boolean {
  const w = req.mech?.writePending;
  return w !== undefined && req.server.responseSentAt === null && now < w.at && req.mech?.crashedAt === undefined;
}

/** A cancellation for `req` lands in the write window (before the write). */
export function cancelInWriteWindow(state: RacesCore, req: RequestState, ctx: Ctx): void {
  const { config } = state;
  const writeAt = req.mech!.writePending!.at;
  const now = ctx.now;
  mark(req, { lateCancelAt: now });
  if (config.policy.duplicateResponseOnCancel) {
    const arrivesAt = now + config.latencyMs.serverToClient;
    ctx.emit({ from: 'server', transport: config.transport, message: errorResponse(req.id, CANCEL_PATH_ERROR.code, CANCEL_PATH_ERROR.message), http: config.transport === 'streamable-http' ? 'SSE event on the request\'s response stream' : undefined, arrivesAt, requestKey: req.key });
    ctx.schedule(arrivesAt, RANK.arrival, 'client', `response ${req.key} arrives`, { kind: 'arrive.response', key: req.key, ok: false });
    mark(req, { responsesWritten: 1 });
    req.server.responseSentAt = now;
    if (req.client.responseFate === 'none') req.client.responseFate = 'in-flight';
    ctx.why(() => `The cancellation of ${describeId(req.id)} lands after its handler returned; the server's cancel path writes an error response for it (bug), and the pending write at ${writeAt} ms will write a second one.`, 'mech.write-window');
    return changed(state, req);
  }
  if (config.policy.crashOnCancelInWriteWindow) {
    ctx.why(() => `The cancellation of ${describeId(req.id)} lands after its handler returned; the server marks the request cancelled (bug: the work is done) and the pending write at ${writeAt} ms will find it so.`, 'mech.write-window');
    return changed(state, req);
  }
  ctx.ignore({ by: 'server', what: `notifications/cancelled ${req.key}`, reason: `the handler returned at ${req.server.workEndedAt} ms (processing has completed); the response is written at ${writeAt} ms`, rule: 'mech.write-window' });
  ctx.why(() => `The cancellation of ${describeId(req.id)} lands between its handler's return and the response write: processing has completed, so the server ignores it (MAY) and writes its one response at ${writeAt} ms; the client drops it.`, 'mech.write-window');
  changed(state, req);
}

/**
 * The pending write of `key` happens: the response goes out through `write` (the server's own
 * write, passed in to keep the modules acyclic) — unless the crash bug kills the server here.
 */
export function responseWrite(state: RacesCore, key: string, ctx: Ctx, write: (state: RacesCore, req: RequestState, message: Json, ok: boolean, isError: boolean, ctx: Ctx) => void): void {
  const req = byKey(state, key);
  const w = req?.mech?.writePending;
  if (!req || w === undefined) return touch(state, NO_KEYS);
  const now = ctx.now;
  if (state.config.policy.crashOnCancelInWriteWindow && req.mech?.lateCancelAt !== undefined) {
    mark(req, { crashedAt: now });
    const victims = failCallsInFlight(state, ctx, `the server crashed at ${now} ms writing the response of cancelled ${describeId(req.id)}`, 'mech.write-window', { killedByCrashAt: now });
    ctx.why(() => `The response write of ${describeId(req.id)} finds the request cancelled at ${req.mech!.lateCancelAt} ms and the server process crashes (bug): no response is written; ${victimText(victims)}; a call sent from now on finds no server.`, 'mech.write-window');
    return touchAll(state, [req, ...victims]);
  }
  const written = (req.mech?.responsesWritten ?? 0) + 1;
  mark(req, { responsesWritten: written });
  write(state, req, w.message, w.ok, w.isError, ctx);
  if (written > 1) {
    const now2 = now;
    ctx.why(() => `The pending write of ${describeId(req.id)} goes out at ${now2} ms: a second response for the same id (bug; exactly one response per request).`, 'mech.write-window');
  }
}

/** The time the server process crashed in a write window, or null. O(requests), only with the switch on. */
export function serverCrashedSince(state: RacesCore): number | null {
  if (!state.config.policy.crashOnCancelInWriteWindow) return null;
  for (const r of state.requests) if (r.mech?.crashedAt !== undefined) return r.mech.crashedAt;
  return null;
}

/** A request reaches a crashed server: nothing reads it; the client's call fails with connection closed. */
export function requestToCrashedServer(state: RacesCore, req: RequestState, crashedAt: number, ctx: Ctx): void {
  const now = ctx.now;
  if (req.client.state === 'pending') failCall(req, ctx, `the server process exited at ${crashedAt} ms; nothing reads the request`, 'mech.write-window', { killedByCrashAt: now });
  else req.server.streamClosed = true;
  ctx.why(() => `${describeId(req.id)} reaches the server at ${now} ms, but the process crashed at ${crashedAt} ms: nothing reads it, and the call fails with ${ERROR_CODES.connectionClosed}.`, 'mech.write-window');
  changed(state, req);
}

/**
 * A response for `req` reaches the client: counts it when the server wrote more than one, and
 * returns true for the second and later (a duplicate response, which the client ignores).
 */
export function countArrival(req: RequestState): boolean {
  if (req.mech?.responsesWritten === undefined) return false;
  const arrived = (req.mech.responsesArrived ?? 0) + 1;
  mark(req, { responsesArrived: arrived });
  return arrived > 1;
}

/** The client drops a duplicate response for `req` (it settled on the first). */
export function ignoreDuplicate(state: RacesCore, req: RequestState, ctx: Ctx): void {
  ctx.ignore({ by: 'client', what: `response to ${req.key}`, reason: 'a second response for the same id: duplicate', rule: 'mech.write-window' });
  ctx.why(() => `A second response for ${describeId(req.id)} reaches the client: a duplicate, ignored (one response per request; the first already settled the call ${req.client.state}).`, 'mech.write-window');
  changed(state, req);
}
