import type { BuiltinLoad } from './builtins';
import type { Scenario } from '../sim/types';

/**
 * The shape of what the races page needs at first paint that would otherwise take zod to compute,
 * made at build time by `scripts/gen-races-page.ts` (`npm run gen:races-page` writes
 * `src/store/generated/racesPage.json`, data not code, which `builtinRaces.ts` imports; a test
 * checks the written file equals a fresh render, so an edit of a built-in or of a description that
 * was not regenerated fails the tests). Types and paths only: the generator is Node-only and lives
 * in `scripts/`.
 */

/** The generated data file's path, from the repository root. */
export const RACES_PAGE_DATA = 'src/store/generated/racesPage.json';

/**
 * The first paint's part of it, its own file (`racesFirstPaint.ts` imports it; `RACES_PAGE_DATA`
 * is a lazy chunk the page fetches once it is up): the first built-in as parse gives it, the
 * invalid files' errors and the settings texts.
 */
export const RACES_FIRST_PAINT_DATA = 'src/store/generated/racesFirstPaint.json';

/** What `RACES_FIRST_PAINT_DATA` holds. */
export interface RacesFirstPaintData {
  $comment: string;
  /** The first built-in (page order), parsed at build time, in parse's key order. */
  first: Scenario;
  /** `builtins.errors` of `RACES_PAGE_DATA`: invalid built-in files (the page's error banner shows them at once). */
  errors: string[];
  /** The settings panel's descriptions, from the races config schema. */
  settingTexts: RacesSettingTexts;
}

/** What `RACES_PAGE_DATA` holds: the parsed built-ins and the settings panel's texts. */
export interface RacesPageData {
  /** Why the file exists and how to remake it (JSON has no comments). */
  $comment: string;
  /**
   * The races built-ins, parsed at build time (defaults filled in; a file's `$schema` kept as parse
   * keeps it); `errors` lists invalid files. A scenario whose `config.policy` is all defaults (the
   * correct client and server) has it left out here: `defaultPolicy` is written once instead, and
   * `builtinRaces` puts it back as the config's last key, where parse puts it.
   */
  builtins: BuiltinLoad;
  /** `racesPolicySchema`'s defaults (every switch off), in schema order. */
  defaultPolicy: Record<string, boolean>;
  /**
   * The leading fields every built-in has with the same value (`$schema`, `format`, `lab`), written
   * once and left out of each scenario in `builtins`; `builtinRaces` puts them back first.
   */
  sharedHead: Record<string, unknown>;
  /** The settings panel's descriptions, from the races config schema. */
  settingTexts: RacesSettingTexts;
}

/** The settings panel's texts: each policy switch's description by key, and `progressResetsIdleTimeout`'s. */
export interface RacesSettingTexts {
  progressResetsIdleTimeout: string;
  policy: Record<string, string>;
}

