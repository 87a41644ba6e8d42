import type { BackoffStrategy } from '../../sim/retry/backoff';

/** Each backoff strategy's name as the herd plot and its tables show it. */
export const STRATEGY_TEXT: Record<BackoffStrategy, string> = {
  fixed: 'fixed (no backoff)',
  exponential: 'exponential, no jitter',
  'full-jitter': 'full jitter',
  'equal-jitter': 'equal jitter',
  'decorrelated-jitter': 'decorrelated jitter',
  'sdk-default': 'TS SDK default (1.5ⁿ s)',
  'lesson-sha256': 'lesson SHA-256 jitter',
};
