import { errorResponse } from '../../mcp';
import { RANK, type RequestState } from '../types';
import { changed, describeId, NO_KEYS, touch, type Ctx, type RacesCore } from '../state';
import { mark } from './marks';

/**
 * A server whose receive loop dies after a cancel (python-sdk#2610). With
 * `policy.receiveLoopDiesOnCancel` on, a server that accepts `notifications/cancelled` for a
 * request also writes an error response for it — `{"id":2,"error":{"code":0,…}}`, code 0 and all
 * — and its receive loop then stops: nothing that arrives afterwards (requests, cancels) is read,
 * so the next call is never answered. Correct: only the cancelled request is affected, and it gets
 * no response at all ("The server … MUST NOT send any further messages for it", 2026-07-28
 * `basic/transports/stdio`; 2025-11-25: receivers SHOULD NOT send a response for a cancelled
 * request).
 */

/** The error the buggy server writes for the cancelled request (code 0, as in python-sdk#2610). */
export const RECEIVE_LOOP_ERROR = { code: 0, message: 'Request cancelled' } as const;

/** The time the server's receive loop died, or null while it reads. O(requests), only with the switch on. */
export function receiveLoopDeadSince(state: RacesCore): number | null {
  if (!state.config.policy.receiveLoopDiesOnCancel) return null;
  for (const r of state.requests) if (r.mech?.receiveLoopDiedAt !== undefined) return r.mech.receiveLoopDiedAt;
  return null;
}

/** Called after the server accepted the cancel of `req`: the buggy server answers it with code 0 and its receive loop dies. */
export function receiveLoopDiesOnCancel(state: RacesCore, req: RequestState, ctx: Ctx): void {
  const { config } = state;
  const arrivesAt = ctx.now + config.latencyMs.serverToClient;
  const message = errorResponse(req.id, RECEIVE_LOOP_ERROR.code, RECEIVE_LOOP_ERROR.message);
  ctx.emit({ from: 'server', transport: config.transport, message, http: config.transport === 'streamable-http' ? 'SSE event on a stream the client already closed' : undefined, arrivesAt, requestKey: req.key });
  ctx.schedule(arrivesAt, RANK.arrival, 'client', `response ${req.key} arrives`, { kind: 'arrive.response', key: req.key, ok: false });
  req.server.responseSentAt = ctx.now;
  if (req.client.responseFate === 'none') req.client.responseFate = 'in-flight';
  mark(req, { receiveLoopDiedAt: ctx.now });
  const now = ctx.now;
  ctx.why(() => `The server handles the cancel of ${describeId(req.id)} by answering it with {"code":0} (bug, python-sdk#2610) — and its receive loop dies at ${now} ms: nothing sent to it from now on is read.`, 'mech.receive-loop');
  changed(state, req);
}

/** A request arrives at a server whose receive loop is dead: it is never read (the call will hang until its timeout). */
export function unreadRequest(state: RacesCore, req: RequestState, deadSince: number, ctx: Ctx): void {
  mark(req, { unreadAt: ctx.now });
  ctx.ignore({ by: 'server', what: `request ${req.key}`, reason: `the receive loop died at ${deadSince} ms; the message is never read`, rule: 'mech.receive-loop' });
  const now = ctx.now;
  ctx.why(() => `${describeId(req.id)} reaches the server at ${now} ms, but its receive loop died at ${deadSince} ms: the request is never read and will never be answered.`, 'mech.receive-loop');
  changed(state, req);
}

/** A cancel arrives at a server whose receive loop is dead: never read. */
export function unreadCancel(state: RacesCore, deadSince: number, ctx: Ctx): void {
  ctx.ignore({ by: 'server', what: 'notifications/cancelled', reason: `the receive loop died at ${deadSince} ms; the message is never read`, rule: 'mech.receive-loop' });
  ctx.why(() => `A cancellation reaches the server, whose receive loop died at ${deadSince} ms: it is never read.`, 'mech.receive-loop');
  touch(state, NO_KEYS);
}
