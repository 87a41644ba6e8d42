import { RACES_CLIENT_PROFILES, SDK_BEHAVIOURS, type RacesClientProfile, type SdkBehaviour } from '../sim/races/sdkProfile';
import type { RacesConfig, RacesTrace } from '../sim/races';
import { racesTraceView } from './racesStore';

export type { RacesClientProfile, SdkBehaviour };

/**
 * The races settings' client-profile control: which implementation the client (and its server)
 * behaves like (`config.client.profile`, src/sim/races/sdkProfile.ts), and the named SDK
 * behaviours a run under a TypeScript SDK profile (v1 or v2) went through.
 */

/** The choices of the control, in order, with their labels ("Client: lab policy (spec) / TypeScript SDK v1 / TypeScript SDK v2"). */
export const RACES_CLIENT_PROFILE_OPTIONS: readonly { value: RacesClientProfile; label: string }[] = RACES_CLIENT_PROFILES.map((value) => ({
  value,
  label: value === 'lab' ? 'lab policy (spec)' : value === 'typescript-sdk-v1' ? 'TypeScript SDK v1' : 'TypeScript SDK v2',
}));

/** The profile `config` runs ('lab' when `client` or its `profile` is omitted). */
export function racesClientProfile(config: RacesConfig): RacesClientProfile {
  const p = (config as { client?: { profile?: string } }).client?.profile;
  return p === 'typescript-sdk-v1' || p === 'typescript-sdk-v2' ? p : 'lab';
}

/** One SDK behaviour where it changed this run: every time (ms) a step, an ignored event or a settled request cites it. */
export interface SdkBehaviourSeen extends SdkBehaviour {
  /** Distinct times citing the behaviour, ascending, ms. */
  atMs: number[];
}

/**
 * The named SDK behaviours (`sdk.*` rules, SDK_BEHAVIOURS) the trace cites — in a step's rule, an
 * ignored event's rule or a request's settle rule — in order of first appearance, each with the
 * times it is cited. Each is a point where the SDK v1 profile departs from the lab's spec policy,
 * so these are the places the outcome changes with the profile. Under the lab profile the list is
 * empty. Pure.
 */
export function sdkBehavioursIn(trace: RacesTrace): SdkBehaviourSeen[] {
  const view = racesTraceView(trace);
  const seen = new Map<string, SdkBehaviourSeen>();
  const add = (rule: string | undefined, atMs: number) => {
    const b = rule ? SDK_BEHAVIOURS[rule] : undefined;
    if (!b) return;
    const entry = seen.get(b.id) ?? seen.set(b.id, { ...b, atMs: [] }).get(b.id)!;
    if (!entry.atMs.includes(atMs)) entry.atMs.push(atMs);
  };
  for (let i = 0; i < view.stepCount; i++) {
    add(view.ruleOf(i), view.atOf(i));
    for (const ig of view.ignoredOf(i)) add(ig.rule, view.atOf(i));
  }
  for (const r of trace.outcome.requests) add(r.rule, r.atMs ?? trace.endAt);
  for (const b of seen.values()) b.atMs.sort((x, y) => x - y);
  return [...seen.values()];
}
