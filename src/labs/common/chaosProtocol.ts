import type { LabId } from '../../sim/labIds';
import type { Scenario } from '../../sim/types';

/**
 * Messages between the "Chaos" panel and its worker (`chaos.worker.ts`). Types only.
 * `run` replays `scenario` under seeds firstSeed … firstSeed + seeds − 1; `open` rebuilds the
 * faulted scenario of one seed (for the timeline and for a `chaos=<seed>` link).
 */
export type ChaosRequest =
  | { type: 'run'; lab: LabId; scenario: Scenario; seeds: number; firstSeed: number }
  | { type: 'open'; lab: LabId; scenario: Scenario; seed: number }
  /** The `chaos=<seed>` of a link's query (`a=1&chaos=19`): opened, or an error naming the parameter; `none` when absent. */
  | { type: 'open-link'; lab: LabId; scenario: Scenario; query: string };

/** One seed as the panel lists it. */
export interface ChaosSeedRow {
  seed: number;
  /** Safety invariants broken (non-empty = a failing seed). */
  violated: string[];
  /** Liveness checks that failed (reported apart, never a failing seed). */
  liveness: string[];
  /** The faults drawn, described in words. */
  faults: string[];
}

export type ChaosReply =
  | { type: 'progress'; done: number; total: number }
  | { type: 'result'; seedsRun: number; rows: ChaosSeedRow[]; smallestFailingSeed: number | null; safetyFailingSeeds: number; livenessFailingSeeds: number; safety: Record<string, number>; liveness: Record<string, number> }
  | { type: 'opened'; seed: number; scenario: Scenario; faults: string[] }
  | { type: 'none' }
  | { type: 'error'; message: string };
