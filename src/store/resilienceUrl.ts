import { LAB_SCHEMAS, parseScenario } from '../sim/labs';
import type { Scenario } from '../sim/types';
import { decodeLabHash, encodeLabHash } from './labUrl';

/**
 * The resilience lab's address (see `labUrl.ts`): `#/resilience/<id>` for an unmodified built-in,
 * `#/resilience?scenario=<base64url(JSON)>` for any other scenario. Decoding never throws;
 * problems come back as "field: problem" lines.
 */

export type DecodedResilienceHash = { ok: true; scenario: Scenario; original: Scenario | null } | { ok: false; errors: string[] } | { ok: 'none' };

/** The hash for `scenario`: its id when it equals a built-in, else the whole scenario. */
export function encodeResilienceHash(scenario: Scenario, builtins: readonly Scenario[]): string {
  return encodeLabHash('resilience', scenario, builtins);
}

/** Reads a hash; `{ok: 'none'}` when it names no scenario (e.g. `#/resilience`). */
export function decodeResilienceHash(hash: string, builtins: readonly Scenario[]): DecodedResilienceHash {
  const d = decodeLabHash('resilience', hash, builtins, (value) => parseScenario(value, 'resilience', LAB_SCHEMAS.resilience));
  if (!d.ok) return d;
  if (d.scenario === null) return { ok: 'none' };
  const scenario = d.scenario;
  return { ok: true, scenario, original: builtins.find((b) => b.id === scenario.id) ?? null };
}
