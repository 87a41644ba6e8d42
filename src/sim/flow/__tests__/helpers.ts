import type { Json, Scenario } from '../../types';
import { replayFlow, withFlowOverrides, type FlowTrace } from '..';
import { builtinHelpers, makeScenario, violatedInvariants } from '../../__tests__/scenarioHelpers';

/** The flow names of the shared model-test helpers (`src/sim/__tests__/scenarioHelpers.ts`). */
const builtins = builtinHelpers('flow');

export const FLOW_SCENARIO_DIR = builtins.dir;

/** Every built-in flow scenario file, parsed (throws with the errors if one is invalid). */
export const loadFlowScenarios = builtins.loadAll;

/** The built-in flow scenario `id`. */
export const loadFlow = builtins.load;

/** Builds and validates a flow scenario from a partial config and raw events. */
export const mkFlow = (config: Record<string, Json>, events: Record<string, Json>[], seed = 1): Scenario => makeScenario('flow', config, events, { seed });

/** Replays with config overrides. */
export const runFlow = (scenario: Scenario, overrides?: Record<string, Json>): FlowTrace => replayFlow(withFlowOverrides(scenario, overrides));

/** The names of the violated invariants, sorted. */
export const violatedFlow: (trace: FlowTrace) => string[] = violatedInvariants;
