/**
 * A retry storm across layers (rules in `stormTypes.ts`): the rules (`stormRules.ts`), the outcome
 * and invariants (`stormOutcome.ts`). On the checkpointed core each mutates one `StormCore` in
 * place; traces hold `StormState` views.
 */
export * from './stormTypes';
export { applyStormScripted, applyStormTimer } from './stormRules';
export { stormInvariants, stormOutcome } from './stormOutcome';
