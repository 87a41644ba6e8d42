import { LAB_SCHEMAS, parseScenario } from '../sim/labs';
import { ledgerLengthProblem } from '../sim/ledger/schema';
import type { Scenario } from '../sim/types';
import { jsonEqual } from './stableJson';
import { fromBase64Url, splitHash, toBase64Url } from './url';

/** Hash path of the ledger lab. */
export const LEDGER_PATH = '/ledger';

/**
 * The hash that reproduces `scenario`: `#/ledger/<id>` for an unchanged built-in, otherwise
 * `#/ledger?scenario=<base64url JSON>` (the whole scenario, so a link or a reload loses nothing).
 */
export function encodeLedgerHash(scenario: Scenario, builtins: readonly Scenario[]): string {
  const builtin = builtins.find((b) => b.id === scenario.id);
  if (builtin && jsonEqual(builtin, scenario)) return `#${LEDGER_PATH}/${encodeURIComponent(builtin.id)}`;
  return `#${LEDGER_PATH}?scenario=${toBase64Url(JSON.stringify(scenario))}`;
}

/**
 * Reads a ledger hash. `#/ledger` alone is the first built-in. Errors name the field (`scenario id`,
 * `scenario`, or a field inside the scenario); never throws.
 */
export function decodeLedgerHash(hash: string, builtins: readonly Scenario[]): { ok: true; scenario: Scenario } | { ok: false; errors: string[] } {
  const { path, query } = splitHash(hash);
  const rest = path === LEDGER_PATH || path === `${LEDGER_PATH}/` ? '' : path.startsWith(`${LEDGER_PATH}/`) ? path.slice(LEDGER_PATH.length + 1) : null;
  if (rest === null) return { ok: false, errors: [`(link): not a ledger lab address: ${JSON.stringify(path)}`] };
  if (rest === '' && query.has('scenario')) {
    const text = fromBase64Url(query.get('scenario') ?? '');
    if (text === null) return { ok: false, errors: ['scenario (in the link): not valid base64url-encoded UTF-8 text — the link may be cut short'] };
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return { ok: false, errors: [`scenario (in the link): not valid JSON — ${(err as Error).message}`] };
    }
    const parsed = parseScenario(value, 'ledger', LAB_SCHEMAS.ledger);
    if (!parsed.ok) return { ok: false, errors: parsed.errors };
    const tooLong = ledgerLengthProblem(parsed.scenario.events);
    return tooLong ? { ok: false, errors: [tooLong] } : { ok: true, scenario: parsed.scenario };
  }
  let id: string;
  try {
    id = decodeURIComponent(rest);
  } catch {
    return { ok: false, errors: [`scenario id (in the link): not valid percent-encoding: ${JSON.stringify(rest)}`] };
  }
  const builtin = id === '' ? builtins[0] : builtins.find((b) => b.id === id);
  if (!builtin) return { ok: false, errors: [`scenario id (in the link): no built-in scenario is called ${JSON.stringify(id)}; known: ${builtins.map((b) => b.id).join(', ')}`] };
  return { ok: true, scenario: builtin };
}
