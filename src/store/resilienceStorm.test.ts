import { describe, expect, it } from 'vitest';
import { builtinResilience } from './builtinResilience';
import { createResilienceStore, replayResilience } from './resilienceStore';
import { executionCounts, selectStormFixRows, STORM_FIXES, stormFinalState, stormFixRows } from './resilienceStorm';

/** The storm's "fixes one at a time" rows are computed in the store floor (the page only reads them). */
describe('resilience storm selectors', () => {
  const { scenarios } = builtinResilience();
  const s1 = scenarios.find((s) => s.id === 'S1-three-layers')!;

  it('one row with no fix, one per fix alone and one with all five; the shown settings marked current', () => {
    const rows = stormFixRows(s1);
    expect(rows.map((r) => r.label)).toEqual(['No fix (the storm)', ...STORM_FIXES.map(([, l]) => `${l} (alone)`), 'All five fixes']);
    expect(rows.filter((r) => r.current)).toHaveLength(1);
    // The no-fix row is the scenario replayed as it is when it ships with no fix on.
    const none = rows[0];
    expect(none.upstream).toBeGreaterThan(rows[rows.length - 1].upstream);
    expect(none.perLayer.length).toBe((s1.config as { layers: unknown[] }).layers.length);
  });

  it('a row equals replaying the scenario with those fixes', () => {
    const row = stormFixRows(s1)[1];
    const end = stormFinalState(replayResilience({ ...s1, config: { ...s1.config, fixes: row.fixes } }));
    expect(row.upstream).toBe(end.executions.length);
    expect(row.afterCancel).toBe(executionCounts(end).afterCancel);
  });

  it('the store selector reads the rows of the store scenario, computed once per scenario', () => {
    const store = createResilienceStore({ builtins: scenarios, initialId: s1.id });
    const a = selectStormFixRows(store.getState());
    expect(selectStormFixRows(store.getState())).toBe(a);
    store.getState().setConfig({ fixes: { retryBudget: true } });
    const b = selectStormFixRows(store.getState());
    expect(b).not.toBe(a);
    expect(b.find((r) => r.current)?.label).toBe('Retry budget per layer (alone)');
  });
});
