import { createStore, type StoreApi } from 'zustand/vanilla';
import type { SqlJsStatic } from 'sql.js';
import { PersistError, type LedgerPersistence } from '../db/persist';
import { MAX_CHARGE_CENTS, type ChargeReply } from '../sim/ledger';
import { localLedgerBackend, type LedgerDbBackend, type LedgerDbEngine, type LedgerDbSnapshot, type LedgerDbView, type LedgerPagedTable } from './ledgerDbHost';

/**
 * The learner's own ledger: a real SQLite database (sql.js) that the "Try it" form charges
 * against, saved to IndexedDB after every change, downloadable as `.sqlite` and replaceable by an
 * upload. A rejected upload or a failed save never replaces or loses the current ledger. Every SQL
 * statement runs in the store's {@link LedgerDbBackend} (in the page: a Web Worker); the store
 * holds one page of each table, the counts from SQL and the file image for saving and download.
 */
export interface LedgerDbData {
  status: 'loading' | 'ready';
  /** One page of each table with SQL counts (see {@link LedgerDbView}); null before `init`. */
  tables: LedgerDbView | null;
  /** Where the ledger's SQLite runs and how many databases it opened there (the page shows it). */
  engine: LedgerDbEngine | null;
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
  /** The ledger's bytes (SQLite file image) as of the last change, for download and the console; empty before `init`. */
  exportBytes(): Uint8Array;
  /**
   * Replaces the ledger with an uploaded file after checking it; on any problem keeps the current
   * one. Takes the bytes over: a worker backend transfers them (pass a copy to keep using them).
   */
  upload(bytes: Uint8Array, name: string): Promise<void>;
  /** Shows the page of `table` that starts at row `offset` (0-based; clamped to the table, rounded down to a page). */
  page(table: LedgerPagedTable, offset: number): Promise<void>;
}

export type LedgerDbState = LedgerDbData & LedgerDbActions;
export type LedgerDbStore = StoreApi<LedgerDbState>;

/**
 * Largest upload accepted (bytes): 64 MiB. A ledger of 100,000 keyed charges written by `charge()`
 * is about 37–45 MB (each key record holds a 64-hex fingerprint and the result as JSON), and the
 * worker holds the current ledger and the candidate side by side while it checks an upload.
 */
export const MAX_UPLOAD_BYTES = 64 * 1024 * 1024;

/**
 * The learner's ledger store over `persistence`. `options.backend` runs its SQL (default: on this
 * thread, on `SQL`; the page passes the Web Worker backend). A backend that fails (its worker did
 * not start) shows its reason in `error` and keeps the last state.
 */
export function createLedgerDbStore(SQL: SqlJsStatic, persistence: LedgerPersistence, options: { backend?: LedgerDbBackend } = {}): LedgerDbStore {
  const backend = options.backend ?? localLedgerBackend(SQL);
  let bytes: Uint8Array = new Uint8Array();
  const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;

  return createStore<LedgerDbState>()((set, get) => {
    const save = async (): Promise<boolean> => {
      try {
        await persistence.save(bytes);
        return true;
      } catch (err) {
        const why = err instanceof PersistError ? err.message : `the ledger could not be saved: ${(err as Error).message}`;
        set({ error: `Not saved: ${why}. The ledger is still here in this tab — download it to keep a copy.` });
        return false;
      }
    };
    const take = (s: LedgerDbSnapshot) => {
      bytes = s.bytes;
      return { tables: s.view, nextRequestId: s.nextRequestId, engine: s.engine };
    };
    /** Runs `body`; a backend failure (its worker died) becomes the error the learner sees. */
    const guarded = async (body: () => Promise<void>) => {
      try {
        await body();
      } catch (err) {
        set({ status: 'ready', error: `SQLite error: ${(err as Error).message}` });
      }
    };
    return {
      status: 'loading',
      tables: null,
      engine: null,
      lastReply: null,
      notice: null,
      error: null,
      nextRequestId: 1,

      init: () =>
        guarded(async () => {
          let saved: Uint8Array | null = null;
          let loadProblem: string | null = null;
          try {
            saved = await persistence.load();
          } catch (err) {
            loadProblem = (err as Error).message;
          }
          const r = await backend.call({ op: 'open', bytes: saved });
          const problem = loadProblem ?? r.problem;
          const { counts } = r.view;
          set({
            status: 'ready',
            ...take(r),
            notice: r.restored ? `Restored your saved ledger (${plural(counts.charges, 'charge')}, ${plural(counts.idempotency, 'key record')}).` : 'A new, empty ledger.',
            error: problem ? `The saved ledger could not be used (${problem}); started a new one. Nothing was overwritten yet.` : null,
          });
        }),

      charge: ({ account, cents: centsInput, key }) =>
        guarded(async () => {
          if (!get().tables) return;
          const parsed = typeof centsInput === 'number' ? { ok: true as const, cents: centsInput } : centsFromText(centsInput);
          if (!parsed.ok) return set({ error: parsed.error });
          const cents = parsed.cents;
          const requestId = get().nextRequestId;
          const r = await backend.call({ op: 'charge', call: { requestId, key: key === '' ? null : key, args: { account, cents }, atMs: 0 } });
          if (!r.ok) return set({ error: r.error });
          set({ lastReply: { requestId, reply: r.reply }, ...take(r), nextRequestId: requestId + 1, error: null, notice: null });
          await save();
        }),

      reset: () =>
        guarded(async () => {
          await backend.call({ op: 'stage', bytes: null });
          try {
            await persistence.clear();
          } catch (err) {
            await backend.call({ op: 'drop' });
            set({ error: `Reset failed: ${(err as Error).message}. The ledger is unchanged.` });
            return;
          }
          const r = await backend.call({ op: 'adopt' });
          set({ ...take(r), nextRequestId: 1, lastReply: null, error: null, notice: 'The ledger was reset: every charge and key record is gone.' });
        }),

      exportBytes() {
        return bytes;
      },

      upload: (file, name) =>
        guarded(async () => {
          const refuse = (why: string) => set({ error: `${name} was not loaded: ${why}. Your current ledger is unchanged.` });
          if (file.length > MAX_UPLOAD_BYTES) return refuse(`it is ${file.length} bytes, more than the ${MAX_UPLOAD_BYTES} allowed`);
          const staged = await backend.call({ op: 'stage', bytes: file });
          if (!staged.ok) return refuse(staged.error);
          try {
            await persistence.save(staged.bytes);
          } catch (err) {
            await backend.call({ op: 'drop' });
            return refuse(err instanceof PersistError ? err.message : (err as Error).message);
          }
          const r = await backend.call({ op: 'adopt' });
          const { counts } = r.view;
          set({ ...take(r), lastReply: null, error: null, notice: `Loaded ${name}: ${counts.charges.toLocaleString('en-US')} charge(s), ${counts.idempotency.toLocaleString('en-US')} key record(s). Charges continue from it.` });
        }),

      page: (table, offset) =>
        guarded(async () => {
          if (!get().tables) return;
          const r = await backend.call({ op: 'page', table, offset });
          set({ tables: r.view });
        }),
    };
  });
}
