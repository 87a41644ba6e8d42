import type { SqlJsStatic } from 'sql.js';
import { loadSqlJs } from '../db/browser';
import { indexedDbPersistence } from '../db/persist';
import { memoryOpener } from '../db/sqljs';
import type { OpenDatabase } from '../sim/ledger';
import { createLedgerDbStore, type LedgerDbStore } from './ledgerDbStore';
import { workerLedgerBackend, type LedgerDbWorkerPort } from './ledgerDbHost';

/**
 * Loads sql.js (only when the ledger lab opens: its wasm is a separate asset), makes the database
 * opener the ledger's definition replays on, and the learner's own ledger database store (kept in
 * IndexedDB). Rejects with sql.js's error when it cannot load (offline on a first visit).
 * `spawnLedgerWorker` starts the worker the learner's ledger runs in (its SQL never runs on the
 * page's thread); without it the ledger runs on this thread.
 */
export async function bootLedgerDatabase(spawnLedgerWorker?: () => LedgerDbWorkerPort): Promise<{ SQL: SqlJsStatic; open: OpenDatabase; db: LedgerDbStore }> {
  const SQL = await loadSqlJs();
  const db = createLedgerDbStore(SQL, indexedDbPersistence, spawnLedgerWorker ? { backend: workerLedgerBackend(spawnLedgerWorker) } : {});
  await db.getState().init();
  return { SQL, open: memoryOpener(SQL), db };
}
