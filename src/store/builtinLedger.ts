import { ledgerConfigSchema, ledgerEventSchema } from '../sim/ledger/schema';
import { parseScenario } from '../sim/scenario';
import { loadBuiltins, type BuiltinLoad } from './builtins';

const files = import.meta.glob('/public/scenarios/ledger/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;
const schemas = { config: ledgerConfigSchema, event: ledgerEventSchema };

/** The ledger lab's built-in scenarios (`public/scenarios/ledger/*.json`, in the lab's lazy chunk), validated against the schema. */
export function builtinLedger(): BuiltinLoad {
  return loadBuiltins(files, (v) => parseScenario(v, 'ledger', schemas));
}
