import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CoreRun, scriptedEntries } from '../../core';
import { replay } from '../../replay';
import type { Scenario } from '../../types';
import { flowCore, flowModel, withFlowOverrides } from '..';
import { FLOW_ENTITY_INVARIANTS, flowInvariantsSurelyHold } from '../outcome';
import type { FlowConfig } from '../schema';
import type { FlowCore } from '../state';
import { loadFlowScenarios } from './helpers';
import { flowScenarioArb } from './flowArb';

/**
 * Two shortcuts of the flow model on the core (issue 10), proven here:
 * - the pre-check `flowInvariantsSurelyHold` (`CoreModel.surelyHolds`) clears an entity only when
 *   every invariant reading its kind holds on it — after every step, for every entity (touched or
 *   not), whatever the entry; and clearing everything would hide real failures (not vacuous);
 * - the fast path does not re-check a broken entity the step left untouched (`watchBroken` false):
 *   its first violations, outcome and effects equal the full trace's (which re-checks at every step).
 */

const KINDS = ['buffer', 'operation', 'request'] as const;
const entityOf = (s: FlowCore, kind: (typeof KINDS)[number]) => (kind === 'buffer' ? s.buffer : kind === 'operation' ? s.op : s.reissue);

interface Scan {
  cleared: number;
  notCleared: number;
  /** Entities cleared although a check failed (must stay empty). */
  wrong: string[];
}

function scan(scenario: Scenario, holds: (kind: string, entity: never) => boolean, into: Scan): void {
  const run = CoreRun.start(flowCore, scenario, scriptedEntries(scenario, flowCore.scriptedRank), 'seekable');
  for (let n = 0; n < 20_000 && run.step(); n++) {
    for (const kind of KINDS) {
      const entity = entityOf(run.state, kind) as never;
      if (!holds(kind, entity)) {
        into.notCleared++;
        continue;
      }
      into.cleared++;
      for (const inv of FLOW_ENTITY_INVARIANTS) {
        if (inv.reads !== kind) continue;
        const message = inv.check(entity, run.state, run.lastAt, run.stepKind);
        if (message !== null) into.wrong.push(`${scenario.id} at ${run.lastAt} ms: ${inv.name}: ${message}`);
      }
    }
  }
}

/** The built-ins, each expectation's overrides too. */
const variants = (): Scenario[] => loadFlowScenarios().flatMap(({ scenario }) => [scenario, ...(scenario.expect ?? []).map((e) => withFlowOverrides(scenario, e.overrides))]);

/** Generated scenarios, some with the request bugs on (the old resume rule, a side-effecting call without a key). */
const scenarioArb = fc.tuple(flowScenarioArb, fc.boolean(), fc.boolean()).map(([s, resume, sideEffect]): Scenario => {
  const c = s.config as unknown as FlowConfig;
  return { ...s, config: { ...s.config, bugs: { ...c.bugs, resumeUnder2026: resume }, client: { ...c.client, sideEffect } } as unknown as Scenario['config'] };
});

/** The fast path's results against the full trace's, as JSON. */
function fastAgrees(scenario: Scenario): string[] {
  const full = replay(flowModel, scenario);
  const fast = replay(flowModel, scenario, { keep: 'effects' });
  expect(JSON.stringify(fast.invariants)).toBe(JSON.stringify(full.invariants));
  expect(JSON.stringify(fast.outcome)).toBe(JSON.stringify(full.outcome));
  expect(JSON.stringify(fast.effects)).toBe(JSON.stringify(full.effects));
  expect(fast.stepCount).toBe(full.stepCount);
  return full.invariants.filter((i) => i.firstViolation !== null).map((i) => i.name);
}

describe('flow invariants pre-check (surelyHolds) and the fast path without the broken watch', () => {
  it('never clears an entity an invariant fails on, over every built-in variant', () => {
    const s: Scan = { cleared: 0, notCleared: 0, wrong: [] };
    for (const scenario of variants()) scan(scenario, flowInvariantsSurelyHold, s);
    expect(s.wrong).toEqual([]);
    expect(s.cleared).toBeGreaterThan(1000);
    expect(s.notCleared).toBeGreaterThan(100);
  });

  it('never clears an entity an invariant fails on, over 1,000 generated scenarios', () => {
    const s: Scan = { cleared: 0, notCleared: 0, wrong: [] };
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        scan(scenario, flowInvariantsSurelyHold, s);
        expect(s.wrong).toEqual([]);
      }),
      { numRuns: 1000, seed: 20261202 },
    );
    expect(s.cleared).toBeGreaterThan(1000);
    expect(s.notCleared).toBeGreaterThan(100);
  }, 300_000);

  it('the scan finds the failures a pre-check that clears everything would hide: every flow invariant', () => {
    const s: Scan = { cleared: 0, notCleared: 0, wrong: [] };
    for (const scenario of variants()) scan(scenario, () => true, s);
    fc.assert(
      fc.property(scenarioArb, (scenario) => scan(scenario, () => true, s)),
      { numRuns: 300, seed: 7 },
    );
    const names = new Set(s.wrong.map((w) => w.split(': ')[1]));
    expect(FLOW_ENTITY_INVARIANTS.map((i) => i.name).filter((n) => !names.has(n))).toEqual([]);
  }, 300_000);

  it('the fast path reports the same first violations, outcome and effects as the full trace (built-ins and 1,000 generated)', () => {
    const broken = new Set<string>();
    for (const scenario of variants()) for (const n of fastAgrees(scenario)) broken.add(n);
    fc.assert(
      fc.property(scenarioArb, (scenario) => {
        for (const n of fastAgrees(scenario)) broken.add(n);
      }),
      { numRuns: 1000, seed: 20261203 },
    );
    // Not vacuous: every invariant is broken somewhere, so its first violation is compared.
    expect([...broken].sort()).toEqual(FLOW_ENTITY_INVARIANTS.map((i) => i.name).sort());
  }, 300_000);
});
