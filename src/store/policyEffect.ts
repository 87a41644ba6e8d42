import { replayRaces, type RacesTrace } from '../sim/races/api';
import type { RacesPolicy } from '../sim/races/schema';
import type { Scenario } from '../sim/types';
import { stableStringify } from './stableJson';

/** Scenarios longer than this are not probed (nine extra replays would slow every edit). */
export const POLICY_PROBE_MAX_EVENTS = 300;

/** What a trace shows a learner: each step's time, what happened, its wire messages, ignores and violations, and the outcome. */
function fingerprint(trace: RacesTrace): string {
  return stableStringify([trace.outcome, trace.steps.map((s) => [s.at, s.entry.kind, s.effects, s.ignored, s.violations.map((v) => v.invariant)])]);
}

/**
 * For each broken-policy switch: does flipping it change anything in `scenario` as it stands
 * (outcome, wire messages, step times, ignored events or violations)? `true` = it changes the
 * run, `false` = no effect here (so the learner knows why nothing moved). Returns null for
 * scenarios over POLICY_PROBE_MAX_EVENTS events. Pure; replays the scenario once per switch.
 */
export function policyEffects(scenario: Scenario, trace: RacesTrace, keys: readonly (keyof RacesPolicy)[]): Record<string, boolean> | null {
  if (scenario.events.length > POLICY_PROBE_MAX_EVENTS) return null;
  const base = fingerprint(trace);
  const config = scenario.config as { policy: RacesPolicy };
  const out: Record<string, boolean> = {};
  for (const key of keys) {
    const flipped = { ...scenario, config: { ...scenario.config, policy: { ...config.policy, [key]: !config.policy[key] } } } as Scenario;
    try {
      out[key] = fingerprint(replayRaces(flipped)) !== base;
    } catch {
      out[key] = true;
    }
  }
  return out;
}
