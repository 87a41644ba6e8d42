import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Json } from '../types';
import type { SqlDatabase, SqlRow } from './sql';

/**
 * The ledger's SQLite schema and the lesson's `charge(account, cents)` service on it.
 *
 * Tables (all real SQLite, created by `LEDGER_DDL`):
 * - `ledger_meta(name, value)`: `schema` = `LEDGER_SCHEMA_ID`, so an uploaded file can be checked;
 * - `executions(id = 1, count)`: the execution counter — how many times a charge really ran;
 * - `charges(receipt, account, cents, request_id, key)`: the side effect, one row per execution;
 * - `idempotency(key, fingerprint, status, result, request_id)`: one record per key; `result` is
 *   the stored result as JSON text, `status` is `in_progress` (claimed) or `completed`;
 * - `op_log(seq, at_ms, actor, op, detail)`: what happened, for the views.
 */
export const LEDGER_SCHEMA_ID = 'mcp-reliability-lab/ledger@1';

/** DDL for a new ledger (idempotent: `IF NOT EXISTS`). */
export const LEDGER_DDL = `
CREATE TABLE IF NOT EXISTS ledger_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
INSERT OR IGNORE INTO ledger_meta (name, value) VALUES ('schema', '${LEDGER_SCHEMA_ID}');
CREATE TABLE IF NOT EXISTS executions (id INTEGER PRIMARY KEY CHECK (id = 1), count INTEGER NOT NULL);
INSERT OR IGNORE INTO executions (id, count) VALUES (1, 0);
CREATE TABLE IF NOT EXISTS charges (
  receipt TEXT PRIMARY KEY,
  account TEXT NOT NULL,
  cents INTEGER NOT NULL CHECK (cents > 0),
  request_id TEXT NOT NULL,
  key TEXT
);
CREATE TABLE IF NOT EXISTS idempotency (
  key TEXT PRIMARY KEY,
  fingerprint TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('in_progress', 'completed')),
  result TEXT,
  request_id TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS op_log (seq INTEGER PRIMARY KEY, at_ms INTEGER NOT NULL, actor TEXT NOT NULL, op TEXT NOT NULL, detail TEXT NOT NULL);
`;

/** Columns each table must have for a database to count as a ledger (checked on upload). */
export const LEDGER_COLUMNS: Record<string, string[]> = {
  ledger_meta: ['name', 'value'],
  executions: ['id', 'count'],
  charges: ['receipt', 'account', 'cents', 'request_id', 'key'],
  idempotency: ['key', 'fingerprint', 'status', 'result', 'request_id'],
  op_log: ['seq', 'at_ms', 'actor', 'op', 'detail'],
};

/** Creates the ledger tables in `db` (no-op when they exist). Throws SQLite's error if `db` is not writable. */
export function createLedger(db: SqlDatabase): void {
  db.exec(LEDGER_DDL);
}

/**
 * Empties a ledger for a new replay: rolls back any open transaction, deletes every row and
 * sets the counter to 0. The schema stays; afterwards the database equals a fresh ledger's rows.
 */
export function resetLedger(db: SqlDatabase): void {
  try {
    db.exec('ROLLBACK');
  } catch {
    // no transaction was open
  }
  db.exec('DELETE FROM charges; DELETE FROM idempotency; DELETE FROM op_log; UPDATE executions SET count = 0 WHERE id = 1;');
}

/**
 * Why `db` is not a ledger of this lab, or null when it is: every table of `LEDGER_COLUMNS` with
 * its columns and the `schema` marker. Never throws (a database SQLite cannot read is reported).
 */
export function ledgerSchemaProblem(db: SqlDatabase): string | null {
  try {
    for (const [table, columns] of Object.entries(LEDGER_COLUMNS)) {
      const have = db.query(`SELECT name FROM pragma_table_info('${table}')`).map((r) => String(r.name));
      if (have.length === 0) return `the table "${table}" is missing`;
      const missing = columns.filter((c) => !have.includes(c));
      if (missing.length) return `the table "${table}" lacks the column${missing.length > 1 ? 's' : ''} ${missing.map((m) => `"${m}"`).join(', ')}`;
    }
    const marker = db.query(`SELECT value FROM ledger_meta WHERE name = 'schema'`)[0]?.value;
    if (marker !== LEDGER_SCHEMA_ID) return `ledger_meta.schema is ${JSON.stringify(marker ?? null)}, expected "${LEDGER_SCHEMA_ID}"`;
    return null;
  } catch (err) {
    return `SQLite cannot read it: ${(err as Error).message}`;
  }
}

/**
 * Canonical JSON (RFC 8785 style for the values used here): object keys sorted by code unit,
 * no whitespace, numbers in JavaScript's shortest form. Throws `TypeError` for non-finite numbers.
 */
export function canonicalJson(value: Json): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: ${value} is not a finite number`);
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort();
  return `{${keys.filter((k) => value[k] !== undefined).map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(',')}}`;
}

/**
 * The argument fingerprint: lowercase hex SHA-256 over `canonicalJson(args)`, where `args` are the
 * business arguments only — never the JSON-RPC id nor the idempotency key (the caller strips them).
 */
export function fingerprint(args: Json): string {
  return bytesToHex(sha256(utf8ToBytes(canonicalJson(args))));
}

/** The business arguments of `charge`. */
export interface ChargeArgs {
  account: string;
  /** Amount in integer cents; must be > 0 and ≤ `MAX_CHARGE_CENTS`. */
  cents: number;
}

/**
 * Largest amount one charge may carry, in cents: 10,000,000,000 (100 million in the currency's
 * major unit). A business cap of this lab, chosen far below `Number.MAX_SAFE_INTEGER`
 * (2^53 − 1, beyond which JavaScript numbers skip integers, so a stored result could differ from
 * the amount charged) and SQLite's 64-bit INTEGER, so every accepted amount is exact everywhere.
 */
export const MAX_CHARGE_CENTS = 10_000_000_000;

/** The result a charge returns (and the ledger stores as JSON). `requestId` is the executing call's id. */
export interface ChargeResult {
  receipt: string;
  account: string;
  cents: number;
  requestId: string | number;
}

/** What the server answers a charge call with. */
export type ChargeReply =
  | { kind: 'executed'; result: ChargeResult }
  | { kind: 'replayed'; result: ChargeResult }
  /** The key is claimed by a call still running (HTTP 409, Stripe's `idempotency_key_in_use`). */
  | { kind: 'in-use'; message: string }
  /** The key was used before with different arguments. */
  | { kind: 'mismatch'; message: string }
  /** Bad arguments, rejected before any transaction. */
  | { kind: 'invalid'; message: string };

/** Receipt name of the n-th execution: `charge-001`, `charge-002`, … */
export function receiptName(n: number): string {
  return `charge-${String(n).padStart(3, '0')}`;
}

/** Why `args` cannot be charged, or null. Checked before any SQL runs. */
export function chargeArgsProblem(args: ChargeArgs): string | null {
  if (typeof args.account !== 'string' || args.account.trim() === '') return 'account must be a non-empty string';
  if (!Number.isInteger(args.cents)) return `cents must be an integer, got ${String(args.cents)}`;
  if (args.cents <= 0) return `cents must be positive, got ${args.cents}`;
  if (args.cents > MAX_CHARGE_CENTS) return `cents must be at most ${MAX_CHARGE_CENTS} (100 million per charge, this lab's cap), got ${BigInt(args.cents).toString()}`;
  return null;
}

/** True for a usable idempotency key: a string that is not empty after trimming (an empty key counts as none). */
export function usableKey(key: string | null | undefined): key is string {
  return typeof key === 'string' && key.trim() !== '';
}

function log(db: SqlDatabase, atMs: number, actor: string, op: string, detail: string): void {
  db.run('INSERT INTO op_log (at_ms, actor, op, detail) VALUES (?, ?, ?, ?)', [atMs, actor, op, detail]);
}

/** Parses a stored result into a fresh object (each call returns a new copy). */
export function parseResult(text: string): ChargeResult {
  return JSON.parse(text) as ChargeResult;
}

/**
 * Performs the effect inside the caller's transaction: bumps the counter and inserts the charge.
 * Returns the result (receipt numbered by the counter).
 */
export function executeCharge(db: SqlDatabase, requestId: string | number, key: string | null, args: ChargeArgs): ChargeResult {
  db.run('UPDATE executions SET count = count + 1 WHERE id = 1');
  const n = Number(db.query('SELECT count FROM executions WHERE id = 1')[0].count);
  const result: ChargeResult = { receipt: receiptName(n), account: args.account, cents: args.cents, requestId };
  db.run('INSERT INTO charges (receipt, account, cents, request_id, key) VALUES (?, ?, ?, ?, ?)', [result.receipt, args.account, args.cents, JSON.stringify(requestId), key]);
  return result;
}

/** Runs `body` in a `BEGIN IMMEDIATE` transaction; rolls back and rethrows on error. */
export function inTransaction<T>(db: SqlDatabase, body: () => T): T {
  // `run` (a prepared, reusable statement) rather than `exec`, which parses the text every time.
  db.run('BEGIN IMMEDIATE');
  try {
    const out = body();
    db.run('COMMIT');
    return out;
  } catch (err) {
    db.run('ROLLBACK');
    throw err;
  }
}

/** A charge call as the server receives it. */
export interface ChargeCall {
  requestId: string | number;
  key: string | null;
  args: ChargeArgs;
  atMs: number;
}

/**
 * Step 1 of a keyed charge, one atomic transaction: check the key and claim it.
 * - invalid arguments: rejected before any transaction;
 * - `dedupe` false or no usable key: returns `null` (the caller executes with `finishCharge`);
 * - a completed record with the same fingerprint: `replayed` (a fresh copy of the stored result);
 * - a record with a different fingerprint: `mismatch`, nothing executes;
 * - an `in_progress` record with the same fingerprint: `in-use` (409);
 * - no record: inserts an `in_progress` claim and returns `null`.
 */
export function beginCharge(db: SqlDatabase, call: ChargeCall, dedupe: boolean): ChargeReply | null {
  const problem = chargeArgsProblem(call.args);
  if (problem) return { kind: 'invalid', message: problem };
  if (!dedupe || !usableKey(call.key)) return null;
  const key = call.key;
  const fp = fingerprint(call.args as unknown as Json);
  return inTransaction(db, () => {
    const rows = db.query('SELECT fingerprint, status, result FROM idempotency WHERE key = ?', [key]);
    if (rows.length) {
      const row = rows[0];
      if (row.fingerprint !== fp) {
        log(db, call.atMs, 'server', 'reject', `key ${key} reused with different arguments (request ${JSON.stringify(call.requestId)})`);
        return { kind: 'mismatch', message: `idempotency key "${key}" was used with different arguments; nothing executed` } as const;
      }
      if (row.status === 'in_progress') {
        log(db, call.atMs, 'server', 'in-use', `key ${key} is in use (request ${JSON.stringify(call.requestId)})`);
        return { kind: 'in-use', message: `409 idempotency_key_in_use: "${key}" is still being processed; retry later with the same key` } as const;
      }
      log(db, call.atMs, 'server', 'replay', `key ${key}: stored result returned to request ${JSON.stringify(call.requestId)}`);
      return { kind: 'replayed', result: parseResult(String(row.result)) } as const;
    }
    db.run(`INSERT INTO idempotency (key, fingerprint, status, result, request_id) VALUES (?, ?, 'in_progress', NULL, ?)`, [key, fp, JSON.stringify(call.requestId)]);
    log(db, call.atMs, 'server', 'claim', `key ${key} claimed by request ${JSON.stringify(call.requestId)}`);
    return null;
  });
}

/**
 * Step 2, one atomic transaction: execute the charge and record the result under the key (when
 * deduplicating with a usable key). Returns `executed` with the result.
 */
export function finishCharge(db: SqlDatabase, call: ChargeCall, dedupe: boolean, atMs: number): ChargeReply {
  return inTransaction(db, () => {
    const keyed = dedupe && usableKey(call.key);
    const result = executeCharge(db, call.requestId, call.key, call.args);
    if (keyed) db.run(`UPDATE idempotency SET status = 'completed', result = ? WHERE key = ?`, [JSON.stringify(result), call.key]);
    log(db, atMs, 'server', 'execute', `${result.receipt}: ${call.args.cents} cents from ${call.args.account} (request ${JSON.stringify(call.requestId)}${call.key ? `, key ${call.key}` : ', no key'})`);
    return { kind: 'executed', result } as const;
  });
}

/** `beginCharge` then, when it returns null, `finishCharge` at once: a charge with no server delay. */
export function charge(db: SqlDatabase, call: ChargeCall, dedupe = true): ChargeReply {
  return beginCharge(db, call, dedupe) ?? finishCharge(db, call, dedupe, call.atMs);
}

/** The ledger's tables as plain rows (for the views and the model's per-step snapshot). */
export interface LedgerTables {
  executions: number;
  charges: SqlRow[];
  idempotency: SqlRow[];
  log: SqlRow[];
}

/** Reads every table of the ledger (small by construction). */
export function readTables(db: SqlDatabase): LedgerTables {
  return {
    executions: Number(db.query('SELECT count FROM executions WHERE id = 1')[0]?.count ?? 0),
    charges: db.query('SELECT receipt, account, cents, request_id, key FROM charges ORDER BY receipt'),
    idempotency: db.query('SELECT key, fingerprint, status, result, request_id FROM idempotency ORDER BY key'),
    log: db.query('SELECT seq, at_ms, actor, op, detail FROM op_log ORDER BY seq'),
  };
}
