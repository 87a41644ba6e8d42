import { describe, expect, it } from 'vitest';
import { herdVerdict, type HerdFigures } from './strategyText';

const r = (strategy: HerdFigures['strategy'], peak: number, total: number, back: number | null = 10_000): HerdFigures => ({ strategy, peakArrivalsPerSecond: peak, acceptPerSecond: 1000, totalAttempts: total, allBackAtMs: back });

describe('the herd panel says which strategy is better, from its figures', () => {
  it('one strategy best on both: named once with its peak and total against the worst', () => {
    expect(herdVerdict([r('fixed', 10_000, 50_000), r('full-jitter', 1_200, 12_000), r('exponential', 9_000, 20_000)])).toBe(
      'Here full jitter is the gentlest on the server: 1,200/s at its peak (1.2× capacity) against 10,000/s for fixed (no backoff), and 12,000 attempts in all against 50,000 for fixed (no backoff).',
    );
    expect(herdVerdict([r('exponential', 10_000, 50_000, 95_000), r('lesson-sha256', 20_207, 55_690, 14_946)])).toBe(
      'Here exponential, no jitter is the gentlest on the server: 10,000/s at its peak (10.0× capacity) against 20,207/s for lesson SHA-256 jitter, and 50,000 attempts in all against 55,690 for lesson SHA-256 jitter. lesson SHA-256 jitter gets everyone back soonest, at 14,946 ms against 95,000 ms for exponential, no jitter.',
    );
  });

  it('different winners: each named for its own figure; a strategy that never got everyone back is named', () => {
    expect(herdVerdict([r('full-jitter', 1_200, 15_000), r('decorrelated-jitter', 1_500, 11_000), r('fixed', 10_000, 60_000, null)])).toBe(
      'Here full jitter has the lowest peak, 1,200/s at its peak (1.2× capacity) against 10,000/s for fixed (no backoff); decorrelated jitter the fewest attempts, 11,000 attempts in all against 60,000 for fixed (no backoff). fixed (no backoff) never got everyone back.',
    );
  });

  it('one strategy: nothing to compare', () => {
    expect(herdVerdict([r('fixed', 10, 10)])).toBe('Tick a second strategy to compare them.');
  });
});
