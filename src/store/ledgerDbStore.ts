import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SqlJsStatic } from 'sql.js';
import { memoryOpener, openBytes, type SqlJsDatabase } from '../db/sqljs';
import { PersistError, type LedgerPersistence } from '../db/persist';
import { charge, createLedger, MAX_CHARGE_CENTS, ledgerSchemaProblem, readTables, type ChargeReply, type LedgerTables } from '../sim/ledger';

/**
 * The learner's own ledger: a real SQLite database (sql.js) that the "Try it" form charges
 * against, saved to IndexedDB after every change, downloadable as `.sqlite` and replaceable by an
 * upload. A rejected upload or a failed save never replaces or loses the current ledger.
 */
export interface LedgerDbData {
  status: 'loading' | 'ready';
  tables: LedgerTables | null;
  /** Last call's reply, for the form. */
  lastReply: { requestId: number; reply: ChargeReply } | null;
  /** What happened last (plain sentence), e.g. "Restored the saved ledger (3 charges)." */
  notice: string | null;
  /** A problem the learner must see (bad upload, full storage). */
  error: string | null;
  /** Next JSON-RPC id the form uses. */
  nextRequestId: number;
}

/** The message for a cents field that holds no number (empty, or text the number input rejected). */
export const CENTS_MISSING = `cents: enter a whole number of cents from 1 to ${MAX_CHARGE_CENTS.toLocaleString('en-US')}`;

/**
 * Reads the "cents" field's text. Empty or non-numeric text is an error ({@link CENTS_MISSING}),
 * never 0; any number is returned as is, for the model's own checks (integer, 1 … MAX_CHARGE_CENTS).
 */
export function centsFromText(text: string): { ok: true; cents: number } | { ok: false; error: string } {
  const trimmed = text.trim();
  const cents = Number(trimmed);
  if (trimmed === '' || Number.isNaN(cents)) return { ok: false, error: CENTS_MISSING };
  return { ok: true, cents };
}

export interface LedgerDbActions {
  init(): Promise<void>;
  /**
   * Sends one charge on the learner's ledger. `cents` may be the form's text: empty or non-numeric
   * text is refused in `error` ({@link centsFromText}) without sending; numbers go to the model's checks.
   */
  charge(input: { account: string; cents: number | string; key: string }): Promise<void>;
  reset(): Promise<void>;
  /** The ledger's bytes for download. */
  exportBytes(): Uint8Array;
  /** Replaces the ledger with an uploaded file after checking it; on any problem keeps the current one. */
  upload(bytes: Uint8Array, name: string): Promise<void>;
  /** The live database (for the console). */
  database(): SqlJsDatabase | null;
}

export type LedgerDbState = LedgerDbData & LedgerDbActions;
export type LedgerDbStore = StoreApi<LedgerDbState>;

/** Largest upload accepted (bytes). */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

export function createLedgerDbStore(SQL: SqlJsStatic, persistence: LedgerPersistence): LedgerDbStore {
  let db: SqlJsDatabase | null = null;
  const fresh = () => {
    const d = memoryOpener(SQL)();
    createLedger(d);
    return d;
  };
  const nextId = (d: SqlJsDatabase) => Number(d.query(`SELECT count(*) AS n FROM op_log`)[0].n) + 1;

  return createStore<LedgerDbState>()((set, get) => {
    const save = async (): Promise<boolean> => {
      try {
        await persistence.save(db!.export());
        return true;
      } catch (err) {
        const why = err instanceof PersistError ? err.message : `the ledger could not be saved: ${(err as Error).message}`;
        set({ error: `Not saved: ${why}. The ledger is still here in this tab — download it to keep a copy.` });
        return false;
      }
    };
    return {
      status: 'loading',
      tables: null,
      lastReply: null,
      notice: null,
      error: null,
      nextRequestId: 1,

      async init() {
        let restored: SqlJsDatabase | null = null;
        let problem: string | null = null;
        try {
          const bytes = await persistence.load();
          if (bytes) {
            restored = openBytes(SQL, bytes);
            problem = ledgerSchemaProblem(restored);
            if (problem) {
              restored.close();
              restored = null;
            }
          }
        } catch (err) {
          problem = (err as Error).message;
        }
        db = restored ?? fresh();
        const tables = readTables(db);
        set({
          status: 'ready',
          tables,
          nextRequestId: nextId(db),
          notice: restored ? `Restored your saved ledger (${tables.charges.length} charge${tables.charges.length === 1 ? '' : 's'}, ${tables.idempotency.length} key record${tables.idempotency.length === 1 ? '' : 's'}).` : 'A new, empty ledger.',
          error: problem ? `The saved ledger could not be used (${problem}); started a new one. Nothing was overwritten yet.` : null,
        });
      },

      async charge({ account, cents: centsInput, key }) {
        if (!db) return;
        const parsed = typeof centsInput === 'number' ? { ok: true as const, cents: centsInput } : centsFromText(centsInput);
        if (!parsed.ok) return set({ error: parsed.error });
        const cents = parsed.cents;
        const requestId = get().nextRequestId;
        let reply: ChargeReply;
        try {
          reply = charge(db, { requestId, key: key === '' ? null : key, args: { account, cents }, atMs: 0 });
        } catch (err) {
          set({ error: `SQLite error: ${(err as Error).message}` });
          return;
        }
        set({ lastReply: { requestId, reply }, tables: readTables(db), nextRequestId: requestId + 1, error: null, notice: null });
        await save();
      },

      async reset() {
        const previous = db;
        db = fresh();
        try {
          await persistence.clear();
        } catch (err) {
          db.close();
          db = previous;
          set({ error: `Reset failed: ${(err as Error).message}. The ledger is unchanged.` });
          return;
        }
        previous?.close();
        set({ tables: readTables(db), lastReply: null, nextRequestId: 1, error: null, notice: 'The ledger was reset: every charge and key record is gone.' });
      },

      exportBytes() {
        return db ? db.export() : new Uint8Array();
      },

      async upload(bytes, name) {
        const refuse = (why: string) => set({ error: `${name} was not loaded: ${why}. Your current ledger is unchanged.` });
        if (bytes.length > MAX_UPLOAD_BYTES) return refuse(`it is ${bytes.length} bytes, more than the ${MAX_UPLOAD_BYTES} allowed`);
        let candidate: SqlJsDatabase;
        try {
          candidate = openBytes(SQL, bytes);
        } catch (err) {
          return refuse((err as Error).message);
        }
        const problem = ledgerSchemaProblem(candidate);
        if (problem) {
          candidate.close();
          return refuse(`it is a SQLite database but not a ledger of this lab: ${problem}`);
        }
        try {
          await persistence.save(candidate.export());
        } catch (err) {
          candidate.close();
          return refuse(err instanceof PersistError ? err.message : (err as Error).message);
        }
        db?.close();
        db = candidate;
        const tables = readTables(db);
        set({ tables, lastReply: null, nextRequestId: nextId(db), error: null, notice: `Loaded ${name}: ${tables.charges.length} charge(s), ${tables.idempotency.length} key record(s). Charges continue from it.` });
      },

      database() {
        return db;
      },
    };
  });
}
