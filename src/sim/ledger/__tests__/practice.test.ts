import { beforeAll, describe, expect, it } from 'vitest';
import type { SqlJsStatic } from 'sql.js';
import { openBytes, wrapSqlJs } from '../../../db/sqljs';
import { INVENTORY_BUGS, PRACTICE_CHECKS, atBarrier, atBarrierTraced, reserve, setupInventory, type InventoryVariant } from '../practice';
import { sqlJs } from './helpers';

let SQL: SqlJsStatic;
let open: Parameters<(typeof PRACTICE_CHECKS)[number]['run']>[0];
beforeAll(async () => {
  SQL = await sqlJs();
  open = ((bytes?: Uint8Array) => (bytes ? openBytes(SQL, bytes) : wrapSqlJs(new SQL.Database()))) as typeof open;
});

describe('practice lab: reserve_inventory meets the ten requirements', () => {
  it('has the lesson\'s ten requirements', () => {
    expect(PRACTICE_CHECKS.length).toBe(10);
  });
  const expected: Record<string, string> = {
    'binds-arguments': 'same key for tenant t-2: mismatch; reservations: 1',
    'replay-first': 'first: reserved #1, second: replayed #1; reservations: 1',
    'changed-quantity': 'quantity 3 with the same key: mismatch; reservations: 1',
    'lost-response': 'lookup by key finds reservation #1',
    'no-key-no-retry': 'retry after a timeout — no key: false, empty key: false, with key: true',
    'refetch-after-drop': 'refetches before deciding: 1 → use-existing; reservations: 1',
    barrier: 'A: reserved #1, B: in-use; reservations: 1 (write lock, as in the race lanes: A claim: write lock granted; B claim: write lock granted; A begin: write lock granted; A commit: releases the write lock)',
    'result-immutable': 'after setting quantity 999 on the returned object, a replay returns quantity 2',
  };
  for (const check of PRACTICE_CHECKS) {
    it(check.requirement, () => {
      const r = check.run(open);
      expect(r.ok, r.detail).toBe(true);
      if (expected[check.id]) expect(r.detail).toBe(expected[check.id]);
      if (check.id === 'no-secrets') expect(r.detail).toMatch(/^\d+ bytes scanned; payment token absent$/);
      if (check.id === 'reopen') expect(r.detail).toMatch(/^reopened from \d+ bytes: reservation #1 found; retry: replayed #1$/);
    });
  }

  it('the naive variant (every bug) fails all ten checks', () => {
    const failed = PRACTICE_CHECKS.filter((c) => !c.run(open, 'naive').ok).map((c) => c.id);
    expect(failed).toEqual(PRACTICE_CHECKS.map((c) => c.id));
  });

  // Every check can fail: per check, the one-bug variant it catches, and what it observes then.
  const catches: Record<string, [InventoryVariant, string | RegExp]> = {
    'binds-arguments': ['fingerprint-sku-only', 'same key for tenant t-2: replayed #1; reservations: 1'],
    'replay-first': ['forgets-completed-keys', 'first: reserved #1, second: reserved #2; reservations: 2'],
    'changed-quantity': ['fingerprint-sku-only', 'quantity 3 with the same key: replayed #1; reservations: 1'],
    'lost-response': ['result-in-memory', 'lookup by key finds nothing (reservations: 1)'],
    'no-secrets': ['stores-token', /^\d+ bytes scanned; payment token FOUND$/],
    'no-key-no-retry': ['retry-without-key', 'retry after a timeout — no key: true, empty key: true, with key: true'],
    'refetch-after-drop': ['no-refetch', 'refetches before deciding: 0 → retry-same-key, retry: replayed #1; reservations: 1'],
    barrier: ['check-then-act', /^A: reserved #1, B: reserved #2; reservations: 2 /],
    'result-immutable': ['result-by-reference', 'after setting quantity 999 on the returned object, a replay returns quantity 999'],
    reopen: ['result-in-memory', /^reopened from \d+ bytes: nothing found; retry: in-use$/],
  };
  for (const check of PRACTICE_CHECKS) {
    it(`${check.id} fails for the variant with its bug (${catches[check.id][0]}) and holds for correct`, () => {
      const [variant, detail] = catches[check.id];
      const r = check.run(open, variant);
      expect(r.ok, r.detail).toBe(false);
      if (typeof detail === 'string') expect(r.detail).toBe(detail);
      else expect(r.detail).toMatch(detail);
      expect(check.run(open, 'correct').ok).toBe(true);
    });
  }

  it('every bug is caught: the checks each one-bug variant fails', () => {
    const failing = Object.fromEntries(INVENTORY_BUGS.map((bug) => [bug, PRACTICE_CHECKS.filter((c) => !c.run(open, bug).ok).map((c) => c.id)]));
    expect(failing).toEqual({
      'fingerprint-sku-only': ['binds-arguments', 'changed-quantity'],
      // Nothing left to replay from: every check that needs the key after the first call fails.
      'forgets-completed-keys': ['binds-arguments', 'replay-first', 'changed-quantity', 'lost-response', 'refetch-after-drop', 'result-immutable', 'reopen'],
      // No stored result: the refetch finds nothing, so the client retries (the process cache replays it).
      'result-in-memory': ['lost-response', 'refetch-after-drop', 'reopen'],
      'stores-token': ['no-secrets'],
      'retry-without-key': ['no-key-no-retry'],
      'no-refetch': ['refetch-after-drop'],
      'check-then-act': ['barrier'],
      'result-by-reference': ['result-immutable'],
    });
  });

  it('the barrier: check-then-act reserves twice, the claim once; stock is decremented once', () => {
    const db = wrapSqlJs(new SQL.Database());
    setupInventory(db);
    const req = { tenant: 't-1', sku: 'sku-9', quantity: 2, idempotencyKey: 'k' };
    expect(atBarrier(db, req, req, 'naive').map((r) => r.kind)).toEqual(['reserved', 'reserved']);
    const db2 = wrapSqlJs(new SQL.Database());
    setupInventory(db2);
    expect(atBarrier(db2, req, req, 'correct').map((r) => r.kind)).toEqual(['reserved', 'in-use']);
    expect(db2.query('SELECT available FROM stock')[0].available).toBe(8);
    expect(reserve(db2, { ...req, idempotencyKey: null }).kind).toBe('invalid');
    expect(reserve(db2, { ...req, idempotencyKey: 'big', quantity: 50 })).toEqual({ kind: 'out-of-stock', message: 'not enough sku-9 for t-1' });
  });

  it('the barrier runs under the race lanes\' lock rules: B\'s BEGIN IMMEDIATE waits for A\'s commit, or fails with SQLITE_BUSY without a busy_timeout', () => {
    const req = { tenant: 't-1', sku: 'sku-9', quantity: 2, idempotencyKey: 'k' };
    const fresh = () => {
      const db = wrapSqlJs(new SQL.Database());
      setupInventory(db);
      return db;
    };
    const waited = atBarrierTraced(fresh(), req, req, 'naive', 'wait');
    expect(waited.log).toEqual([
      'A claim: write lock granted',
      'B claim: write lock granted',
      'A begin: write lock granted',
      'B begin: waits for A',
      'A commit: releases the write lock',
      'B begin: write lock granted',
      'B commit: releases the write lock',
    ]);
    expect(waited.replies.map((r) => r.kind)).toEqual(['reserved', 'reserved']);
    const db = fresh();
    const failed = atBarrierTraced(db, req, req, 'naive', 'error');
    expect(failed.log).toEqual(['A claim: write lock granted', 'B claim: write lock granted', 'A begin: write lock granted', 'B begin: SQLITE_BUSY', 'A commit: releases the write lock']);
    expect(failed.replies[1]).toEqual({ kind: 'busy', message: 'SQLITE_BUSY: A holds the write lock; nothing reserved' });
    expect(db.query('SELECT count(*) AS n FROM reservations')[0].n).toBe(1);
    // The claim holds under both settings.
    for (const busy of ['wait', 'error'] as const) expect(atBarrier(fresh(), req, req, 'correct', busy).map((r) => r.kind)).toEqual(['reserved', 'in-use']);
  });
});
