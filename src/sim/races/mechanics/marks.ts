import type { Json } from '../../types';
import type { RequestState } from '../types';

/**
 * Per-request marks of the failure mechanics (issue 11), kept in `RequestState.mech`: absent
 * unless a mechanic touched the request, so every trace that uses none keeps its shape. The
 * object is replaced, never changed in place (frozen views share it).
 *
 * Times are virtual ms.
 */
export interface MechanicsMarks {
  /** python-sdk#2610: the server's receive loop died while handling this request's cancel. */
  receiveLoopDiedAt?: number;
  /** This request reached the server after its receive loop died: never read. */
  unreadAt?: number;
  /** claude-code#53617: the server sent progress for this request after its final response. */
  progressAfterResultAt?: number;
  /** claude-code#53617: this call was failed by the host tearing the server down on a stray progress. */
  killedByStrayProgressAt?: number;
  /** This call was failed by a client that reconnects on a response for an abandoned id. */
  killedByLateResponseAt?: number;
  /** ruby-mcp-client PR#178: this request timed out and was re-sent silently as `resentAs` (instance key). */
  resentAs?: string;
  /** The instance key of the timed-out request this one silently re-sends. */
  resendOf?: string;
  /** Intermediary hop (`config.hop`): its timer handles (-1 when none) and current idle deadline, ms. */
  hopIdleHandle?: number;
  hopIdleDeadlineAt?: number;
  hopMaxHandle?: number;
  /** The last progress for this request that passed through the hop, ms. */
  hopLastProgressAt?: number;
  /** The hop cut this call: when, by which timer, its idle timeout, the last progress it passed, and the error text it answered with. */
  hopCut?: { at: number; which: 'idle' | 'max'; idleTimeoutMs: number; lastProgressAt: number | null; text: string };
  /** Write window (`complete.writeDelayMs`): the response written at `at` (ms), after the handler returned. */
  writePending?: { at: number; message: Json; ok: boolean; isError: boolean };
  /** A cancellation landed in the write window at this time (ms). */
  lateCancelAt?: number;
  /** Responses the server wrote for this request id (set only by the write window; must stay ≤ 1). */
  responsesWritten?: number;
  /** Responses for this id that reached the client (set only once the server wrote one in a window). */
  responsesArrived?: number;
  /** The server process crashed writing this request's response (ms). */
  crashedAt?: number;
  /** This call failed because the server had crashed in a write window (ms). */
  killedByCrashAt?: number;
  /** qwen-code#11272: the client ended the stdio server process to cancel this call (ms). */
  processKilledAt?: number;
  /** This call, in flight, failed because the client ended the server process to cancel another (ms). */
  killedByCancelKillAt?: number;
  /** This call was started after the client ended the server process: the transport was closed, it failed at once (ms). */
  closedTransportAt?: number;
  /** XcodeMCPKit#204: the buggy stdio reader stopped the server process over an incomplete prefix of this call's response (ms), and that prefix's size (bytes). */
  prefixLimitAt?: number;
  prefixBytes?: number;
  /** This call, in flight, failed because the buggy reader stopped the server process over another call's prefix (ms). */
  killedByPrefixLimitAt?: number;
  /** This call was started after the buggy reader stopped the server process: the transport was closed, it failed at once (ms). */
  closedByPrefixLimitAt?: number;
  /** The buggy reader let this call's response line through although it is over maxMessageBytes (its size, bytes). */
  oversizeAcceptedBytes?: number;
  /** The correct reader rejected this call's complete response line, over maxMessageBytes (its size, bytes). */
  oversizeRejectedBytes?: number;
  /** The size of this call's response line, from its complete event's `resultBytes` (bytes). */
  resultBytes?: number;
  /** claude-code#65413 (`incompleteTailDropped`): the reader never reassembled this call's response line (ms), of `lineBytes` bytes. */
  lineDroppedAt?: number;
  lineBytes?: number;
  /** 2026-07-28 versions (`config.protocolVersions`): the version this request declared in `_meta`. */
  versionDeclared?: string;
  /** The server answered this request -32022 UnsupportedProtocolVersion (ms). */
  versionRejectedAt?: number;
  /** This request retries a -32022 with the version the client chose (which it declares from now on). */
  versionChosen?: string;
  /** Bug `unsupportedVersionNotRetried`: the client failed this call on -32022 although a version in common was listed (ms). */
  versionNotRetriedAt?: number;
  /** No version in common: the client surfaced the -32022 (ms). */
  versionNoneCompatibleAt?: number;
  /** agent-os#894 (`replyIsFirstMessageRead`): this call took a notification as its reply — an empty success (ms), and the message it took (`notifications/progress 1 for "1"`). */
  notificationAsResultAt?: number;
  replyWas?: string;
  /** This call took another call's response as its own (ms). */
  otherReplyAt?: number;
  /** This call's message (a progress or its response) went to the waiting call with this instance key. */
  replyTakenBy?: string;
  /** This call's message arrived while no call waited: kept for the next call (ms). */
  readQueuedAt?: number;
  /** agent-os#894 (`contentLengthFraming`): the client framed this request with a Content-Length header (ms); the server never received it. */
  contentLengthFramedAt?: number;
}

/** Sets marks on `req` (a new object; the caller calls `changed`). */
export function mark(req: RequestState, marks: MechanicsMarks): void {
  req.mech = { ...req.mech, ...marks };
}
