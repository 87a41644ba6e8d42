import { describe, expect, it } from 'vitest';
import { loadBuiltinScenarios } from '../../__tests__/builtinScenarios';
import type { LabId } from '../../labIds';
import type { OpenDatabase } from '../../ledger/sql';
import { classifyPolicies } from '../policies';
import { swarm } from '../swarm';

/** Seeds per built-in scenario expectation in the test suite (the done-when: 200). */
export const SUITE_SEEDS = 200;

/**
 * Correct policies (`violates: []`) the swarm proves unsafe under faults — real findings, pinned
 * so a change to the faults or the models shows here. Both are storm fixes whose expectation holds
 * only while the upstream never fails: the storm model counts an execution that ran and then failed
 * (an outage, a reset, a partition or an exhausted quota answers 503 after the work) as an
 * execution, and a retry after it starts a second one; with idempotency keys but no cancel
 * propagation, that new execution can also start after the user's cancel.
 */
export const KNOWN_FINDINGS: Record<string, string[]> = {
  'S2-timeouts-cancel|Fix: idempotency keys upstream — retries join the one execution; done at 3000 ms': ['no-work-after-cancel', 'one-execution-per-action'],
  'S3-gateway-receipt|Receipt at 25000 ms and polling: 1 execution, finished at 180000 ms': ['one-execution-per-action'],
};

/**
 * Declares one test per built-in scenario file of `lab`: over SUITE_SEEDS seeds, every broken
 * policy among its expectations has a failing seed (breaking each invariant the expectation names)
 * and no correct policy has one (safety invariants), apart from KNOWN_FINDINGS, asserted exactly.
 */
export function describeSwarmOverBuiltins(lab: LabId, open?: () => Promise<OpenDatabase>): void {
  describe(`chaos swarm over the built-in ${lab} scenarios (${SUITE_SEEDS} seeds each)`, () => {
    const scenarios = loadBuiltinScenarios(lab).map((s) => s.scenario);
    const policies = classifyPolicies(lab, scenarios);
    for (const p of policies) {
      if (p.verdict === 'unclassified') continue;
      // One test per expectation: a long scenario (flow F1: 6,500 producer events) stays well under
      // the per-test timeout on a loaded machine.
      it(`${p.scenario.id} — ${p.verdict}: ${p.label}`, async () => {
        const opener = open ? await open() : undefined;
        const r = swarm(p.configured, { seeds: SUITE_SEEDS, open: opener });
        expect(r.seedsRun).toBe(SUITE_SEEDS);
        expect(r.truncatedSeeds).toEqual([]);
        const caught = Object.keys(r.safety).sort();
        const known = KNOWN_FINDINGS[`${p.scenario.id}|${p.label}`];
        if (p.verdict === 'broken') {
          expect(r.failingSeeds.length).toBeGreaterThan(0);
          expect(r.smallestFailingSeed).toBe(Math.min(...r.failingSeeds.map((s) => s.seed)));
          for (const name of p.violates) expect(caught).toContain(name);
        } else if (known) {
          expect(caught).toEqual(known);
        } else {
          expect(r.failingSeeds).toEqual([]);
        }
      }, 120_000);
    }
  });
}
