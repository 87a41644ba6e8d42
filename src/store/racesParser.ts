import type { ParseResult } from '../sim/scenario';

/**
 * The races scenario parser (the lab's zod schemas, ~30 KB gzip), loaded only when the page first
 * parses something: a file, pasted text, a link with a scenario or parameters, a settings or lesson
 * edit. The built-ins come parsed at build time and a drag edits a valid scenario without parsing,
 * so the races page paints without zod.
 */
let parse: ((value: unknown) => ParseResult) | null = null;
let loading: Promise<void> | null = null;

/** Loads the races parser once (the module `src/sim/races/definition`); settles when `racesParse` can run. */
export function loadRacesParser(): Promise<void> {
  loading ??= import('../sim/races/definition').then((m) => {
    parse = m.racesPageDefinition.parse;
  });
  return loading;
}

/** Null when `racesParse` can run now; else the promise of `loadRacesParser` (starting it). */
export function racesParserReady(): Promise<void> | null {
  return parse ? null : loadRacesParser();
}

/**
 * `racesPageDefinition.parse`: validates a JSON value as a races scenario (every problem as
 * `field.path: what is wrong`). Throws `Error` if called before `loadRacesParser()` has settled
 * (a caller bug: the store waits for `racesParserReady()` first).
 */
export function racesParse(value: unknown): ParseResult {
  if (!parse) throw new Error('races parser: not loaded yet — await loadRacesParser() (or racesParserReady()) before parsing');
  return parse(value);
}
