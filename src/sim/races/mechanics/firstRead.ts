import type { ReadMessage, RequestState } from '../types';
import { byKey, changed, clearDeadlines, describeId, firstPendingIndex, settle, type Ctx, type RacesCore } from '../state';
import { touchAll } from './strayProgress';
import { mark } from './marks';

/**
 * A stdio client that frames and pairs messages the wrong way (agent-os#894, fixed by PR#1157).
 * On stdio "messages are delimited by newlines, and MUST NOT contain embedded newlines"
 * (2025-11-25 `basic/transports`, stdio; 2026-07-28 `basic/transports/stdio`), and a response
 * "MUST include the same ID as the request it corresponds to" (`basic`, Responses): a client reads
 * one line per message and pairs each response with its request by id; notifications (progress,
 * log messages) are routed by method and answer nothing.
 *
 * Bug `policy.replyIsFirstMessageRead`: after writing a request the client returns the first
 * message it reads as that request's reply. A server that sends a notification before a response
 * (here `notifications/progress`) makes the notification the call's result — an empty success, no
 * content and `isError` false — and the real response, read by nobody, waits in the pipe for the
 * next call, which takes it: every later call gets the previous one's result ("the stream stays
 * one message behind"). Model: the calls still pending wait in the order they were sent; each
 * message the server sends reaches the first of them; a message that arrives while no call waits
 * is kept in `RacesCore.readQueue` and given to the next call at its start.
 *
 * Bug `policy.contentLengthFraming`: the client frames every message LSP-style,
 * `Content-Length: N\r\n\r\n{…}` with no newline after the body. A newline-delimited server reads
 * the header line (not JSON), an empty line, and a body that only ends when the next header
 * begins — never one complete JSON-RPC message — so no request and no cancel is ever received and
 * every call ends at its timeout. (What such a server does with the bad lines varies; the
 * TypeScript SDK's stdio reader reports each as an error and answers nothing.)
 *
 * Both act on stdio only (Streamable HTTP frames each message by its HTTP body and SSE event).
 * Times are virtual ms.
 */

/** True when the client pairs replies by reading order (the switch, on stdio). */
export function pairsByReadOrder(state: RacesCore): boolean {
  return state.config.policy.replyIsFirstMessageRead && state.config.transport === 'stdio';
}

/** True when the client frames messages with Content-Length headers (the switch, on stdio): the server never receives them. */
export function framesWithContentLength(state: RacesCore): boolean {
  return state.config.policy.contentLengthFraming && state.config.transport === 'stdio';
}

/** The text of `msg` in a reason: `notifications/progress 1 for "1"`, `the response to "1"`. */
function messageText(msg: ReadMessage): string {
  return msg.kind === 'progress' ? `notifications/progress ${msg.progress} for ${msg.of}` : `the ${msg.ok ? 'result' : 'error'} response to ${msg.of}`;
}

/** The first call still waiting for its reply (the first pending one, in the order they were sent), or undefined. */
function firstWaiting(state: RacesCore): RequestState | undefined {
  const requests = state.requests;
  for (let i = firstPendingIndex(state); i < requests.length; i++) if (requests[i].client.state === 'pending') return requests[i];
  return undefined;
}

/**
 * The buggy client makes `msg` the reply of `waiter` at `ctx.now`: a notification becomes an empty
 * success, another call's response becomes this call's result (or error). Marks both calls.
 */
function takeAsReply(waiter: RequestState, msg: ReadMessage, ctx: Ctx): void {
  const now = ctx.now;
  clearDeadlines(waiter, ctx);
  const text = messageText(msg);
  if (msg.kind === 'progress') {
    settle(waiter, now, 'completed', `the first message read after writing the request was ${text}, taken as the reply: an empty success (no content, isError false)`, 'mech.reply-by-id');
    mark(waiter, { notificationAsResultAt: now, replyWas: text });
  } else {
    settle(waiter, now, msg.ok ? 'completed' : 'failed', `the first message read after writing the request was ${text}, taken as this call's ${msg.ok ? 'result' : 'error'}`, 'mech.reply-by-id');
    mark(waiter, { otherReplyAt: now, replyWas: text });
  }
  ctx.why(
    () => `${describeId(waiter.id)} is waiting for its reply and the client reads ${text}: the buggy client (agent-os#894) returns the first message read as the reply${msg.kind === 'progress' ? ', so a notification becomes an empty success' : `, so ${describeId(waiter.id)} gets another call's ${msg.ok ? 'result' : 'error'}`}; matched by id, it would have waited for its own response.`,
    'mech.reply-by-id',
  );
}

/**
 * A message from the server (`msg`, for the call `owner`) reaches the client that pairs by reading
 * order. Returns true when the bug decided what it did (given to a waiting call other than the
 * owner's own response, or kept for the next call); false when it is the owner's own response to
 * the first waiting call — read as usual.
 */
export function readInOrder(state: RacesCore, owner: RequestState, msg: ReadMessage, ctx: Ctx): boolean {
  const waiter = firstWaiting(state);
  if (waiter === owner && msg.kind === 'response') return false;
  if (waiter === undefined) {
    state.readQueue = [...(state.readQueue ?? []), msg];
    mark(owner, { readQueuedAt: ctx.now });
    ctx.why(() => `The client reads ${messageText(msg)} while no call waits for a reply: the buggy client keeps it for the next call it sends (agent-os#894).`, 'mech.reply-by-id');
    changed(state, owner);
    return true;
  }
  takeAsReply(waiter, msg, ctx);
  if (waiter !== owner) taken(owner, waiter, msg);
  touchAll(state, waiter === owner ? [owner] : [waiter, owner]);
  return true;
}

/** `owner`'s message `msg` went to `waiter`: marked on the owner; a response was read (its fate: accepted, by the wrong call). */
function taken(owner: RequestState, waiter: RequestState, msg: ReadMessage): void {
  mark(owner, { replyTakenBy: waiter.key });
  if (msg.kind === 'response') owner.client.responseFate = 'accepted';
}

/** The buggy client just wrote `req`: the first message kept in `readQueue`, if any, is its reply at once. */
export function claimQueued(state: RacesCore, req: RequestState, ctx: Ctx): void {
  const queue = state.readQueue;
  if (queue === undefined || queue.length === 0) return;
  const msg = queue[0];
  state.readQueue = queue.slice(1);
  takeAsReply(req, msg, ctx);
  const owner = byKey(state, msg.key);
  if (owner === undefined) return changed(state, req);
  taken(owner, req, msg);
  touchAll(state, [req, owner]);
}

/** A request the buggy client framed with Content-Length headers: marks it; the server never reads it. */
export function framedUnread(req: RequestState, ctx: Ctx): void {
  mark(req, { contentLengthFramedAt: ctx.now });
  ctx.why(() => `The client frames ${describeId(req.id)} as "Content-Length: N\\r\\n\\r\\n{…}" (agent-os#894): a newline-delimited server reads a header line that is not JSON and a body with no newline after it — never a complete message, so the request is never received.`, 'mech.stdio-framing');
}
