import type { SqlJsStatic } from 'sql.js';
import { memoryOpener, openBytes, type SqlJsDatabase } from '../db/sqljs';
import { charge, createLedger, ledgerSchemaProblem, type ChargeCall, type ChargeReply, type SqlRow } from '../sim/ledger';

/**
 * The learner's ledger database and every SQL it runs, behind a message interface, so that it can
 * live in a Web Worker (the page: a 100,000-charge upload is opened, checked, counted and paged
 * there, never on the main thread) or on the caller's thread (Node tests). The host is synchronous;
 * a {@link LedgerDbBackend} carries its requests and replies.
 */

/** Rows a table page of the learner's ledger shows. */
export const LEDGER_PAGE_ROWS = 100;

/** The tables of the learner's ledger that the page shows, paged. */
export type LedgerPagedTable = 'charges' | 'idempotency';

/**
 * What the page shows of the learner's ledger: one page of each table (at most
 * {@link LEDGER_PAGE_ROWS} rows, `charges` in execution order (rowid: `charge-999` before `charge-1000`), `idempotency` by key), the page's first row
 * (`offsets`, 0-based) and each table's row count from SQL (`SELECT count(*)`), never from rows.
 */
export interface LedgerDbView {
  executions: number;
  charges: SqlRow[];
  idempotency: SqlRow[];
  counts: Record<LedgerPagedTable, number>;
  offsets: Record<LedgerPagedTable, number>;
}

/**
 * Where the host's SQLite runs: `worker` when its code runs in a Web Worker's global scope (the
 * page), `main` otherwise (a window, or Node); `opens` counts the databases the host opened from
 * file bytes or created (a restored, uploaded or reset ledger each count one).
 */
export interface LedgerDbEngine {
  thread: 'worker' | 'main';
  opens: number;
}

/** Page → host. `stage` opens a candidate (checked bytes, or a new empty ledger for `null`) beside the current one; `adopt` makes it current, `drop` closes it. */
export type LedgerDbRequest =
  | { op: 'open'; bytes: Uint8Array | null }
  | { op: 'charge'; call: ChargeCall }
  | { op: 'stage'; bytes: Uint8Array | null }
  | { op: 'adopt' }
  | { op: 'drop' }
  | { op: 'page'; table: LedgerPagedTable; offset: number };

/** A ledger as the page needs it after a change: the view, its file image (to save and download) and the next JSON-RPC id. */
export interface LedgerDbSnapshot {
  view: LedgerDbView;
  bytes: Uint8Array;
  nextRequestId: number;
  engine: LedgerDbEngine;
}

/** Host → page, per request kind. */
export interface LedgerDbReplies {
  /** `problem`: why the saved bytes were not used (a new ledger was started instead); `restored`: they were. */
  open: LedgerDbSnapshot & { restored: boolean; problem: string | null };
  /** `error`: SQLite's error (nothing changed). */
  charge: (LedgerDbSnapshot & { ok: true; reply: ChargeReply }) | { ok: false; error: string };
  /** `error`: why the candidate was refused, in the upload message's words. */
  stage: { ok: true; bytes: Uint8Array } | { ok: false; error: string };
  adopt: LedgerDbSnapshot;
  drop: { ok: true };
  page: { view: LedgerDbView };
}

export type LedgerDbOp = LedgerDbRequest['op'];
export type LedgerDbRequestOf<K extends LedgerDbOp> = Extract<LedgerDbRequest, { op: K }>;

/** Carries host requests (a worker, or the host on this thread). Rejects with an `Error` when the host cannot answer (its worker failed). */
export interface LedgerDbBackend {
  call<K extends LedgerDbOp>(request: LedgerDbRequestOf<K>): Promise<LedgerDbReplies[K]>;
  dispose(): void;
}

/** True when this code runs in a Web Worker's global scope. */
function inWorker(): boolean {
  const scope = (globalThis as { WorkerGlobalScope?: abstract new () => unknown }).WorkerGlobalScope;
  return typeof scope === 'function' && globalThis instanceof scope;
}

/** The synchronous host on a loaded sql.js module (see the module comment). Throws only on misuse (`adopt` with nothing staged). */
export function createLedgerDbHost(SQL: SqlJsStatic): { handle<K extends LedgerDbOp>(request: LedgerDbRequestOf<K>): LedgerDbReplies[K] } {
  let db: SqlJsDatabase | null = null;
  let staged: SqlJsDatabase | null = null;
  const offsets: Record<LedgerPagedTable, number> = { charges: 0, idempotency: 0 };
  const engine: LedgerDbEngine = { thread: inWorker() ? 'worker' : 'main', opens: 0 };
  const fresh = () => {
    const d = memoryOpener(SQL)();
    createLedger(d);
    engine.opens++;
    return d;
  };
  const fromBytes = (bytes: Uint8Array) => {
    const d = openBytes(SQL, bytes);
    engine.opens++;
    return d;
  };
  const count = (d: SqlJsDatabase, table: LedgerPagedTable) => Number(d.query(`SELECT count(*) AS n FROM ${table}`)[0].n);
  const clamp = (offset: number, total: number) => Math.max(0, Math.min(Math.floor(offset / LEDGER_PAGE_ROWS) * LEDGER_PAGE_ROWS, Math.floor(Math.max(total - 1, 0) / LEDGER_PAGE_ROWS) * LEDGER_PAGE_ROWS));
  const view = (d: SqlJsDatabase): LedgerDbView => {
    const counts = { charges: count(d, 'charges'), idempotency: count(d, 'idempotency') };
    for (const t of ['charges', 'idempotency'] as const) offsets[t] = clamp(offsets[t], counts[t]);
    return {
      executions: Number(d.query('SELECT count FROM executions WHERE id = 1')[0]?.count ?? 0),
      charges: d.query(`SELECT receipt, account, cents, request_id, key FROM charges ORDER BY rowid LIMIT ${LEDGER_PAGE_ROWS} OFFSET ?`, [offsets.charges]),
      idempotency: d.query(`SELECT key, fingerprint, status, result, request_id FROM idempotency ORDER BY key LIMIT ${LEDGER_PAGE_ROWS} OFFSET ?`, [offsets.idempotency]),
      counts,
      offsets: { ...offsets },
    };
  };
  const snapshot = (d: SqlJsDatabase): LedgerDbSnapshot => ({
    view: view(d),
    bytes: d.export(),
    nextRequestId: Number(d.query('SELECT count(*) AS n FROM op_log')[0].n) + 1,
    engine: { ...engine },
  });
  const handlers: { [K in LedgerDbOp]: (r: LedgerDbRequestOf<K>) => LedgerDbReplies[K] } = {
    open({ bytes }) {
      let problem: string | null = null;
      let restored: SqlJsDatabase | null = null;
      if (bytes) {
        try {
          restored = fromBytes(bytes);
          problem = ledgerSchemaProblem(restored);
          if (problem) {
            restored.close();
            restored = null;
          }
        } catch (err) {
          problem = (err as Error).message;
        }
      }
      db?.close();
      db = restored ?? fresh();
      return { ...snapshot(db), restored: restored !== null, problem };
    },
    charge({ call }) {
      if (!db) return { ok: false, error: 'SQLite error: the ledger is not open' };
      let reply: ChargeReply;
      try {
        reply = charge(db, call);
      } catch (err) {
        return { ok: false, error: `SQLite error: ${(err as Error).message}` };
      }
      return { ok: true, reply, ...snapshot(db) };
    },
    stage({ bytes }) {
      staged?.close();
      staged = null;
      if (!bytes) {
        staged = fresh();
        return { ok: true, bytes: staged.export() };
      }
      let candidate: SqlJsDatabase;
      try {
        candidate = fromBytes(bytes);
      } catch (err) {
        return { ok: false, error: (err as Error).message };
      }
      const problem = ledgerSchemaProblem(candidate);
      if (problem) {
        candidate.close();
        return { ok: false, error: `it is a SQLite database but not a ledger of this lab: ${problem}` };
      }
      staged = candidate;
      return { ok: true, bytes: candidate.export() };
    },
    adopt() {
      if (!staged) throw new Error('ledger host: adopt with no staged ledger (stage one first)');
      db?.close();
      db = staged;
      staged = null;
      offsets.charges = offsets.idempotency = 0;
      return snapshot(db);
    },
    drop() {
      staged?.close();
      staged = null;
      return { ok: true };
    },
    page({ table, offset }) {
      if (!db) throw new Error('ledger host: page before open (open the ledger first)');
      offsets[table] = offset;
      return { view: view(db) };
    },
  };
  return {
    handle<K extends LedgerDbOp>(request: LedgerDbRequestOf<K>): LedgerDbReplies[K] {
      return (handlers[request.op] as (r: LedgerDbRequestOf<K>) => LedgerDbReplies[K])(request);
    },
  };
}

/** The host on the caller's thread (Node tests; the page uses {@link workerLedgerBackend}). */
export function localLedgerBackend(SQL: SqlJsStatic): LedgerDbBackend {
  const host = createLedgerDbHost(SQL);
  return {
    call: async (request) => host.handle(request),
    dispose() {},
  };
}

/** Page → ledger worker envelope, and its answer (`error`: the host threw). */
export interface LedgerDbWorkerRequest {
  id: number;
  request: LedgerDbRequest;
}
export type LedgerDbWorkerReply = { id: number; ok: true; reply: LedgerDbReplies[LedgerDbOp] } | { id: number; ok: false; error: string };

/** The part of a `Worker` the worker backend uses (a fake in unit tests). */
export interface LedgerDbWorkerPort {
  postMessage(message: LedgerDbWorkerRequest, transfer?: Transferable[]): void;
  terminate(): void;
  onmessage: ((event: { data: LedgerDbWorkerReply }) => void) | null;
  onerror: ((event: { message?: string }) => void) | null;
}

/**
 * The host in a Web Worker (`src/labs/ledger/ledgerDb.worker.ts`): requests are answered in order.
 * File bytes travel without a copy: an `open` or `stage` request transfers its `bytes` (the caller
 * hands them over: afterwards they are empty on this side; a structured clone of a 37 MB file took
 * 0.8 s on the main thread), and the worker transfers the bytes of its replies. When the worker fails
 * (its script or SQLite did not load), every waiting and later call rejects with an `Error`
 * saying so.
 */
export function workerLedgerBackend(spawn: () => LedgerDbWorkerPort): LedgerDbBackend {
  const worker = spawn();
  let nextId = 1;
  let failed: string | null = null;
  const waiting = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  const failAll = (why: string) => {
    failed = why;
    for (const w of waiting.values()) w.reject(new Error(why));
    waiting.clear();
  };
  worker.onmessage = ({ data }) => {
    const w = waiting.get(data.id);
    if (!w) return;
    waiting.delete(data.id);
    if (data.ok) w.resolve(data.reply);
    else w.reject(new Error(data.error));
  };
  worker.onerror = (e) => failAll(`the ledger's worker failed: ${e.message || 'its script did not load'} — reload the page`);
  return {
    call<K extends LedgerDbOp>(request: LedgerDbRequestOf<K>): Promise<LedgerDbReplies[K]> {
      if (failed) return Promise.reject(new Error(failed));
      const id = nextId++;
      return new Promise<LedgerDbReplies[K]>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        const bytes = 'bytes' in request && request.bytes ? [request.bytes.buffer as ArrayBuffer] : [];
        worker.postMessage({ id, request }, bytes);
      });
    },
    dispose() {
      failAll('the ledger was closed');
      worker.terminate();
    },
  };
}
