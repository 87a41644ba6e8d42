import type { RacesOutcome, RequestOutcome } from '../sim/races/types';
import { GUIDE_LINK_PARAM } from './labLink';

/**
 * A guided path's exercises (issue 27, item 2) and how one is met: read from the run — the
 * outcome at the playhead or after the last step, and the invariants — on the exercise's scenario.
 */

/** What the run must show for an exercise to tick. */
export interface ExerciseGoal {
  /** Read the outcome at the playhead (`playhead`) or after the last step (`final`). */
  at: 'playhead' | 'final';
  /** Per request key, fields its outcome must have. */
  requests?: Record<string, Partial<Pick<RequestOutcome, 'state' | 'serverState' | 'cancelSignal' | 'responseFate' | 'finalResponse'>>>;
  /** Summary numbers the outcome must have. */
  summary?: Partial<Record<'sideEffectExecutions' | 'requests' | 'finalResponses' | 'cancelSignals', number>>;
  /** Invariants the run must violate (each of them; others may break too). */
  violates?: string[];
}

/** One exercise: a task the learner does on a built-in scenario, hints on request, and what it showed. */
export interface Exercise {
  id: string;
  /** The built-in scenario the exercise runs on. */
  scenario: string;
  title: string;
  /** What to do, in one or two sentences. */
  task: string;
  /** Shown one at a time on request. */
  hints: readonly string[];
  goal: ExerciseGoal;
  /** What the run showed, once met (cites the public source). */
  learned: string;
}

/** The parts of a run an exercise reads. */
export interface RunView {
  scenarioId: string;
  final: RacesOutcome;
  atPlayhead: RacesOutcome;
  violated: ReadonlySet<string>;
}

/** Whether the run `run` shows what `exercise` asks for (false on another scenario). */
export function exerciseMet(exercise: Exercise, run: RunView): boolean {
  if (run.scenarioId !== exercise.scenario) return false;
  const g = exercise.goal;
  const outcome = g.at === 'playhead' ? run.atPlayhead : run.final;
  for (const [key, want] of Object.entries(g.requests ?? {})) {
    const r = outcome.requests.find((q) => q.key === key);
    if (!r) return false;
    for (const [field, value] of Object.entries(want)) if (r[field as keyof RequestOutcome] !== value) return false;
  }
  for (const [field, value] of Object.entries(g.summary ?? {})) if ((outcome.summary as unknown as Record<string, unknown>)[field] !== value) return false;
  for (const name of g.violates ?? []) if (!run.violated.has(name)) return false;
  return true;
}

/** The address `hash` with `guide=<n>` in its query (any old one replaced): the share link of exercise n. */
export function withGuideParam(hash: string, n: number): string {
  const q = hash.indexOf('?');
  const query = new URLSearchParams(q < 0 ? '' : hash.slice(q + 1));
  query.set(GUIDE_LINK_PARAM, String(n));
  return `${q < 0 ? hash : hash.slice(0, q)}?${query.toString()}`;
}
