import { callToolRequest, requestHeaders2026 } from '../mcp';
import { FLOW_RANK, type FlowCtx as Ctx } from './modelTypes';
import type { FlowConfig } from './schema';
import { opChanged, reissueChanged, type FlowCore, type ReissueCore } from './state';

/**
 * A broken 2026-07-28 response stream loses the watched operation's in-flight request; the client
 * re-issues it as a new request with a new JSON-RPC id (issue 11).
 *
 * Sources: 2026-07-28 `changelog` major item 9 ("Remove SSE stream resumability and message
 * redelivery (the `Last-Event-ID` header and SSE event IDs) from the Streamable HTTP transport. A
 * broken response stream loses the in-flight request; clients **MUST** re-issue it as a new request
 * with a new request ID"); `basic/transports/streamable-http` ("Resumable SSE streams via
 * `Last-Event-ID` are not supported"; closing the response stream is the cancellation signal).
 * The races lab models the same rule (`disconnect.2026`, invariants `retry-new-id` and
 * `side-effect-once`, scenario R1); the names here are the same.
 *
 * - At the break (`loseInFlight`): the request is over. The server treats the close as
 *   cancellation and stops the execution still running (its producers' pending writes are
 *   cancelled); the client drops the request's idle deadline (a new request gets its own).
 * - At the reconnect (`reissueLost`): a new `tools/call` with a new id (`<token>-reissue-<n>`),
 *   the same tool, progress token and idempotency key. A new id is a new request to the server: it
 *   executes the tool again (the producers restart, shifted to the re-issue's time) — unless the
 *   call carries an idempotency key the server deduplicates on and the first execution completed:
 *   then it answers with the stored result at once. Without the key, an execution that completed
 *   but whose result was lost with the stream (held by the proxy, queued for a stalled client)
 *   runs a second time: a side-effecting tool performs its side effect twice — the ledger lab's
 *   lost response (scenario F).
 * - Bug `resumeUnder2026` (the lab's old rule): nothing is lost; the client keeps waiting for the
 *   old id and the server keeps writing the old execution to the new stream, as if resumed.
 *   Invariant `retry-new-id` names it.
 */

/** The rule id of the notes and ignored items of this module. */
export const REISSUE_RULE = 'flow.reissue-2026';

/**
 * The request record at the start. The watched operation is a call awaiting its result unless one
 * of its producers is an endless feed (no final: a notification stream whose gaps the resync
 * refetches); a call's request 1 has the operation's token as its id (the id its response carries)
 * and one execution. Anything else has no request id, and this module leaves it alone.
 */
export function initialReissue(config: FlowConfig, opToken: string | null): ReissueCore {
  const call = opToken !== null && config.producers.every((p) => p.token !== opToken || p.final);
  return { requestId: call ? opToken : null, lostRequestId: null, reissues: 0, executions: call ? 1 : 0, sideEffects: 0, storedResult: false, handles: new Array<number>(config.producers.length).fill(-1), resumed: 0, firstResumedAtMs: null };
}

/** Whether the 2026-07-28 rule applies to a break now: 2026-07-28, the operation still waits for its result, the old-rule bug off. */
function losesRequest(s: FlowCore): boolean {
  return s.config.revision === '2026-07-28' && s.op.state === 'waiting' && s.reissue.requestId !== null;
}

/** The JSON-RPC id of a response for `token`: the operation's current request id, else the token. */
export function responseIdOf(s: FlowCore, token: string): string {
  return token === s.op.token && s.reissue.requestId !== null ? s.reissue.requestId : token;
}

/**
 * The stream broke (called by `goDown`). Under 2026-07-28 with the operation waiting: the request
 * is lost (see the module docstring); with the `resumeUnder2026` bug only counted for the
 * invariant. Returns the text to add to the step's note ('' when nothing was lost).
 */
export function loseInFlight(s: FlowCore, ctx: Ctx): string {
  if (!losesRequest(s)) return '';
  const r = s.reissue;
  reissueChanged(s);
  if (s.config.bugs.resumeUnder2026) {
    r.resumed++;
    r.firstResumedAtMs ??= ctx.now;
    return '';
  }
  r.lostRequestId = r.requestId;
  for (let i = 0; i < r.handles.length; i++) {
    if (r.handles[i] >= 0) ctx.cancel(r.handles[i]);
    r.handles[i] = -1;
  }
  const op = s.op;
  if (op.idleHandle >= 0) ctx.cancel(op.idleHandle);
  op.idleHandle = -1;
  op.idleDeadlineAt = null;
  opChanged(s);
  return ` Under 2026-07-28 the in-flight request ${JSON.stringify(r.requestId)} is lost with it (no resumption): the server treats the close as cancellation and stops its execution; the client will re-issue it with a new id.`;
}

/** Whether a final the server writes now for `token` belongs to an execution stopped with its lost request. */
export function writesForLostRequest(s: FlowCore, token: string): boolean {
  return token === s.op.token && s.reissue.lostRequestId !== null;
}

/** The server wrote the operation's final (an execution completed): its side effect happened; a key stores the result. */
export function executionCompleted(s: FlowCore): void {
  const r = s.reissue;
  if (r.requestId === null) return;
  if (s.config.client.sideEffect) r.sideEffects++;
  if (s.config.client.idempotencyKey !== null && !s.config.bugs.idempotencyKeyOmitted) r.storedResult = true;
  reissueChanged(s);
}

/**
 * Records the pending timer of producer `i` while it writes the operation's events. A handle is
 * not what the request's invariants read (`resumed`, `sideEffects`): the record's view is dropped,
 * but the request is not marked touched.
 */
export function trackProducer(s: FlowCore, i: number, handle: number): void {
  if (s.config.producers[i].token !== s.op.token || s.reissue.requestId === null) return;
  s.reissue.handles[i] = handle;
  s.reissueView = null;
}


/**
 * The client reconnected with a lost request (called by the reconnect timer once the stream is
 * open again): sends the new `tools/call` and returns whether the server answers it from the key's
 * stored result (the caller then writes that final). Otherwise the server starts a new execution:
 * the operation's producers restart from now and the request's idle deadline is armed by the caller.
 */
export function reissueLost(s: FlowCore, ctx: Ctx): { text: string; stored: boolean } {
  const r = s.reissue;
  const c = s.config;
  const lost = r.lostRequestId as string;
  const token = s.op.token as string;
  r.reissues++;
  r.requestId = `${token}-reissue-${r.reissues}`;
  r.lostRequestId = null;
  reissueChanged(s);
  const key = c.client.idempotencyKey !== null && !c.bugs.idempotencyKeyOmitted ? c.client.idempotencyKey : undefined;
  const message = callToolRequest('2026-07-28', r.requestId, c.client.tool, token, { idempotencyKey: key });
  ctx.emit({
    from: 'client',
    transport: 'streamable-http',
    http: `reconnects: re-issues the lost request ${JSON.stringify(lost)} as a new request with a new JSON-RPC id ${JSON.stringify(r.requestId)} (POST; no Last-Event-ID: 2026-07-28 has no resumption)${key === undefined ? '' : ` carrying idempotency key ${JSON.stringify(key)}`}`,
    headers: requestHeaders2026(message),
    message,
    requestKey: r.requestId,
  });
  if (r.storedResult) return { stored: true, text: `The client re-issues ${JSON.stringify(lost)} as ${JSON.stringify(r.requestId)}. The server knows idempotency key ${JSON.stringify(key)}: its execution completed, so it answers the new request with the stored result — no second execution.` };
  r.executions++;
  c.producers.forEach((p, i) => {
    if (p.token !== token || (p.count === 0 && !p.final)) return;
    r.handles[i] = ctx.schedule(ctx.now + p.startMs, FLOW_RANK.server, 'server', s.producerLabels[i], { kind: 'produce', producer: i, n: 0 });
  });
  const twice = c.client.sideEffect && r.sideEffects > 0;
  return {
    stored: false,
    text: `The client re-issues ${JSON.stringify(lost)} as a new request ${JSON.stringify(r.requestId)}: a new id is a new request, so the server executes ${c.client.tool} again (execution ${r.executions}).${twice ? ` Its first execution already completed (the result was lost with the stream): without an idempotency key the side effect happens twice — the ledger lab's lost response (scenario F).` : ''}`,
  };
}
