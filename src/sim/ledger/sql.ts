/**
 * The small synchronous database interface the ledger model runs on. `src/sim` never imports
 * sql.js: the browser (src/db) and Node tests wrap a real sql.js `Database` in this shape, so the
 * same model code executes real SQLite statements in both places.
 */

/** A value SQLite stores or returns (INTEGER/REAL as number, TEXT, BLOB, NULL). */
export type SqlValue = number | string | null | Uint8Array;

/** One result row, column name → value. */
export type SqlRow = Record<string, SqlValue>;

/**
 * A synchronous SQLite connection.
 * - `exec(sql)`: runs one or more statements without parameters or results (DDL, BEGIN/COMMIT).
 * - `run(sql, params)`: runs one statement with positional `?` parameters; returns rows changed.
 * - `query(sql, params)`: runs one statement and returns every result row.
 * Each method throws the engine's `Error` (message `SQLITE_…`-style text from SQLite, e.g.
 * `UNIQUE constraint failed: idempotency.key`) when SQLite rejects the statement.
 */
export interface SqlDatabase {
  exec(sql: string): void;
  run(sql: string, params?: readonly SqlValue[]): { changes: number };
  query(sql: string, params?: readonly SqlValue[]): SqlRow[];
}

/** Opens a fresh, empty, private database (an in-memory sql.js database in practice). */
export type OpenDatabase = () => SqlDatabase;
