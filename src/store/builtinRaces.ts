import { builtins, defaultPolicy, sharedHead } from './generated/racesPage.json';
import type { BuiltinLoad } from './builtins';
import type { RacesPageData } from './racesPageData';

// The named imports (the file's top-level keys) leave its `$comment` out of the bundle.

export type { BuiltinLoad } from './builtins';

export { RACES_SETTING_TEXTS } from './racesFirstPaint';

/**
 * The races lab's built-in scenarios (`public/scenarios/races/*.json`), validated: parsed at build
 * time by the lab's schema (`src/store/generated/racesPage.json`, see `scripts/gen-races-page.ts`), so the
 * page shows them without loading zod. Invalid files are listed in `errors`, never shown.
 */
export function builtinRaces(): BuiltinLoad {
  return RACES_BUILTINS;
}

// The JSON's type is its literal contents; the generator wrote it from a `BuiltinLoad` with the
// shared leading fields written once (they go back first) and a default `policy` left out (it goes
// back last, where parse puts it).
const stored = builtins as unknown as RacesPageData['builtins'];
const RACES_BUILTINS: BuiltinLoad = {
  scenarios: stored.scenarios.map((s) => {
    const full = { ...(sharedHead satisfies RacesPageData['sharedHead']), ...s } as typeof s;
    return 'policy' in s.config ? full : { ...full, config: { ...s.config, policy: { ...(defaultPolicy satisfies RacesPageData['defaultPolicy']) } } };
  }),
  errors: stored.errors,
};
