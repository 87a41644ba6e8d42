import { mergeConfig } from './replay';
import type { Json, Scenario } from './types';

/**
 * Generic pieces of every lab's expectation checker (the lesson's `expect[]` rows of a scenario
 * file). Each lab's checker decides which outcome fields an expectation names; these helpers do the
 * comparing and the wording, the same in every lab.
 */

/** The scenario with an expectation's config overrides applied (same events). Pure; `overrides` undefined = unchanged config. */
export function withOverrides(scenario: Scenario, overrides: Record<string, Json> | undefined): Scenario {
  return { ...scenario, config: mergeConfig(scenario.config, overrides) };
}

/** One mismatch between an expectation and a trace: the dotted field, what the lesson expects, what the replay gave. */
export interface ExpectationMismatch {
  field: string;
  expected: Json;
  actual: Json;
}

/**
 * Compares `expected` as a subset of `actual`: nested objects field by field, everything else as
 * JSON. Each difference is pushed to `out` as `prefix.key` (a missing actual value is `null`).
 */
export function subsetMismatches(prefix: string, expected: Record<string, Json>, actual: Record<string, unknown>, out: ExpectationMismatch[]): void {
  for (const [k, v] of Object.entries(expected)) {
    const a = actual[k] as Json | undefined;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && a !== null && a !== undefined && typeof a === 'object' && !Array.isArray(a)) {
      subsetMismatches(`${prefix}.${k}`, v, a as Record<string, unknown>, out);
    } else if (JSON.stringify(a) !== JSON.stringify(v)) {
      out.push({ field: `${prefix}.${k}`, expected: v, actual: a === undefined ? null : a });
    }
  }
}

/**
 * The `violates` check of an expectation: exactly the named invariants break (order-free). Pushes
 * one `violated invariants` mismatch to `out` when the sets differ; nothing when `violates` is absent.
 */
export function violatesMismatch(violates: readonly string[] | undefined, invariants: readonly { name: string; firstViolation: unknown }[], out: ExpectationMismatch[]): void {
  if (!violates) return;
  const violated = invariants.filter((i) => i.firstViolation !== null).map((i) => i.name).sort();
  const expected = [...violates].sort();
  if (JSON.stringify(violated) !== JSON.stringify(expected)) out.push({ field: 'violated invariants', expected, actual: violated });
}
