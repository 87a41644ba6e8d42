import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parseScenario } from '../../scenario';
import { LAB_SCHEMAS } from '../../labs';
import type { Json, Scenario } from '../../types';
import { replayFlow, withFlowOverrides, type FlowTrace } from '..';

export const FLOW_SCENARIO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../public/scenarios/flow');

/** Every built-in flow scenario file, parsed (throws with the errors if one is invalid). */
export function loadFlowScenarios(): { file: string; scenario: Scenario }[] {
  return readdirSync(FLOW_SCENARIO_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const r = parseScenario(JSON.parse(readFileSync(path.join(FLOW_SCENARIO_DIR, file), 'utf8')), 'flow', LAB_SCHEMAS.flow);
      if (!r.ok) throw new Error(`${file}: ${r.errors.join('; ')}`);
      return { file, scenario: r.scenario };
    });
}

export function loadFlow(id: string): Scenario {
  const found = loadFlowScenarios().find((s) => s.scenario.id === id);
  if (!found) throw new Error(`no scenario ${id}`);
  return found.scenario;
}

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
