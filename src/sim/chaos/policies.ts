/**
 * Which configurations of a lab are broken policies and which are correct ones, read from the
 * built-in scenarios' expectations: an expectation that names violated invariants (`violates`
 * non-empty) sets a broken policy; so does any other expectation whose policy signature (the config
 * fields that choose a policy, below) is the same — a scripted order may hide a broken policy that
 * chaos then finds (ledger A: the naive check-then-act holds in the scripted order only). An
 * expectation with `violates: []` and a signature no broken one has is a correct policy; one
 * without `violates` and no broken signature is left unclassified.
 */
import { mergeConfig } from '../replay';
import type { LabId } from '../labIds';
import { labContract } from '../labs';
import { labChaos } from './labFaults';
import type { Scenario } from '../types';

/**
 * The config fields that choose the policy of `lab`, as one JSON string (each lab's own,
 * `LabChaos.policySignature` in src/sim/<lab>/chaos.ts: races its `policy` switches and client
 * profile, ledger its dedupe and key settings, flow its buffer policy and bugs, resilience its
 * mechanism, policy and fixes).
 */
export function policySignature(lab: LabId, scenario: Scenario): string {
  return labChaos(lab).policySignature(scenario);
}

/** One expectation of a built-in scenario, classified. */
export interface ClassifiedPolicy {
  scenario: Scenario;
  /** The scenario with the expectation's overrides applied (`expect` removed). */
  configured: Scenario;
  label: string;
  /** The invariants the expectation says are violated (empty for correct policies). */
  violates: string[];
  verdict: 'broken' | 'correct' | 'unclassified';
}

/** Classifies every expectation of `scenarios` (all of one lab) as broken, correct or unclassified. */
export function classifyPolicies(lab: LabId, scenarios: readonly Scenario[]): ClassifiedPolicy[] {
  const items = scenarios.flatMap((scenario) =>
    (scenario.expect ?? []).map((e) => {
      const configured: Scenario = { ...scenario, config: mergeConfig(scenario.config, e.overrides) };
      delete configured.expect;
      return { scenario, configured, label: e.label, violates: e.violates, signature: policySignature(lab, configured) };
    }),
  );
  // An expectation whose violations are not the model's own invariants (flow's reconnect-loop and
  // resumption mechanics are computed beside the trace from the config, so no fault in the events
  // can reach them) is outside what the swarm checks: left unclassified, it sets no broken signature.
  const modelInvariants = new Set(labContract(lab).invariants.map((inv) => inv.name));
  const outside = (i: (typeof items)[number]) => (i.violates ?? []).some((name) => !modelInvariants.has(name));
  const broken = new Set(items.filter((i) => (i.violates?.length ?? 0) > 0 && !outside(i)).map((i) => i.signature));
  return items.map((i) => ({
    scenario: i.scenario,
    configured: i.configured,
    label: i.label,
    violates: i.violates ?? [],
    verdict: outside(i) ? 'unclassified' : broken.has(i.signature) ? 'broken' : i.violates !== undefined ? 'correct' : 'unclassified',
  }));
}
