import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { explore, type ExploreResult } from '../../explore';
import type { Json, Scenario } from '../../types';
import { createLedgerModel, createLedgerTrieExplorer, ledgerLaneOf, replayLedger, withLedgerOverrides, type LedgerOutcome } from '..';
import { HEAVY, ledgerFixture, loadScenarios } from './helpers';
import { ledgerScenarioArb } from './arb';
import { EXPLORE_VARIANTS } from '../../../labs/ledger/exploreProtocol';

const db = ledgerFixture((open) => ({ model: createLedgerModel(open), trie: createLedgerTrieExplorer(open) }));

/** The page's class name (the explorer worker's). */
const classify = (o: LedgerOutcome) => `${o.summary.executions} execution${o.summary.executions === 1 ? '' : 's'} · A ${o.summary.connA} · B ${o.summary.connB}`;
/** A finer name: the whole outcome, so every field of every order must agree. */
const whole = (o: LedgerOutcome) => JSON.stringify(o);

function fromScratch(s: Scenario, movable: readonly string[], name: (o: LedgerOutcome) => string): ExploreResult<LedgerOutcome> {
  return explore<LedgerOutcome>({ scenario: s, movable, laneOf: ledgerLaneOf, run: (x) => replayLedger(x, db.open, { model: db.model, keep: 'effects' }).outcome, classify: name });
}

function expectSame(s: Scenario, movable: readonly string[]) {
  for (const name of [classify, whole]) {
    const want = fromScratch(s, movable, name);
    const got = db.trie.explore({ scenario: s, movable, classify: name });
    expect(got).toEqual(want);
  }
}

describe('the trie explorer equals the from-scratch explorer', HEAVY, () => {
  const builtins = loadScenarios();
  it('covers the built-ins with two racing lanes (252 orders each)', () => {
    const racing = builtins.filter((s) => s.events.filter((e) => e.actor === 'db').length === 10).map((s) => s.id);
    expect(racing).toEqual(['A-race-two-connections', 'B-race-interleaved']);
  });
  for (const s of builtins) {
    for (const v of EXPLORE_VARIANTS) {
      it(`${s.id} under ${v.id}: every order's outcome, the groups, counts and examples`, () => {
        const x = withLedgerOverrides(s, v.overrides as Record<string, Json>);
        const steps = x.events.filter((e) => e.actor === 'db').map((e) => e.id);
        expectSame(x, steps);
        // Client events movable too (their own lane): timers of moved calls inside the trie.
        if (steps.length === 0) expectSame(x, x.events.map((e) => e.id));
      });
    }
  }

  it('reports progress per order and stops when asked', () => {
    const s = withLedgerOverrides(builtins[0], { policy: 'claim' });
    const steps = s.events.map((e) => e.id);
    const seen: number[] = [];
    const r = db.trie.explore({ scenario: s, movable: steps, classify }, { onProgress: (d) => seen.push(d), shouldStop: () => seen.length >= 10 });
    expect(r.cancelled).toBe(true);
    expect(r.done).toBe(10);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(r.total).toBe(252);
  });
});

describe('property: generated ledger scenarios (fast-check)', HEAVY, () => {
  it('the trie explorer gives the from-scratch groups, counts, examples and outcomes', () => {
    fc.assert(
      fc.property(ledgerScenarioArb, ({ s, movable }) => {
        const want = fromScratch(s, movable, whole);
        expect(db.trie.explore({ scenario: s, movable, classify: whole })).toEqual(want);
      }),
      { numRuns: 120, seed: 20261201 },
    );
  });
});
