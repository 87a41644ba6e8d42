import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { parseScenario } from '../../scenario';
import { LAB_SCHEMAS } from '../../labs';
import type { Json, Scenario } from '../../types';
import { replayResilience, withOverrides, type ResilienceTrace } from '..';

export const SCENARIO_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../public/scenarios/resilience');

/** Every built-in resilience scenario file, parsed (throws with the errors if one is invalid). */
export function loadScenarios(): { file: string; scenario: Scenario }[] {
  return readdirSync(SCENARIO_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const r = parseScenario(JSON.parse(readFileSync(path.join(SCENARIO_DIR, file), 'utf8')), 'resilience', LAB_SCHEMAS.resilience);
      if (!r.ok) throw new Error(`${file}: ${r.errors.join('; ')}`);
      return { file, scenario: r.scenario };
    });
}

export function loadScenario(id: string): Scenario {
  const found = loadScenarios().find((s) => s.scenario.id === id);
  if (!found) throw new Error(`no scenario ${id}`);
  return found.scenario;
}

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
