import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { replay } from '../replay';
import { scenarioForOrder } from '../explore';
import { exploreOrders } from '../orders';
import { exploreRacesOrders, racesCommute, racesCore, racesModel, racesOrderClass } from '../races';
import type { Scenario } from '../types';
import { loadBuiltinScenario, loadBuiltinScenarios } from './builtinScenarios';
import { racesScenarioArb } from './racesArb';

/** Naive reference: every permutation as a scenario file (`scenarioForOrder`), replayed whole. */
function naive(scenario: Scenario, ids: string[]): Map<string, number> {
  const out = new Map<string, number>();
  const rec = (prefix: string[], rest: string[]) => {
    if (rest.length === 0) {
      const t = replay(racesModel, scenarioForOrder(scenario, prefix), { keep: 'effects' });
      const key = racesOrderClass(t.outcome, t.invariants.filter((i) => i.firstViolation !== null).map((i) => i.name));
      out.set(key, (out.get(key) ?? 0) + 1);
      return;
    }
    rest.forEach((id, i) => rec([...prefix, id], [...rest.slice(0, i), ...rest.slice(i + 1)]));
  };
  rec([], ids);
  return out;
}

const counts = (r: ReturnType<typeof exploreRacesOrders>) => new Map(r.classes.map((c) => [c.key, c.count]));

describe('exploreOrders (races)', () => {
  it('A: cancel vs completion vs progress — same classes and counts as replaying every permuted scenario whole', () => {
    const a = loadBuiltinScenario('races', 'A-cancel-then-complete');
    const ids = a.events.filter((e) => e.kind !== 'start').map((e) => e.id);
    const r = exploreRacesOrders(a, ids);
    expect(r.total).toBe([1, 1, 2, 6, 24, 120, 720, 5040, 40320][ids.length]);
    expect(r.evaluated).toBe(r.total);
    expect(counts(r)).toEqual(naive(a, ids));
    expect(r.classes.length).toBeGreaterThan(1);
    // The written order is its own class's shortest counterexample (0 inversions).
    const written = r.classes.find((c) => c.inversions === 0);
    expect(written?.example).toEqual([...ids].sort((x, y) => a.events.find((e) => e.id === x)!.at - a.events.find((e) => e.id === y)!.at));
  });

  it('every built-in: up to 6 selected events agree with the naive reference', () => {
    for (const { scenario } of loadBuiltinScenarios('races')) {
      const ids = scenario.events.slice(0, 6).map((e) => e.id);
      expect(counts(exploreRacesOrders(scenario, ids))).toEqual(naive(scenario, ids));
    }
  });

  it('generated scenarios (300): same classes and counts as the naive reference; pruning keeps every class', () => {
    fc.assert(
      fc.property(racesScenarioArb, fc.array(fc.nat(), { minLength: 1, maxLength: 5 }), (s, picks) => {
        const ids = [...new Set(picks.map((p) => s.events[p % s.events.length].id))];
        const r = exploreRacesOrders(s, ids);
        expect(counts(r)).toEqual(naive(s, ids));
        const p = exploreRacesOrders(s, ids, { prune: true });
        expect(p.evaluated + p.pruned).toBe(p.total);
        expect(new Set(p.classes.map((c) => c.key))).toEqual(new Set(r.classes.map((c) => c.key)));
      }),
      { numRuns: 300, seed: 3 },
    );
  });

  it('a lab constraint rejects orders and is counted; bad selections throw naming the field', () => {
    const a = loadBuiltinScenario('races', 'A-cancel-then-complete');
    const ids = a.events.map((e) => e.id).slice(0, 3);
    const r = exploreOrders({ model: racesCore, scenario: a, events: ids, classify: racesOrderClass, allowed: (order) => order[0] === ids[0] });
    expect(r.rejected).toBe(4);
    expect(r.evaluated).toBe(2);
    expect(() => exploreRacesOrders(a, ['nope'])).toThrow(/events: no event with id "nope"/);
    expect(() => exploreRacesOrders(a, [])).toThrow(/events: select 1 to 8/);
    expect(racesCommute(a.events[0], a.events[0])).toBe(false);
  });

  it('shouldStop cancels and reports progress', () => {
    const { scenario } = loadBuiltinScenarios('races').find((s) => s.scenario.events.length >= 8)!;
    const ids = scenario.events.slice(0, 8).map((e) => e.id);
    const seen: number[] = [];
    const r = exploreRacesOrders(scenario, ids, { onProgress: (d) => seen.push(d), shouldStop: () => seen.length >= 2 });
    expect(r.cancelled).toBe(true);
    expect(r.evaluated).toBe(2048);
  });
});
