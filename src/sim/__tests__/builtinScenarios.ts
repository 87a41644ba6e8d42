import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LAB_SCHEMAS } from '../labs';
import type { LabId } from '../labIds';
import { parseScenario } from '../scenario';
import type { Expectation, Scenario } from '../types';

/** `public/scenarios/<lab>`: where a lab's built-in scenario files live. */
export function scenarioDir(lab: LabId): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../public/scenarios', lab);
}

/** Every built-in scenario file of `lab`, parsed, in file-name order. Throws naming the file and its errors when one is invalid. */
export function loadBuiltinScenarios(lab: LabId): { file: string; scenario: Scenario }[] {
  const dir = scenarioDir(lab);
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const r = parseScenario(JSON.parse(readFileSync(path.join(dir, file), 'utf8')), lab, LAB_SCHEMAS[lab]);
      if (!r.ok) throw new Error(`${file}: ${r.errors.join('; ')}`);
      return { file, scenario: r.scenario };
    });
}

/** The built-in scenario of `lab` with id `id`; throws when there is none. */
export function loadBuiltinScenario(lab: LabId, id: string): Scenario {
  const found = loadBuiltinScenarios(lab).find((s) => s.scenario.id === id);
  if (!found) throw new Error(`no ${lab} scenario ${id}`);
  return found.scenario;
}

/**
 * Declares one test per `expect` block of every built-in scenario of `lab`: the scenario replayed
 * with the block's overrides (`run`) must show no mismatch (`check` returns the mismatches) and
 * must not be cut short by the step limit. Each file must hold at least `minExpectations` blocks.
 */
export function describeBuiltinExpectations<T extends { truncated: boolean }>(
  lab: LabId,
  run: (scenario: Scenario, overrides: Expectation['overrides']) => T,
  check: (trace: T, expectation: Expectation) => unknown[],
  minExpectations = 1,
): void {
  describe(`built-in ${lab} scenarios meet every expectation written in their files`, () => {
    for (const { file, scenario } of loadBuiltinScenarios(lab)) {
      it(`${file} has at least ${minExpectations} expectation${minExpectations > 1 ? 's' : ''}`, () => {
        expect(scenario.expect?.length ?? 0).toBeGreaterThanOrEqual(minExpectations);
      });
      for (const expectation of scenario.expect ?? []) {
        it(`${file}: ${expectation.label}`, () => {
          const trace = run(scenario, expectation.overrides);
          expect(check(trace, expectation)).toEqual([]);
          expect(trace.truncated).toBe(false);
        });
      }
    }
  });
}
