import { drawLimitProblem } from '../pageLimits';

/** Most events the races lab page draws (each is a draggable mark; the CLI replays up to the format's 200,000). */
export const RACES_PAGE_MAX_EVENTS = 2000;

/**
 * The problem with showing `events` on the races lab page, or null. Bigger scenarios stay valid
 * files: replay them with `npm run replay -- FILE`.
 */
export function racesLengthProblem(events: readonly unknown[]): string | null {
  return drawLimitProblem('races', RACES_PAGE_MAX_EVENTS, events.length);
}
