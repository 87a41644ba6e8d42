import { ERROR_CODES, type RequestId } from '../../mcp';
import { idKey, type RequestState } from '../types';
import { addRequest, changed, clearDeadlines, describeId, newRequest, settle, type Ctx, type RacesCore, type RequestStart } from '../state';
import { failCall, failCallsInFlight, touchAll, victimText } from './strayProgress';
import { mark } from './marks';

/**
 * A message-size limit on the stdio client's reader (XcodeMCPKit#204), configured by
 * `config.stdioReader`: `maxMessageBytes` (the limit), `chunkBytes` (how many bytes one read from
 * the pipe returns) and `largeResponses` (the calls whose response line is large; every other
 * message is small). On stdio "messages are delimited by newlines" (2025-11-25 `basic/transports`,
 * stdio; 2026-07-28 `basic/transports/stdio`), so a message is a complete line, and a limit on
 * messages is a limit on complete lines.
 *
 * Correct: the reader judges each complete line. A response line over `maxMessageBytes` is
 * rejected alone — its call fails with an error, the server process lives, every other call goes
 * on — and the result is the same whatever `chunkBytes` is.
 *
 * Bug `policy.limitCheckedOnPrefix` (XcodeMCPKit v0.16.1 StdioFramer): after each read the reader
 * first extracts the complete lines, then checks the bytes left over — an incomplete prefix —
 * against the limit, and an over-limit prefix is a fatal protocol violation that stops the server
 * process. A line of L bytes read C bytes at a time leaves the prefixes C, 2C, … while kC < L: the
 * first over the limit M is after read floor(M / C) + 1, which exists when (floor(M / C) + 1) · C < L.
 * So the same line passes when one read holds it all (C ≥ L: no prefix is ever left) and kills
 * the server when the pipe splits it small; a line over the limit that passes is processed as if
 * there were no limit.
 *
 * Bug `policy.incompleteTailDropped` (claude-code#65413, see `lineNeverRead`): each read is parsed
 * on its own, so a response line longer than `chunkBytes` is never reassembled and never processed.
 * A response's size comes from its complete event's `resultBytes` or from `largeResponses`.
 *
 * Sizes are bytes; the reads all happen at the response's arrival (virtual ms): the lab does not
 * model transfer time.
 */

/**
 * The size of `req`'s response line (bytes) when it is known and the transport is stdio with a
 * `config.stdioReader`: the `resultBytes` of the complete event that answered it, else the size
 * `stdioReader.largeResponses` lists for it, else null (a small message). O(listed responses).
 */
export function largeResponseBytes(state: RacesCore, req: RequestState): number | null {
  const reader = state.config.stdioReader;
  if (reader === undefined || state.config.transport !== 'stdio') return null;
  if (req.mech?.resultBytes !== undefined) return req.mech.resultBytes;
  const key = idKey(req.id);
  for (const r of reader.largeResponses) if (idKey(r.requestId) === key) return r.messageBytes;
  return null;
}

/**
 * The first incomplete prefix over `maxMessageBytes` a reader of `chunkBytes` per read is left with
 * while a line of `messageBytes` arrives (bytes), or null when none is: the prefix after read
 * floor(max / chunk) + 1, if that read still ends before the line does.
 */
export function overLimitPrefixBytes(messageBytes: number, chunkBytes: number, maxMessageBytes: number | undefined): number | null {
  if (maxMessageBytes === undefined) return null;
  const prefix = (Math.floor(maxMessageBytes / chunkBytes) + 1) * chunkBytes;
  return prefix < messageBytes ? prefix : null;
}

/**
 * The response of `req`, `messageBytes` long, reaches the stdio client's reader. Returns true when
 * the reader decided the call's fate (rejected it, or the bug stopped the server); false when the
 * response is read as usual (under the limit, or over it and let through by the bug, which marks it).
 */
export function readLargeResponse(state: RacesCore, req: RequestState, messageBytes: number, ctx: Ctx): boolean {
  const { maxMessageBytes, chunkBytes } = state.config.stdioReader!;
  const now = ctx.now;
  if (state.config.policy.incompleteTailDropped && messageBytes > chunkBytes) {
    lineNeverRead(state, req, messageBytes, chunkBytes, ctx);
    return true;
  }
  if (state.config.policy.limitCheckedOnPrefix) {
    const prefix = overLimitPrefixBytes(messageBytes, chunkBytes, maxMessageBytes);
    if (prefix !== null) {
      stopServerOnPrefix(state, req, messageBytes, prefix, ctx);
      return true;
    }
    if (maxMessageBytes !== undefined && messageBytes > maxMessageBytes) {
      mark(req, { oversizeAcceptedBytes: messageBytes });
      ctx.why(() => `The ${messageBytes}-byte response to ${describeId(req.id)} arrives ${chunkBytes} bytes per read: no incomplete prefix is left over ${maxMessageBytes} bytes, so the buggy reader lets a line over its limit through (XcodeMCPKit#204); split smaller, the same line would stop the server.`, 'mech.stdio-message-limit');
    }
    return false;
  }
  if (maxMessageBytes === undefined || messageBytes <= maxMessageBytes || req.client.state !== 'pending') return false;
  clearDeadlines(req, ctx);
  req.client.responseFate = 'accepted';
  settle(req, now, 'failed', `the response line is ${messageBytes} bytes, over the reader's maxMessageBytes ${maxMessageBytes}: rejected alone, the call fails with an error; the server lives`, 'mech.stdio-message-limit');
  mark(req, { oversizeRejectedBytes: messageBytes });
  ctx.why(() => `The whole ${messageBytes}-byte response line to ${describeId(req.id)} is over the reader's ${maxMessageBytes}-byte limit: the client rejects that one message and fails ${describeId(req.id)} with an error; the server process lives and every other call goes on (the same whatever the pipe's ${chunkBytes}-byte reads).`, 'mech.stdio-message-limit');
  touchAll(state, [req]);
  return true;
}

/**
 * Bug `policy.incompleteTailDropped` (one reader that shows claude-code#65413): the client parses
 * each read from the pipe on its own and drops the bytes after its last newline instead of keeping
 * them for the next read, so a line longer than one read is never reassembled — read 1 holds no
 * newline, the last read holds only the line's tail, which is not JSON. The response the server
 * wrote is never processed; its call stays pending (with no timeout, until the user cancels it).
 */
function lineNeverRead(state: RacesCore, req: RequestState, messageBytes: number, chunkBytes: number, ctx: Ctx): void {
  const now = ctx.now;
  const reads = Math.ceil(messageBytes / chunkBytes);
  mark(req, { lineDroppedAt: now, lineBytes: messageBytes });
  ctx.ignore(() => ({ by: 'client', what: `response to ${req.key} (${messageBytes} bytes)`, reason: `its line spans ${reads} reads of ${chunkBytes} bytes and the reader drops each read's incomplete tail: never reassembled`, rule: 'mech.stdio-reassembly' }));
  ctx.why(
    () => `The ${messageBytes}-byte response line to ${describeId(req.id)} arrives in ${reads} reads of at most ${chunkBytes} bytes. The buggy reader (claude-code#65413) parses each read on its own and drops what follows its last newline: no read holds the whole line, so the response is never processed and ${describeId(req.id)} ${req.client.state === 'pending' ? 'stays pending' : `stays ${req.client.state}`}. A line that fits one read is read as usual.`,
    'mech.stdio-reassembly',
  );
  changed(state, req);
}

/** The buggy reader judged an incomplete prefix of `prefixBytes` over the limit: it stops the server process; every call in flight fails. */
function stopServerOnPrefix(state: RacesCore, req: RequestState, messageBytes: number, prefixBytes: number, ctx: Ctx): void {
  const { maxMessageBytes, chunkBytes } = state.config.stdioReader!;
  const now = ctx.now;
  const reads = prefixBytes / chunkBytes;
  const why = `the client stopped the server process at ${now} ms: after ${reads} reads of ${chunkBytes} bytes, the incomplete ${prefixBytes}-byte prefix of ${describeId(req.id)}'s ${messageBytes}-byte response was over maxMessageBytes ${maxMessageBytes}`;
  if (req.client.state === 'pending') {
    failCall(req, ctx, why, 'mech.stdio-message-limit', { prefixLimitAt: now, prefixBytes });
  } else mark(req, { prefixLimitAt: now, prefixBytes });
  const victims = failCallsInFlight(state, ctx, why, 'mech.stdio-message-limit', { killedByPrefixLimitAt: now });
  ctx.why(
    () => `The ${messageBytes}-byte response to ${describeId(req.id)} arrives ${chunkBytes} bytes per read; after read ${reads} the incomplete prefix is ${prefixBytes} bytes, over the ${maxMessageBytes}-byte limit, and the buggy reader (XcodeMCPKit#204) treats it as a fatal protocol violation and stops the server process: ${victimText(victims)}. Read whole, the same line would have passed.`,
    'mech.stdio-message-limit',
  );
  touchAll(state, [req, ...victims]);
}

/** The time the buggy reader stopped the server process over a prefix, or null. O(requests), only with the switch on. */
export function prefixLimitStoppedAt(state: RacesCore): number | null {
  if (!state.config.policy.limitCheckedOnPrefix) return null;
  for (const r of state.requests) if (r.mech?.prefixLimitAt !== undefined) return r.mech.prefixLimitAt;
  return null;
}

/**
 * A call started after the buggy reader stopped the server process at `stoppedAt`: the transport is
 * closed, nothing is written, and the call fails at once with connection closed. Adds the request `key`.
 */
export function callAfterPrefixStop(state: RacesCore, key: string, id: RequestId, stoppedAt: number, from: RequestStart, ctx: Ctx): void {
  const now = ctx.now;
  const req = newRequest(key, id, now, from);
  settle(req, now, 'connection-closed', `the client stopped the server process at ${stoppedAt} ms over an incomplete prefix and the transport is closed: error ${ERROR_CODES.connectionClosed} (connection closed), nothing was sent`, 'mech.stdio-message-limit');
  req.server.streamClosed = true;
  mark(req, { closedByPrefixLimitAt: now });
  ctx.why(() => `The client calls ${describeId(id)} at ${now} ms, but it stopped the server process at ${stoppedAt} ms over an incomplete prefix: the transport is closed, and the call fails with ${ERROR_CODES.connectionClosed} (connection closed).`, 'mech.stdio-message-limit');
  addRequest(state, req);
}
