import { expect, it } from 'vitest';
import fc from 'fast-check';
import { replay } from '../../replay';
import type { Scenario } from '../../types';
import { flowCore, flowModel, withFlowOverrides } from '..';
import { FLOW_ENTITY_INVARIANTS, flowInvariantsSurelyHold } from '../outcome';
import type { FlowConfig } from '../schema';
import type { FlowCore } from '../state';
import { loadFlowScenarios } from './helpers';
import { flowScenarioArb } from './flowArb';
import { preCheckSuite } from '../../__tests__/preCheckSuite';

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

preCheckSuite<FlowCore>(
  {
    title: 'flow invariants pre-check (surelyHolds) and the fast path without the broken watch',
    subject: 'an entity an invariant fails on',
    lab: { core: flowCore, mode: 'seekable', maxSteps: 20_000, entities: (state) => KINDS.map((kind) => [kind, entityOf(state, kind)] as const), invariants: FLOW_ENTITY_INVARIANTS },
    holds: flowInvariantsSurelyHold,
    variants,
    variantsName: 'every built-in variant',
    builtins: { cleared: 1000, notCleared: 100 },
    generated: { arb: scenarioArb, runs: 1000, seed: 20261202, name: '1,000 generated scenarios', cleared: 1000, notCleared: 100 },
    clearAll: { title: 'the scan finds the failures a pre-check that clears everything would hide: every flow invariant', generated: { runs: 300, seed: 7 } },
  },
  () => {
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
  },
);
