import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createHash } from 'node:crypto';
import {
  BACKOFF_STRATEGIES,
  backoffBoundsMs,
  backoffDelayForHash,
  backoffDelayMs,
  clientHash,
  type BackoffParams,
  type BackoffStrategy,
} from '../backoff';

const P: BackoffParams = { baseMs: 100, capMs: 1000, seed: 42 };
const JITTERED: BackoffStrategy[] = ['full-jitter', 'equal-jitter', 'decorrelated-jitter'];

describe('backoff: exact values of the deterministic strategies', () => {
  it('fixed returns baseMs on every attempt', () => {
    expect([0, 1, 5, 30].map((a) => backoffDelayMs('fixed', 'c1', a, P))).toEqual([100, 100, 100, 100]);
  });

  it('exponential is min(cap, base·2^attempt) and survives huge attempts', () => {
    expect([0, 1, 2, 3, 4, 5].map((a) => backoffDelayMs('exponential', 'c1', a, P))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(backoffDelayMs('exponential', 'c1', 5000, P)).toBe(1000);
  });

  it('sdk-default is ⌊min(30000, 1000·1.5^n)⌋ and ignores base, cap and seed', () => {
    const got = Array.from({ length: 11 }, (_, n) => backoffDelayMs('sdk-default', 'c1', n, P));
    expect(got).toEqual([1000, 1500, 2250, 3375, 5062, 7593, 11390, 17085, 25628, 30000, 30000]);
    expect(backoffDelayMs('sdk-default', 'zz', 3, { baseMs: 1, capMs: 2, seed: 9 })).toBe(3375);
  });

  it('lesson-sha256 matches values computed by hand from sha256sum', () => {
    // echo -n c1:0 | sha256sum → 7ba40d85…; 125 + 0x7ba40d85 mod 126 = 222
    expect(backoffDelayMs('lesson-sha256', 'c1', 0, P)).toBe(222);
    expect(backoffDelayMs('lesson-sha256', 'c1', 1, P)).toBe(349);
    expect(backoffDelayMs('lesson-sha256', 'client-7', 3, P)).toBe(1538);
    expect(backoffDelayMs('lesson-sha256', 'a', 10, P)).toBe(7614);
  });

  it('lesson-sha256 agrees with node:crypto for many ids and attempts, and ignores the seed', () => {
    for (let i = 0; i < 200; i++) {
      const id = `client-${i}-é`;
      const attempt = i % 9;
      const ceiling = Math.min(8000, 250 * 2 ** attempt);
      const floor = Math.floor(ceiling / 2);
      const first4 = createHash('sha256').update(`${id}:${attempt}`, 'utf8').digest().readUInt32BE(0);
      const want = floor + (first4 % (ceiling - floor + 1));
      expect(backoffDelayMs('lesson-sha256', id, attempt, P)).toBe(want);
      expect(backoffDelayMs('lesson-sha256', id, attempt, { ...P, seed: i })).toBe(want);
    }
  });
});

describe('backoff: jitter draws are pure hashes of (seed, client, attempt)', () => {
  const ids = Array.from({ length: 2000 }, (_, i) => `c${i}`);

  it('the order clients are computed in does not matter', () => {
    for (const s of JITTERED) {
      const forward = ids.map((id) => backoffDelayMs(s, id, 3, P));
      const backward = [...ids].reverse().map((id) => backoffDelayMs(s, id, 3, P)).reverse();
      expect(backward).toEqual(forward);
    }
  });

  it('the seed changes the draws; the same seed repeats them', () => {
    for (const s of JITTERED) {
      const a = ids.map((id) => backoffDelayMs(s, id, 3, P));
      const b = ids.map((id) => backoffDelayMs(s, id, 3, { ...P, seed: 43 }));
      const same = a.filter((d, i) => d === b[i]).length;
      expect(same).toBeLessThan(ids.length / 4);
      expect(ids.map((id) => backoffDelayMs(s, id, 3, P))).toEqual(a);
    }
  });

  it('full jitter spreads uniformly over [0, cap]: mean near half, every tenth of the range used', () => {
    const top = 800; // attempt 3 with base 100
    const d = ids.map((id) => backoffDelayMs('full-jitter', id, 3, P));
    const mean = d.reduce((x, y) => x + y, 0) / d.length;
    expect(Math.abs(mean - top / 2)).toBeLessThan(top * 0.03);
    const deciles = new Array(10).fill(0);
    for (const x of d) deciles[Math.min(9, Math.floor((x / (top + 1)) * 10))]++;
    for (const c of deciles) expect(Math.abs(c - ids.length / 10)).toBeLessThan(ids.length / 10 * 0.25);
  });

  it('equal jitter keeps at least half of the exponential delay', () => {
    const d = ids.map((id) => backoffDelayMs('equal-jitter', id, 3, P));
    expect(Math.min(...d)).toBeGreaterThanOrEqual(400);
    expect(Math.max(...d)).toBeLessThanOrEqual(800);
    expect(new Set(d).size).toBeGreaterThan(300);
  });

  it('decorrelated jitter at attempt 0 is random in [base, 3·base]', () => {
    const d = ids.map((id) => backoffDelayMs('decorrelated-jitter', id, 0, P));
    expect(Math.min(...d)).toBe(100);
    expect(Math.max(...d)).toBe(300);
  });

  it('decorrelated jitter iterates: attempt n starts from attempt n−1 of the same client', () => {
    // With a huge cap the step n draw lies in [base, 3·delay(n−1)].
    const p = { baseMs: 10, capMs: 10_000_000, seed: 5 };
    for (const id of ids.slice(0, 300)) {
      for (let n = 1; n < 6; n++) {
        const prev = backoffDelayMs('decorrelated-jitter', id, n - 1, p);
        const cur = backoffDelayMs('decorrelated-jitter', id, n, p);
        expect(cur).toBeGreaterThanOrEqual(10);
        expect(cur).toBeLessThanOrEqual(prev * 3);
      }
    }
  });

  it('backoffDelayForHash gives the same delays as backoffDelayMs', () => {
    for (const s of BACKOFF_STRATEGIES.filter((x) => x !== 'lesson-sha256')) {
      for (const id of ids.slice(0, 200)) {
        for (const a of [0, 2, 7]) expect(backoffDelayForHash(s, clientHash(id), a, P)).toBe(backoffDelayMs(s, id, a, P));
      }
    }
    expect(() => backoffDelayForHash('lesson-sha256', 1, 0, P)).toThrow(/hashes the client id/);
  });
});

describe('backoff: bad arguments throw a RangeError naming the problem', () => {
  it('rejects bad attempts and params', () => {
    expect(() => backoffDelayMs('full-jitter', 'c', -1, P)).toThrow(/attempt must be a non-negative integer, got -1/);
    expect(() => backoffDelayMs('sdk-default', 'c', 1.5, P)).toThrow(/attempt/);
    expect(() => backoffDelayMs('exponential', 'c', 0, { ...P, baseMs: -5 })).toThrow(/baseMs/);
    expect(() => backoffDelayMs('exponential', 'c', 0, { ...P, capMs: 50 })).toThrow(/capMs must be an integer ≥ baseMs \(100\), got 50/);
    expect(() => backoffDelayMs('full-jitter', 'c', 0, { ...P, seed: 0.5 })).toThrow(/seed/);
    expect(() => backoffDelayMs('nope' as BackoffStrategy, 'c', 0, P)).toThrow(/unknown strategy nope/);
    expect(() => backoffBoundsMs('nope' as BackoffStrategy, 0, P)).toThrow(/unknown strategy nope/);
  });

  it('strategies with their own constants ignore invalid params', () => {
    const bad = { baseMs: -1, capMs: -2, seed: 0.5 };
    expect(backoffDelayMs('sdk-default', 'c', 0, bad)).toBe(1000);
    expect(backoffDelayMs('lesson-sha256', 'c1', 0, bad)).toBe(222);
  });
});

describe('backoff properties', () => {
  const paramsArb = fc
    .record({ baseMs: fc.integer({ min: 0, max: 5000 }), extra: fc.integer({ min: 0, max: 100_000 }), seed: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) })
    .map(({ baseMs, extra, seed }) => ({ baseMs, capMs: baseMs + extra, seed }));

  it('every delay is an integer inside its strategy bounds', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BACKOFF_STRATEGIES), fc.string({ maxLength: 24 }), fc.integer({ min: 0, max: 60 }), paramsArb, (s, id, attempt, params) => {
        const d = backoffDelayMs(s, id, attempt, params);
        const [lo, hi] = backoffBoundsMs(s, attempt, params);
        expect(Number.isInteger(d)).toBe(true);
        expect(d).toBeGreaterThanOrEqual(lo);
        expect(d).toBeLessThanOrEqual(hi);
        // and the bounds are the documented ones, independent of the implementation
        const exp = Math.min(params.capMs, params.baseMs * 2 ** attempt);
        if (s === 'full-jitter') expect([lo, hi]).toEqual([0, exp]);
        if (s === 'equal-jitter') expect(lo).toBe(Math.floor(exp / 2));
        if (s === 'decorrelated-jitter') expect(hi).toBeLessThanOrEqual(params.capMs);
        if (s === 'lesson-sha256') expect(hi).toBeLessThanOrEqual(8000);
        if (s === 'sdk-default') expect(hi).toBeLessThanOrEqual(30000);
      }),
      { numRuns: 2000 },
    );
  });

  it('every delay is a pure function of its arguments', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BACKOFF_STRATEGIES), fc.string(), fc.integer({ min: 0, max: 20 }), paramsArb, (s, id, attempt, params) => {
        expect(backoffDelayMs(s, id, attempt, { ...params })).toBe(backoffDelayMs(s, id, attempt, params));
      }),
      { numRuns: 300 },
    );
  });

  it('exponential and sdk-default never decrease with the attempt', () => {
    fc.assert(
      fc.property(fc.constantFrom<BackoffStrategy>('exponential', 'sdk-default'), fc.integer({ min: 0, max: 60 }), paramsArb, (s, attempt, params) => {
        expect(backoffDelayMs(s, 'x', attempt + 1, params)).toBeGreaterThanOrEqual(backoffDelayMs(s, 'x', attempt, params));
      }),
    );
  });
});
