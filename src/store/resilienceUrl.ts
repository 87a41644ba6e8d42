import { LAB_SCHEMAS, parseScenario } from '../sim/labs';
import type { Scenario } from '../sim/types';
import { fromBase64Url, toBase64Url } from './url';
import { scenarioEquals } from './racesStore';

/**
 * The resilience lab's URL (hash routing), pure:
 * - `#/resilience/<id>` — an unmodified built-in scenario;
 * - `#/resilience?scenario=<base64url(JSON)>` — any other scenario (edited or imported), whole.
 * Decoding never throws; problems come back as "field: problem" lines.
 */

export type DecodedResilienceHash = { ok: true; scenario: Scenario; original: Scenario | null } | { ok: false; errors: string[] } | { ok: 'none' };

/** The hash for `scenario`: its id when it equals a built-in, else the whole scenario. */
export function encodeResilienceHash(scenario: Scenario, builtins: readonly Scenario[]): string {
  const builtin = builtins.find((b) => b.id === scenario.id);
  if (builtin && scenarioEquals(builtin, scenario)) return `#/resilience/${scenario.id}`;
  return `#/resilience?scenario=${toBase64Url(JSON.stringify(scenario))}`;
}

/** Reads a hash; `{ok: 'none'}` when it names no scenario (e.g. `#/resilience`). */
export function decodeResilienceHash(hash: string, builtins: readonly Scenario[]): DecodedResilienceHash {
  const byId = /^#\/resilience\/([^?]+)$/.exec(hash);
  if (byId) {
    const id = decodeURIComponent(byId[1]);
    const b = builtins.find((x) => x.id === id);
    return b ? { ok: true, scenario: b, original: b } : { ok: false, errors: [`scenario id: no built-in scenario is called ${JSON.stringify(id)}`] };
  }
  const q = /^#\/resilience\?(.*)$/.exec(hash);
  if (!q) return { ok: 'none' };
  const encoded = new URLSearchParams(q[1]).get('scenario');
  if (encoded === null) return { ok: 'none' };
  const text = fromBase64Url(encoded);
  if (text === null) return { ok: false, errors: ['scenario: the link\'s scenario is not valid base64url'] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, errors: [`scenario: the link's scenario is not valid JSON — ${(err as Error).message}`] };
  }
  const parsed = parseScenario(value, 'resilience', LAB_SCHEMAS.resilience);
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  return { ok: true, scenario: parsed.scenario, original: builtins.find((b) => b.id === parsed.scenario.id) ?? null };
}
