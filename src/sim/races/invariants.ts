import type { EntityInvariant } from '../core';
import type { Invariant, Step } from '../types';
import type { RacesConfig } from './schema';
import { idKey, type CancelSignal, type RacesState, type RequestState } from './types';
import type { RacesCore } from './state';
import { MECHANICS_CHECKS } from './mechanics/invariants';

/**
 * The races invariants, each over one request. They read only the entity kind 'request', so the
 * core runs them only on the requests a step touched (`RacesCore.touched`), and
 * `progress-keeps-alive` only after an idle deadline fired. `RACES_INVARIANTS` is the same set in
 * the historic `Invariant<RacesState>` shape (checked over `state.touched`).
 */

function originalMaxDeadline(r: RequestState): number | null {
  return r.maxTimeoutMs === null ? null : r.startAt + r.maxTimeoutMs;
}

/** A check of one request after a step at `at` (ms) of entry kind `kind`; null when it holds. */
type Check = (r: RequestState, state: { config: RacesConfig; requests: readonly RequestState[]; indexOf: Readonly<Record<string, number>> }, at: number, kind: string) => string | null;

const oneTerminal: Check = (r) => (r.client.terminalSets > 1 ? `${r.key} was settled ${r.client.terminalSets} times` : null);

const noResponseAfterCancel: Check = (r) => {
  const s = r.server;
  return s.cancelAcceptedAt !== null && s.responseSentAt !== null && s.responseSentAt >= s.cancelAcceptedAt
    ? `the server sent a response to ${r.key} at ${s.responseSentAt} ms after accepting its cancellation at ${s.cancelAcceptedAt} ms`
    : null;
};

const progressIncreasing: Check = (r) => (r.client.progressAfterEnd > 0 ? `${r.key} accepted progress after it ended` : null);

const maximumFixed: Check = (r) => {
  const original = originalMaxDeadline(r);
  return original !== null && r.maxDeadlineAt !== original ? `${r.key}'s maximum deadline moved from ${original} ms to ${r.maxDeadlineAt} ms` : null;
};

// Checked on the requests each step touches (O(1) per step); a call past its deadline is caught
// the next time anything happens to it (progress, a response, a cancel, a timeout).
const maximumEnforced: Check = (r, _state, at) => {
  const original = originalMaxDeadline(r);
  if (original === null || at <= original) return null;
  if (r.client.state === 'pending') return `${r.key} is still open at ${at} ms, past its maximum deadline ${original} ms`;
  if (r.client.atMs === at) return `${r.key} ended ${r.client.state} at ${r.client.atMs} ms, after its maximum deadline ${original} ms`;
  return null;
};

const progressKeepsAlive: Check = (r, state, at) => {
  if (r.client.state !== 'timeout-idle' || r.progressToken === null || r.idleTimeoutMs === null) return null;
  const last = r.server.lastWorkerProgressAt;
  // When that progress would have reached the client; arriving at the deadline itself is too late (inclusive).
  const arrival = last === null ? null : last + state.config.latencyMs.serverToClient;
  return arrival !== null && arrival < at && arrival + r.idleTimeoutMs > at
    ? `${r.key} timed out idle at ${at} ms although its worker made progress at ${last} ms (the progress never reached the client)`
    : null;
};

const cancelSettles: Check = (r) =>
  r.client.cancelRequestedAt !== null && r.client.state === 'pending' ? `${r.key} was cancelled at ${r.client.cancelRequestedAt} ms but is still pending` : null;

const cancelledNeverSucceeds: Check = (r) =>
  r.client.cancelRequestedAt !== null && r.client.state === 'completed'
    ? `${r.key} was cancelled at ${r.client.cancelRequestedAt} ms yet reported success at ${r.client.atMs} ms`
    : null;

const abandonSignals: Check = (r) => {
  const abandoned = r.client.state === 'cancelled' || r.client.state === 'timeout-idle' || r.client.state === 'timeout-max';
  return abandoned && r.client.cancelSignal === 'none' ? `${r.key} ended ${r.client.state} without any cancellation signal: the server keeps working` : null;
};

const transportSignal: Check = (r, state) => {
  const sig = r.client.cancelSignal;
  if (sig === 'none') return null;
  const { transport, revision } = state.config;
  const expected: CancelSignal = transport === 'stdio' || revision === '2025-11-25' ? 'notifications/cancelled' : 'stream-close';
  return sig !== expected ? `${r.key} was cancelled with ${sig}; ${transport} under ${revision} expects ${expected}` : null;
};

// Issue 11 (2026-07-28 re-issue and MRTR, idempotency, headers, malformed cancels). Each reads
// optional fields that only scenarios using those features set, so older traces are unaffected.
const retryNewId: Check = (r, state) => {
  if (r.retryOf === undefined) return null;
  const i = state.indexOf[r.retryOf];
  const from = i === undefined ? undefined : state.requests[i];
  return from !== undefined && idKey(from.id) === idKey(r.id)
    ? `${r.key} ${r.retryKind === 'mrtr' ? 'retries' : 're-issues'} ${r.retryOf} with the same request id ${idKey(r.id)}; it MUST be a new request with a new id`
    : null;
};

const sideEffectOnce: Check = (r) => {
  const n = r.server.opExecutions;
  return n !== undefined && n > 1 ? `${r.key} executed the side effect of its operation a ${n === 2 ? 'second' : `${n}th`} time (a re-issue or retry without an idempotency key)` : null;
};

const headersComplete: Check = (r) =>
  r.missingHeaders !== undefined && r.missingHeaders.length > 0 ? `${r.key} was POSTed without the required header ${r.missingHeaders.join(', ')}` : null;

const cancelWellFormed: Check = (r) =>
  r.malformedCancel !== undefined ? `${r.key} was cancelled with a malformed notifications/cancelled (${r.malformedCancel}); the server ignores it and keeps working` : null;

// Issue 23: a listen stream is acknowledged first, and a teardown reaches the client.
const listenAcknowledged: Check = (r) =>
  r.method === 'subscriptions/listen' && r.server.receivedAt !== null && r.server.listenAckAt === undefined
    ? `the server opened listen stream ${r.key} at ${r.server.receivedAt} ms without notifications/subscriptions/acknowledged as its first message`
    : null;

const listenTeardownSignalled: Check = (r) =>
  r.server.teardown === 'none' ? `the server tore down listen stream ${r.key} at ${r.server.workEndedAt} ms without notifications/cancelled or a result: the client's stream stays pending` : null;

const inputRequestsDeclared: Check = (r) =>
  r.undeclaredInput ? `the server asked ${r.key}'s client for elicitation/create in inputRequests although the client declared no elicitation` : null;

interface RacesCheck {
  name: string;
  description: string;
  afterKinds?: readonly string[];
  check: Check;
}

const CHECKS: RacesCheck[] = [
  { name: 'one-terminal-state', description: 'A call settles at most once: its terminal state, once set, never changes.', check: oneTerminal },
  { name: 'no-response-after-cancel', description: 'After the server accepts a cancellation it sends no response for that request.', check: noResponseAfterCancel },
  { name: 'progress-increasing', description: 'Accepted progress strictly increases, and none is accepted after the call ended.', check: progressIncreasing },
  { name: 'maximum-deadline-fixed', description: 'The maximum deadline is start + maxTimeoutMs and never moves, whatever progress arrives.', check: maximumFixed },
  { name: 'maximum-enforced', description: 'No call stays open past its maximum deadline, and none ends later than it.', check: maximumEnforced },
  {
    name: 'progress-keeps-alive',
    description: 'With a progressToken and progressResetsIdleTimeout, an idle timeout fires only after a full idle window of worker silence.',
    afterKinds: ['deadline.idle'],
    check: (r, state, at, kind) => (state.config.progressResetsIdleTimeout ? progressKeepsAlive(r, state, at, kind) : null),
  },
  { name: 'cancel-settles', description: 'When the caller cancels, its call settles at once.', check: cancelSettles },
  { name: 'cancelled-never-succeeds', description: 'A call the caller cancelled never reports success; a late response is dropped.', check: cancelledNeverSucceeds },
  { name: 'abandon-signals-server', description: "Whenever the client stops waiting (cancel or timeout), it puts the transport's cancellation signal on the wire.", check: abandonSignals },
  {
    name: 'transport-signal',
    description: 'The cancellation signal matches the transport: stdio and 2025-11-25 HTTP send notifications/cancelled; 2026-07-28 HTTP only closes the stream.',
    check: transportSignal,
  },
  { name: 'retry-new-id', description: 'A re-issue after a broken 2026-07-28 stream, and an MRTR retry, is a new request with a new id.', check: retryNewId },
  { name: 'side-effect-once', description: 'A side-effecting operation executes at most once across its re-issues and retries (the idempotency key deduplicates).', check: sideEffectOnce },
  { name: 'http-headers-complete', description: 'Every 2026-07-28 Streamable HTTP request carries Mcp-Method, and Mcp-Name where required.', check: headersComplete },
  { name: 'input-requests-declared', description: 'A server puts in inputRequests only what the client declared in its clientCapabilities (no elicitation/create to a client without elicitation).', check: inputRequestsDeclared },
  { name: 'listen-acknowledged-first', description: 'The server\'s first message on a subscriptions/listen stream is notifications/subscriptions/acknowledged.', check: listenAcknowledged },
  { name: 'listen-teardown-signalled', description: 'A listen stream the server tears down ends with a signal the client receives (notifications/cancelled, or the listen result), never in silence.', check: listenTeardownSignalled },
  { name: 'cancel-well-formed', description: 'The client\'s notifications/cancelled is well-formed: jsonrpc "2.0", a string reason, no id.', check: cancelWellFormed },
  ...MECHANICS_CHECKS.map((c) => ({ name: c.name, description: c.description, check: ((r, state) => c.check(r, state as unknown as Parameters<typeof c.check>[1])) as Check })),
];

/**
 * True only when no races invariant can fail on `r` after a step at `at` (ms): the call is still
 * pending, never cancelled or signalled, not a listen stream the server opened, settled at most once, took no progress after its end, its
 * maximum deadline is where it started and not passed, and it carries none of the fields the
 * issue-11 and mechanics checks read. A conservative pre-check (false: run every check), read by
 * the core (`CoreModel.surelyHolds`); `__tests__/surelyHolds.test.ts` proves it never clears a failing request.
 */
export function racesInvariantsSurelyHold(r: RequestState, at: number): boolean {
  const c = r.client;
  if (c.state !== 'pending' || c.cancelRequestedAt !== null || c.cancelSignal !== 'none' || c.terminalSets > 1 || c.progressAfterEnd > 0) return false;
  if (r.server.cancelAcceptedAt !== null || r.server.opExecutions !== undefined) return false;
  if (r.mech !== undefined || r.retryOf !== undefined || r.missingHeaders !== undefined || r.malformedCancel !== undefined || r.undeclaredInput !== undefined) return false;
  if (r.method === 'subscriptions/listen' && r.server.receivedAt !== null) return false;
  if (r.maxTimeoutMs === null) return true;
  const original = r.startAt + r.maxTimeoutMs;
  return r.maxDeadlineAt === original && at <= original;
}

/**
 * True only when every request the last step touched surely holds (`racesInvariantsSurelyHold`):
 * the step touched none, or only the request `changed` last named (its own `self` list, so no
 * lookup), and the pre-check clears it. False means "take the per-request pass" (the core's
 * `CoreModel.touchedSurelyHold`; proven with `racesInvariantsSurelyHold` in `__tests__/surelyHolds.test.ts`).
 */
export function racesTouchedSurelyHold(state: RacesCore, at: number): boolean {
  const touched = state.touched;
  if (touched.length === 0) return true;
  const r = state.touchedReq;
  return r !== undefined && touched === r.self && racesInvariantsSurelyHold(r, at);
}

/** The invariants for the checkpointed core: per request, run on touched requests only. */
export const RACES_ENTITY_INVARIANTS: EntityInvariant<RacesCore>[] = CHECKS.map((c) => ({
  name: c.name,
  description: c.description,
  reads: 'request',
  afterKinds: c.afterKinds,
  check: c.check as EntityInvariant<RacesCore>['check'],
}));

/** The invariants checked after every step, over a `RacesState` view. Broken policies must visibly break them. */
export const RACES_INVARIANTS: Invariant<RacesState>[] = CHECKS.map((c) => ({
  name: c.name,
  description: c.description,
  check(state: RacesState, step: Step<RacesState>): string | null {
    if (c.afterKinds !== undefined && !c.afterKinds.includes(step.entry.kind)) return null;
    for (const key of state.touched) {
      const i = state.indexOf[key];
      if (i === undefined) continue;
      const problem = c.check(state.requests[i], state, step.at, step.entry.kind);
      if (problem !== null) return problem;
    }
    return null;
  },
}));
