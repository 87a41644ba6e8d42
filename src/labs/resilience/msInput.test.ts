import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { parseMsSetting } from './msInput';

describe('typed millisecond settings', () => {
  it('refuses 0, negatives, empty, fractions, non-numbers and huge values, naming the field and its range', () => {
    const f = (raw: string) => parseMsSetting(raw, 'Static timeout (ms)', 1, 600000);
    expect(f('0')).toEqual({ ok: false, error: 'Static timeout (ms): 0 is out of range; expected a whole number from 1 to 600 000 ms' });
    expect(f('-100')).toEqual({ ok: false, error: 'Static timeout (ms): -100 is out of range; expected a whole number from 1 to 600 000 ms' });
    expect(f('')).toEqual({ ok: false, error: 'Static timeout (ms): is empty; expected a whole number from 1 to 600 000 ms' });
    expect(f('1e20')).toMatchObject({ ok: false, error: expect.stringMatching(/^Static timeout \(ms\): 1e20 is out of range/) });
    expect(f('2.5')).toMatchObject({ ok: false, error: expect.stringMatching(/not a whole number/) });
    expect(f('abc')).toMatchObject({ ok: false, error: expect.stringMatching(/"abc" is not a number/) });
    expect(f(' 700 ')).toEqual({ ok: true, value: 700 });
  });

  it('accepts exactly the whole numbers in range', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1000, max: 700000 }), (n) => {
        const r = parseMsSetting(String(n), 'Cap (ms)', 1, 600000);
        expect(r.ok).toBe(n >= 1 && n <= 600000);
        if (r.ok) expect(r.value).toBe(n);
      }),
    );
  });
});
