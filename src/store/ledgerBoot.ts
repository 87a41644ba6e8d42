import type { SqlJsStatic } from 'sql.js';
import { loadSqlJs } from '../db/browser';
import { indexedDbPersistence } from '../db/persist';
import { memoryOpener } from '../db/sqljs';
import type { OpenDatabase } from '../sim/ledger';
import { createLedgerDbStore, type LedgerDbStore } from './ledgerDbStore';

/**
 * Loads sql.js (only when the ledger lab opens: its wasm is a separate asset), makes the database
 * opener the ledger's definition replays on, and the learner's own ledger database store (kept in
 * IndexedDB). Rejects with sql.js's error when it cannot load (offline on a first visit).
 */
export async function bootLedgerDatabase(): Promise<{ SQL: SqlJsStatic; open: OpenDatabase; db: LedgerDbStore }> {
  const SQL = await loadSqlJs();
  const db = createLedgerDbStore(SQL, indexedDbPersistence);
  await db.getState().init();
  return { SQL, open: memoryOpener(SQL), db };
}
