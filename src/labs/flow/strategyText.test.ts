import { describe, expect, it } from 'vitest';
import { herdVerdict, lessonRankNote, type HerdFigures } from './strategyText';

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

describe('when the verdict does not name the lesson\'s SHA-256 jitter, a note says why', () => {
  const settings = { baseMs: 1000, capMs: 32_000 };
  const lesson = { baseMs: 250, capMs: 8000 };
  it('names the measures, its rank on each and on getting everyone back, and the short first delay', () => {
    const results = [r('exponential', 10_000, 50_000, 95_000), r('full-jitter', 4_000, 40_000, 30_000), r('lesson-sha256', 20_207, 55_690, 14_946)];
    expect(lessonRankNote(results, settings, lesson)).toBe(
      "Why the lesson's SHA-256 jitter does not win here: the sentence above ranks by the server's load — attempts in the busiest second, then attempts in all — and the lesson's strategy comes 3rd of 3 on the peak (20,207/s) and 3rd of 3 on attempts (55,690); it is 1st of 3 to get everyone back (14,946 ms). Its delays start at 250 ms and double up to 8,000 ms whatever the base and cap above (1,000 and 32,000 ms), so its clients retry sooner and more often during the outage: its jitter spreads the herd out, its short delays add attempts. Its peak is high because of where it draws: each delay is ⌊ceiling / 2⌋ plus a hash of (client, attempt) modulo the other half, so attempt k of every client lands between half the ceiling and the ceiling — the band equal jitter uses, half as wide as full jitter's 0-to-ceiling, so the same clients arrive in half the time.",
    );
    // The peak's explanation is there whatever the settings (issue 27: nothing explained the 101× peak).
    expect(lessonRankNote(results, { baseMs: 250, capMs: 8000 }, lesson)).toContain('between half the ceiling and the ceiling');
    // A base at or under the lesson's own: the ranks only, no claim about shorter delays.
    expect(lessonRankNote(results, { baseMs: 250, capMs: 8000 }, lesson)).not.toContain('Its delays start');
    expect(lessonRankNote([r('full-jitter', 4_000, 40_000), r('lesson-sha256', 20_207, 55_690, null)], settings, lesson)).toContain('comes 2nd of 2 on the peak (20,207/s) and 2nd of 2 on attempts (55,690); it never gets everyone back.');
  });

  it('no note when the verdict names it, it is alone, or it is not ticked', () => {
    expect(lessonRankNote([r('exponential', 10_000, 50_000), r('lesson-sha256', 5_000, 60_000)], settings, lesson)).toBe('');
    expect(lessonRankNote([r('exponential', 10_000, 50_000), r('lesson-sha256', 20_000, 40_000)], settings, lesson)).toBe('');
    expect(lessonRankNote([r('lesson-sha256', 20_000, 40_000)], settings, lesson)).toBe('');
    expect(lessonRankNote([r('exponential', 10_000, 50_000), r('full-jitter', 4_000, 40_000)], settings, lesson)).toBe('');
  });
});
