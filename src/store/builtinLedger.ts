import { LAB_SCHEMAS, parseScenario } from '../sim/labs';
import type { Scenario } from '../sim/types';

/**
 * The ledger lab's built-in scenarios, bundled from `public/scenarios/ledger/*.json` into the
 * lab's lazy chunk and validated before use (an invalid file is reported, never shown).
 */
const files = import.meta.glob('/public/scenarios/ledger/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;

export function builtinLedger(): { scenarios: Scenario[]; errors: string[] } {
  const scenarios: Scenario[] = [];
  const errors: string[] = [];
  for (const path of Object.keys(files).sort()) {
    const parsed = parseScenario(files[path], 'ledger', LAB_SCHEMAS.ledger);
    if (parsed.ok) scenarios.push(parsed.scenario);
    else errors.push(...parsed.errors.map((e) => `${path.split('/').pop()} → ${e}`));
  }
  return { scenarios, errors };
}
