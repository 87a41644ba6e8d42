import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CoreRun, scriptedEntries } from '../../core';
import type { Scenario } from '../../types';
import { resilienceCore, withOverrides } from '..';
import { breakerInvariants, breakerInvariantsSurelyHold } from '../breakerOutcome';
import type { BreakerCore } from '../breakerTypes';
import { loadScenarios } from './helpers';
import { breakerScenarioArb } from './resilienceArb';

/**
 * The core skips the breaker's five checks when `breakerInvariantsSurelyHold` says none can fail
 * (`CoreModel.surelyHolds`). Proven here: after every step of every breaker built-in (each
 * expectation's overrides too) and of 2,000 generated breaker scenarios, whenever the pre-check
 * clears the state, every check returns null; and a pre-check that cleared everything would hide
 * real failures of each of them (not vacuous).
 */

interface Scan {
  cleared: number;
  notCleared: number;
  /** States cleared although a check failed (must stay empty). */
  wrong: string[];
}

function scan(scenario: Scenario, holds: (s: BreakerCore) => boolean, into: Scan): void {
  const run = CoreRun.start(resilienceCore, scenario, scriptedEntries(scenario, resilienceCore.scriptedRank), 'effects');
  for (let n = 0; n < 5000 && run.step(); n++) {
    const s = run.state as BreakerCore;
    if (!holds(s)) {
      into.notCleared++;
      continue;
    }
    into.cleared++;
    for (const inv of breakerInvariants) {
      const message = inv.check(s);
      if (message !== null) into.wrong.push(`${scenario.id} at ${run.lastAt} ms: ${inv.name}: ${message}`);
    }
  }
}

const breakerVariants = (): Scenario[] =>
  loadScenarios()
    .flatMap(({ scenario }) => [scenario, ...(scenario.expect ?? []).map((e) => withOverrides(scenario, e.overrides))])
    .filter((s) => s.config.mechanism === 'breaker');

describe('breaker invariants pre-check (surelyHolds)', () => {
  it('never clears a state a breaker check fails on, over every breaker built-in variant', () => {
    const s: Scan = { cleared: 0, notCleared: 0, wrong: [] };
    for (const scenario of breakerVariants()) scan(scenario, breakerInvariantsSurelyHold, s);
    expect(s.wrong).toEqual([]);
    expect(s.cleared).toBeGreaterThan(100);
    expect(s.notCleared).toBeGreaterThan(10);
  });

  it('never clears a state a breaker check fails on, over 2,000 generated breaker scenarios', () => {
    const s: Scan = { cleared: 0, notCleared: 0, wrong: [] };
    fc.assert(
      fc.property(breakerScenarioArb, (scenario) => {
        scan(scenario, breakerInvariantsSurelyHold, s);
        expect(s.wrong).toEqual([]);
      }),
      { numRuns: 2000, seed: 20261202 },
    );
    expect(s.cleared).toBeGreaterThan(1000);
    expect(s.notCleared).toBeGreaterThan(100);
  }, 300_000);

  it('the scan finds the failures a pre-check that clears everything would hide: every breaker check', () => {
    const s: Scan = { cleared: 0, notCleared: 0, wrong: [] };
    for (const scenario of breakerVariants()) scan(scenario, () => true, s);
    fc.assert(
      fc.property(breakerScenarioArb, (scenario) => scan(scenario, () => true, s)),
      { numRuns: 1000, seed: 11 },
    );
    const names = new Set(s.wrong.map((w) => w.split(': ')[1]));
    // Every check but one fails somewhere: no switch of the lab lets retries exceed a ratio budget
    // (`retryLimit` asks `ratioAllowsRetry` before every retry), so 'retry-budget-respected' cannot break.
    expect(breakerInvariants.map((i) => i.name).filter((n) => !names.has(n))).toEqual(['retry-budget-respected']);
  }, 300_000);
});
