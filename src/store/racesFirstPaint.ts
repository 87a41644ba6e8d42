import { errors, first, settingTexts } from './generated/racesFirstPaint.json';
import type { BuiltinLoad } from './builtins';
import type { RacesFirstPaintData, RacesSettingTexts } from './racesPageData';
import type { Scenario } from '../sim/types';

// The named imports (the file's top-level keys) leave its `$comment` out of the bundle.

/**
 * What the races page paints from before its other built-ins arrive (generated at build time,
 * `src/store/generated/racesFirstPaint.json`, see `scripts/gen-races-page.ts`): the first built-in as parse
 * gives it, the invalid built-in files' errors, and the settings panel's texts. The whole list
 * (`builtinRaces.ts`, about 10 KB gzip) is a lazy chunk: `loadRacesBuiltins`.
 */

/** The races settings panel's descriptions, from the races config schema (made at build time so the page needs no zod). */
export const RACES_SETTING_TEXTS: RacesSettingTexts = settingTexts satisfies RacesFirstPaintData['settingTexts'];

/** The first races built-in (the one a plain visit shows), parsed at build time. */
export const RACES_FIRST_BUILTIN: Scenario = first as unknown as Scenario;

/** The invalid races built-in files, one line each (empty when every file parses). */
export const RACES_BUILTIN_ERRORS: readonly string[] = errors satisfies RacesFirstPaintData['errors'];

let all: Promise<BuiltinLoad> | undefined;
/** Every races built-in (`builtinRaces()`), from its lazy chunk; the same promise on every call. */
export function loadRacesBuiltins(): Promise<BuiltinLoad> {
  all ??= import('./builtinRaces').then((m) => m.builtinRaces());
  return all;
}
