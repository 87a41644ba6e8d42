import { racesModel } from './races/model';
import { createLedgerModel } from './ledger/model';
import { ledgerConfigSchema, ledgerEventSchema } from './ledger/schema';
import { flowModel } from './flow/model';
import { flowConfigSchema, flowEventSchema } from './flow/schema';
import { RACES_SCHEMAS } from './races/schema';
import { resilienceModel } from './resilience/model';
import { resilienceConfigSchema, resilienceEventSchema } from './resilience/schema';
import type { LabId } from './labIds';
import type { AnyLabDefinition } from './lab';
import type { OpenDatabase } from './ledger/sql';
import { racesDefinition } from './races/definition';
import { flowDefinition } from './flow/definition';
import { resilienceDefinition } from './resilience/definition';
import { createLedgerDefinition } from './ledger/definition';
import { parseAnyScenarioTextWith, parseScenario, parseScenarioText, type LabSchemas, type ParseResult } from './scenario';

/** Scenario schemas per lab id. Later labs register here. */
export const LAB_SCHEMAS: Record<LabId, LabSchemas> = {
  races: RACES_SCHEMAS,
  ledger: { config: ledgerConfigSchema, event: ledgerEventSchema },
  flow: { config: flowConfigSchema, event: flowEventSchema },
  resilience: { config: resilienceConfigSchema, event: resilienceEventSchema },
};

/** Models per lab id. */
export const MODELS = {
  races: racesModel,
  flow: flowModel,
  resilience: resilienceModel,
  /** A factory, not an instance: the ledger runs real SQL, so pass an opener of fresh sql.js databases. */
  ledger: createLedgerModel,
} as const;

export type { LabId } from './labIds';

/** What a definition may need from its host: the ledger runs real SQL, so it takes a database opener (sql.js). */
export interface LabEnv {
  open?: OpenDatabase;
}

/**
 * The lab contract of every lab, by id (the CLI, the schema generator and the built-in checks go
 * through it). A lab page imports only its own definition module, so its chunk stays small.
 * Throws `Error` for the ledger without `env.open`.
 */
export const LAB_DEFINITIONS: Record<LabId, (env: LabEnv) => AnyLabDefinition> = {
  races: () => racesDefinition,
  flow: () => flowDefinition,
  resilience: () => resilienceDefinition,
  ledger: (env) => {
    if (!env.open) throw new Error('ledger: needs SQLite (sql.js) — pass a database opener (env.open)');
    return createLedgerDefinition(env.open);
  },
};

const hostFree = new Map<LabId, AnyLabDefinition>();

/** An opener for the ledger's host-free definition: a replay that asks for SQLite is a host's mistake. */
function noDatabase(): never {
  throw new Error('ledger: needs SQLite (sql.js) — pass a database opener (env.open)');
}

/**
 * The definition of `lab` for the parts of its contract that need no host — `chaos`, `review`,
 * `link`, `needsDatabase`, its invariants and tie rule — built once per lab (the ledger's over an
 * opener that throws if a replay asks for SQLite: pass `LAB_DEFINITIONS.ledger({ open })` to replay).
 * Everything per lab above `src/sim` reads these parts through here, never through its own map.
 */
export function labContract(lab: LabId): AnyLabDefinition {
  let d = hostFree.get(lab);
  if (!d) hostFree.set(lab, (d = LAB_DEFINITIONS[lab]({ open: noDatabase })));
  return d;
}

/**
 * Parses a scenario of any known lab from JSON text, picking the lab from its `lab` field.
 * Errors name the field and the problem; never throws.
 */
export function parseAnyScenarioText(text: string): ParseResult & { lab?: LabId } {
  return parseAnyScenarioTextWith(text, (lab) => LAB_SCHEMAS[lab]);
}

export { parseScenario, parseScenarioText };
