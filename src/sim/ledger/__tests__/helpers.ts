import type { SqlJsStatic } from 'sql.js';
import { beforeAll } from 'vitest';
import type { OpenDatabase } from '../sql';
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

/** Generous limits for suites of thousands of real-SQL replays: a loaded machine cannot fail them (speed lives in the bench). */
export const HEAVY = { timeout: 600_000 };

/**
 * A test file's database fixture: sql.js loads once in a `beforeAll`, then `make(open)` builds what
 * the file needs (models, explorers: each keeps its own database, so no run sees another's rows).
 * Read its fields inside tests only (before the `beforeAll` has run they are undefined).
 */
export function ledgerFixture<T extends object>(make: (open: OpenDatabase) => T): { open: OpenDatabase } & T {
  const fixture = {} as { open: OpenDatabase } & T;
  beforeAll(async () => {
    const open = await opener();
    Object.assign(fixture, { open }, make(open));
  });
  return fixture;
}
