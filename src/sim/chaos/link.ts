/**
 * The chaos seed in a share link: `chaos=<seed>` beside the scenario's own parameters. The page
 * rebuilds the faulted scenario with `faultedScenario(scenario, seed)`, so a link carries only the
 * seed, never the faulted events.
 */

/** The share-link parameter name. */
export const CHAOS_PARAM = 'chaos';

/** `chaos=<seed>` for a seed in [0, 2³²); throws `RangeError` otherwise. */
export function chaosParam(seed: number): string {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new RangeError(`seed: must be an integer in [0, 4294967295], got ${seed}`);
  return `${CHAOS_PARAM}=${seed}`;
}

/**
 * The chaos seed in a query string (`a=1&chaos=19`, with or without a leading `?`), null when there
 * is none, or `{ error }` naming the parameter when it is not a seed in [0, 2³²).
 */
export function readChaosParam(query: string): number | null | { error: string } {
  const raw = new URLSearchParams(query.startsWith('?') ? query.slice(1) : query).get(CHAOS_PARAM);
  if (raw === null) return null;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > 0xffffffff) return { error: `${CHAOS_PARAM}: must be a seed, an integer in [0, 4294967295], got "${raw.slice(0, 20)}"` };
  return Number(raw);
}
