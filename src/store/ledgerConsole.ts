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
 * Result of a read-only query: column names and rows (at most the console's row limit), or an
 * error text. Writes fail with SQLite's own "attempt to write a readonly database" (`PRAGMA
 * query_only`); PRAGMA writes are refused before they run ({@link pragmaWriteError}).
 * `totalRows` is present only when the rows were cut: the statement's full row count.
 */
export type QueryResult = { ok: true; columns: string[]; rows: Json[][]; totalRows?: number } | { ok: false; error: string };

/** One prepared statement of a console query (sql.js `Statement`). */
export interface ConsoleStatement {
  getSQL(): string;
  getColumnNames(): string[];
  step(): boolean;
  get(): unknown[];
}

/** A database that can run arbitrary SQL text with results (sql.js `exec` and `iterateStatements`). */
export interface ConsoleDatabase extends SqlDatabase {
  raw: { exec(sql: string): { columns: string[]; values: unknown[][] }[]; iterateStatements(sql: string): Iterable<ConsoleStatement> };
}

/** Most rows a console result shows. */
export const CONSOLE_MAX_ROWS = 200;

/** PRAGMAs that take an argument in parentheses only to read (they never change a setting). */
const READING_PRAGMAS = new Set(['table_info', 'table_xinfo', 'table_list', 'index_info', 'index_xinfo', 'index_list', 'foreign_key_list', 'foreign_key_check', 'integrity_check', 'quick_check']);

/**
 * The console's refusal of a PRAGMA write (`PRAGMA name = value`, `PRAGMA schema.name = value`,
 * or `PRAGMA name(value)` for a setting), or null when `statement` is not one. A PRAGMA write could
 * switch `query_only` off (`PRAGMA query_only = 0`) and make the "read-only" console writable, so
 * every one is refused; reading a setting (`PRAGMA query_only`) and the lookups that take a table
 * name (`PRAGMA table_info(charges)`) stay allowed. `statement` is one statement's text.
 */
export function pragmaWriteError(statement: string): string | null {
  const text = statement.replace(/\/\*[\s\S]*?(\*\/|$)/g, ' ').replace(/--[^\n]*/g, ' ').trim().replace(/\s*;$/, '');
  const m = /^pragma\s+(?:(?:"[^"]*"|`[^`]*`|\[[^\]]*\]|\w+)\s*\.\s*)?("[^"]*"|`[^`]*`|\[[^\]]*\]|\w+)\s*([=(])/i.exec(text);
  if (!m) return null;
  const name = m[1].replace(/^["`[]|["`\]]$/g, '').toLowerCase();
  if (m[2] === '(' && READING_PRAGMAS.has(name)) return null;
  const shown = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  return `sql: ${shown} is a PRAGMA write, refused — the console stays read-only; read a setting without a value, e.g. PRAGMA ${name}`;
}

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

/** The text shown when a result was cut to the console's row limit. */
export function cutRowsText(shown: number, total: number): string {
  return `showing ${shown.toLocaleString('en-US')} of ${total.toLocaleString('en-US')} rows — add a WHERE or LIMIT to see the others`;
}

/**
 * Runs `sql` read-only on `db`, statement by statement (`PRAGMA query_only` is set ON before each
 * one, and PRAGMA writes are refused before they run). The result is the last statement that
 * returned rows (like sql.js `exec`), with at most `maxRows` rows; when there were more, the rest
 * are counted, not kept, and `totalRows` says how many there were. Never throws. Synchronous: call
 * it in a worker (see above).
 */
export function runReadOnly(db: ConsoleDatabase, sql: string, maxRows = CONSOLE_MAX_ROWS): QueryResult {
  if (sql.trim() === '') return { ok: false, error: 'type a query, e.g. SELECT * FROM charges' };
  let result: QueryResult;
  try {
    db.exec('PRAGMA query_only = ON');
    let last: { columns: string[]; rows: Json[][]; total: number } | null = null;
    let refused: string | null = null;
    for (const stmt of db.raw.iterateStatements(sql)) {
      refused = pragmaWriteError(stmt.getSQL());
      if (refused) break;
      db.exec('PRAGMA query_only = ON');
      let current: { columns: string[]; rows: Json[][]; total: number } | null = null;
      while (stmt.step()) {
        current ??= { columns: stmt.getColumnNames(), rows: [], total: 0 };
        if (current.total < maxRows) current.rows.push(stmt.get().map((v) => (v instanceof Uint8Array ? `<${v.length} bytes>` : (v as Json))));
        current.total++;
      }
      if (current) last = current;
    }
    result = refused
      ? { ok: false, error: refused }
      : !last
        ? { ok: true, columns: [], rows: [] }
        : { ok: true, columns: last.columns, rows: last.rows, ...(last.total > last.rows.length ? { totalRows: last.total } : {}) };
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

/**
 * Console worker → page: `ready` once SQLite has loaded in a fresh worker (`failed` when it could
 * not), then per statement `started` just before it runs (the budget starts then) and `result`.
 */
export type ConsoleReply = { type: 'ready' } | { type: 'failed'; error: string } | { type: 'started'; id: number } | { type: 'result'; id: number; result: QueryResult };

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

/** The message shown when the console's worker (or SQLite in it) could not start; `detail` says what failed. */
export function workerFailedMessage(detail: string): string {
  return `SQL console: its worker did not start (${detail}) — check the connection, then press Retry`;
}

/**
 * The console's worker: `idle` (none running: before the first `warm`/`run`, or after one was
 * stopped), `starting` (loading SQLite), `ready`, or `failed` (it could not start; `error` is
 * the {@link workerFailedMessage}; `retry` or the next `run` starts a fresh one).
 */
export type ConsoleWorkerStatus = { state: 'idle' | 'starting' | 'ready' } | { state: 'failed'; error: string };

/** Runs console statements in a worker, one at a time, each within a time budget. */
export interface ConsoleRunner {
  /** Resolves with the result, or with an error when stopped (budget, `cancel`, worker failure). Never rejects. */
  run(bytes: Uint8Array, sql: string): Promise<QueryResult>;
  /** Stops the running statement (its `run` resolves with "stopped by you"). */
  cancel(): void;
  /** Stops the worker for good (page unmount). */
  dispose(): void;
  /** Starts the worker (and SQLite in it) ahead of the first statement, so Run does not wait for it; nothing when one is running. */
  warm(): void;
  /** Drops a worker that failed to start and starts a fresh one. */
  retry(): void;
  /** How many workers this runner has started: one warm worker serves every statement until a statement is stopped. */
  starts(): number;
  /** The worker's state (for the page: a failed start shows its message and a Retry button). */
  status(): ConsoleWorkerStatus;
  /** Calls `listener` whenever `status()` changes; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
}

/**
 * Makes a runner over workers from `spawn`. One worker is kept warm between statements (SQLite
 * loads once per worker, not once per statement) and replaced only after it is stopped (budget,
 * Stop, crash) or failed to start. Timers are injectable for tests; they measure wall time, which
 * is why this lives in the page's store layer and not in `src/sim`. `budgetMs` counts from the
 * worker's `started` message, so loading SQLite in a fresh worker does not eat the statement's
 * budget; `loadBudgetMs` bounds that load instead.
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
  let starts = 0;
  let status: ConsoleWorkerStatus = { state: 'idle' };
  let startTimer: unknown = null;
  const listeners = new Set<() => void>();
  let nextId = 1;
  let current: { id: number; timer: unknown; finish(result: QueryResult): void } | null = null;

  const setStatus = (next: ConsoleWorkerStatus) => {
    status = next;
    for (const l of [...listeners]) l();
  };
  const clearStartTimer = () => {
    if (startTimer !== null) timers.clear(startTimer);
    startTimer = null;
  };
  const dropWorker = () => {
    clearStartTimer();
    worker?.terminate();
    worker = null;
  };
  const stop = (error: string) => {
    const c = current;
    dropWorker();
    setStatus({ state: 'idle' });
    c?.finish({ ok: false, error });
  };
  const fail = (error: string) => {
    const c = current;
    dropWorker();
    setStatus({ state: 'failed', error });
    c?.finish({ ok: false, error });
  };
  const spawn = (): ConsoleWorker => {
    const w = options.spawn();
    starts++;
    worker = w;
    setStatus({ state: 'starting' });
    startTimer = timers.set(() => fail(workerFailedMessage(`SQLite did not start within ${loadBudgetMs} ms`)), loadBudgetMs);
    w.onmessage = ({ data }) => {
      if (worker !== w) return;
      if (data.type === 'ready') {
        clearStartTimer();
        if (status.state === 'starting') setStatus({ state: 'ready' });
        return;
      }
      if (data.type === 'failed') return fail(workerFailedMessage(data.error));
      if (!current || data.id !== current.id) return;
      if (data.type === 'started') {
        clearStartTimer();
        if (status.state === 'starting') setStatus({ state: 'ready' });
        current.timer = timers.set(() => stop(tooLongMessage(budgetMs)), budgetMs);
      } else current.finish(data.result);
    };
    w.onerror = (e) => {
      if (worker !== w) return;
      const text = e.message ?? '';
      if (isOutOfMemory(new Error(text))) stop(outOfMemoryMessage(text));
      else if (status.state === 'starting') fail(workerFailedMessage(text || 'its script did not load'));
      else stop(`the console's worker failed: ${text || 'unknown error'}`);
    };
    return w;
  };

  return {
    run(bytes, sql) {
      if (current) return Promise.resolve({ ok: false, error: 'a statement is still running: wait for it or press Stop' });
      const id = nextId++;
      return new Promise<QueryResult>((resolve) => {
        const w = worker ?? spawn();
        current = {
          id,
          timer: null,
          finish(result) {
            if (current?.id !== id) return;
            if (current.timer !== null) timers.clear(current.timer);
            current = null;
            resolve(result);
          },
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
      dropWorker();
      setStatus({ state: 'idle' });
    },
    warm() {
      if (!worker) spawn();
    },
    retry() {
      if (status.state === 'failed' || !worker) {
        dropWorker();
        spawn();
      }
    },
    starts: () => starts,
    status: () => status,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
