/**
 * Share links of a chaos seed (the Chaos panel, issue 13 item 6): `…?chaos=<seed>` beside the
 * scenario's own address; `readChaosParam` in src/sim/chaos/link.ts reads it back.
 */

/** The address `hash` with `chaos=<seed>` added to its query (any old `chaos` replaced). */
export function withChaosSeed(hash: string, seed: number): string {
  const q = hash.indexOf('?');
  const path = q < 0 ? hash : hash.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : hash.slice(q + 1));
  query.delete('chaos');
  query.set('chaos', String(seed));
  return `${path}?${query.toString()}`;
}
