import { withOverrides } from '../sim/expectation';
import type { AnyLabDefinition } from '../sim/lab';
import type { Json, Scenario } from '../sim/types';

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
