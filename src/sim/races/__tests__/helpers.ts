import { parseScenario } from '../../scenario';
import type { Scenario } from '../../types';
import { RACES_SCHEMAS, replayRaces, withOverrides, type RacesTrace } from '..';
import type { Json } from '../../types';
import { loadBuiltinScenario, loadBuiltinScenarios, scenarioDir } from '../../__tests__/builtinScenarios';

export const SCENARIO_DIR = scenarioDir('races');

/** Every built-in races scenario file, parsed (throws with the errors if one is invalid). */
export const loadScenarios = () => loadBuiltinScenarios('races');

/** The built-in races scenario `id`. */
export const loadScenario = (id: string): Scenario => loadBuiltinScenario('races', id);

/** Builds and validates a races scenario from a partial config and raw events (defaults filled in). */
export function mk(config: Record<string, Json>, events: Record<string, Json>[], id = 'test'): Scenario {
  const r = parseScenario({ format: 1, lab: 'races', id, title: id, seed: 1, config, events }, 'races', RACES_SCHEMAS);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

/** Replays with config overrides. */
export function run(scenario: Scenario, overrides?: Record<string, Json>): RacesTrace {
  return replayRaces(withOverrides(scenario, overrides));
}

export function violated(trace: RacesTrace): string[] {
  return trace.invariants.filter((i) => i.firstViolation !== null).map((i) => i.name).sort();
}

export function req(trace: RacesTrace, key = '1') {
  const r = trace.outcome.requests.find((x) => x.key === key);
  if (!r) throw new Error(`no request ${key}`);
  return r;
}

export const start = (at: number, extra: Record<string, Json> = {}) => ({ id: `start-${JSON.stringify(extra.requestId ?? 1)}-${at}`, at, actor: 'client', kind: 'start', requestId: 1, ...extra });
export const ev = (id: string, at: number, actor: 'client' | 'server', kind: string, extra: Record<string, Json> = {}) => ({ id, at, actor, kind, requestId: 1, ...extra });
