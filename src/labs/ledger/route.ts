import type { LabRouteEntry } from '../../app/labRoutes';

/** The ledger lab in the shell's registry (found by glob): a lazy chunk. */
export const route: LabRouteEntry = { id: 'ledger', name: 'Ledger', blurb: 'idempotency keys in a real SQLite ledger', order: 2, page: { load: () => import('./LedgerLab').then((m) => m.LedgerLab) } };
