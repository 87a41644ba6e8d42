import { replay, type ReplayResult } from './replay';
import { stateAtStep } from './lab';
import { SeekableTrace, type SeekableOptions } from './trace';
import type { CoreModel } from './core';
import type { Model, Scenario } from './types';

/**
 * The three replay entry points of a lab whose model runs on the checkpointed core (`core.ts`):
 * - `replay(scenario)`: the full per-step trace (`ReplayResult`), on the core;
 * - `replaySeekable(scenario, options?)`: per-step metadata plus a checkpoint every K steps
 *   (`trace.ts`); states and notes are rebuilt from the nearest checkpoint, and `fork(edited)`
 *   resumes an edit from the last checkpoint before the first time it changes;
 * - `stateAt(trace, atMs)`: the model state with the playhead at `atMs` ms (after every step at or
 *   before it), for either trace kind.
 * Pure and deterministic (the only randomness is the scenario's seeded rng). Throws what the model throws.
 */
export interface CoreReplays<C, K, S, O, T> {
  replay(scenario: Scenario): ReplayResult<S, O>;
  replaySeekable(scenario: Scenario, options?: SeekableOptions): SeekableTrace<C, K, S, O, T>;
  stateAt(trace: ReplayResult<S, O> | SeekableTrace<C, K, S, O, T>, atMs: number): S;
}

/** The `CoreReplays` of a lab, from its step model (carrying `core`) and that core model. */
export function coreReplays<C, K, S, O, T>(model: Model<C, S, O, T> & { core?: CoreModel<C, unknown, S, O, T> }, core: CoreModel<C, K, S, O, T>): CoreReplays<C, K, S, O, T> {
  return {
    replay: (scenario) => replay(model, scenario),
    replaySeekable: (scenario, options) => SeekableTrace.replay(core, scenario, options),
    stateAt: (trace, atMs) => (trace instanceof SeekableTrace ? trace.stateAtMs(atMs) : stateAtStep(trace, atMs)),
  };
}
