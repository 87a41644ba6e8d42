import { mulberry32 } from '../rng';

/**
 * Timeouts from latency (issue 5 item 5): a dynamic timeout derived from observed latency,
 * `p99 × (1.2 + loadFactor)`, capped, next to a static one. Latencies are drawn from a seeded
 * log-normal distribution (`median × e^(sigma·z)`, z standard normal by Box–Muller on the seeded
 * generator); load stretches every latency by `1 + loadFactor`. Pure and deterministic.
 */

/** `n` seeded log-normal latencies (integer ms ≥ 1) with the given median and spread. */
export function latencySamplesMs(seed: number, n: number, medianMs: number, sigma: number, loadFactor = 0): number[] {
  const random = mulberry32(seed);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const u1 = 1 - random(); // (0, 1]
    const u2 = random();
    const z = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    out.push(Math.max(1, Math.round(medianMs * (1 + loadFactor) * Math.exp(sigma * z))));
  }
  return out;
}

/** The `p`-th percentile (0 < p ≤ 100, nearest rank) of `samples`; throws RangeError on an empty list. */
export function percentileMs(samples: readonly number[], p: number): number {
  if (samples.length === 0) throw new RangeError('percentileMs: no samples');
  const sorted = samples.slice().sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1];
}

/** `min(capMs, ceil(p99Ms × (1.2 + loadFactor)))`. */
export function dynamicTimeoutMs(p99Ms: number, loadFactor: number, capMs: number): number {
  return Math.min(capMs, Math.ceil(p99Ms * (1.2 + loadFactor)));
}

/** How a static and a dynamic timeout fare at one load level. */
export interface TimeoutRow {
  loadFactor: number;
  p50Ms: number;
  p99Ms: number;
  staticTimeoutMs: number;
  dynamicTimeoutMs: number;
  /** Share of calls (0–1) that would have succeeded but time out, per timeout. */
  staticTimeoutRate: number;
  dynamicTimeoutRate: number;
}

/**
 * Compares a static timeout with the dynamic one at each load level: `n` calls per level drawn
 * from the same seeded distribution; the dynamic timeout uses the p99 of the previous level's
 * calls (what a client has observed) — the first level uses its own.
 */
export function compareTimeouts(opts: { seed: number; n: number; medianMs: number; sigma: number; staticTimeoutMs: number; capMs: number; loadFactors: readonly number[] }): TimeoutRow[] {
  let observedP99: number | null = null;
  return opts.loadFactors.map((loadFactor, i) => {
    const samples = latencySamplesMs(opts.seed + i, opts.n, opts.medianMs, opts.sigma, loadFactor);
    const p99 = percentileMs(samples, 99);
    const dyn = dynamicTimeoutMs(observedP99 ?? p99, loadFactor, opts.capMs);
    observedP99 = p99;
    const rate = (t: number) => samples.filter((s) => s > t).length / samples.length;
    return { loadFactor, p50Ms: percentileMs(samples, 50), p99Ms: p99, staticTimeoutMs: opts.staticTimeoutMs, dynamicTimeoutMs: dyn, staticTimeoutRate: rate(opts.staticTimeoutMs), dynamicTimeoutRate: rate(dyn) };
  });
}
