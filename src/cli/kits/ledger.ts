import { createLedgerDefinition } from '../../sim/ledger/definition';
import { ledgerConfigSchema, ledgerEventSchema } from '../../sim/ledger/schema';
import { ledgerReport } from '../ledgerReport';
import type { LabKit } from './kit';

/** The ledger lab for `replay`: its definition runs real SQL, so it throws `Error` without `env.open` (sql.js). */
export const ledgerKit: LabKit = {
  schemas: { config: ledgerConfigSchema, event: ledgerEventSchema },
  definition: (env) => {
    if (!env.open) throw new Error('ledger: needs SQLite (sql.js) — pass a database opener (env.open)');
    return createLedgerDefinition(env.open);
  },
  report: { build: ledgerReport },
};
