import type { Json } from '../sim/types';
import type { SqlDatabase } from '../sim/ledger';

/**
 * The ledger lab's read-only SQL console. A statement can run forever (a recursive CTE without
 * LIMIT) and sql.js cannot interrupt a running statement, so the page never runs console SQL on
 * its own thread: it sends a copy of the database (file bytes) and the SQL to a Web Worker, and
 * terminates the worker when the statement outlives its time budget. The ledgers the page shows
 * are never touched: the worker only ever holds a copy.
 */

/**
 * Result of a read-only query: column names and rows, or the SQLite error text.
 * Writes fail with SQLite's own "attempt to write a readonly database" (`PRAGMA query_only`).
 */
export type QueryResult = { ok: true; columns: string[]; rows: Json[][] } | { ok: false; error: string };

/** A database that can run arbitrary SQL text with results (sql.js `exec`). */
export interface ConsoleDatabase extends SqlDatabase {
  raw: { exec(sql: string): { columns: string[]; values: unknown[][] }[] };
}

/** Most rows a console result shows. */
export const CONSOLE_MAX_ROWS = 200;

/** Runs `sql` read-only on `db`; at most `maxRows` rows are returned. Never throws. Synchronous: call it in a worker (see above). */
export function runReadOnly(db: ConsoleDatabase, sql: string, maxRows = CONSOLE_MAX_ROWS): QueryResult {
  if (sql.trim() === '') return { ok: false, error: 'type a query, e.g. SELECT * FROM charges' };
  try {
    db.exec('PRAGMA query_only = ON');
    try {
      const results = db.raw.exec(sql);
      const last = results[results.length - 1];
      if (!last) return { ok: true, columns: [], rows: [] };
      return { ok: true, columns: last.columns, rows: last.values.slice(0, maxRows).map((r) => r.map((v) => (v instanceof Uint8Array ? `<${v.length} bytes>` : (v as Json)))) };
    } finally {
      db.exec('PRAGMA query_only = OFF');
    }
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/** Page → console worker: run `sql` on a database opened from `bytes` (a SQLite file image). */
export interface ConsoleRequest {
  id: number;
  bytes: Uint8Array;
  sql: string;
}

/** Console worker → page: `started` just before the statement runs (the budget starts then), then `result`. */
export type ConsoleReply = { type: 'started'; id: number } | { type: 'result'; id: number; result: QueryResult };

/** The part of a `Worker` the runner uses (a fake in unit tests). */
export interface ConsoleWorker {
  postMessage(message: ConsoleRequest, transfer: Transferable[]): void;
  terminate(): void;
  onmessage: ((event: { data: ConsoleReply }) => void) | null;
  onerror: ((event: { message?: string }) => void) | null;
}

/** Time a console statement may run before the worker is stopped (ms of wall time). */
export const CONSOLE_BUDGET_MS = 2000;
/** Time the worker may take to load SQLite before the first statement (ms of wall time). */
export const CONSOLE_LOAD_BUDGET_MS = 30_000;

/** The message shown when a statement is stopped after `budgetMs`. */
export function tooLongMessage(budgetMs: number): string {
  return `stopped after ${budgetMs} ms: the statement ran too long (a recursive query without LIMIT?)`;
}

/** Runs console statements in a worker, one at a time, each within a time budget. */
export interface ConsoleRunner {
  /** Resolves with the result, or with an error when stopped (budget, `cancel`, worker failure). Never rejects. */
  run(bytes: Uint8Array, sql: string): Promise<QueryResult>;
  /** Stops the running statement (its `run` resolves with "stopped by you"). */
  cancel(): void;
  /** Stops the worker for good (page unmount). */
  dispose(): void;
}

/**
 * Makes a runner over workers from `spawn` (one worker is kept between statements and replaced
 * after it is stopped). Timers are injectable for tests; they measure wall time, which is why this
 * lives in the page's store layer and not in `src/sim`. `budgetMs` counts from the worker's
 * `started` message, so loading SQLite in a fresh worker does not eat the statement's budget.
 */
export function createConsoleRunner(options: {
  spawn(): ConsoleWorker;
  budgetMs?: number;
  loadBudgetMs?: number;
  timers?: { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };
}): ConsoleRunner {
  const budgetMs = options.budgetMs ?? CONSOLE_BUDGET_MS;
  const loadBudgetMs = options.loadBudgetMs ?? CONSOLE_LOAD_BUDGET_MS;
  const timers = options.timers ?? { set: (fn: () => void, ms: number) => setTimeout(fn, ms), clear: (h: unknown) => clearTimeout(h as ReturnType<typeof setTimeout>) };
  let worker: ConsoleWorker | null = null;
  let nextId = 1;
  let current: { id: number; timer: unknown; finish(result: QueryResult): void } | null = null;

  const stop = (error: string) => {
    const c = current;
    worker?.terminate();
    worker = null;
    c?.finish({ ok: false, error });
  };

  return {
    run(bytes, sql) {
      if (current) return Promise.resolve({ ok: false, error: 'a statement is still running: wait for it or press Stop' });
      const id = nextId++;
      return new Promise<QueryResult>((resolve) => {
        const w = (worker ??= options.spawn());
        current = {
          id,
          timer: timers.set(() => stop(`stopped after ${loadBudgetMs} ms: SQLite did not start in the console's worker`), loadBudgetMs),
          finish(result) {
            if (current?.id !== id) return;
            timers.clear(current.timer);
            current = null;
            resolve(result);
          },
        };
        w.onmessage = ({ data }) => {
          if (!current || data.id !== current.id) return;
          if (data.type === 'started') {
            timers.clear(current.timer);
            current.timer = timers.set(() => stop(tooLongMessage(budgetMs)), budgetMs);
          } else current.finish(data.result);
        };
        w.onerror = (e) => stop(`the console's worker failed: ${e.message ?? 'unknown error'}`);
        const copy = bytes.slice();
        w.postMessage({ id, bytes: copy, sql }, [copy.buffer]);
      });
    },
    cancel() {
      if (current) stop('stopped by you before it finished');
    },
    dispose() {
      if (current) stop('the page was closed');
      worker?.terminate();
      worker = null;
    },
  };
}
