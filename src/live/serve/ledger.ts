/**
 * The `charge` tool's real SQLite ledger (sql.js's Node build, in memory, one per serve process;
 * sql.js rather than better-sqlite3 so the server runs under any Node ABI, e.g. the Node 22 the
 * conformance suite needs).
 *
 * - atomic (the default): the idempotency key is claimed in one statement (`INSERT … ON CONFLICT
 *   DO NOTHING`), so of two concurrent calls with one key exactly one executes; the other waits
 *   for the stored result (or, under `in-progress-409`, is answered "409 in progress" at once).
 * - naive (`naive-ledger`): check-then-act — `SELECT` the key, do the work, then `INSERT` — so two
 *   calls that both check before either writes both charge (the ledger lab's scenario A).
 * Sources: the ledger lab (public/scenarios/ledger/A, G), Stripe's idempotency keys (409 `idempotency_key_in_use`).
 */
import type { Database } from 'sql.js';
import { loadSqlJsNode } from '../../db/node';
import { sleep } from './job';

/** One charge's answer. `executions`: charges the ledger holds for the key after this call. */
export interface ChargeOutcome {
  kind: 'executed' | 'replayed' | 'in-progress' | 'cancelled';
  receipt: string | null;
  executions: number;
}

/** The ledger of one serve process. */
export interface Ledger {
  /**
   * Charges `amountCents` under `key` (null: no key, so every call charges), taking `workMs` to do
   * it. `mode` picks the check; `onInUse` what a concurrent duplicate gets.
   */
  charge(input: { key: string | null; amountCents: number; workMs: number; mode: 'atomic' | 'naive'; onInUse: 'wait' | '409'; signal?: AbortSignal }): Promise<ChargeOutcome>;
  /** Charges recorded under `key`. */
  executions(key: string): number;
  close(): void;
}

/** Runs one statement; returns the rows changed. */
function run(db: Database, sql: string, params: (string | number | null)[]): number {
  db.run(sql, params);
  return db.getRowsModified();
}

/** The first row of a query, or undefined. */
function first<T>(db: Database, sql: string, params: (string | number | null)[]): T | undefined {
  const st = db.prepare(sql);
  try {
    st.bind(params);
    return st.step() ? (st.getAsObject() as T) : undefined;
  } finally {
    st.free();
  }
}

/** Opens an in-memory ledger (loads sql.js once). */
export async function openLedger(): Promise<Ledger> {
  const SQL = await loadSqlJsNode();
  const db = new SQL.Database();
  db.exec(`CREATE TABLE charges (id INTEGER PRIMARY KEY, key TEXT, amount_cents INTEGER NOT NULL);
           CREATE TABLE idempotency (key TEXT PRIMARY KEY, status TEXT NOT NULL, receipt TEXT);`);
  const executions = (key: string) => first<{ n: number }>(db, 'SELECT COUNT(*) AS n FROM charges WHERE key = ?', [key])?.n ?? 0;
  const lookup = (key: string) => first<{ status: string; receipt: string | null }>(db, 'SELECT status, receipt FROM idempotency WHERE key = ?', [key]);
  const claim = (key: string) => run(db, "INSERT INTO idempotency (key, status) VALUES (?, 'running') ON CONFLICT(key) DO NOTHING", [key]);
  const commit = (key: string | null, amountCents: number) => {
    run(db, 'INSERT INTO charges (key, amount_cents) VALUES (?, ?)', [key, amountCents]);
    const id = first<{ id: number }>(db, 'SELECT last_insert_rowid() AS id', [])?.id ?? 0;
    return `charge-${String(id).padStart(3, '0')}`;
  };
  return {
    async charge({ key, amountCents, workMs, mode, onInUse, signal }) {
      if (key === null) {
        await sleep(workMs, signal);
        if (signal?.aborted) return { kind: 'cancelled', receipt: null, executions: 0 };
        return { kind: 'executed', receipt: commit(null, amountCents), executions: 1 };
      }
      if (mode === 'naive') {
        const seen = lookup(key);
        if (seen?.status === 'done') return { kind: 'replayed', receipt: seen.receipt, executions: executions(key) };
        await sleep(workMs);
        const receipt = commit(key, amountCents);
        run(db, "INSERT INTO idempotency (key, status, receipt) VALUES (?, 'done', ?) ON CONFLICT(key) DO UPDATE SET receipt = excluded.receipt", [key, receipt]);
        return { kind: 'executed', receipt, executions: executions(key) };
      }
      for (;;) {
        if (claim(key) === 1) break;
        const row = lookup(key);
        if (row?.status === 'done') return { kind: 'replayed', receipt: row.receipt, executions: executions(key) };
        if (onInUse === '409') return { kind: 'in-progress', receipt: null, executions: executions(key) };
        await sleep(25, signal);
        if (signal?.aborted) return { kind: 'cancelled', receipt: null, executions: executions(key) };
      }
      await sleep(workMs, signal);
      if (signal?.aborted) {
        run(db, 'DELETE FROM idempotency WHERE key = ?', [key]);
        return { kind: 'cancelled', receipt: null, executions: executions(key) };
      }
      const receipt = commit(key, amountCents);
      run(db, "UPDATE idempotency SET status = 'done', receipt = ? WHERE key = ?", [receipt, key]);
      return { kind: 'executed', receipt, executions: executions(key) };
    },
    executions,
    close() {
      db.close();
    },
  };
}
