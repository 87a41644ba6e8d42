import type { Database, SqlJsStatic, Statement } from 'sql.js';
import type { SqlDatabase, SqlRow, SqlValue } from '../sim/ledger/sql';
import { labNeedsDatabase } from '../sim/labIds';

/** A `SqlDatabase` over a sql.js `Database`, plus `close` and `export` (the file's bytes). */
export interface SqlJsDatabase extends SqlDatabase {
  readonly raw: Database;
  close(): void;
  /** The database as a SQLite file image (what a `.sqlite` download holds). */
  export(): Uint8Array;
}

/**
 * Wraps a sql.js database in the model's synchronous interface. Errors are sql.js's (SQLite's
 * text). Prepared statements are cached by SQL text (the model repeats a handful of statements);
 * sql.js frees every statement on `export` and `close`, so the cache is dropped then.
 */
export function wrapSqlJs(raw: Database): SqlJsDatabase {
  // sql.js keeps the database as a file in Emscripten's in-memory file system, where every
  // transaction would create and delete a rollback journal and probe for a hot journal. One
  // connection owns this file, so keep the journal in memory and the lock exclusive (ROLLBACK
  // still works; the file format is unchanged). sql.js reopens the file on `export`, so re-apply.
  const tune = () => raw.exec('PRAGMA journal_mode = MEMORY; PRAGMA locking_mode = EXCLUSIVE;');
  tune();
  const cache = new Map<string, Statement>();
  const prepared = (sql: string): Statement => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = raw.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
  return {
    raw,
    exec(sql) {
      raw.exec(sql);
    },
    run(sql, params = []) {
      const stmt = prepared(sql);
      try {
        stmt.run(params as SqlValue[]);
      } finally {
        stmt.reset();
      }
      return { changes: raw.getRowsModified() };
    },
    query(sql, params = []) {
      const stmt = prepared(sql);
      try {
        stmt.bind(params as SqlValue[]);
        const rows: SqlRow[] = [];
        while (stmt.step()) rows.push(stmt.getAsObject() as SqlRow);
        return rows;
      } finally {
        stmt.reset();
      }
    },
    close() {
      cache.clear();
      raw.close();
    },
    export() {
      cache.clear();
      const bytes = raw.export();
      tune();
      return bytes;
    },
  };
}

/** An opener of fresh in-memory databases on a loaded sql.js module. */
export function memoryOpener(SQL: SqlJsStatic): () => SqlJsDatabase {
  return () => wrapSqlJs(new SQL.Database());
}

/**
 * The database opener a lab's definition takes (`LAB_DEFINITIONS[lab]({ open })`): for the ledger,
 * whose replays run real SQL, an in-memory opener on the sql.js that `loadSqlJs` loads (the
 * platform's loader: `loadSqlJsNode` from `db/node` in Node, `loadSqlJs` from `db/browser` in a
 * worker); `undefined` for every other lab, so sql.js is never loaded for them.
 */
export async function labOpener(lab: string, loadSqlJs: () => Promise<SqlJsStatic>): Promise<(() => SqlJsDatabase) | undefined> {
  return labNeedsDatabase(lab) ? memoryOpener(await loadSqlJs()) : undefined;
}

/**
 * Opens a database on file bytes. Throws `Error` with a plain message when the bytes are not a
 * SQLite database (sql.js opens lazily, so the header is checked by reading the schema).
 */
export function openBytes(SQL: SqlJsStatic, bytes: Uint8Array): SqlJsDatabase {
  const header = 'SQLite format 3\0';
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 16));
  if (bytes.length < 100 || head !== header) throw new Error('this file is not a SQLite database (its first 16 bytes are not "SQLite format 3")');
  const raw = new SQL.Database(bytes);
  let db: SqlJsDatabase;
  try {
    db = wrapSqlJs(raw);
  } catch (err) {
    raw.close();
    throw new Error(`SQLite cannot read this file: ${(err as Error).message}`);
  }
  try {
    db.query('SELECT count(*) AS n FROM sqlite_schema');
    const check = db.query('PRAGMA quick_check')[0];
    if (check && Object.values(check)[0] !== 'ok') throw new Error(`SQLite reports the file as damaged: ${String(Object.values(check)[0])}`);
  } catch (err) {
    db.close();
    const message = (err as Error).message;
    throw new Error(message.startsWith('SQLite reports') ? message : `SQLite cannot read this file: ${message}`);
  }
  return db;
}
