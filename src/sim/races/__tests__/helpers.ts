import type { Json, Scenario } from '../../types';
import { replayRaces, withOverrides, type RacesTrace } from '..';
import { builtinHelpers, makeScenario, violatedInvariants } from '../../__tests__/scenarioHelpers';

/** The races names of the shared model-test helpers (`src/sim/__tests__/scenarioHelpers.ts`), and the races event builders. */
const builtins = builtinHelpers('races');

export const SCENARIO_DIR = builtins.dir;

/** Every built-in races scenario file, parsed (throws with the errors if one is invalid). */
export const loadScenarios = builtins.loadAll;

/** The built-in races scenario `id`. */
export const loadScenario = builtins.load;

/** Builds and validates a races scenario from a partial config and raw events (defaults filled in). */
export const mk = (config: Record<string, Json>, events: Record<string, Json>[], id = 'test'): Scenario => makeScenario('races', config, events, { id });

/** Replays with config overrides. */
export const run = (scenario: Scenario, overrides?: Record<string, Json>): RacesTrace => replayRaces(withOverrides(scenario, overrides));

/** The names of the violated invariants, sorted. */
export const violated: (trace: RacesTrace) => string[] = violatedInvariants;

export function req(trace: RacesTrace, key = '1') {
  const r = trace.outcome.requests.find((x) => x.key === key);
  if (!r) throw new Error(`no request ${key}`);
  return r;
}

export const start = (at: number, extra: Record<string, Json> = {}) => ({ id: `start-${JSON.stringify(extra.requestId ?? 1)}-${at}`, at, actor: 'client', kind: 'start', requestId: 1, ...extra });
export const ev = (id: string, at: number, actor: 'client' | 'server', kind: string, extra: Record<string, Json> = {}) => ({ id, at, actor, kind, requestId: 1, ...extra });
