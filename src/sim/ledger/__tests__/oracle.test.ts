import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { oracleReplay } from '../../../../oracle';
import { movableLanes, scenarioForOrder } from '../../explore';
import type { Json, Scenario } from '../../types';
import { createLedgerModel, ledgerLaneOf, replayLedger, withLedgerOverrides } from '..';
import { HEAVY, ledgerFixture, loadScenarios } from './helpers';
import { ledgerScenarioArb } from './arb';
import { EXPLORE_VARIANTS } from '../../../labs/ledger/exploreProtocol';

/**
 * The ledger on the checkpointed core (`replayLedger`, `core.ts`) against the old engine loop
 * (the frozen copy in `oracle/engine.ts`) running the same ledger step functions: every step
 * (entry, state with its tables snapshot, effects, ignored items, note, rule, violations), the
 * effects, the outcome, the invariant results, `endAt`, `stepCount` and `truncated`, in both keep
 * modes. Inputs: every built-in as shipped and under each of the explorer's five policies, the
 * generated scenarios of the trie test (fast-check), and reordered lanes of each.
 */

// Two models: each keeps its own database, so neither run can see the other's rows.
const db = ledgerFixture((open) => ({ oldModel: createLedgerModel(open), newModel: createLedgerModel(open) }));

/** The old engine's trace of `s`: the oracle loop over the model's one-step functions (it ignores `core`). */
function oldTrace(s: Scenario, keep: 'steps' | 'effects', maxSteps?: number) {
  return oracleReplay(db.oldModel, s, { keep, maxSteps });
}

/** Everything a trace holds, as JSON (absent and undefined fields compare alike). */
function whole(t: { initial: unknown; steps: unknown; outcome: unknown; invariants: unknown; effects: unknown; endAt: number; stepCount: number; truncated: boolean }): string {
  return JSON.stringify({ initial: t.initial, steps: t.steps, outcome: t.outcome, invariants: t.invariants, effects: t.effects, endAt: t.endAt, stepCount: t.stepCount, truncated: t.truncated });
}

function expectAgree(s: Scenario, maxSteps?: number): void {
  for (const keep of ['steps', 'effects'] as const) {
    const want = oldTrace(s, keep, maxSteps);
    const got = replayLedger(s, db.open, { model: db.newModel, keep, maxSteps });
    expect(whole(got)).toBe(whole(want));
    if (keep === 'steps') expect(got.steps.length).toBe(want.stepCount);
  }
}

describe('the ledger on the core equals the old engine loop', HEAVY, () => {
  const builtins = loadScenarios();
  it('has built-ins to compare, with steps, effects and broken invariants among them', () => {
    expect(builtins.length).toBeGreaterThanOrEqual(8);
    const traces = builtins.map((s) => oldTrace(s, 'steps'));
    expect(traces.every((t) => t.stepCount > 0)).toBe(true);
    expect(traces.some((t) => t.effects.length > 0)).toBe(true);
    expect(traces.some((t) => t.invariants.some((i) => i.firstViolation !== null))).toBe(true);
    expect(traces.some((t) => t.steps.some((st) => st.ignored.length > 0))).toBe(true);
  });
  for (const s of builtins) {
    it(`${s.id}: as shipped and under each of the five policies`, () => {
      expectAgree(s);
      for (const v of EXPLORE_VARIANTS) expectAgree(withLedgerOverrides(s, v.overrides as Record<string, Json>));
    });
  }
  it('a step limit cuts both at the same step', () => {
    const s = builtins.find((x) => x.events.length > 8)!;
    expectAgree(s, 5);
    expect(replayLedger(s, db.open, { model: db.newModel, maxSteps: 5 }).truncated).toBe(true);
  });
});

describe('property: generated ledger scenarios (fast-check)', HEAVY, () => {
  it('same full trace and effects-only result, in the scenario order and with the lanes reversed', () => {
    fc.assert(
      fc.property(ledgerScenarioArb, ({ s, movable }) => {
        expectAgree(s);
        // One other order of the movable events (the explorer's slot rule): the lanes in reverse, each in its own order.
        const lanes = movableLanes(s, movable, ledgerLaneOf);
        if (lanes.length > 1) expectAgree(scenarioForOrder(s, [...lanes].reverse().flat()));
      }),
      { numRuns: 300, seed: 20261202 },
    );
  });
});
