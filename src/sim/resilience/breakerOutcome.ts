import type { BreakerCore, BreakerOutcome, BreakerState } from './breakerTypes';
import type { MechanismCheck } from './mechanism';

/** The outcome: per call and the breaker's history. */
export function breakerOutcome(s: BreakerState | BreakerCore): BreakerOutcome {
  // The logs are shared with later states: read only the first `callsSeen` (no copy of 100,000 calls).
  const calls = s.logs.calls;
  const transitions = s.logs.transitions.slice(0, s.transitionsSeen);
  const requests: BreakerOutcome['requests'] = [];
  let succeeded = 0;
  let failed = 0;
  let rejected = 0;
  for (let i = 0; i < s.callsSeen; i++) {
    const c = calls[i];
    requests.push({ key: c.key, state: c.state, atMs: c.endAt, attempts: c.attempts, reason: c.reason });
    if (c.state === 'succeeded') succeeded++;
    else if (c.state === 'failed') failed++;
    else rejected++;
  }
  for (const c of s.live.values()) requests.push({ key: c.key, state: 'in-flight', atMs: null, attempts: c.attempt, reason: 'still running' });
  const firstOpen = transitions.find((t) => t.to === 'open');
  const firstHalf = transitions.find((t) => t.to === 'half-open');
  const closedAgain = firstOpen ? transitions.find((t) => t.to === 'closed' && t.at >= firstOpen.at) : undefined;
  return {
    requests,
    summary: {
      calls: s.ratio.calls,
      succeeded,
      failed,
      rejected,
      wireAttempts: s.wireAttempts,
      retries: s.retries,
      retriesDenied: s.retriesDenied,
      rejectionsRetried: s.rejectionsRetried,
      firstOpenAtMs: firstOpen?.at ?? null,
      wireAttemptsAtFirstOpen: s.wireAttemptsAtFirstOpen,
      firstHalfOpenAtMs: firstHalf?.at ?? null,
      closedAgainAtMs: closedAgain?.at ?? null,
      maxHalfOpenAdmitted: s.maxHalfOpenAdmitted,
      probesSent: s.probesSent,
      probeSideEffects: s.probeSideEffects,
      toolErrorsCounted: s.toolErrorsCounted,
      finalMode: s.mode,
      transitions: transitions.map((t) => `${t.to}@${t.at}`),
    },
  };
}

/**
 * The core's pre-check for the breaker (`CoreModel.surelyHolds`): true only when every check of
 * `breakerInvariants` holds — each condition below is the negation of one check, in their order —
 * so a healthy step runs one call instead of five (a test proves it never clears a state a check
 * fails on).
 */
export function breakerInvariantsSurelyHold(s: BreakerCore): boolean {
  const { breaker, retry } = s.config;
  return (
    s.halfOpenAdmitted <= breaker.halfOpenPermits &&
    s.staleChanges <= 0 &&
    !(s.mode === 'open' && s.resetHandle < 0) &&
    s.expiredCountedAtOpen <= 0 &&
    !(retry.budget === 'ratio' && s.retries * 1000 > s.ratio.ratioMilli * s.ratio.calls) &&
    s.toolErrorsCounted <= 0 &&
    s.probeSideEffects <= 0
  );
}

/**
 * Invariants of the breaker mechanism, each over the breaker (entity kind 'breaker'; the
 * mechanism's whole state is that entity). `model.ts` runs them on the core.
 */
export const breakerInvariants: MechanismCheck<BreakerState | BreakerCore>[] = [
  {
    name: 'half-open-limit',
    description: 'Half-open admits at most halfOpenPermits probes; the rest are rejected.',
    check: (s) => (s.halfOpenAdmitted > s.config.breaker.halfOpenPermits ? `half-open admitted ${s.halfOpenAdmitted} calls with ${s.config.breaker.halfOpenPermits} permit(s)` : null),
  },
  {
    name: 'stale-result-ignored',
    description: 'A result of a call admitted before a state change never changes the breaker.',
    check: (s) => (s.staleChanges > 0 ? `${s.staleChanges} stale result(s) changed the breaker` : null),
  },
  {
    name: 'reset-timer-armed',
    description: 'While open, exactly one reset timer is pending, so the breaker always reaches half-open.',
    check: (s) => (s.mode === 'open' && s.resetHandle < 0 ? 'the breaker is open with no reset timer: it will never leave open' : null),
  },
  {
    name: 'old-failures-expire',
    description: `The breaker opens only on failures inside its window (windowMs); old failures never count.`,
    check: (s) => (s.expiredCountedAtOpen > 0 ? `the breaker opened counting failures older than ${s.config.breaker.windowMs} ms` : null),
  },
  {
    name: 'retry-budget-respected',
    description: 'Under a ratio budget, retries never exceed retryRatio × calls.',
    check: (s) => (s.config.retry.budget === 'ratio' && s.retries * 1000 > s.ratio.ratioMilli * s.ratio.calls ? `${s.retries} retries for ${s.ratio.calls} calls exceed the ${s.ratio.ratioMilli / 10}% budget` : null),
  },
  {
    name: 'breaker-counts-transport-failures-only',
    description: 'Only transport failures count (timeouts, connection errors, HTTP and JSON-RPC errors); a tools/call result with isError: true is a completed round trip and counts as a success (hermes-agent#11113).',
    check: (s) => (s.toolErrorsCounted > 0 ? `the breaker counted ${s.toolErrorsCounted} isError tool result(s) as failures of a server that answered` : null),
  },
  {
    name: 'half-open-probe-side-effect-free',
    description: 'A half-open probe has no side effect: ping / server/discover, or the call of a read-only tool (hermes-agent#11113).',
    check: (s) => (s.probeSideEffects > 0 ? `${s.probeSideEffects} half-open probe(s) were real calls of a tool with a side effect` : null),
  },
];
