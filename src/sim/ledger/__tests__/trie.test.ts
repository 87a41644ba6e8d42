import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { countInterleavings, explore, movableLanes, type ExploreResult } from '../../explore';
import { parseScenario } from '../../scenario';
import type { Json, Scenario } from '../../types';
import { createLedgerModel, createLedgerTrieExplorer, ledgerLaneOf, replayLedger, withLedgerOverrides, type LedgerModel, type LedgerOutcome, type LedgerTrieExplorer, type OpenDatabase } from '..';
import { LEDGER_SCHEMAS, loadScenarios, opener } from './helpers';
import { EXPLORE_VARIANTS } from '../../../labs/ledger/exploreProtocol';

let open: OpenDatabase;
let model: LedgerModel;
let trie: LedgerTrieExplorer;
beforeAll(async () => {
  open = await opener();
  model = createLedgerModel(open);
  trie = createLedgerTrieExplorer(open);
});
// Thousands of real-SQL replays: generous limits so a loaded machine cannot fail them (speed lives in the bench).
const HEAVY = { timeout: 600_000 };

/** The page's class name (the explorer worker's). */
const classify = (o: LedgerOutcome) => `${o.summary.executions} execution${o.summary.executions === 1 ? '' : 's'} · A ${o.summary.connA} · B ${o.summary.connB}`;
/** A finer name: the whole outcome, so every field of every order must agree. */
const whole = (o: LedgerOutcome) => JSON.stringify(o);

function fromScratch(s: Scenario, movable: readonly string[], name: (o: LedgerOutcome) => string): ExploreResult<LedgerOutcome> {
  return explore<LedgerOutcome>({ scenario: s, movable, laneOf: ledgerLaneOf, run: (x) => replayLedger(x, open, { model, keep: 'effects' }).outcome, classify: name });
}

function expectSame(s: Scenario, movable: readonly string[]) {
  for (const name of [classify, whole]) {
    const want = fromScratch(s, movable, name);
    const got = trie.explore({ scenario: s, movable, classify: name });
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
    const r = trie.explore({ scenario: s, movable: steps, classify }, { onProgress: (d) => seen.push(d), shouldStop: () => seen.length >= 10 });
    expect(r.cancelled).toBe(true);
    expect(r.done).toBe(10);
    expect(seen).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(r.total).toBe(252);
  });
});

/** Small generated ledger scenarios: both connections' steps (a lane-ordered subset), calls with keys, durations, timeouts and retries, any config. */
const scenarios = fc
  .record({
    policy: fc.constantFrom('naive', 'deferred', 'immediate', 'claim'),
    busy: fc.constantFrom('wait', 'error'),
    dedupe: fc.constantFrom('key', 'none'),
    onInUse: fc.constantFrom('scripted', 'give-up', 'wait-retry'),
    clientKey: fc.constantFrom('stable', 'per-attempt'),
    toolLayer: fc.constantFrom('forwards-key', 'drops-key'),
    stepsA: fc.subarray(['begin', 'read', 'execute', 'write', 'commit'], { maxLength: 4 }),
    stepsB: fc.subarray(['begin', 'read', 'execute', 'write', 'commit'], { maxLength: 4 }),
    stepTimes: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 10, maxLength: 10 }),
    calls: fc.array(
      fc.record({
        at: fc.integer({ min: 0, max: 40 }),
        key: fc.constantFrom(null, 'k1', 'order-42'),
        durationMs: fc.integer({ min: 0, max: 30 }),
        timeoutMs: fc.option(fc.integer({ min: 1, max: 30 })),
        retryAt: fc.option(fc.integer({ min: 0, max: 50 })),
      }),
      { maxLength: 3 },
    ),
    moveCalls: fc.boolean(),
  })
  .map((g) => {
    const events: Record<string, Json>[] = [];
    const lane = (conn: 'A' | 'B', kinds: string[], times: number[]) => {
      const ts = times.slice(0, kinds.length).sort((a, b) => a - b);
      kinds.forEach((kind, i) => events.push({ id: `${conn}-${kind}`, at: ts[i], actor: 'db', kind, conn }));
    };
    lane('A', g.stepsA, g.stepTimes.slice(0, 5));
    lane('B', g.stepsB, g.stepTimes.slice(5));
    g.calls.forEach((c, i) => {
      events.push({ id: `call-${i}`, at: c.at, actor: 'client', kind: 'call', requestId: i + 1, key: c.key, durationMs: c.durationMs, timeoutMs: c.timeoutMs });
      if (c.retryAt !== null) events.push({ id: `retry-${i}`, at: c.retryAt, actor: 'client', kind: 'retry', requestId: `r${i + 1}`, of: i + 1 });
    });
    events.sort((a, b) => (a.at as number) - (b.at as number));
    const parsed = parseScenario(
      { format: 1, lab: 'ledger', id: 'gen', title: 'generated', seed: 1, config: { policy: g.policy, busy: g.busy, dedupe: g.dedupe, onInUse: g.onInUse, clientKey: g.clientKey, toolLayer: g.toolLayer, inUseRetryMs: 7 }, events },
      'ledger',
      LEDGER_SCHEMAS,
    );
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const s = parsed.scenario;
    const steps = s.events.filter((e) => e.actor === 'db').map((e) => e.id);
    const all = s.events.map((e) => e.id);
    // Client events move too (a third lane) when that keeps the orders few (at most 140).
    const movable = g.moveCalls && countInterleavings(movableLanes(s, all, ledgerLaneOf).map((l) => l.length)) <= 140 ? all : steps;
    return { s, movable };
  });

describe('property: generated ledger scenarios (fast-check)', HEAVY, () => {
  it('the trie explorer gives the from-scratch groups, counts, examples and outcomes', () => {
    fc.assert(
      fc.property(scenarios, ({ s, movable }) => {
        const want = fromScratch(s, movable, whole);
        expect(trie.explore({ scenario: s, movable, classify: whole })).toEqual(want);
      }),
      { numRuns: 120, seed: 20261201 },
    );
  });
});
