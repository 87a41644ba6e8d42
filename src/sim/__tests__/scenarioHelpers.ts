import { LAB_SCHEMAS } from '../labs';
import type { LabId } from '../labIds';
import { parseScenario } from '../scenario';
import type { Json, Scenario } from '../types';
import { loadBuiltinScenario, loadBuiltinScenarios, scenarioDir } from './builtinScenarios';

/**
 * The test helpers every lab's model tests share (one copy for `src/sim/<lab>/__tests__/helpers.ts`
 * to re-export under the lab's names): build a scenario from a partial config and raw events, load
 * the built-ins, and name the invariants a trace violated.
 */

/** Options of `makeScenario`: the scenario's id (also its title) and its seed. */
export interface MakeScenarioOptions {
  id?: string;
  seed?: number;
}

/**
 * Builds and validates a `lab` scenario (format 1) from a partial config and raw events, with the
 * lab's defaults filled in by its schema. Throws an Error listing the parse errors when invalid.
 */
export function makeScenario(lab: LabId, config: Record<string, Json>, events: Record<string, Json>[], { id = 'test', seed = 1 }: MakeScenarioOptions = {}): Scenario {
  const r = parseScenario({ format: 1, lab, id, title: id, seed, config, events }, lab, LAB_SCHEMAS[lab]);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

/** The names of the invariants with a first violation in `trace`, sorted. */
export function violatedInvariants(trace: { invariants: readonly { name: string; firstViolation: unknown }[] }): string[] {
  return trace.invariants
    .filter((i) => i.firstViolation !== null)
    .map((i) => i.name)
    .sort();
}

/** `lab`'s built-in scenarios: their folder, all of them parsed, and one by id (throws when absent). */
export function builtinHelpers(lab: LabId): { dir: string; loadAll: () => { file: string; scenario: Scenario }[]; load: (id: string) => Scenario } {
  return { dir: scenarioDir(lab), loadAll: () => loadBuiltinScenarios(lab), load: (id) => loadBuiltinScenario(lab, id) };
}
