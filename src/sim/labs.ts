import { LAB_IDS, labNeedsDatabase, type LabId } from './labIds';
import type { AnyLabDefinition } from './lab';
import type { OpenDatabase } from './ledger/sql';
import { racesDefinition } from './races/definition';
import { flowDefinition } from './flow/definition';
import { resilienceDefinition } from './resilience/definition';
import { createLedgerDefinition } from './ledger/definition';
import { parseAnyScenarioTextWith, parseScenario, parseScenarioText, type LabSchemas, type ParseResult } from './scenario';

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
  ledger: (env) => createLedgerDefinition(requireOpen('ledger', env)),
  flow: () => flowDefinition,
  resilience: () => resilienceDefinition,
};

/** `env.open`, for a lab whose replays run SQL; throws `Error` naming the lab without it. */
function requireOpen(lab: LabId, env: LabEnv): OpenDatabase {
  if (!env.open) throw new Error(`${lab}: needs SQLite (sql.js) — pass a database opener (env.open)`);
  return env.open;
}

const hostFree = new Map<LabId, AnyLabDefinition>();

/** An opener for a host-free definition: a replay that asks it for SQLite is a host's mistake. */
function noDatabase(): never {
  throw new Error('needs SQLite (sql.js) — pass a database opener (env.open)');
}

/**
 * The definition of `lab` for the parts of its contract that need no host — `chaos`, `review`,
 * `link`, its invariants and tie rule — built once per lab (the ledger's over an
 * opener that throws if a replay asks for SQLite: pass `LAB_DEFINITIONS.ledger({ open })` to replay).
 * Everything per lab above `src/sim` reads these parts through here, never through its own map.
 */
export function labContract(lab: LabId): AnyLabDefinition {
  let d = hostFree.get(lab);
  if (!d) hostFree.set(lab, (d = LAB_DEFINITIONS[lab](labNeedsDatabase(lab) ? { open: noDatabase } : {})));
  return d;
}

/** Scenario schemas per lab id (each definition's `schemas`; the JSON Schema generator and the parsers read them). */
export const LAB_SCHEMAS = Object.fromEntries(LAB_IDS.map((lab) => [lab, labContract(lab).schemas])) as { readonly [L in LabId]: LabSchemas };

/**
 * Parses a scenario of any known lab from JSON text, picking the lab from its `lab` field.
 * Errors name the field and the problem; never throws.
 */
export function parseAnyScenarioText(text: string): ParseResult & { lab?: LabId } {
  return parseAnyScenarioTextWith(text, (lab) => LAB_SCHEMAS[lab]);
}

export { parseScenario, parseScenarioText };
