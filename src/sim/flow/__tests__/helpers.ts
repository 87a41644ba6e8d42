import { parseScenario } from '../../scenario';
import { LAB_SCHEMAS } from '../../labs';
import type { Json, Scenario } from '../../types';
import { replayFlow, withFlowOverrides, type FlowTrace } from '..';
import { loadBuiltinScenario, loadBuiltinScenarios, scenarioDir } from '../../__tests__/builtinScenarios';

export const FLOW_SCENARIO_DIR = scenarioDir('flow');

/** Every built-in flow scenario file, parsed (throws with the errors if one is invalid). */
export const loadFlowScenarios = () => loadBuiltinScenarios('flow');

/** The built-in flow scenario `id`. */
export const loadFlow = (id: string): Scenario => loadBuiltinScenario('flow', id);

/** Builds and validates a flow scenario from a partial config and raw events. */
export function mkFlow(config: Record<string, Json>, events: Record<string, Json>[], seed = 1): Scenario {
  const r = parseScenario({ format: 1, lab: 'flow', id: 'test', title: 'test', seed, config, events }, 'flow', LAB_SCHEMAS.flow);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

export function runFlow(scenario: Scenario, overrides?: Record<string, Json>): FlowTrace {
  return replayFlow(withFlowOverrides(scenario, overrides));
}

export function violatedFlow(trace: FlowTrace): string[] {
  return trace.invariants.filter((i) => i.firstViolation !== null).map((i) => i.name).sort();
}
