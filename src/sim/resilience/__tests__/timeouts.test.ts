import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compareTimeouts, dynamicTimeoutMs, latencySamplesMs, percentileMs } from '../timeouts';

describe('timeouts from latency', () => {
  it('dynamic timeout = p99 × (1.2 + load factor), capped', () => {
    expect(dynamicTimeoutMs(500, 0, 10_000)).toBe(600);
    expect(dynamicTimeoutMs(500, 0.5, 10_000)).toBe(850);
    expect(dynamicTimeoutMs(5000, 1, 10_000)).toBe(10_000);
  });

  it('percentile by nearest rank', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentileMs(xs, 99)).toBe(99);
    expect(percentileMs(xs, 50)).toBe(50);
    expect(percentileMs([7], 99)).toBe(7);
    expect(() => percentileMs([], 50)).toThrow(RangeError);
  });

  it('seeded samples: same seed, same latencies; the median lands near the asked one', () => {
    const a = latencySamplesMs(42, 5000, 200, 0.5);
    expect(latencySamplesMs(42, 5000, 200, 0.5)).toEqual(a);
    expect(percentileMs(a, 50)).toBeGreaterThan(185);
    expect(percentileMs(a, 50)).toBeLessThan(215);
    // load stretches every latency
    expect(percentileMs(latencySamplesMs(42, 5000, 200, 0.5, 1), 50)).toBeGreaterThan(370);
  });

  it('under growing load the static timeout fails more and more calls; the dynamic one stays near 1%', () => {
    const rows = compareTimeouts({ seed: 7, n: 4000, medianMs: 200, sigma: 0.5, staticTimeoutMs: 700, capMs: 10_000, loadFactors: [0, 0.5, 1, 2] });
    expect(rows.map((r) => r.staticTimeoutRate)).toEqual([...rows.map((r) => r.staticTimeoutRate)].sort((x, y) => x - y));
    expect(rows[0].staticTimeoutRate).toBeLessThan(0.01);
    expect(rows[3].staticTimeoutRate).toBeGreaterThan(0.3);
    for (const r of rows) expect(r.dynamicTimeoutRate).toBeLessThan(0.02);
  });

  it('property: the dynamic timeout never exceeds its cap and never falls below the observed p99 when uncapped', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 100_000 }), fc.double({ min: 0, max: 5, noNaN: true }), fc.integer({ min: 1, max: 200_000 }), (p99, load, cap) => {
      const t = dynamicTimeoutMs(p99, load, cap);
      expect(t).toBeLessThanOrEqual(cap);
      if (t < cap) expect(t).toBeGreaterThanOrEqual(p99);
    }));
  });
});
