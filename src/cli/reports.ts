import { withOverrides } from '../sim/expectation';
import type { AnyLabDefinition } from '../sim/lab';
import type { LabId } from '../sim/labIds';
import type { Json, Scenario } from '../sim/types';
import type { LabKit } from './kits/kit';

/**
 * Where a lab registers with the CLI: its kit (`kits/<lab>.ts`: schemas, definition, report),
 * imported when a file of that lab is replayed, so the bundled `replay` parses no other lab's code.
 */
export const LAB_KITS: Record<LabId, () => Promise<LabKit>> = {
  races: async () => (await import('./kits/races')).racesKit,
  ledger: async () => (await import('./kits/ledger')).ledgerKit,
  flow: async () => (await import('./kits/flow')).flowKit,
  resilience: async () => (await import('./kits/resilience')).resilienceKit,
};

/** A lab's CLI report: the JSON document `replay` prints for one scenario (without `expectations`). */
export interface LabReport {
  build(definition: AnyLabDefinition, scenario: Scenario): Record<string, Json>;
  /** What the expectation replays keep: 'effects' for labs whose lessons run thousands of steps. */
  expectKeep?: 'steps' | 'effects';
}

/**
 * The file's expectations, each replayed with its overrides and checked through the definition:
 * `{ label, met, mismatches[] }` per row, and whether every row was met.
 */
export function expectationResults(definition: AnyLabDefinition, scenario: Scenario, keep: 'steps' | 'effects' = 'steps'): { allMet: boolean; results: Json[] } {
  let allMet = true;
  const results = (scenario.expect ?? []).map((e) => {
    const trace = definition.replay(withOverrides(scenario, e.overrides as Record<string, Json> | undefined), keep === 'effects' ? { keep } : undefined);
    const mismatches = definition.checkExpectation(trace, e);
    if (mismatches.length) allMet = false;
    return { label: e.label, met: mismatches.length === 0, mismatches: mismatches as unknown as Json };
  });
  return { allMet, results };
}
