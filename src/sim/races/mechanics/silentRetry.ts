import type { RacesEvent } from '../schema';
import type { RequestState } from '../types';
import { clearDeadlines, describeId, settle, type Ctx, type RacesCore } from '../state';
import { ERROR_CODES } from '../../mcp';
import { mark } from './marks';

/**
 * A timeout without a cancel plus a silent re-send under a new id (ruby-mcp-client PR#178). With
 * `policy.silentRetryOnTimeout` on, a call whose idle or maximum deadline fires sends no
 * cancellation and is re-sent as a new `tools/call` with a new id (`<id>-resend-<n>`, the same tool,
 * token and timeouts) while the first execution still runs: the tool executes twice. One re-send per
 * call (a re-send that times out ends as a plain timeout). Correct:
 * "Senders SHOULD … issue a cancellation notification for that request and stop waiting for a
 * response" (timeouts), and never auto-retry a timed-out call that is not idempotent.
 */

type StartEvent = Extract<RacesEvent, { kind: 'start' }>;

/** The id of the n-th silent re-send of `req`. */
export function resendId(req: RequestState): string {
  return `${typeof req.id === 'string' ? req.id : String(req.id)}-resend-1`;
}

/**
 * The deadline `which` of `req` fires under the buggy client: no cancel, the call is re-sent with
 * a new id through `start` (the client's own start rule, passed in to keep the modules acyclic).
 */
export function silentResend(state: RacesCore, req: RequestState, which: 'idle' | 'max', ctx: Ctx, start: (state: RacesCore, ev: StartEvent, ctx: Ctx) => void): void {
  if (which === 'idle') req.idleHandle = -1;
  else req.maxHandle = -1;
  clearDeadlines(req, ctx);
  const id = resendId(req);
  const now = ctx.now;
  const label = which === 'idle' ? 'idle timeout' : 'maximum timeout';
  settle(req, now, which === 'idle' ? 'timeout-idle' : 'timeout-max', `${label} at ${now} ms: error ${ERROR_CODES.requestTimeout} swallowed — no cancellation; the client silently re-sent the call as ${JSON.stringify(id)}`, 'mech.silent-resend');
  mark(req, { resentAs: JSON.stringify(id) });
  const ev: StartEvent = {
    id: `resend-${req.key}`,
    at: now,
    actor: 'client',
    kind: 'start',
    requestId: id,
    method: req.method,
    tool: req.tool,
    progressToken: req.progressToken === null ? undefined : `${String(req.progressToken)}-resend-1`,
    idleTimeoutMs: req.idleTimeoutMs,
    maxTimeoutMs: req.maxTimeoutMs,
    cancellable: req.cancellable,
  };
  start(state, ev, ctx);
  const fresh = state.requests[state.requests.length - 1];
  if (fresh.id !== id) throw new Error(`silentResend: the re-send of ${req.key} was refused`);
  mark(fresh, { resendOf: req.key });
  state.views[state.indexOf[req.key]] = null;
  state.touched = [req.key, fresh.key];
  ctx.why(() => `The ${label} of ${describeId(req.id)} fires at ${now} ms; the client sends no cancellation and silently re-sends ${req.tool} as ${describeId(id)} (bug, ruby-mcp-client PR#178) while the first execution may still run.`, 'mech.silent-resend');
}
