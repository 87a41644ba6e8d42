import type { Json, Scenario } from '../../types';
import { replayResilience, withOverrides, type ResilienceTrace } from '..';
import { builtinHelpers, makeScenario, violatedInvariants } from '../../__tests__/scenarioHelpers';

/** The resilience names of the shared model-test helpers (`src/sim/__tests__/scenarioHelpers.ts`). */
const builtins = builtinHelpers('resilience');

export const SCENARIO_DIR = builtins.dir;

/** Every built-in resilience scenario file, parsed (throws with the errors if one is invalid). */
export const loadScenarios = builtins.loadAll;

/** The built-in resilience scenario `id`. */
export const loadScenario = builtins.load;

/** Builds and validates a resilience scenario (defaults filled in). */
export const mk = (config: Record<string, Json>, events: Record<string, Json>[], id = 'test', seed = 1): Scenario => makeScenario('resilience', config, events, { id, seed });

/** Replays with config overrides. */
export const run = (scenario: Scenario, overrides?: Record<string, Json>): ResilienceTrace => replayResilience(withOverrides(scenario, overrides));

/** The names of the violated invariants, sorted. */
export const violated: (trace: ResilienceTrace) => string[] = violatedInvariants;
