import { coreOfModel } from './modelCore';
import { replayCore } from './trace';
import { replayFast } from './fastPath';
import type { CoreModel } from './core';
import type { Json, Model, Scenario, Step, Trace, WireEffect } from './types';

/**
 * The replay entry point of every lab. Since issue 10 one loop runs every model: the checkpointed
 * core (`core.ts`, recorders in `trace.ts`). A model that carries a `core` (races, flow,
 * resilience, ledger) runs on it; a plain one-step `Model` runs on the core through `coreOfModel`
 * (`modelCore.ts`). The old engine loop this file replaced (`engine.ts`) survives only as the
 * frozen test oracle in `oracle/engine.ts` at the repository root.
 */

/** Options of `replay`. */
export interface ReplayOptions {
  /**
   * What the trace keeps. 'steps' (default): every step with its state, effects, ignored events,
   * why note and violations. 'effects': no per-step history — only the wire effects (each with its
   * time), the invariant results and the outcome; why notes are never built. Same semantics,
   * for long headless runs.
   */
  keep?: 'steps' | 'effects';
  /** Stop after this many steps (guards runaway timers); the trace is then marked truncated. Default 2,000,000. */
  maxSteps?: number;
}

/** A trace plus whether the step limit cut it short. */
export type ReplayResult<S, O> = Trace<S, O> & {
  truncated: boolean;
  /** Number of steps processed (equals steps.length when keep is 'steps'). */
  stepCount: number;
  /** Every wire effect in order (both keep modes). */
  effects: WireEffect[];
};

/**
 * Replays `scenario` through `model` on the core and returns the trace (`keep`: the full per-step
 * trace, or the fast path's effects, invariant results and outcome).
 *
 * Scripted events and model timers share one queue ordered by `(at, rank, seq)` (see
 * `compareEntries`). After every step the invariants run (a core model's on the entities the
 * step touched); the first violation of each is summarised in `trace.invariants`. The scenario
 * must already be validated (see `parseScenario`); `replay` throws `Error` only for model bugs
 * (a timer scheduled in the past). Deterministic: the only randomness is the scenario's seeded
 * mulberry32. For a seekable trace use `SeekableTrace.replay(model.core, scenario)` (`trace.ts`).
 */
export function replay<C, S, O, T>(
  model: Model<C, S, O, T> & { core?: CoreModel<C, unknown, S, O, T> },
  scenario: Scenario,
  options: ReplayOptions = {},
): ReplayResult<S, O> {
  const core = model.core ?? coreOfModel(model);
  return options.keep === 'effects' ? replayFast(core, scenario, options.maxSteps) : replayCore(core, scenario, options);
}

/**
 * Index of the last step whose time is ≤ `atMs`, or -1 when the playhead is before the first step.
 * Binary search over the trace's (time-sorted) steps.
 */
export function stepIndexAt<S>(steps: readonly Step<S>[], atMs: number): number {
  let lo = 0;
  let hi = steps.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (steps[mid].at <= atMs) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Deep-merges plain objects (`overrides` wins); arrays and scalars are replaced, not merged.
 * Returns a new object; inputs are not mutated. Used to apply an expectation's config overrides.
 */
export function mergeConfig<T extends Record<string, Json>>(base: T, overrides: Record<string, Json> | undefined): T {
  if (!overrides) return base;
  const out: Record<string, Json> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    const prev = out[key];
    if (isPlainObject(prev) && isPlainObject(value)) out[key] = mergeConfig(prev, value);
    else out[key] = value;
  }
  return out as T;
}

function isPlainObject(v: Json | undefined): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
