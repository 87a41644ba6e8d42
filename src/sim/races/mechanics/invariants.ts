import type { RequestState } from '../types';

/**
 * Invariants of the failure mechanics (issue 11), in the races checks' shape: each reads one
 * request (and, for `at-most-one-execution`, the request it re-sends). They read only
 * `RequestState.mech`, which only the mechanics' switches set, so with those off they always hold.
 */

type State = { indexOf: Readonly<Record<string, number>>; requests: readonly RequestState[] };

export interface MechanicsCheck {
  name: string;
  description: string;
  check: (r: RequestState, state: State) => string | null;
}

const RUNNING = new Set(['working', 'completed']);

/** The mechanics' named invariants. */
export const MECHANICS_CHECKS: MechanicsCheck[] = [
  {
    name: 'receive-loop-survives-cancel',
    description: 'A cancellation affects only its own request: every request that reaches the server afterwards is still read (python-sdk#2610).',
    check: (r) => (r.mech?.unreadAt !== undefined ? `${r.key} reached the server at ${r.mech.unreadAt} ms and was never read: the receive loop had died after a cancel` : null),
  },
  {
    name: 'progress-stops-after-result',
    description: 'The server sends no progress for a request after its final response (progress MUST stop after completion).',
    check: (r) => (r.mech?.progressAfterResultAt !== undefined ? `the server sent progress for ${r.key} at ${r.mech.progressAfterResultAt} ms, after its response at ${r.server.responseSentAt} ms` : null),
  },
  {
    name: 'stray-progress-harmless',
    description: 'A stray progress notification (for a call that already ended) never fails another call: the client drops it (claude-code#53617).',
    check: (r) => (r.mech?.killedByStrayProgressAt !== undefined ? `${r.key} failed at ${r.mech.killedByStrayProgressAt} ms because the host killed a healthy server over a stray progress` : null),
  },
  {
    name: 'late-response-harmless',
    description: 'A response for an abandoned id is ignored (at most logged): it never fails another call in flight.',
    check: (r) => (r.mech?.killedByLateResponseAt !== undefined ? `${r.key} failed at ${r.mech.killedByLateResponseAt} ms because the client reconnected over a response for an abandoned id` : null),
  },
  {
    name: 'no-silent-resend',
    description: 'A timed-out call is cancelled, never re-sent behind the caller\'s back under a new id (ruby-mcp-client PR#178).',
    check: (r) => (r.mech?.resentAs !== undefined ? `${r.key} timed out at ${r.client.atMs} ms and was silently re-sent as ${r.mech.resentAs}` : null),
  },
  {
    name: 'at-most-one-execution',
    description: 'One tool call executes at most once: a re-sent copy never starts while the first execution runs or after it completed.',
    check: (r, state) => {
      if (r.mech?.resendOf === undefined || !RUNNING.has(r.server.state)) return null;
      const first = state.requests[state.indexOf[r.mech.resendOf]];
      return first && RUNNING.has(first.server.state) && first.server.receivedAt !== null
        ? `${r.tool} executes twice: ${first.key} (${first.server.state}) and its silent re-send ${r.key}, started at ${r.server.receivedAt} ms`
        : null;
    },
  },
  {
    name: 'hop-idle-reset-by-progress',
    description: 'An intermediary hop never cuts a call on its idle timer while progress for it passed through within that idle timeout.',
    check: (r) => {
      const cut = r.mech?.hopCut;
      return cut !== undefined && cut.which === 'idle' && cut.lastProgressAt !== null && cut.at - cut.lastProgressAt < cut.idleTimeoutMs
        ? `the hop cut ${r.key} at ${cut.at} ms on its ${cut.idleTimeoutMs} ms idle timer although progress passed through it at ${cut.lastProgressAt} ms`
        : null;
    },
  },
  {
    name: 'one-response-per-request',
    description: 'The server writes exactly one response per request id, also when a cancel lands between the handler\'s return and the write.',
    check: (r) => ((r.mech?.responsesWritten ?? 0) > 1 ? `the server wrote ${r.mech!.responsesWritten} responses for ${r.key}` : null),
  },
  {
    name: 'late-cancel-harmless',
    description: 'A cancel that lands after the handler returned never fails another call: the server neither crashes nor stops reading.',
    check: (r) => (r.mech?.killedByCrashAt !== undefined ? `${r.key} failed at ${r.mech.killedByCrashAt} ms because the server crashed writing a response after a late cancel` : null),
  },
  {
    name: 'server-outlives-cancel',
    description: 'A cancel ends one request, never the server: on stdio the client sends notifications/cancelled and the server process lives (qwen-code#11272, claude-code#49479).',
    check: (r) => (r.mech?.processKilledAt !== undefined ? `the client ended the server process at ${r.mech.processKilledAt} ms to cancel ${r.key} instead of sending notifications/cancelled` : null),
  },
  {
    name: 'later-call-answered',
    description: 'Every call other than the cancelled one — in flight at the cancel, or sent after it — still reaches a live server: a cancel never closes the transport.',
    check: (r) => {
      const m = r.mech;
      if (m?.closedTransportAt !== undefined) return `${r.key}, sent at ${m.closedTransportAt} ms, failed at once with connection closed: the client had ended the server process over a cancel`;
      return m?.killedByCancelKillAt !== undefined ? `${r.key} failed at ${m.killedByCancelKillAt} ms because the client ended the server process to cancel another call` : null;
    },
  },
  {
    name: 'message-limit-on-complete-line',
    description: 'A message-size limit judges complete messages (on stdio, lines): the same response is accepted or rejected whatever the pipe\'s chunking — never failed on an incomplete prefix, never let through over the limit (XcodeMCPKit#204).',
    check: (r) => {
      const m = r.mech;
      if (m?.prefixLimitAt !== undefined) return `the client judged an incomplete ${m.prefixBytes}-byte prefix of ${r.key}'s response against its limit at ${m.prefixLimitAt} ms, before the line was complete`;
      return m?.oversizeAcceptedBytes !== undefined ? `the client let ${r.key}'s ${m.oversizeAcceptedBytes}-byte response line through although it is over its limit: whole in one read, the prefix check never saw it` : null;
    },
  },
  {
    name: 'oversize-rejected-alone',
    description: 'An over-limit message fails its own call only: the server process lives, and every other call — in flight or sent later — is still answered.',
    check: (r) => {
      const m = r.mech;
      if (m?.closedByPrefixLimitAt !== undefined) return `${r.key}, sent at ${m.closedByPrefixLimitAt} ms, failed at once with connection closed: the client had stopped the server process over another response's size`;
      return m?.killedByPrefixLimitAt !== undefined ? `${r.key} failed at ${m.killedByPrefixLimitAt} ms because the client stopped the server process over another response's size` : null;
    },
  },
  {
    name: 'version-mismatch-retried',
    description: 'A call answered -32022 UnsupportedProtocolVersion is retried with a version from the server\'s supported list when the client speaks one (2026-07-28 basic/versioning): it fails only when no version is in common.',
    check: (r) => {
      const m = r.mech;
      return m?.versionNotRetriedAt !== undefined ? `${r.key} failed at ${m.versionNotRetriedAt} ms on -32022 for ${JSON.stringify(m.versionDeclared)} although the server listed a version the client speaks: not retried` : null;
    },
  },
  {
    name: 'response-line-reassembled',
    description: 'A response line longer than one read from the pipe is joined across reads and processed: no result the server wrote is lost in the client\'s reader (claude-code#65413).',
    check: (r) => {
      const m = r.mech;
      return m?.lineDroppedAt !== undefined ? `${r.key}'s ${m.lineBytes}-byte response line reached the client at ${m.lineDroppedAt} ms and was never processed: the reader dropped each read's incomplete tail` : null;
    },
  },
  {
    name: 'reply-matched-by-id',
    description: 'A call\'s reply is the response carrying its own id: never another call\'s response read next in the pipe (agent-os#894).',
    check: (r) => {
      const m = r.mech;
      return m?.otherReplyAt !== undefined ? `${r.key} took ${m.replyWas} as its own reply at ${m.otherReplyAt} ms: the client paired by reading order, not by id` : null;
    },
  },
  {
    name: 'notification-is-not-a-result',
    description: 'A notification (progress, a log message) never completes a call: it carries no id and answers nothing (agent-os#894: empty successes).',
    check: (r) => {
      const m = r.mech;
      return m?.notificationAsResultAt !== undefined ? `${r.key} completed at ${m.notificationAsResultAt} ms with ${m.replyWas} as its result: an empty success` : null;
    },
  },
  {
    name: 'newline-delimited-framing',
    description: 'On stdio every message is one line of JSON: a request framed with Content-Length headers is never received by a newline-delimited server (agent-os#894).',
    check: (r) => {
      const m = r.mech;
      return m?.contentLengthFramedAt !== undefined ? `${r.key} was written at ${m.contentLengthFramedAt} ms as "Content-Length: N" + a blank line + JSON: the server never read it as a message` : null;
    },
  },
];

/** Names of the mechanics' invariants. */
export const MECHANICS_INVARIANT_NAMES: ReadonlySet<string> = new Set(MECHANICS_CHECKS.map((c) => c.name));
