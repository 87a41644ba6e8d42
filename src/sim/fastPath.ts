import { CoreRun, type CoreModel } from './core';
import { scriptedEntries } from './coreEntries';
import type { CoreReplayResult } from './trace';
import type { Scenario } from './types';

/**
 * The fast path of `replay` (`keep: 'effects'`, issue 10): the checkpointed core's 'effects'
 * recorder — wire effects, invariant results and the outcome; no steps, notes or ignored items.
 * Scripted entries are built as the run reaches them (`CoreRun.startStreaming`) when the
 * scenario lists its events in queue order, so a long replay keeps no entry per event alive;
 * otherwise they are sorted up front (`scriptedEntries`), as the seekable trace does. Same result
 * as `replayCore(model, scenario, { keep: 'effects' })` in `trace.ts` (the oracle suites compare
 * both with the old engine).
 */
export function replayFast<C, S, V, O, T>(model: CoreModel<C, S, V, O, T>, scenario: Scenario, maxSteps = 2_000_000): CoreReplayResult<V, O> {
  const run = CoreRun.startStreaming(model, scenario, 'effects') ?? CoreRun.start(model, scenario, scriptedEntries(scenario, model.scriptedRank), 'effects');
  const initial = model.view(run.state);
  let truncated = false;
  for (;;) {
    if (run.stepCount >= maxSteps) {
      truncated = run.peek() !== undefined;
      break;
    }
    if (!run.step()) break;
  }
  return {
    scenario,
    initial,
    steps: [],
    outcome: model.outcome(run.state, run.lastAt),
    stepCount: run.stepCount,
    effects: run.effects,
    invariants: run.invariantResults(),
    endAt: run.lastAt,
    truncated,
  };
}
