import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { explore, interleavings, movableLanes, scenarioForOrder } from '../../explore';
import { createLedgerModel, ledgerLaneOf, replayLedger, withLedgerOverrides, type LedgerModel, type LedgerOutcome, type OpenDatabase, POLICIES } from '..';
import { opener, scenario } from './helpers';

let open: OpenDatabase;
let model: LedgerModel;
beforeAll(async () => {
  open = await opener();
  model = createLedgerModel(open); // one database, emptied per replay
});
// Hundreds of real-SQL replays per test: generous limits so a loaded machine cannot fail them (speed lives in the bench).
const HEAVY = { timeout: 120_000 };

const base = () => scenario('A-race-two-connections');
const movable = () => base().events.map((e) => e.id);
const classify = (o: LedgerOutcome) => `executions ${o.summary.executions} · A ${o.summary.connA} · B ${o.summary.connB}`;

function exploreUnder(overrides: Record<string, string>) {
  const s = withLedgerOverrides(base(), overrides);
  return explore<LedgerOutcome>({ scenario: s, movable: movable(), laneOf: ledgerLaneOf, run: (x) => replayLedger(x, open, { model, keep: 'effects' }).outcome, classify });
}
const twice = (r: ReturnType<typeof exploreUnder>) => r.groups.filter((g) => g.outcome.summary.executions > 1).reduce((n, g) => n + g.count, 0);

describe('every interleaving of two connections (252)', HEAVY, () => {
  it('naive check-then-act executes twice exactly when each connection reads before the other writes its record', () => {
    const r = exploreUnder({ policy: 'naive' });
    expect(r.total).toBe(252);
    // Independent count: A executes iff A.read precedes B.write, and vice versa.
    const lanes = movableLanes(base(), movable(), ledgerLaneOf);
    let expected = 0;
    for (const { order } of interleavings(lanes)) {
      const p = (id: string) => order.indexOf(id);
      if (p('A-read') < p('B-write') && p('B-read') < p('A-write')) expected++;
    }
    expect(expected).toBe(twice(r));
    expect(twice(r)).toBe(200); // of 252: only when one connection writes its record before the other reads does it not happen
    // The shortest counterexample: fewest lane switches among the double executions.
    const bad = r.groups.filter((g) => g.outcome.summary.executions > 1).sort((a, b) => a.example.switches - b.example.switches)[0];
    expect(bad.example.switches).toBe(2); // A begins and reads, B runs all its steps, A finishes
    const replayed = replayLedger(scenarioForOrder(base(), bad.example.order), open);
    expect(replayed.outcome.summary.executions).toBe(2);
    expect(replayed.invariants.find((i) => i.name === 'at-most-once')!.firstViolation).not.toBeNull();
  });

  for (const [policy, busy] of [['immediate', 'wait'], ['immediate', 'error'], ['deferred', 'wait'], ['claim', 'wait']] as const) {
    it(`${policy} (busy ${busy}): no interleaving executes the key twice, and exactly one executes it`, () => {
      const r = exploreUnder({ policy, busy });
      expect(r.total).toBe(252);
      expect(twice(r)).toBe(0);
      for (const g of r.groups) expect(g.outcome.summary.executions, g.key).toBe(1);
    });
  }

  it('every policy is explored (the list the page shows)', () => {
    expect([...POLICIES]).toEqual(['naive', 'deferred', 'immediate', 'claim']);
  });
});

describe('property: random step times (fast-check)', HEAVY, () => {
  const times = fc.array(fc.integer({ min: 0, max: 60 }), { minLength: 10, maxLength: 10 });
  const withTimes = (ts: number[]) => {
    const s = base();
    // Each lane keeps its order: sort the lane's times.
    const a = ts.slice(0, 5).sort((x, y) => x - y);
    const b = ts.slice(5).sort((x, y) => x - y);
    return { ...s, events: s.events.map((e, i) => ({ ...e, at: i < 5 ? a[i] : b[i - 5] })) };
  };

  it('under the atomic policies no ordering executes a key twice', () => {
    fc.assert(
      fc.property(times, fc.constantFrom('immediate', 'claim', 'deferred'), fc.constantFrom('wait', 'error'), (ts, policy, busy) => {
        const trace = replayLedger(withLedgerOverrides(withTimes(ts), { policy, busy }), open, { model, keep: 'effects' });
        expect(trace.outcome.summary.executions).toBeLessThanOrEqual(1);
        expect(trace.invariants.every((i) => i.firstViolation === null)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });

  it('under the naive policy some orderings do (the property can fail)', () => {
    const result = fc.check(
      fc.property(times, (ts) => replayLedger(withLedgerOverrides(withTimes(ts), { policy: 'naive' }), open, { model, keep: 'effects' }).outcome.summary.executions <= 1),
      { numRuns: 300, seed: 7 },
    );
    expect(result.failed).toBe(true);
  });
});
