import { ERROR_CODES } from '../../mcp';
import type { RequestState } from '../types';
import { addRequest, clearDeadlines, describeId, newRequest, settle, type Ctx, type RacesCore, type RequestStart } from '../state';
import { failCallsInFlight, touchAll, victimText } from './strayProgress';
import { mark } from './marks';

/**
 * A client whose cancel ends the stdio server process (qwen-code#11272, claude-code#49479). With
 * `policy.cancelKillsServerProcess` on, a user's cancel of a stdio call does not put
 * `notifications/cancelled` on the pipe: the client terminates the server's process instead (its
 * abort path closes the transport, and on stdio closing the transport is ending the child). The
 * cancelled call settles as cancelled; every other call in flight fails with -32000 (connection
 * closed), its work lost; and every call sent afterwards fails at once with -32000, because the
 * transport is closed and nothing brings the server back. Correct: on stdio a cancel is the
 * notification ("the client … MUST send it"; 2025-11-25 `basic/utilities/cancellation`,
 * 2026-07-28 `basic/patterns/cancellation`): it ends one request, and the process lives; ending
 * the process is the transport's shutdown (2025-11-25 `basic/lifecycle`, Shutdown; 2026-07-28
 * `basic/transports/stdio`). On Streamable HTTP the client owns no server process, so the switch
 * changes nothing there (claude-code#49479: remote HTTP servers were unaffected).
 *
 * Times are virtual ms; the kill is a signal to the process, not a message, so it takes effect at
 * once (no latency).
 */

/** The time the client ended the server process over a cancel, or null. O(requests), only with the switch on (stdio). */
export function processKilledSince(state: RacesCore): number | null {
  if (!state.config.policy.cancelKillsServerProcess || state.config.transport !== 'stdio') return null;
  for (const r of state.requests) if (r.mech?.processKilledAt !== undefined) return r.mech.processKilledAt;
  return null;
}

/** True when a cancel of a pending call ends the server process (the switch, on stdio). */
export function cancelEndsProcess(state: RacesCore): boolean {
  return state.config.policy.cancelKillsServerProcess && state.config.transport === 'stdio';
}

/**
 * The buggy client cancels the pending call `req` by ending the server process: `req` settles as
 * cancelled (signal `process-kill`, no notification on the pipe), the server's work on it ends,
 * and every other call in flight fails with connection closed.
 */
export function cancelKillsProcess(state: RacesCore, req: RequestState, reason: string, ctx: Ctx): void {
  const now = ctx.now;
  req.client.cancelRequestedAt = now;
  req.client.cancelSignal = 'process-kill';
  clearDeadlines(req, ctx);
  settle(req, now, 'cancelled', `cancelled by the caller at ${now} ms ("${reason}"); the client ended the server process instead of sending notifications/cancelled`, 'mech.cancel-kill');
  mark(req, { processKilledAt: now });
  const s = req.server;
  if (s.state === 'working') {
    s.state = 'failed';
    s.atMs = now;
    s.workEndedAt = now;
  }
  s.streamClosed = true; // the pipe is gone: a request still on its way is never read
  const victims = failCallsInFlight(state, ctx, `the client ended the server process at ${now} ms to cancel ${describeId(req.id)}`, 'mech.cancel-kill', { killedByCancelKillAt: now });
  ctx.why(
    () => `The caller cancels ${describeId(req.id)}, and the client ends the stdio server process instead of sending notifications/cancelled (bug, qwen-code#11272): ${victimText(victims)}; the transport is closed, so every later call fails at once.`,
    'mech.cancel-kill',
  );
  touchAll(state, [req, ...victims]);
}

/**
 * A call started after the client ended the server process at `killedAt`: the transport is closed,
 * nothing is written, and the call fails at once with connection closed. Adds the request `key`.
 */
export function callOnClosedTransport(state: RacesCore, key: string, id: RequestState['id'], killedAt: number, from: RequestStart, ctx: Ctx): void {
  const now = ctx.now;
  const req = newRequest(key, id, now, from);
  settle(req, now, 'connection-closed', `the client ended the server process at ${killedAt} ms and the transport is closed: error ${ERROR_CODES.connectionClosed} (connection closed), nothing was sent`, 'mech.cancel-kill');
  req.server.streamClosed = true;
  mark(req, { closedTransportAt: now });
  ctx.why(() => `The client calls ${describeId(id)} at ${now} ms, but it ended the server process at ${killedAt} ms over a cancel: the transport is closed, nothing is written, and the call fails with ${ERROR_CODES.connectionClosed} (connection closed).`, 'mech.cancel-kill');
  addRequest(state, req);
}
