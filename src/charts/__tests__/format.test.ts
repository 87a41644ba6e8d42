import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatCount } from '../format';

describe('formatCount (one shared en-US formatter)', () => {
  it("writes every number exactly as toLocaleString('en-US') does", () => {
    for (const n of [0, -0, 1, 999, 1000, 100000, 1234567.891, 0.0005, -42.5, 2 ** 53, NaN, Infinity, -Infinity]) expect(formatCount(n)).toBe(n.toLocaleString('en-US'));
    fc.assert(fc.property(fc.oneof(fc.integer(), fc.double()), (n) => formatCount(n) === n.toLocaleString('en-US')), { numRuns: 2000, seed: 20261203 });
  });
});
