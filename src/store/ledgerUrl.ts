import { LAB_SCHEMAS, parseScenario } from '../sim/labs';
import { ledgerLengthProblem } from '../sim/ledger/schema';
import type { Scenario } from '../sim/types';
import { decodeLabHash, encodeLabHash } from './labUrl';
import { splitHash } from './url';

/** Hash path of the ledger lab. */
export const LEDGER_PATH = '/ledger';

/**
 * The hash that reproduces `scenario` (see `labUrl.ts`): `#/ledger/<id>` for an unchanged built-in,
 * otherwise `#/ledger?scenario=<base64url JSON>` (the whole scenario, so a link or a reload loses nothing).
 */
export function encodeLedgerHash(scenario: Scenario, builtins: readonly Scenario[]): string {
  return encodeLabHash('ledger', scenario, builtins);
}

/**
 * Reads a ledger hash. `#/ledger` alone is the first built-in. Errors name the field (`scenario id`,
 * `scenario`, or a field inside the scenario); never throws.
 */
export function decodeLedgerHash(hash: string, builtins: readonly Scenario[]): { ok: true; scenario: Scenario } | { ok: false; errors: string[] } {
  const { path } = splitHash(hash);
  if (path !== LEDGER_PATH && !path.startsWith(`${LEDGER_PATH}/`)) return { ok: false, errors: [`(link): not a ledger lab address: ${JSON.stringify(path)}`] };
  const d = decodeLabHash('ledger', hash, builtins, (value) => {
    const parsed = parseScenario(value, 'ledger', LAB_SCHEMAS.ledger);
    const tooLong = parsed.ok ? ledgerLengthProblem(parsed.scenario.events) : null;
    return tooLong ? { ok: false, errors: [tooLong] } : parsed;
  });
  if (!d.ok) return d;
  return { ok: true, scenario: d.scenario ?? builtins[0] };
}
