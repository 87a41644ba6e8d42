import type { ResilienceTrace } from '../sim/resilience';
import type { StormAttempt, StormState } from '../sim/resilience/storm';
import type { Json, Scenario } from '../sim/types';
import { withOverrides } from '../sim/expectation';
import { resilienceDefinition } from '../sim/resilience/definition';
import { finalStateOf } from './traceScan';

/**
 * The retry storm's derived views, computed in the store floor so the page never replays: counts
 * per layer and at the upstream API for a storm state, and "the fixes one at a time" (the scenario
 * replayed with no fix, each fix alone, and all five), cached per scenario object.
 */

/** The five fixes, in the lesson's order. */
export const STORM_FIXES = [
  ['retryAtOneLayerOnly', 'Retry at one layer only'],
  ['deadlinePropagation', 'Deadlines passed down'],
  ['retryBudget', 'Retry budget per layer'],
  ['cancelPropagation', 'Cancellation propagated'],
  ['idempotencyKeys', 'Idempotency keys upstream'],
] as const;

export type FixName = (typeof STORM_FIXES)[number][0];

/** Per-layer counts of a storm state: attempts by result, and how many ran on after the user's cancel. */
export function layerCounts(s: StormState): { name: string; attempts: number; byResult: Partial<Record<StormAttempt['result'], number>>; afterCancel: number }[] {
  const cancelAt = s.user.cancelAt;
  return s.config.layers.map((l, i) => {
    const byResult: Partial<Record<StormAttempt['result'], number>> = {};
    let attempts = 0;
    let afterCancel = 0;
    for (const id of s.attemptOrder) {
      const a = s.attempts[id];
      if (a.layer !== i) continue;
      attempts++;
      byResult[a.result] = (byResult[a.result] ?? 0) + 1;
      if (cancelAt !== null && (a.endAt === null || a.endAt > cancelAt)) afterCancel++;
    }
    return { name: l.name, attempts, byResult, afterCancel };
  });
}

/** Upstream executions of a storm state: total, delivered, killed, and those running at or started after the user's cancel. */
export function executionCounts(s: StormState): { total: number; delivered: number; wasted: number; killed: number; afterCancel: number } {
  const cancelAt = s.user.cancelAt;
  let delivered = 0;
  let wasted = 0;
  let killed = 0;
  let afterCancel = 0;
  for (const e of s.executions) {
    if (e.state === 'killed') killed++;
    if (e.state === 'ok') {
      if (e.waiters.some((w) => s.attempts[w].result === 'ok' || s.attempts[w].result === 'receipt')) delivered++;
      else wasted++;
    }
    if (cancelAt !== null && (e.endAt === null || e.endAt > cancelAt)) afterCancel++;
  }
  return { total: s.executions.length, delivered, wasted, killed, afterCancel };
}

/** The storm state at the end of trace `t` (its initial state when nothing happened); a seekable trace rebuilds it from its last checkpoint. */
export function stormFinalState(t: ResilienceTrace): StormState {
  return finalStateOf(t) as StormState;
}

/** One row of "the fixes one at a time": its settings, the attempts per layer and upstream executions by the end, and whether it is what the scenario shows. */
export interface StormFixRow {
  label: string;
  fixes: Record<FixName, boolean>;
  perLayer: number[];
  upstream: number;
  afterCancel: number;
  current: boolean;
}

const fixRowsCache = new WeakMap<Scenario, StormFixRow[]>();

/**
 * The storm scenario replayed with no fix, each of the five fixes alone, and all five (seven
 * replays, cached per scenario object); `current` marks the row whose fixes match the scenario's.
 */
export function stormFixRows(scenario: Scenario): StormFixRow[] {
  const cached = fixRowsCache.get(scenario);
  if (cached) return cached;
  const base = scenario.config as { fixes: Record<FixName, boolean> };
  const none = Object.fromEntries(STORM_FIXES.map(([k]) => [k, false])) as Record<FixName, boolean>;
  const rows: { label: string; fixes: Record<FixName, boolean> }[] = [
    { label: 'No fix (the storm)', fixes: none },
    ...STORM_FIXES.map(([k, label]) => ({ label: `${label} (alone)`, fixes: { ...none, [k]: true } })),
    { label: 'All five fixes', fixes: Object.fromEntries(STORM_FIXES.map(([k]) => [k, true])) as Record<FixName, boolean> },
  ];
  const out = rows.map((r) => {
    // The seekable replay keeps no per-step states: its last state is rebuilt from the last checkpoint.
    const f = stormFinalState(resilienceDefinition.seekable!(withOverrides(scenario, { fixes: r.fixes as unknown as Json })));
    const current = STORM_FIXES.every(([k]) => base.fixes[k] === r.fixes[k]);
    return { ...r, upstream: f.executions.length, afterCancel: executionCounts(f).afterCancel, perLayer: layerCounts(f).map((l) => l.attempts), current };
  });
  fixRowsCache.set(scenario, out);
  return out;
}

/** Selector: the fix rows of the store's scenario (see `stormFixRows`); only for a storm scenario. */
export const selectStormFixRows = (s: { scenario: Scenario }): StormFixRow[] => stormFixRows(s.scenario);

export type { StormAttempt, StormState };
