import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SqlJsStatic } from 'sql.js';
import { loadSqlJsNode } from '../../../db/node';
import { memoryOpener } from '../../../db/sqljs';
import { parseScenario } from '../../scenario';
import type { Scenario } from '../../types';
import { ledgerConfigSchema, ledgerEventSchema } from '../schema';

export const SCENARIO_DIR = path.resolve(__dirname, '../../../../public/scenarios/ledger');
export const LEDGER_SCHEMAS = { config: ledgerConfigSchema, event: ledgerEventSchema };

/** sql.js's Node build, loaded once per test file. */
export async function sqlJs(): Promise<SqlJsStatic> {
  return loadSqlJsNode();
}

/** Fresh in-memory database opener on the Node build. */
export async function opener() {
  return memoryOpener(await sqlJs());
}

/** Every ledger scenario file, validated. */
export function loadScenarios(): Scenario[] {
  return readdirSync(SCENARIO_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const r = parseScenario(JSON.parse(readFileSync(path.join(SCENARIO_DIR, file), 'utf8')), 'ledger', LEDGER_SCHEMAS);
      if (!r.ok) throw new Error(`${file}: ${r.errors.join('; ')}`);
      return r.scenario;
    });
}

export function scenario(id: string): Scenario {
  const s = loadScenarios().find((x) => x.id === id);
  if (!s) throw new Error(`no scenario ${id}`);
  return s;
}

/** A scenario built inline (validated, defaults filled in). */
export function build(config: Record<string, unknown>, events: unknown[], id = 'inline'): Scenario {
  const r = parseScenario({ format: 1, lab: 'ledger', id, title: id, seed: 1, config, events }, 'ledger', LEDGER_SCHEMAS);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}
