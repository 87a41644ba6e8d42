import { describe, expect, it } from 'vitest';
import { checkAgainstFloor, checklistFloorMs, dynamicTimeoutV2Ms, floorCrossingLoadPercent, loadFactorV2, loadsBelowFloor, timeoutAgainstLoad } from '../dynamicTimeout';

describe('dynamic timeout v2 (postmortem "动态计算公式v2")', () => {
  it('loadFactor = min(1.5, (load/80)²)', () => {
    expect(loadFactorV2(0)).toBe(0); // (0/80)² = 0
    expect(loadFactorV2(40)).toBe(0.25); // (40/80)² = 0.5² = 0.25
    expect(loadFactorV2(80)).toBe(1); // (80/80)² = 1
    expect(loadFactorV2(60)).toBe(0.5625); // 0.75² = 0.5625
    expect(loadFactorV2(100)).toBe(1.5); // (100/80)² = 1.5625 → capped at 1.5
    expect(loadFactorV2(97)).toBeCloseTo(1.47015625, 10); // (97/80)² = 1.2125² = 1.47015625, under the cap
  });

  it('timeout = min(p99 × (1.2 + loadFactor), MAX_TIMEOUT) for p99 14 s (long documents)', () => {
    // load 0: 14000 × 1.2 = 16800
    expect(dynamicTimeoutV2Ms({ p99Ms: 14_000, loadPercent: 0 })).toBeCloseTo(16_800, 9);
    // load 40: 14000 × (1.2 + 0.25) = 14000 × 1.45 = 20300
    expect(dynamicTimeoutV2Ms({ p99Ms: 14_000, loadPercent: 40 })).toBeCloseTo(20_300, 9);
    // load 60: 14000 × 1.7625 = 24675
    expect(dynamicTimeoutV2Ms({ p99Ms: 14_000, loadPercent: 60 })).toBeCloseTo(24_675, 9);
    // load 80: 14000 × 2.2 = 30800 → capped at 30000
    expect(dynamicTimeoutV2Ms({ p99Ms: 14_000, loadPercent: 80 })).toBe(30_000);
    // a 40 s cap lets it through: 30800
    expect(dynamicTimeoutV2Ms({ p99Ms: 14_000, loadPercent: 80, maxTimeoutMs: 40_000 })).toBeCloseTo(30_800, 9);
  });

  it('for the 3–6 s class: p99 6000 at load 80 gives 6000 × 2.2 = 13200; p99 3000 at load 0 gives 3600', () => {
    expect(dynamicTimeoutV2Ms({ p99Ms: 6_000, loadPercent: 80 })).toBeCloseTo(13_200, 9);
    expect(dynamicTimeoutV2Ms({ p99Ms: 3_000, loadPercent: 0 })).toBeCloseTo(3_600, 9);
  });

  it('the checklist floor is p99 × 1.5: 14000 × 1.5 = 21000', () => {
    expect(checklistFloorMs(14_000)).toBe(21_000);
  });

  it('crosses the floor at (load/80)² = 0.3, load = 80·√0.3 ≈ 43.818 %', () => {
    // √0.3 = 0.5477225575…, × 80 = 43.8178046…
    const x = floorCrossingLoadPercent();
    expect(x).toBeCloseTo(43.8178046, 6);
    expect(loadFactorV2(x)).toBeCloseTo(0.3, 12);
    expect(dynamicTimeoutV2Ms({ p99Ms: 14_000, loadPercent: x })).toBeCloseTo(21_000, 6); // 14000 × 1.5
    expect(checkAgainstFloor({ p99Ms: 14_000, loadPercent: x - 0.01 }).belowFloor).toBe(true);
    expect(checkAgainstFloor({ p99Ms: 14_000, loadPercent: x + 0.01 }).belowFloor).toBe(false);
  });

  it('reports where the formula breaks the checklist, with the shortfall and the cause', () => {
    // load 40: 20300 < 21000 — 700 ms short, the load factor's fault
    const at40 = checkAgainstFloor({ p99Ms: 14_000, loadPercent: 40 });
    expect(at40).toMatchObject({ belowFloor: true, cause: 'load-factor', floorMs: 21_000 });
    expect(at40.shortfallMs).toBeCloseTo(700, 6);
    // load 0: 16800 vs 21000 — 4200 ms short
    expect(checkAgainstFloor({ p99Ms: 14_000, loadPercent: 0 }).shortfallMs).toBeCloseTo(4_200, 6);
    // load 44: (44/80)² = 0.55² = 0.3025; 14000 × 1.5025 = 21035 ≥ 21000 — passes
    expect(checkAgainstFloor({ p99Ms: 14_000, loadPercent: 44 })).toMatchObject({ belowFloor: false, shortfallMs: 0, cause: null });
    // p99 25 s: the floor is 37500 but the 30 s cap holds it at 30000 even at load 80 (25000 × 2.2 = 55000)
    expect(checkAgainstFloor({ p99Ms: 25_000, loadPercent: 80 })).toMatchObject({ belowFloor: true, cause: 'cap', timeoutMs: 30_000, floorMs: 37_500, shortfallMs: 7_500 });
  });

  it('the loads below the floor: [0, 43.82) for p99 up to 20 s, every load beyond (30 s cap < p99 × 1.5)', () => {
    const r = loadsBelowFloor(14_000);
    expect(r.fromPercent).toBe(0);
    expect(r.untilPercent).toBeCloseTo(43.8178046, 6);
    expect(r.cause).toBe('load-factor');
    expect(loadsBelowFloor(20_000).cause).toBe('load-factor'); // floor 30000 = cap: reachable
    expect(loadsBelowFloor(20_001)).toEqual({ fromPercent: 0, untilPercent: Number.POSITIVE_INFINITY, cause: 'cap' }); // floor 30001.5 > 30000
  });

  it('names the field on bad input', () => {
    expect(() => loadFactorV2(-1)).toThrow(/^loadPercent: -1 is below 0/);
    expect(() => dynamicTimeoutV2Ms({ p99Ms: 0, loadPercent: 10 })).toThrow(/^p99Ms: /);
    expect(() => dynamicTimeoutV2Ms({ p99Ms: 100, loadPercent: Number.NaN })).toThrow(/^loadPercent: .* not a finite number/);
  });

  it('plot data: both model classes against load beside the static 10 s', () => {
    const series = timeoutAgainstLoad({ loadsPercent: [0, 40, 50, 80, 100] });
    expect(series.map((s) => s.id)).toEqual(['long-documents@14000', 'code-generation@3000', 'code-generation@6000', 'static']);
    const long = series[0].points;
    // 16800, 20300, 14000 × (1.2 + 0.390625) = 22268.75, capped 30000, capped 30000
    expect(long.map((p) => Math.round(p.timeoutMs * 100) / 100)).toEqual([16_800, 20_300, 22_268.75, 30_000, 30_000]);
    expect(long.map((p) => p.belowFloor)).toEqual([true, true, false, false, false]);
    const code6 = series[2].points;
    // 7200, 8700, 9543.75, 13200, 6000 × 2.7 = 16200
    expect(code6.map((p) => Math.round(p.timeoutMs * 100) / 100)).toEqual([7_200, 8_700, 9_543.75, 13_200, 16_200]);
    expect(code6.map((p) => p.floorMs)).toEqual([9_000, 9_000, 9_000, 9_000, 9_000]);
    expect(series[3].points.map((p) => p.timeoutMs)).toEqual([10_000, 10_000, 10_000, 10_000, 10_000]);
    // the static 10 s is under the long-document floor (21000) at every load
    expect(series[3].points.every((p) => p.belowFloor && p.floorMs === 21_000)).toBe(true);
  });
});
