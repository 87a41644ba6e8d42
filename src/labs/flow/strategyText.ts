import type { BackoffStrategy } from '../../sim/retry/backoff';
import { formatCount } from '../../charts/format';

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

/** The figures of one strategy's herd run that the comparison reads (a `HerdResult` has them). */
export interface HerdFigures {
  strategy: BackoffStrategy;
  peakArrivalsPerSecond: number;
  acceptPerSecond: number;
  totalAttempts: number;
  allBackAtMs: number | null;
}

const n = formatCount;

/**
 * One sentence saying which strategy is better in this run, from its own figures: the lowest peak
 * (attempts in the busiest second, against the capacity) and the fewest total attempts, each
 * against the worst, then the soonest to get everyone back; strategies that never did are named. Ties go to the first
 * listed. Fewer than two strategies: says so.
 */
export function herdVerdict(results: readonly HerdFigures[]): string {
  if (results.length < 2) return 'Tick a second strategy to compare them.';
  const by = (f: (r: HerdFigures) => number) => [...results].sort((a, b) => f(a) - f(b));
  const peak = by((r) => r.peakArrivalsPerSecond);
  const total = by((r) => r.totalAttempts);
  const [low, high] = [peak[0], peak[peak.length - 1]];
  const [few, many] = [total[0], total[total.length - 1]];
  const ratio = (r: HerdFigures) => `${(r.peakArrivalsPerSecond / r.acceptPerSecond).toFixed(1)}× capacity`;
  const peakPart = `${n(low.peakArrivalsPerSecond)}/s at its peak (${ratio(low)}) against ${n(high.peakArrivalsPerSecond)}/s for ${STRATEGY_TEXT[high.strategy]}`;
  const totalPart = `${n(few.totalAttempts)} attempts in all against ${n(many.totalAttempts)} for ${STRATEGY_TEXT[many.strategy]}`;
  const stuck = results.filter((r) => r.allBackAtMs === null).map((r) => STRATEGY_TEXT[r.strategy]);
  const back = [...results].filter((r) => r.allBackAtMs !== null).sort((a, b) => (a.allBackAtMs as number) - (b.allBackAtMs as number));
  const soon = back[0];
  const late = back[back.length - 1];
  const backPart = back.length >= 2 && soon.allBackAtMs !== late.allBackAtMs ? ` ${STRATEGY_TEXT[soon.strategy]} gets everyone back soonest, at ${n(soon.allBackAtMs as number)} ms against ${n(late.allBackAtMs as number)} ms for ${STRATEGY_TEXT[late.strategy]}.` : '';
  const stuckPart = `${backPart}${stuck.length ? ` ${stuck.join(', ')} never got everyone back.` : ''}`;
  if (low.strategy === few.strategy) return `Here ${STRATEGY_TEXT[low.strategy]} is the gentlest on the server: ${peakPart}, and ${totalPart}.${stuckPart}`;
  return `Here ${STRATEGY_TEXT[low.strategy]} has the lowest peak, ${peakPart}; ${STRATEGY_TEXT[few.strategy]} the fewest attempts, ${totalPart}.${stuckPart}`;
}

const ordinal = (k: number) => `${k}${k % 100 >= 11 && k % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][k % 10] ?? 'th'}`;

/** 1-based rank of `r` among `results` by `f`, smaller first (ties share the better rank). */
function rankOf(results: readonly HerdFigures[], r: HerdFigures, f: (x: HerdFigures) => number): number {
  return 1 + results.filter((x) => f(x) < f(r)).length;
}

/** The lesson strategy's own backoff constants (`LESSON_JITTER` in src/sim/retry/backoff.ts), integer ms. */
export interface LessonJitterMs {
  baseMs: number;
  capMs: number;
}

/**
 * Why the verdict (`herdVerdict`) does not name the lesson's SHA-256 jitter when it is ticked and
 * loses on both of the verdict's measures: which measures the verdict uses (attempts in the busiest
 * second, then total attempts — the server's load), where the lesson's strategy ranks on each and on
 * the time to get everyone back, and — when its first delay is shorter than the base the other
 * strategies use — the reason (it retries sooner and more often during the outage). `baseMs`/`capMs`
 * are the herd settings' base and cap (ms); `lesson` is its fixed constants. Empty string when the
 * lesson's strategy is not ticked, is alone, or is already named by the verdict.
 */
export function lessonRankNote(results: readonly HerdFigures[], settings: { baseMs: number; capMs: number }, lesson: LessonJitterMs): string {
  const own = results.find((r) => r.strategy === 'lesson-sha256');
  if (!own || results.length < 2) return '';
  const peakRank = rankOf(results, own, (r) => r.peakArrivalsPerSecond);
  const totalRank = rankOf(results, own, (r) => r.totalAttempts);
  if (peakRank === 1 || totalRank === 1) return '';
  const of = ` of ${results.length}`;
  const backed = results.filter((r) => r.allBackAtMs !== null);
  const backPart =
    own.allBackAtMs === null
      ? '; it never gets everyone back'
      : `; it is ${ordinal(rankOf(backed, own, (r) => r.allBackAtMs as number))}${of} to get everyone back (${n(own.allBackAtMs)} ms)`;
  const why =
    lesson.baseMs < settings.baseMs
      ? ` Its delays start at ${n(lesson.baseMs)} ms and double up to ${n(lesson.capMs)} ms whatever the base and cap above (${n(settings.baseMs)} and ${n(settings.capMs)} ms), so its clients retry sooner and more often during the outage: its jitter spreads the herd out, its short delays add attempts.`
      : '';
  // Issue 27: the peak (101× capacity at 100,000 clients, against 63.6× for full jitter) had no explanation.
  const band = ` Its peak is high because of where it draws: each delay is ⌊ceiling / 2⌋ plus a hash of (client, attempt) modulo the other half, so attempt k of every client lands between half the ceiling and the ceiling — the band equal jitter uses, half as wide as full jitter's 0-to-ceiling, so the same clients arrive in half the time.`;
  return (
    `Why the lesson's SHA-256 jitter does not win here: the sentence above ranks by the server's load — attempts in the busiest second, then attempts in all — and the lesson's strategy comes ${ordinal(peakRank)}${of} on the peak (${n(own.peakArrivalsPerSecond)}/s) and ${ordinal(totalRank)}${of} on attempts (${n(own.totalAttempts)})${backPart}.` +
    why +
    band
  );
}
