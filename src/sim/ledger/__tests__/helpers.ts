import type { SqlJsStatic } from 'sql.js';
import { loadSqlJsNode } from '../../../db/node';
import { memoryOpener } from '../../../db/sqljs';
import { parseScenario } from '../../scenario';
import type { Scenario } from '../../types';
import { ledgerConfigSchema, ledgerEventSchema } from '../schema';
import { loadBuiltinScenarios, scenarioDir } from '../../__tests__/builtinScenarios';

export const SCENARIO_DIR = scenarioDir('ledger');
export const LEDGER_SCHEMAS = { config: ledgerConfigSchema, event: ledgerEventSchema };

/** sql.js's Node build, loaded once per test file. */
export async function sqlJs(): Promise<SqlJsStatic> {
  return loadSqlJsNode();
}

/** Fresh in-memory database opener on the Node build. */
export async function opener() {
  return memoryOpener(await sqlJs());
}

/** Every ledger scenario file, validated, in file-name order. */
export function loadScenarios(): Scenario[] {
  return loadBuiltinScenarios('ledger').map((s) => s.scenario);
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
