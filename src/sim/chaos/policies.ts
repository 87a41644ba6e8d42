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
import { MODELS } from '../labs';
import type { Json, Scenario } from '../types';

/**
 * The config fields that choose the policy, per lab, as one JSON string:
 * - races: `policy` (the broken-policy switches), `client.profile` when it is not the lab's, and
 *   whether a scripted cancel is malformed;
 * - ledger: `policy`, `dedupe`, `clientKey`, `onInUse`, `toolLayer`, and whether every call carries
 *   an idempotency key;
 * - flow: `policy` (the buffer policy), `bugs`, and the single-client `reconnectLoop` / `resumption`
 *   settings;
 * - resilience: `mechanism`, `policy`, `fixes`, and the storm upstream's `receiptAfterMs`.
 */
export function policySignature(lab: LabId, scenario: Scenario): string {
  const c = scenario.config as Record<string, Json>;
  switch (lab) {
    case 'races': {
      // The client profile chooses a policy too; 'lab' is the default. The TypeScript SDK v1 profile
      // shows a different SDK behaviour in each scenario (S1 the maximum, S2 the id-0 cancel), so each
      // of its scenarios is its own policy: S2 breaks no named invariant and must not inherit S1's.
      const profile = (c.client as { profile?: string } | undefined)?.profile;
      // A client whose scripted cancel is malformed (issue 11) is a broken policy carried by the events.
      // Under 2026-07-28 HTTP the cancel is a stream close, so the malformation never reaches the wire.
      const onWire = c.transport !== 'streamable-http' || c.revision !== '2026-07-28' || (c.policy as Record<string, Json> | undefined)?.httpPostsCancel === true;
      const malformedCancel = onWire && scenario.events.some((e) => e.kind === 'cancel' && e.malformed !== undefined);
      const signature: Record<string, Json> = { policy: c.policy as Json };
      if (profile !== undefined && profile !== 'lab') Object.assign(signature, { clientProfile: profile, scenario: scenario.id });
      if (malformedCancel) signature.malformedCancel = true;
      return JSON.stringify(signature);
    }
    case 'ledger': {
      const keyed = scenario.events.filter((e) => e.kind === 'call').every((e) => typeof e.key === 'string' && e.key !== '');
      return JSON.stringify({ policy: c.policy, dedupe: c.dedupe, clientKey: c.clientKey, onInUse: c.onInUse ?? null, toolLayer: c.toolLayer ?? null, keyed });
    }
    case 'flow':
      return JSON.stringify({ policy: c.policy, bugs: c.bugs, reconnectLoop: c.reconnectLoop ?? null, resumption: c.resumption ?? null });
    case 'resilience': {
      const upstream = c.upstream as Record<string, Json> | undefined;
      return JSON.stringify({ mechanism: c.mechanism, policy: c.policy ?? null, fixes: c.fixes ?? null, receiptAfterMs: upstream?.receiptAfterMs ?? null });
    }
  }
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
  const modelInvariants = lab === 'ledger' ? null : new Set(MODELS[lab].invariants.map((inv) => inv.name));
  const outside = (i: (typeof items)[number]) => modelInvariants !== null && (i.violates ?? []).some((name) => !modelInvariants.has(name));
  const broken = new Set(items.filter((i) => (i.violates?.length ?? 0) > 0 && !outside(i)).map((i) => i.signature));
  return items.map((i) => ({
    scenario: i.scenario,
    configured: i.configured,
    label: i.label,
    violates: i.violates ?? [],
    verdict: outside(i) ? 'unclassified' : broken.has(i.signature) ? 'broken' : i.violates !== undefined ? 'correct' : 'unclassified',
  }));
}
