import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countInterleavings, explore, interleavings, movableLanes, scenarioForOrder } from '../explore';
import type { Scenario, ScriptedEvent } from '../types';

const ev = (id: string, at: number, lane: string): ScriptedEvent => ({ id, at, actor: 'db', kind: 'step', conn: lane });
const sc = (events: ScriptedEvent[]): Scenario => ({ format: 1, lab: 'x', id: 'x', title: 'x', seed: 1, config: {}, events });
const laneOf = (e: ScriptedEvent) => String(e.conn);

describe('interleaving explorer', () => {
  it('two lanes of five steps give 252 orderings, all distinct, each keeping lane order', () => {
    const lanes = [['a1', 'a2', 'a3', 'a4', 'a5'], ['b1', 'b2', 'b3', 'b4', 'b5']];
    const all = [...interleavings(lanes)];
    expect(all.length).toBe(252);
    expect(countInterleavings([5, 5])).toBe(252);
    expect(new Set(all.map((i) => i.order.join())).size).toBe(252);
    for (const { order } of all) {
      for (const lane of lanes) expect(order.filter((id) => lane.includes(id))).toEqual(lane);
    }
    // The serial orders have one lane switch; the alternating ones nine.
    expect(all.filter((i) => i.switches === 1).length).toBe(2);
    expect(Math.max(...all.map((i) => i.switches))).toBe(9);
  });

  it('counts are multinomial coefficients', () => {
    expect(countInterleavings([2, 2])).toBe(6);
    expect(countInterleavings([3, 3, 3])).toBe(1680);
    expect(countInterleavings([4])).toBe(1);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 1, maxLength: 3 }), (sizes) => {
        const lanes = sizes.map((n, l) => Array.from({ length: n }, (_, i) => `${l}.${i}`));
        expect([...interleavings(lanes)].length).toBe(countInterleavings(sizes));
      }),
    );
  });

  it('scenarioForOrder hands out the sorted original times in the new order and leaves fixed events alone', () => {
    const s = sc([ev('a1', 0, 'A'), ev('a2', 10, 'A'), ev('x', 5, 'X'), ev('b1', 20, 'B')]);
    const out = scenarioForOrder(s, ['b1', 'a1', 'a2']);
    expect(out.events.map((e) => [e.id, e.at])).toEqual([
      ['b1', 0],
      ['x', 5],
      ['a1', 10],
      ['a2', 20],
    ]);
    expect(s.events[0].at).toBe(0); // input untouched
  });

  it('groups outcomes, finds the simplest example, reports progress and can be cancelled', () => {
    const s = sc([ev('a1', 0, 'A'), ev('a2', 10, 'A'), ev('b1', 20, 'B'), ev('b2', 30, 'B')]);
    const lanes = movableLanes(s, ['a1', 'a2', 'b1', 'b2'], laneOf);
    expect(lanes).toEqual([['a1', 'a2'], ['b1', 'b2']]);
    // Outcome: which lane's first event ran first.
    const run = (x: Scenario) => [...x.events].sort((p, q) => p.at - q.at)[0].id;
    const progress: number[] = [];
    const r = explore({ scenario: s, movable: ['a1', 'a2', 'b1', 'b2'], laneOf, run, classify: (o) => o }, { onProgress: (d) => progress.push(d) });
    expect(r.total).toBe(6);
    expect(r.groups.map((g) => [g.key, g.count, g.example.order.join(' ')])).toEqual([
      ['a1', 3, 'a1 a2 b1 b2'],
      ['b1', 3, 'b1 b2 a1 a2'],
    ]);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6]);
    let n = 0;
    const c = explore({ scenario: s, movable: ['a1', 'a2', 'b1', 'b2'], laneOf, run, classify: (o) => o }, { shouldStop: () => n++ >= 2 });
    expect([c.cancelled, c.done]).toEqual([true, 2]);
    expect(() => explore({ scenario: s, movable: ['nope'], laneOf, run, classify: (o) => o })).toThrow('explore: no event with id "nope" in scenario x');
  });
});
