/**
 * Moved to `src/sim/retry/backoff.ts` (the retry pieces three labs share live side by side there).
 * This re-export keeps the flow model's import working.
 */
export * from '../retry/backoff';
