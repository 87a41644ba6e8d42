import { LAB_SCHEMAS, parseScenario } from '../sim/labs';
import type { Scenario } from '../sim/types';
import { jsonEqual } from './stableJson';
import { fromBase64Url, toBase64Url } from './url';

/**
 * The flow lab's address: `#/flow/<id>` for a built-in scenario as shipped, and
 * `#/flow/<id>?s=<base64url JSON>` once it is edited (the whole scenario, so a reload or a shared
 * link shows exactly it). Decoding never throws: a bad link comes back as errors naming the problem.
 */
export function encodeFlowHash(scenario: Scenario, builtins: readonly Scenario[]): string {
  const builtin = builtins.find((b) => b.id === scenario.id);
  if (builtin && jsonEqual(builtin, scenario)) return `#/flow/${encodeURIComponent(scenario.id)}`;
  return `#/flow/${encodeURIComponent(scenario.id)}?s=${toBase64Url(JSON.stringify(scenario))}`;
}

export type DecodedFlowHash = { ok: true; scenario: Scenario | null } | { ok: false; errors: string[] };

/** Reads a `#/flow…` hash: the scenario it names (null: none named), or the problems. */
export function decodeFlowHash(hash: string, builtins: readonly Scenario[]): DecodedFlowHash {
  const m = /^#\/flow(?:\/([^?]*))?(?:\?(.*))?$/.exec(hash);
  if (!m) return { ok: true, scenario: null };
  const id = m[1] ? decodeURIComponent(m[1]) : '';
  const encoded = new URLSearchParams(m[2] ?? '').get('s');
  if (encoded !== null) {
    const text = fromBase64Url(encoded);
    if (text === null) return { ok: false, errors: ['s: the link\'s scenario is not valid base64url UTF-8 text (was it cut short?)'] };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return { ok: false, errors: [`s: not valid JSON — ${(err as Error).message}`] };
    }
    const parsed = parseScenario(value, 'flow', LAB_SCHEMAS.flow);
    return parsed.ok ? { ok: true, scenario: parsed.scenario } : { ok: false, errors: parsed.errors };
  }
  if (id === '') return { ok: true, scenario: null };
  const builtin = builtins.find((b) => b.id === id);
  return builtin ? { ok: true, scenario: builtin } : { ok: false, errors: [`scenario: no built-in flow scenario "${id}" (known: ${builtins.map((b) => b.id).join(', ')})`] };
}
