import type { OpenDatabase, SqlDatabase } from './sql';
import { atBarrierTraced, autoRetryAllowed, decideAfterDrop, reservationByKey, reserve, setupInventory, type InventoryVariant, type ReserveReply, type ReserveRequest } from './practice';

/** One requirement of the practice lab and its live check. */
export interface PracticeCheck {
  id: string;
  requirement: string;
  /** Runs the check on fresh databases from `open`; `detail` says what was observed. Never throws for a failed check. */
  run(open: OpenDatabase & ((bytes?: Uint8Array) => SqlDatabase), variant?: InventoryVariant): { ok: boolean; detail: string };
}

const REQ: ReserveRequest = { tenant: 't-1', sku: 'sku-9', quantity: 2, idempotencyKey: 'res-77', paymentToken: 'tok_live_4242SECRET' };

function fresh(open: () => SqlDatabase): SqlDatabase {
  const db = open();
  setupInventory(db);
  return db;
}
const count = (db: SqlDatabase) => Number(db.query('SELECT count(*) AS n FROM reservations')[0].n);
const describeReply = (r: ReserveReply) => (r.kind === 'reserved' || r.kind === 'replayed' ? `${r.kind} #${r.reservation.reservationId}` : `${r.kind}`);

/** The ten requirements, in the lesson's order. */
export const PRACTICE_CHECKS: PracticeCheck[] = [
  {
    id: 'binds-arguments',
    requirement: 'The key binds tenant, SKU, quantity and operation name.',
    run(open, variant = 'correct') {
      const db = fresh(open);
      db.run('INSERT INTO stock VALUES (?, ?, ?)', ['t-2', 'sku-9', 10]);
      reserve(db, REQ, variant);
      const other = reserve(db, { ...REQ, tenant: 't-2' }, variant);
      return { ok: other.kind === 'mismatch' && count(db) === 1, detail: `same key for tenant t-2: ${describeReply(other)}; reservations: ${count(db)}` };
    },
  },
  {
    id: 'replay-first',
    requirement: 'Same key and arguments return the first reservation.',
    run(open, variant = 'correct') {
      const db = fresh(open);
      const a = reserve(db, REQ, variant);
      const b = reserve(db, REQ, variant);
      const same = a.kind === 'reserved' && b.kind === 'replayed' && b.reservation.reservationId === a.reservation.reservationId;
      return { ok: same && count(db) === 1, detail: `first: ${describeReply(a)}, second: ${describeReply(b)}; reservations: ${count(db)}` };
    },
  },
  {
    id: 'changed-quantity',
    requirement: 'A changed quantity fails without a new reservation.',
    run(open, variant = 'correct') {
      const db = fresh(open);
      reserve(db, REQ, variant);
      const b = reserve(db, { ...REQ, quantity: 3 }, variant);
      return { ok: b.kind === 'mismatch' && count(db) === 1, detail: `quantity 3 with the same key: ${describeReply(b)}; reservations: ${count(db)}` };
    },
  },
  {
    id: 'lost-response',
    requirement: 'A commit whose response was lost is reconciled by key.',
    run(open, variant = 'correct') {
      const db = fresh(open);
      reserve(db, REQ, variant); // the response never reaches the client
      const found = reservationByKey(db, REQ.idempotencyKey!);
      return { ok: found !== null && count(db) === 1, detail: found ? `lookup by key finds reservation #${found.reservationId}` : `lookup by key finds nothing (reservations: ${count(db)})` };
    },
  },
  {
    id: 'no-secrets',
    requirement: 'No secret or payment data is stored (the database bytes are scanned).',
    run(open, variant = 'correct') {
      const db = fresh(open) as SqlDatabase & { export?: () => Uint8Array };
      reserve(db, REQ, variant);
      const bytes = db.export ? db.export() : new Uint8Array();
      const text = new TextDecoder('latin1').decode(bytes);
      const leaked = text.includes(REQ.paymentToken!) || text.includes('4242');
      return { ok: bytes.length > 0 && !leaked, detail: bytes.length ? `${bytes.length} bytes scanned; payment token ${leaked ? 'FOUND' : 'absent'}` : 'no database bytes to scan' };
    },
  },
  {
    id: 'no-key-no-retry',
    requirement: 'Automatic retry is disabled without a key.',
    run(_open, variant = 'correct') {
      const without = autoRetryAllowed({ ...REQ, idempotencyKey: null }, variant);
      const empty = autoRetryAllowed({ ...REQ, idempotencyKey: '' }, variant);
      const withKey = autoRetryAllowed(REQ, variant);
      return { ok: !without && !empty && withKey, detail: `retry after a timeout — no key: ${without}, empty key: ${empty}, with key: ${withKey}` };
    },
  },
  {
    id: 'refetch-after-drop',
    requirement: 'A dropped subscription is followed by a refetch of the reservation before any decision.',
    run(open, variant = 'correct') {
      const db = fresh(open);
      reserve(db, REQ, variant); // committed; the subscription carrying the result drops
      let refetches = 0;
      const d = decideAfterDrop((key) => (refetches++, reservationByKey(db, key)), REQ, variant);
      const retried = d.decision === 'retry-same-key' ? reserve(db, REQ, variant) : null;
      return { ok: refetches === 1 && d.decision === 'use-existing' && count(db) === 1, detail: `refetches before deciding: ${refetches} → ${d.decision}${retried ? `, retry: ${describeReply(retried)}` : ''}; reservations: ${count(db)}` };
    },
  },
  {
    id: 'barrier',
    requirement: 'Two connections at a barrier commit one reservation.',
    run(open, variant = 'correct') {
      const db = fresh(open);
      const { replies: [a, b], log } = atBarrierTraced(db, REQ, REQ, variant);
      return { ok: count(db) === 1, detail: `A: ${describeReply(a)}, B: ${describeReply(b)}; reservations: ${count(db)} (write lock, as in the race lanes: ${log.join('; ')})` };
    },
  },
  {
    id: 'result-immutable',
    requirement: 'Mutating the returned object leaves the stored result intact.',
    run(open, variant = 'correct') {
      const db = fresh(open);
      const a = reserve(db, REQ, variant);
      if (a.kind === 'reserved') a.reservation.quantity = 999;
      const b = reserve(db, REQ, variant);
      const q = b.kind === 'replayed' ? b.reservation.quantity : null;
      return { ok: q === REQ.quantity, detail: `after setting quantity 999 on the returned object, a replay returns quantity ${q}` };
    },
  },
  {
    id: 'reopen',
    requirement: 'Close, reopen, reconcile by key.',
    run(open, variant = 'correct') {
      const db = fresh(open) as SqlDatabase & { export?: () => Uint8Array; close?: () => void };
      const a = reserve(db, REQ, variant);
      if (!db.export) return { ok: false, detail: 'this database cannot export its bytes' };
      const bytes = db.export();
      db.close?.();
      const reopened = open(bytes);
      const found = reservationByKey(reopened, REQ.idempotencyKey!);
      const again = reserve(reopened, REQ, variant);
      const ok = a.kind === 'reserved' && found?.reservationId === a.reservation.reservationId && again.kind === 'replayed' && count(reopened) === 1;
      return { ok, detail: `reopened from ${bytes.length} bytes: ${found ? `reservation #${found.reservationId} found` : 'nothing found'}; retry: ${describeReply(again)}` };
    },
  },
];
