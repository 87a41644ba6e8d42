import { RACES_BUILTIN_LOAD } from './generated/racesPage';
import type { BuiltinLoad } from './builtins';

export type { BuiltinLoad } from './builtins';

/**
 * The races lab's built-in scenarios (`public/scenarios/races/*.json`), validated: parsed at build
 * time by the lab's schema (`src/store/generated/racesPage.ts`, see `racesPageData.ts`), so the
 * page shows them without loading zod. Invalid files are listed in `errors`, never shown.
 */
export function builtinRaces(): BuiltinLoad {
  return RACES_BUILTIN_LOAD;
}
