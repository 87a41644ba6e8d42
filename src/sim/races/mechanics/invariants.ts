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
];

/** Names of the mechanics' invariants. */
export const MECHANICS_INVARIANT_NAMES: ReadonlySet<string> = new Set(MECHANICS_CHECKS.map((c) => c.name));
