/**
 * TEST-ONLY ORACLE: the engine and races model of main at 3802fb5, kept verbatim so the new core
 * (and, in `flow/`, the flow model of main at 377217e, which ran on that engine)
 * can be compared with it (tests, bench). Never import this from app code.
 */
import { replay, type ReplayResult } from './engine';
import { racesModel, type RacesOutcome, type RacesState } from './races/model';
import { flowModel, type FlowOutcome, type FlowState } from './flow/model';
import type { Scenario } from '../src/sim/types';

export { replay as oracleReplay } from './engine';
export { racesModel as oracleRacesModel } from './races/model';

/** The old `replayRaces`: full per-step trace. */
export function oracleReplayRaces(scenario: Scenario, keep: 'steps' | 'effects' = 'steps'): ReplayResult<RacesState, RacesOutcome> {
  return replay(racesModel, scenario, { keep });
}

// ── resilience (verbatim copies in oracle/resilience/, taken before the port onto the core) ──
import { resilienceModel as oracleResilienceModel, type ResilienceOutcome, type ResilienceState } from './resilience/model';

export { oracleResilienceModel };

/** The old `replayResilience` (old engine, old immutable resilience model): full per-step trace, or effects only; `maxSteps` as in `replay`. */
export function oracleReplayResilience(scenario: Scenario, keep: 'steps' | 'effects' = 'steps', maxSteps?: number): ReplayResult<ResilienceState, ResilienceOutcome> {
  return replay(oracleResilienceModel, scenario, { keep, maxSteps });
}

export { flowModel as oracleFlowModel } from './flow/model';

/** The old `replayFlow` (the flow model of main at 377217e on the old engine): full per-step trace, or effects only. */
export function oracleReplayFlow(scenario: Scenario, keep: 'steps' | 'effects' = 'steps'): ReplayResult<FlowState, FlowOutcome> {
  return replay(flowModel, scenario, { keep });
}
