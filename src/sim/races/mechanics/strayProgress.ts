import { ERROR_CODES, progressNotification } from '../../mcp';
import { RANK, type RequestState } from '../types';
import { clearDeadlines, describeId, hotLabels, settle, type Ctx, type RacesCore } from '../state';
import { mark, type MechanicsMarks } from './marks';

/**
 * Connection teardowns a client should never do. A stray progress notification after the result,
 * and a host that tears a healthy stdio server
 * down for it (claude-code#53617); and (below) a reconnect over a response for an abandoned id.
 * Two switches for the first, one per side:
 * - `policy.progressAfterResult` (server bug): a worker's progress after the request's final
 *   response is still sent. Correct: "Progress notifications MUST stop after completion"
 *   (`basic/utilities/progress` 2025-11-25, `basic/patterns/progress` 2026-07-28).
 * - `policy.strayProgressKillsConnection` (client bug): a progress for a call the client no longer
 *   waits on is treated as fatal: the host kills the server process, and every call in flight on
 *   that connection fails with -32000 (connection closed), its work lost. Correct: drop the stray
 *   notification (the lab's `progress.after-end`) and keep the connection.
 */

/** The buggy server sends progress for `req`, which already has its final response. */
export function strayProgressSent(state: RacesCore, req: RequestState, ev: { progress: number; total: number | null; message: string | null }, ctx: Ctx): void {
  const { config } = state;
  const token = req.wireToken!;
  const arrivesAt = ctx.now + config.latencyMs.serverToClient;
  const message = progressNotification(token, ev.progress, ev.total, ev.message);
  ctx.emit({ from: 'server', transport: config.transport, message, http: config.transport === 'streamable-http' ? 'SSE event after the final response' : undefined, arrivesAt, requestKey: req.key });
  ctx.schedule(arrivesAt, RANK.arrival, 'client', hotLabels(state, req).progressArrives, { kind: 'arrive.progress', key: req.key, i: state.indexOf[req.key], progress: ev.progress });
  if (req.mech?.progressAfterResultAt === undefined) mark(req, { progressAfterResultAt: ctx.now });
  const sentAt = req.server.responseSentAt;
  ctx.why(() => `The worker reports progress ${ev.progress} for ${describeId(req.id)} after its final response went out at ${sentAt} ms, and the server still sends it (bug): progress MUST stop after completion.`, 'mech.stray-progress');
  state.views[state.indexOf[req.key]] = null;
  state.touched = req.self;
}

/**
 * The buggy host receives progress for `req`, a call that already ended, and tears the stdio server
 * down: every pending call fails with connection closed; the server's work on them is killed.
 */
export function hostTearsDown(state: RacesCore, req: RequestState, progress: number, ctx: Ctx): void {
  const victims = failCallsInFlight(state, ctx, `the host killed the server at ${ctx.now} ms over a stray progress for ${describeId(req.id)}`, 'mech.stray-progress', { killedByStrayProgressAt: ctx.now });
  ctx.ignore({ by: 'client', what: `progress ${progress} for ${req.key}`, reason: `the call already ended ${req.client.state}; the host treats it as fatal`, rule: 'mech.stray-progress' });
  ctx.why(() => `A stray progress ${progress} for ${describeId(req.id)} (already ${req.client.state}) reaches the host, which kills the healthy stdio server (bug, claude-code#53617): ${victimText(victims)}. It should have dropped the notification.`, 'mech.stray-progress');
  touchAll(state, [req, ...victims]);
}

/**
 * A response arrives for `req`, a call the client already abandoned (cancelled or timed out), and
 * the buggy client (`policy.lateResponseReconnects`) treats the unknown id as a protocol error: it
 * drops the connection and reconnects, failing every call in flight with -32000. Correct: ignore it
 * (a sender that gave up SHOULD ignore a response that arrives afterwards), at most log it.
 */
export function clientReconnectsOnLateResponse(state: RacesCore, req: RequestState, ctx: Ctx): void {
  req.client.responseFate = 'ignored-late';
  const victims = failCallsInFlight(state, ctx, `the client reconnected at ${ctx.now} ms after a response for abandoned id ${describeId(req.id)}`, 'mech.late-response', { killedByLateResponseAt: ctx.now });
  ctx.ignore({ by: 'client', what: `response to ${req.key}`, reason: `the call already ended ${req.client.state}; the client treats the unknown id as a protocol error and reconnects`, rule: 'mech.late-response' });
  ctx.why(() => `A response for ${describeId(req.id)}, abandoned (${req.client.state}), reaches the client, which treats the unknown id as a protocol error and reconnects (bug): ${victimText(victims)}. It should have ignored it.`, 'mech.late-response');
  touchAll(state, [req, ...victims]);
}

export const victimText = (victims: RequestState[]) =>
  victims.length === 0 ? 'no other call was in flight' : `${victims.map((v) => describeId(v.id)).join(', ')} fail${victims.length === 1 ? 's' : ''} with ${ERROR_CODES.connectionClosed}`;

export function touchAll(state: RacesCore, reqs: RequestState[]): void {
  for (const r of reqs) state.views[state.indexOf[r.key]] = null;
  state.touched = reqs.map((r) => r.key);
}

/** Fails every pending call with connection closed (the connection is gone; the server's work on them is lost). */
export function failCallsInFlight(state: RacesCore, ctx: Ctx, why: string, rule: string, marks: MechanicsMarks): RequestState[] {
  const victims: RequestState[] = [];
  for (const r of state.requests) {
    if (r.client.state !== 'pending') continue;
    failCall(r, ctx, why, rule, marks);
    victims.push(r);
  }
  return victims;
}

/** Fails the pending call `r` with connection closed: its deadlines cleared, the server's work on it stopped, its pipe gone. */
export function failCall(r: RequestState, ctx: Ctx, why: string, rule: string, marks: MechanicsMarks): void {
  const now = ctx.now;
  clearDeadlines(r, ctx);
  settle(r, now, 'connection-closed', `${why}: error ${ERROR_CODES.connectionClosed} (connection closed), the work is lost`, rule);
  mark(r, marks);
  const s = r.server;
  if (s.state === 'working') {
    s.state = 'failed';
    s.atMs = now;
    s.workEndedAt = now;
  }
  s.streamClosed = true; // the pipe is gone: a request still on its way is never read
}
