import { parseScenario } from '../sim/scenario';
import { RACES_SCHEMAS } from '../sim/races/schema';
import type { Scenario } from '../sim/types';

/**
 * The races lab's built-in scenarios. `public/scenarios/races/*.json` stays the single source:
 * Vite bundles the files at build time (no network at run time), and each is validated with
 * `parseScenario` before use; an invalid file is reported, never shown.
 */
const files = import.meta.glob('/public/scenarios/races/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;

export interface BuiltinLoad {
  scenarios: Scenario[];
  errors: string[];
}

export function loadBuiltinRaces(): BuiltinLoad {
  const scenarios: Scenario[] = [];
  const errors: string[] = [];
  for (const path of Object.keys(files).sort(compareFileNames)) {
    const parsed = parseScenario(files[path], 'races', RACES_SCHEMAS);
    const name = path.split('/').pop() ?? path;
    if (parsed.ok) scenarios.push(parsed.scenario);
    else errors.push(...parsed.errors.map((e) => `${name} → ${e}`));
  }
  return { scenarios, errors };
}

/** A, B, … F1, F2, …, F10, L: letters first, then numbers numerically. */
function compareFileNames(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

let cached: BuiltinLoad | null = null;
export function builtinRaces(): BuiltinLoad {
  cached ??= loadBuiltinRaces();
  return cached;
}
