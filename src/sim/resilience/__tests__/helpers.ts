import { parseScenario } from '../../scenario';
import { LAB_SCHEMAS } from '../../labs';
import type { Json, Scenario } from '../../types';
import { replayResilience, withOverrides, type ResilienceTrace } from '..';
import { loadBuiltinScenario, loadBuiltinScenarios, scenarioDir } from '../../__tests__/builtinScenarios';

export const SCENARIO_DIR = scenarioDir('resilience');

/** Every built-in resilience scenario file, parsed (throws with the errors if one is invalid). */
export const loadScenarios = () => loadBuiltinScenarios('resilience');

/** The built-in resilience scenario `id`. */
export const loadScenario = (id: string): Scenario => loadBuiltinScenario('resilience', id);

/** Builds and validates a resilience scenario (defaults filled in). */
export function mk(config: Record<string, Json>, events: Record<string, Json>[], id = 'test', seed = 1): Scenario {
  const r = parseScenario({ format: 1, lab: 'resilience', id, title: id, seed, config, events }, 'resilience', LAB_SCHEMAS.resilience);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

/** Replays with config overrides. */
export function run(scenario: Scenario, overrides?: Record<string, Json>): ResilienceTrace {
  return replayResilience(withOverrides(scenario, overrides));
}

export function violated(trace: ResilienceTrace): string[] {
  return trace.invariants.filter((i) => i.firstViolation !== null).map((i) => i.name).sort();
}
