/**
 * Moved to `src/sim/retry/classify.ts` (the retry pieces three labs share live side by side there).
 * This re-export keeps the resilience models' imports working.
 */
export * from '../retry/classify';
