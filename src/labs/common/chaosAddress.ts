/**
 * The address of a chaos seed on screen. A seed opened from the Chaos panel (or from a
 * `…?chaos=<seed>` link) puts a faulted copy of the scenario on the timeline; the address then
 * names the scenario the seeds ran on plus `chaos=<seed>` (not the faulted copy inline), so a
 * reload or a copied address reopens the same seed the same way. Once the learner edits the
 * faulted scenario the store's own address applies again (its edits are inline, as for any edit).
 *
 * Module state, one entry per lab page: set by the panel, read by `useHashSync` on each write.
 */

interface ChaosShown {
  /** The faulted scenario the seed put on the timeline (compared by identity). */
  scenario: unknown;
  /** `#/<lab>…` of the scenario the seeds ran on, without `t=` or `chaos=`. */
  baseAddress: string;
  seed: number;
}

import { withChaosSeed } from '../../store/chaosLink';

export { withChaosSeed };

const shown = new Map<string, ChaosShown>();


/** `hash` without its `t=` (playhead) and `chaos=` parameters. */
export function withoutPlayheadOrSeed(hash: string): string {
  const q = hash.indexOf('?');
  if (q < 0) return hash;
  const query = new URLSearchParams(hash.slice(q + 1));
  query.delete('t');
  query.delete('chaos');
  const rest = query.toString();
  return rest === '' ? hash.slice(0, q) : `${hash.slice(0, q)}?${rest}`;
}

/** Records that lab `lab` now shows seed `seed` of the scenario at `baseAddress`, as `scenario`. */
export function showChaosSeed(lab: string, scenario: unknown, baseAddress: string, seed: number): void {
  shown.set(lab, { scenario, baseAddress: withoutPlayheadOrSeed(baseAddress), seed });
}

/** Forgets the seed shown in lab `lab` (a new run). */
export function forgetChaosSeed(lab: string): void {
  shown.delete(lab);
}

/**
 * The address for lab `lab` while it shows `scenario`: the seed's link when `scenario` is the
 * faulted scenario the seed opened, else null (use the store's `address()`).
 */
export function chaosAddress(lab: string, scenario: unknown): string | null {
  const s = shown.get(lab);
  return s !== undefined && s.scenario === scenario ? withChaosSeed(s.baseAddress, s.seed) : null;
}
