import { expect } from 'vitest';
import type { CoreModel } from '../../core';
import type { Scenario } from '../../types';
import { resilienceCore, withOverrides } from '..';
import { breakerInvariants, breakerInvariantsSurelyHold } from '../breakerOutcome';
import type { BreakerCore } from '../breakerTypes';
import { loadScenarios } from './helpers';
import { breakerScenarioArb } from './resilienceArb';
import { preCheckSuite } from '../../__tests__/preCheckSuite';

/**
 * The core skips the breaker's five checks when `breakerInvariantsSurelyHold` says none can fail
 * (`CoreModel.surelyHolds`). Proven here: after every step of every breaker built-in (each
 * expectation's overrides too) and of 2,000 generated breaker scenarios, whenever the pre-check
 * clears the state, every check returns null; and a pre-check that cleared everything would hide
 * real failures of each of them (not vacuous).
 */

const breakerVariants = (): Scenario[] =>
  loadScenarios()
    .flatMap(({ scenario }) => [scenario, ...(scenario.expect ?? []).map((e) => withOverrides(scenario, e.overrides))])
    .filter((s) => s.config.mechanism === 'breaker');

preCheckSuite<BreakerCore>({
  title: 'breaker invariants pre-check (surelyHolds)',
  subject: 'a state a breaker check fails on',
  // The breaker's checks read its whole state (`MechanismCheck`: one argument).
  lab: { core: resilienceCore as CoreModel<unknown, BreakerCore, unknown, unknown, unknown>, mode: 'effects', maxSteps: 5000, entities: (state) => [['breaker', state]], invariants: breakerInvariants },
  holds: (_kind, s) => breakerInvariantsSurelyHold(s),
  variants: breakerVariants,
  variantsName: 'every breaker built-in variant',
  builtins: { cleared: 100, notCleared: 10 },
  generated: { arb: breakerScenarioArb, runs: 2000, seed: 20261202, name: '2,000 generated breaker scenarios', cleared: 1000, notCleared: 100 },
  clearAll: {
    title: 'the scan finds the failures a pre-check that clears everything would hide: every breaker check',
    generated: { runs: 1000, seed: 11 },
    // Every check but one fails somewhere: no switch of the lab lets retries exceed a ratio budget
    // (`retryLimit` asks `ratioAllowsRetry` before every retry), so 'retry-budget-respected' cannot break.
    expectHidden: (names) => expect(breakerInvariants.map((i) => i.name).filter((n) => !names.has(n))).toEqual(['retry-budget-respected']),
  },
});
