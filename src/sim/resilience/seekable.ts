import { SeekableTrace, type SeekableOptions } from '../trace';
import type { Scenario } from '../types';
import { resilienceCore, type ResilienceCore, type ResilienceOutcome, type ResilienceState, type ResilienceTimer } from './model';
import type { ResilienceConfig } from './schema';

/** A resilience trace that keeps per-step metadata and a checkpoint every K steps (see `../trace.ts`). */
export type ResilienceSeekableTrace = SeekableTrace<ResilienceConfig, ResilienceCore, ResilienceState, ResilienceOutcome, ResilienceTimer>;

/**
 * Replays a validated resilience scenario keeping a seekable trace: states and notes are rebuilt
 * from the nearest checkpoint (`stateAt`, `stateAtMs`, `stepAt`); `fork(edited)` resumes an edit
 * from the last checkpoint before the first time it changes. Same results as `replayResilience`
 * (proven over every built-in and generated edits in `__tests__/seekable.test.ts`).
 */
export function replayResilienceSeekable(scenario: Scenario, options?: SeekableOptions): ResilienceSeekableTrace {
  return SeekableTrace.replay(resilienceCore, scenario, options);
}
