import type { Json } from '../types';
import { classifyRetry } from '../retry/classify';
import { fingerprint, usableKey } from './ledger';
import type { SqlDatabase } from './sql';
import { decideWriteLock, type WriteLock } from './locks';
import type { ConnId } from './schema';

/**
 * The practice lab: the lesson's `reserve_inventory` tool with its ten requirements, each a
 * check that runs on real SQLite databases (tests assert them; the page runs them live).
 *
 * The tool reserves `quantity` units of `sku` for `tenant`. Its idempotency key binds the
 * operation name, tenant, SKU and quantity (the fingerprint covers all four); the stored result is
 * JSON; payment data and secrets passed along with a call are never written (the call log keeps
 * the business arguments only).
 */
export const INVENTORY_DDL = `
CREATE TABLE IF NOT EXISTS stock (tenant TEXT NOT NULL, sku TEXT NOT NULL, available INTEGER NOT NULL CHECK (available >= 0), PRIMARY KEY (tenant, sku));
CREATE TABLE IF NOT EXISTS reservations (id INTEGER PRIMARY KEY, tenant TEXT NOT NULL, sku TEXT NOT NULL, quantity INTEGER NOT NULL, key TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS reservation_keys (key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, status TEXT NOT NULL, result TEXT);
CREATE TABLE IF NOT EXISTS call_log (id INTEGER PRIMARY KEY, key TEXT NOT NULL, request TEXT NOT NULL);
`;

/** A `reserve_inventory` call. `paymentToken` is sensitive: used for the call, never stored. */
export interface ReserveRequest {
  tenant: string;
  sku: string;
  quantity: number;
  idempotencyKey: string | null;
  paymentToken?: string;
}

export interface Reservation {
  reservationId: number;
  tenant: string;
  sku: string;
  quantity: number;
}

export type ReserveReply =
  | { kind: 'reserved' | 'replayed'; reservation: Reservation }
  | { kind: 'in-use' | 'mismatch' | 'invalid' | 'out-of-stock' | 'busy'; message: string };

/**
 * One bug a practice check must catch (each check fails for the variant with its bug; see
 * `PRACTICE_CHECKS`):
 * - `fingerprint-sku-only`: the key's fingerprint binds the SKU only (binds-arguments, changed-quantity);
 * - `forgets-completed-keys`: the key is used as a lock, deleted once the reservation commits, so a
 *   repeat reserves again (replay-first, and every check that needs the key afterwards);
 * - `check-then-act`: SELECT the key, then INSERT it, in separate statements (barrier);
 * - `stores-token`: the call log keeps the raw request, payment token included (no-secrets);
 * - `result-in-memory`: the result lives in a process cache, the key's row never gets it, so
 *   nothing can be reconciled by key from the database (lost-response, reopen);
 * - `retry-without-key`: the client treats the tool as free of side effects and retries every
 *   timeout, key or not (no-key-no-retry);
 * - `no-refetch`: after a dropped subscription the client decides (retries) without refetching
 *   (refetch-after-drop);
 * - `result-by-reference`: the reply and every replay hand out the cached result object itself,
 *   so a caller's mutation changes what later replays return (result-immutable).
 */
export type InventoryBug = 'fingerprint-sku-only' | 'forgets-completed-keys' | 'check-then-act' | 'stores-token' | 'result-in-memory' | 'retry-without-key' | 'no-refetch' | 'result-by-reference';

/** Every bug, in the order of the checks that catch them. */
export const INVENTORY_BUGS: readonly InventoryBug[] = ['fingerprint-sku-only', 'forgets-completed-keys', 'result-in-memory', 'stores-token', 'retry-without-key', 'no-refetch', 'check-then-act', 'result-by-reference'];

/** Each bug in plain words (the page's variant picker). */
export const INVENTORY_BUG_TEXT: Record<InventoryBug, string> = {
  'fingerprint-sku-only': 'the key binds the SKU only',
  'forgets-completed-keys': 'the key is deleted once the reservation commits',
  'result-in-memory': 'the result is kept in memory, not in the database',
  'stores-token': 'the call log keeps the payment token',
  'retry-without-key': 'the client retries every timeout, key or not',
  'no-refetch': 'after a dropped subscription the client retries without refetching',
  'check-then-act': 'check the key, then claim it, in two statements',
  'result-by-reference': 'replays hand out the stored result object itself',
};

/** `correct` is the lesson's implementation; `naive` has every bug of `InventoryBug`; a bug's name alone is the correct tool with that one bug. */
export type InventoryVariant = 'correct' | 'naive' | InventoryBug;

/** Whether `variant` has `bug`. */
export function hasBug(variant: InventoryVariant, bug: InventoryBug): boolean {
  return variant === 'naive' || variant === bug;
}

/** The in-process result cache of the `result-in-memory` / `result-by-reference` bugs, one per database. */
const resultCaches = new WeakMap<SqlDatabase, Map<string, Reservation>>();
function resultCache(db: SqlDatabase): Map<string, Reservation> {
  let cache = resultCaches.get(db);
  if (!cache) {
    cache = new Map();
    resultCaches.set(db, cache);
  }
  return cache;
}

/** The operation name bound into the key's fingerprint. */
export const RESERVE_OPERATION = 'reserve_inventory';

/** Creates the practice tables and stocks `tenant`/`sku` with `available` units. */
export function setupInventory(db: SqlDatabase, stock: { tenant: string; sku: string; available: number }[] = [{ tenant: 't-1', sku: 'sku-9', available: 10 }]): void {
  db.exec(INVENTORY_DDL);
  for (const s of stock) db.run('INSERT OR REPLACE INTO stock (tenant, sku, available) VALUES (?, ?, ?)', [s.tenant, s.sku, s.available]);
}

/**
 * What a connection is about to do, yielded before the statement runs so a scheduler can apply
 * the write-lock rules of `locks.ts` first: `read` never waits; `write` is an autocommit write
 * statement (it needs the write lock for that statement); `begin` is `BEGIN IMMEDIATE` (takes the
 * write lock and runs the transaction); `commit` is yielded after `COMMIT` and releases the lock.
 */
export interface ReserveStep {
  step: 'check' | 'claim' | 'begin' | 'commit';
  lock: 'read' | 'write' | 'begin' | 'commit';
}

/**
 * `reserve_inventory` as a sequence of statements: a generator that yields before each statement
 * (see `ReserveStep`) so a scheduler can interleave two of them at a barrier under the race lanes'
 * lock rules, and returns the reply. The correct variant claims the key with one `INSERT … ON
 * CONFLICT DO NOTHING RETURNING`, so no interleaving can reserve twice. Throws only SQLite's errors.
 */
export function* reserveSteps(db: SqlDatabase, req: ReserveRequest, variant: InventoryVariant = 'correct'): Generator<ReserveStep, ReserveReply> {
  if (!Number.isInteger(req.quantity) || req.quantity <= 0) return { kind: 'invalid', message: `quantity must be a positive integer, got ${req.quantity}` };
  if (!usableKey(req.idempotencyKey)) return { kind: 'invalid', message: 'reserve_inventory requires an idempotency key' };
  const key = req.idempotencyKey;
  const bound: Json = hasBug(variant, 'fingerprint-sku-only') ? { sku: req.sku } : { operation: RESERVE_OPERATION, tenant: req.tenant, sku: req.sku, quantity: req.quantity };
  const fp = fingerprint(bound);
  const cached = hasBug(variant, 'result-in-memory') || hasBug(variant, 'result-by-reference');
  let claimed: boolean;
  if (!hasBug(variant, 'check-then-act')) {
    yield { step: 'claim', lock: 'write' };
    claimed = db.query(`INSERT INTO reservation_keys (key, fingerprint, status) VALUES (?, ?, 'in_progress') ON CONFLICT(key) DO NOTHING RETURNING key`, [key, fp]).length === 1;
  } else {
    yield { step: 'check', lock: 'read' };
    claimed = db.query('SELECT key FROM reservation_keys WHERE key = ?', [key]).length === 0;
    if (claimed) {
      yield { step: 'claim', lock: 'write' };
      db.run(`INSERT OR REPLACE INTO reservation_keys (key, fingerprint, status) VALUES (?, ?, 'in_progress')`, [key, fp]);
    }
  }
  if (!claimed) {
    const row = db.query('SELECT fingerprint, status, result FROM reservation_keys WHERE key = ?', [key])[0];
    if (row.fingerprint !== fp) return { kind: 'mismatch', message: `idempotency key "${key}" was used for a different reservation; nothing reserved` };
    const hit = cached ? resultCache(db).get(key) : undefined;
    if (hit) return { kind: 'replayed', reservation: hasBug(variant, 'result-by-reference') ? hit : { ...hit } };
    if (row.status !== 'completed') return { kind: 'in-use', message: `409 key in use: "${key}" is being processed` };
    if (row.result === null) return { kind: 'in-use', message: `409 key in use: "${key}" completed but its result is not stored` };
    return { kind: 'replayed', reservation: JSON.parse(String(row.result)) as Reservation };
  }
  yield { step: 'begin', lock: 'begin' };
  db.exec('BEGIN IMMEDIATE');
  let reply: ReserveReply;
  try {
    const { paymentToken: _secret, ...args } = req;
    db.run('INSERT INTO call_log (key, request) VALUES (?, ?)', [key, JSON.stringify(hasBug(variant, 'stores-token') ? req : args)]);
    const changed = db.run('UPDATE stock SET available = available - ? WHERE tenant = ? AND sku = ? AND available >= ?', [req.quantity, req.tenant, req.sku, req.quantity]).changes;
    if (changed === 0) {
      db.run('DELETE FROM reservation_keys WHERE key = ?', [key]);
      reply = { kind: 'out-of-stock', message: `not enough ${req.sku} for ${req.tenant}` };
    } else {
      db.run('INSERT INTO reservations (tenant, sku, quantity, key) VALUES (?, ?, ?, ?)', [req.tenant, req.sku, req.quantity, key]);
      const id = Number(db.query('SELECT last_insert_rowid() AS id')[0].id);
      const reservation: Reservation = { reservationId: id, tenant: req.tenant, sku: req.sku, quantity: req.quantity };
      if (hasBug(variant, 'forgets-completed-keys')) db.run('DELETE FROM reservation_keys WHERE key = ?', [key]);
      else db.run(`UPDATE reservation_keys SET status = 'completed', result = ? WHERE key = ?`, [hasBug(variant, 'result-in-memory') ? null : JSON.stringify(reservation), key]);
      if (cached) resultCache(db).set(key, hasBug(variant, 'result-by-reference') ? reservation : { ...reservation });
      reply = { kind: 'reserved', reservation };
    }
    db.exec('COMMIT');
  } catch (err) {
    db.exec('ROLLBACK');
    throw err;
  }
  yield { step: 'commit', lock: 'commit' };
  return reply;
}

/** Runs `reserveSteps` to the end. */
export function reserve(db: SqlDatabase, req: ReserveRequest, variant: InventoryVariant = 'correct'): ReserveReply {
  const steps = reserveSteps(db, req, variant);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/** Looks a reservation up by key in the database (reconciliation after a lost response or a dropped stream); null when no stored result. */
export function reservationByKey(db: SqlDatabase, key: string): Reservation | null {
  const row = db.query(`SELECT result FROM reservation_keys WHERE key = ? AND status = 'completed' AND result IS NOT NULL`, [key])[0];
  return row ? (JSON.parse(String(row.result)) as Reservation) : null;
}

/**
 * The client's retry decision after a timeout: automatic retry only when `classifyRetry` allows it
 * (never without a key). Under the `retry-without-key` bug the client declares the tool free of
 * side effects, so every timeout is retried.
 */
export function autoRetryAllowed(req: ReserveRequest, variant: InventoryVariant = 'correct'): boolean {
  return classifyRetry({ sideEffect: !hasBug(variant, 'retry-without-key'), idempotencyKey: req.idempotencyKey, origin: { kind: 'client-timeout' } }).retry;
}

/**
 * After the subscription carrying the result drops, the client refetches the reservation by key
 * (`refetch`, e.g. `reservationByKey`) before deciding: found → use it (no retry); not found →
 * retry with the same key. Under the `no-refetch` bug it retries at once without calling `refetch`
 * (the check counts the calls).
 */
export function decideAfterDrop(refetch: (key: string) => Reservation | null, req: ReserveRequest, variant: InventoryVariant = 'correct'): { decision: 'use-existing' | 'retry-same-key'; reservation: Reservation | null } {
  if (hasBug(variant, 'no-refetch')) return { decision: 'retry-same-key', reservation: null };
  const reservation = usableKey(req.idempotencyKey) ? refetch(req.idempotencyKey) : null;
  return { decision: reservation ? 'use-existing' : 'retry-same-key', reservation };
}

/** One connection's part in `atBarrier`: its reply, and each lock event in order (e.g. "begin waits", "begin granted"). */
export interface BarrierTrace {
  replies: [ReserveReply, ReserveReply];
  /** What happened, in order, e.g. `A claim: write lock granted`, `B begin: waits for A`. */
  log: string[];
}

/**
 * Runs two reservation attempts (connections A and B) in lockstep from a barrier — both are
 * ready to run their first statement before either does — under the same write-lock rules as
 * the race lanes (`decideWriteLock`): one writer at a time; an autocommit write holds the lock
 * for its statement, `BEGIN IMMEDIATE` until `COMMIT`; a writer that finds the lock taken waits
 * (`busy: 'wait'`, busy_timeout) or fails with SQLITE_BUSY (`busy: 'error'`, reply `busy`).
 * The two take turns, A first; a waiting connection resumes when the holder commits.
 */
export function atBarrierTraced(db: SqlDatabase, a: ReserveRequest, b: ReserveRequest, variant: InventoryVariant, busy: 'wait' | 'error' = 'wait'): BarrierTrace {
  const conns = [
    { id: 'A' as ConnId, gen: reserveSteps(db, a, variant) },
    { id: 'B' as ConnId, gen: reserveSteps(db, b, variant) },
  ].map((c) => ({ ...c, next: c.gen.next(), reply: null as ReserveReply | null }));
  const lock: WriteLock = { writer: null, version: 0 };
  const log: string[] = [];
  // Everyone is at the barrier (first statement pending); now take turns.
  for (let turn = 0; conns.some((c) => c.reply === null); turn++) {
    if (turn > 100) throw new Error('atBarrier: no progress (a bug in the scheduler)');
    for (const c of conns) {
      if (c.reply !== null) continue;
      if (c.next.done) {
        c.reply = c.next.value;
        continue;
      }
      const { step, lock: need } = c.next.value;
      if (need === 'commit') {
        lock.writer = null;
        lock.version++;
        log.push(`${c.id} ${step}: releases the write lock`);
      } else if (need !== 'read') {
        const decision = decideWriteLock(lock, c.id, { upgrade: false, snapshot: null, busy });
        if (decision.kind === 'wait') {
          if (log[log.length - 1] !== `${c.id} ${step}: waits for ${lock.writer}`) log.push(`${c.id} ${step}: waits for ${lock.writer}`);
          continue;
        }
        if (decision.kind === 'busy') {
          log.push(`${c.id} ${step}: ${decision.code}`);
          c.reply = { kind: 'busy', message: `${decision.code}: ${lock.writer} holds the write lock; nothing reserved` };
          continue;
        }
        if (need === 'begin') lock.writer = c.id;
        log.push(`${c.id} ${step}: write lock granted`);
      }
      c.next = c.gen.next();
    }
  }
  return { replies: [conns[0].reply!, conns[1].reply!], log };
}

/** `atBarrierTraced`'s replies only. */
export function atBarrier(db: SqlDatabase, a: ReserveRequest, b: ReserveRequest, variant: InventoryVariant, busy: 'wait' | 'error' = 'wait'): [ReserveReply, ReserveReply] {
  return atBarrierTraced(db, a, b, variant, busy).replies;
}

// The ten live checks of the practice lab (PracticeCheck, PRACTICE_CHECKS) are in practiceChecks.ts,
// re-exported here so `./practice` exports what it always did.
export * from './practiceChecks';
