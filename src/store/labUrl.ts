import type { ParseResult } from '../sim/scenario';
import type { Scenario } from '../sim/types';
import { jsonEqual } from './stableJson';
import { decodeScenarioParam, splitHash, toBase64Url } from './url';

/**
 * The address of a lab page (hash routing), shared by the ledger, flow and resilience labs (the
 * races lab adds config overrides and the playhead on top, in `url.ts`):
 *
 * - `#/<lab>/<id>` — a built-in scenario exactly as shipped;
 * - `#/<lab>?scenario=<base64url(JSON)>` — any other scenario (edited, imported), carried whole, so
 *   a reload or a shared link shows exactly it.
 *
 * Decoding never throws; each problem is one `"<field>: <problem>"` line naming what to fix.
 */

/** What a lab address resolves to: a scenario, none named (`#/<lab>` or another page), or the problems. */
export type DecodedLabHash = { ok: true; scenario: Scenario | null } | { ok: false; errors: string[] };

/** The address that reproduces `scenario` in lab `lab`: its id when it equals a built-in, else the whole scenario. */
export function encodeLabHash(lab: string, scenario: Scenario, builtins: readonly Scenario[]): string {
  const builtin = builtins.find((b) => b.id === scenario.id);
  if (builtin && jsonEqual(builtin, scenario)) return `#/${lab}/${encodeURIComponent(scenario.id)}`;
  return `#/${lab}?scenario=${toBase64Url(JSON.stringify(scenario))}`;
}

/**
 * Reads an address of lab `lab`. `parse` validates the decoded JSON value as a scenario of that
 * lab (schema plus any lab-specific limits). An address of another page gives `{ok: true,
 * scenario: null}`; so does `#/<lab>` with nothing after it.
 */
export function decodeLabHash(lab: string, hash: string, builtins: readonly Scenario[], parse: (value: unknown) => ParseResult): DecodedLabHash {
  const { path, query } = splitHash(hash);
  const base = `/${lab}`;
  const rest = path === base || path === `${base}/` ? '' : path.startsWith(`${base}/`) ? path.slice(base.length + 1) : null;
  if (rest === null) return { ok: true, scenario: null };

  const unknown = [...query.keys()].filter((k) => k !== 'scenario');
  if (unknown.length > 0) {
    return { ok: false, errors: unknown.map((k) => `${k} (in the link): not a parameter of this page; a scenario travels as #/${lab}?scenario=…`) };
  }
  const encoded = query.get('scenario');
  if (encoded !== null) {
    if (rest !== '') return { ok: false, errors: [`scenario (in the link): give either a scenario id in the path or ?scenario=…, not both`] };
    const parsed = decodeScenarioParam(encoded, parse);
    return parsed.ok ? { ok: true, scenario: parsed.scenario } : parsed;
  }
  if (rest === '') return { ok: true, scenario: null };
  let id: string;
  try {
    id = decodeURIComponent(rest);
  } catch {
    return { ok: false, errors: [`scenario id (in the link): not valid percent-encoding: ${JSON.stringify(rest)}`] };
  }
  const builtin = builtins.find((b) => b.id === id);
  if (!builtin) return { ok: false, errors: [`scenario id (in the link): no built-in scenario is called ${JSON.stringify(id)}; known: ${builtins.map((b) => b.id).join(', ')}`] };
  return { ok: true, scenario: builtin };
}
