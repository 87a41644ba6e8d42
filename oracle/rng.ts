// TEST-ONLY ORACLE: verbatim copy of src/sim/rng.ts at 3802fb5 (import paths adjusted). Never import from app code.
/**
 * A seeded pseudo-random generator (mulberry32): `seed` is any 32-bit integer; the returned
 * function yields floats in [0, 1). Same seed, same sequence, in Node and every browser.
 * The simulation never calls the platform random generator; every random choice comes from here.
 * Reference: Tommy Ettinger's mulberry32 (public domain).
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max] (inclusive) drawn from `random`. Throws RangeError if max < min. */
export function randomInt(random: () => number, min: number, max: number): number {
  if (max < min) throw new RangeError(`randomInt: max ${max} < min ${min}`);
  return min + Math.floor(random() * (max - min + 1));
}
