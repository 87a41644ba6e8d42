import { describe, expect, it } from 'vitest';
import { StepRuns } from '../stepRuns';

describe('StepRuns', () => {
  it('keeps runs of one shared value and answers every step, absent steps undefined', () => {
    const a = ['a'];
    const b = ['b'];
    const r = new StepRuns<string[]>();
    for (const i of [2, 3, 4]) r.add(i, a);
    r.add(5, b);
    r.add(7, b);
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8].map((i) => r.get(i))).toEqual([undefined, undefined, a, a, a, b, undefined, b, undefined]);
    expect(r.get(4)).toBe(a);
  });

  it('prefix cuts a run that crosses the fork step', () => {
    const a = ['a'];
    const r = new StepRuns<string[]>();
    for (let i = 10; i < 20; i++) r.add(i, a);
    const p = StepRuns.prefix(r, 15);
    expect(p.get(14)).toBe(a);
    expect(p.get(15)).toBeUndefined();
    p.add(15, ['c']);
    expect(p.get(15)).toEqual(['c']);
    expect(r.get(15)).toBe(a);
  });
});
