import { racesPageDefinition as racesDefinition } from '../sim/races/definition';
import { loadBuiltins, type BuiltinLoad } from './builtins';

export type { BuiltinLoad } from './builtins';

const files = import.meta.glob('/public/scenarios/races/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;

/** The races lab's built-in scenarios (`public/scenarios/races/*.json`), validated. */
export function loadBuiltinRaces(): BuiltinLoad {
  return loadBuiltins(files, racesDefinition.parse);
}

let cached: BuiltinLoad | null = null;
/** `loadBuiltinRaces`, once per page. */
export function builtinRaces(): BuiltinLoad {
  cached ??= loadBuiltinRaces();
  return cached;
}
