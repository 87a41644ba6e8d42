/**
 * A circuit breaker with a retry policy in front of a flaky downstream (rules in
 * `breakerTypes.ts`): the breaker proper (`breakerWindow.ts`), calls, attempts and retries
 * (`breakerCalls.ts`), the outcome and invariants (`breakerOutcome.ts`). On the checkpointed core
 * each mutates one `BreakerCore` in place; traces hold `BreakerState` views.
 */
export * from './breakerTypes';
export { windowCounts, bucketMs } from './breakerWindow';
export { applyBreakerScripted, applyBreakerTimer, downstreamOrigin } from './breakerCalls';
export { breakerInvariants, breakerOutcome } from './breakerOutcome';
