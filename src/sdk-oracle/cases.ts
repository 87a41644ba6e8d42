import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, vi } from 'vitest';
import { loadBuiltinScenarios } from '../sim/__tests__/builtinScenarios';
import { RACES_SCHEMAS } from '../sim/races';
import { parseScenario } from '../sim/scenario';
import type { Scenario } from '../sim/types';
import type { RacesScenarioFile } from './driver';
import { SDK_PROBES } from './probes';

/** The repository root (where README.md and public/ live). */
export const ROOT = join(__dirname, '..', '..');

/** One scenario the differential suites drive: its file as written, parsed, and where it comes from. */
export interface OracleCase {
  raw: RacesScenarioFile;
  scenario: Scenario;
  source: 'built-in' | 'probe';
}

/**
 * Every races built-in (from public/scenarios/races) and every SDK probe (`probes.ts`; plus
 * `extraProbes`, e.g. the SDK v2 ones), parsed, kept when `expressible(raw)` says so. Throws when a probe does not parse (names the probe).
 */
export function oracleCases(expressible: (raw: RacesScenarioFile) => boolean, extraProbes: readonly RacesScenarioFile[] = []): OracleCase[] {
  const builtins = loadBuiltinScenarios('races').map(({ file, scenario }) => ({
    raw: JSON.parse(readFileSync(join(ROOT, 'public', 'scenarios', 'races', file), 'utf8')) as RacesScenarioFile,
    scenario,
    source: 'built-in' as const,
  }));
  const probes = [...SDK_PROBES, ...extraProbes].map((raw) => {
    const r = parseScenario(raw, 'races', RACES_SCHEMAS);
    if (!r.ok) throw new Error(`${raw.id}: ${r.errors.join('; ')}`);
    return { raw: raw as RacesScenarioFile, scenario: r.scenario, source: 'probe' as const };
  });
  return [...builtins, ...probes].filter((c) => expressible(c.raw));
}

/** Every test of the calling file runs on vitest's fake timers from 0 ms (the SDK's timers included). */
export function onFakeTimers(): void {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

/**
 * Checks what a suite's `cases` cover: the races built-ins they leave out are exactly `leftOut`
 * (ids, in file order) and no SDK probe is left out. Returns the ids of the cases kept.
 */
export function expectCoverage(cases: readonly OracleCase[], leftOut: readonly string[]): Set<string> {
  const ids = new Set(cases.map((c) => c.scenario.id));
  expect(loadBuiltinScenarios('races').map((s) => s.scenario.id).filter((id) => !ids.has(id))).toEqual(leftOut);
  expect(SDK_PROBES.map((p) => p.id).filter((id) => !ids.has(id))).toEqual([]);
  return ids;
}
