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

/**
 * True when `err` is sql.js running out of memory: SQLite's SQLITE_NOMEM ("out of memory"), the
 * Emscripten heap failing to grow ("Cannot enlarge memory", "Aborted(OOM)"), or the JavaScript
 * engine refusing an allocation (a `RangeError` such as "Array buffer allocation failed" or
 * "Invalid string length" while copying a huge result out of the heap).
 */
export function isOutOfMemory(err: unknown): boolean {
  if (err instanceof RangeError) return true;
  const text = err instanceof Error ? err.message : String(err);
  return /out of memory|cannot enlarge memory|aborted\(oom\)|allocation failed|invalid (string|array buffer) length/i.test(text);
}

/** The console's message for a statement that ran out of memory (`detail` is the engine's own text). */
export function outOfMemoryMessage(detail: string): string {
  return `out of memory: the statement built more data than the console's worker can hold (a huge blob or string?) [${detail}]`;
}

/** The console's text for an error thrown while running a statement. */
export function consoleErrorText(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return isOutOfMemory(err) ? outOfMemoryMessage(text) : text;
}

/** Runs `sql` read-only on `db`; at most `maxRows` rows are returned. Never throws. Synchronous: call it in a worker (see above). */
export function runReadOnly(db: ConsoleDatabase, sql: string, maxRows = CONSOLE_MAX_ROWS): QueryResult {
  if (sql.trim() === '') return { ok: false, error: 'type a query, e.g. SELECT * FROM charges' };
  let result: QueryResult;
  try {
    db.exec('PRAGMA query_only = ON');
    const results = db.raw.exec(sql);
    const last = results[results.length - 1];
    result = !last
      ? { ok: true, columns: [], rows: [] }
      : { ok: true, columns: last.columns, rows: last.values.slice(0, maxRows).map((r) => r.map((v) => (v instanceof Uint8Array ? `<${v.length} bytes>` : (v as Json)))) };
  } catch (err) {
    result = { ok: false, error: consoleErrorText(err) };
  }
  try {
    db.exec('PRAGMA query_only = OFF');
  } catch {
    // After an out-of-memory abort sql.js may be unusable; the statement's own error is the one to report.
  }
  return result;
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
  return `stopped after ${budgetMs} ms: the statement ran too long or built too much data (a recursive query without LIMIT? a huge blob?)`;
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
        w.onerror = (e) => {
          const text = e.message ?? 'unknown error';
          stop(isOutOfMemory(new Error(text)) ? outOfMemoryMessage(text) : `the console's worker failed: ${text}`);
        };
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
