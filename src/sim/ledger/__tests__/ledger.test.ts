import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { SqlJsStatic } from 'sql.js';
import { memoryOpener, openBytes, type SqlJsDatabase } from '../../../db/sqljs';
import {
  canonicalJson,
  charge,
  createLedger,
  fingerprint,
  ledgerSchemaProblem,
  MAX_CHARGE_CENTS,
  readTables,
  type ChargeReply,
} from '..';
import { sqlJs } from './helpers';

let SQL: SqlJsStatic;
let fresh: () => SqlJsDatabase;
beforeAll(async () => {
  SQL = await sqlJs();
  fresh = () => {
    const db = memoryOpener(SQL)();
    createLedger(db);
    return db;
  };
});

const call = (requestId: string | number, key: string | null, cents = 500, account = 'acct-1') => ({ requestId, key, args: { account, cents }, atMs: 0 });
const receipt = (r: ChargeReply) => (r.kind === 'executed' || r.kind === 'replayed' ? r.result.receipt : r.kind);

describe('charge(account, cents) on a real SQLite ledger', () => {
  it('without a key every retry executes again: charge-001, charge-002, charge-003', () => {
    const db = fresh();
    const replies = [1, 2, 3].map((id) => charge(db, call(id, null)));
    expect(replies.map((r) => r.kind)).toEqual(['executed', 'executed', 'executed']);
    expect(replies.map(receipt)).toEqual(['charge-001', 'charge-002', 'charge-003']);
    expect(readTables(db).executions).toBe(3);
  });

  it('an empty or blank key counts as none', () => {
    const db = fresh();
    charge(db, call(1, ''));
    charge(db, call(2, '  '));
    expect(readTables(db).executions).toBe(2);
    expect(readTables(db).idempotency).toEqual([]);
  });

  it('same key and arguments: the stored result comes back (request id of the first call) and nothing executes', () => {
    const db = fresh();
    const first = charge(db, call('req-1', 'k'));
    const second = charge(db, call('req-2', 'k'));
    expect(first).toEqual({ kind: 'executed', result: { receipt: 'charge-001', account: 'acct-1', cents: 500, requestId: 'req-1' } });
    expect(second).toEqual({ kind: 'replayed', result: { receipt: 'charge-001', account: 'acct-1', cents: 500, requestId: 'req-1' } });
    expect(readTables(db).executions).toBe(1);
    expect(readTables(db).charges.length).toBe(1);
  });

  it('same key, different arguments: rejected with a clear error, nothing executes', () => {
    const db = fresh();
    charge(db, call(1, 'k', 500));
    const r = charge(db, call(2, 'k', 700));
    expect(r.kind).toBe('mismatch');
    expect(r.kind === 'mismatch' && r.message).toBe('idempotency key "k" was used with different arguments; nothing executed');
    expect(readTables(db).executions).toBe(1);
  });

  it('non-positive amounts are rejected before any transaction (the database is byte-identical)', () => {
    const db = fresh();
    const before = db.export();
    for (const cents of [0, -1, -500]) {
      const r = charge(db, call(1, 'k', cents));
      expect(r).toEqual({ kind: 'invalid', message: `cents must be positive, got ${cents}` });
    }
    expect(charge(db, call(1, 'k', 2.5))).toEqual({ kind: 'invalid', message: 'cents must be an integer, got 2.5' });
    expect(db.export()).toEqual(before);
  });

  it('an amount above the cap (10,000,000,000 cents) is rejected before any transaction; the cap itself is charged exactly', () => {
    const db = fresh();
    const before = db.export();
    expect(charge(db, call(1, 'k', 1e20))).toEqual({ kind: 'invalid', message: "cents must be at most 10000000000 (100 million per charge, this lab's cap), got 100000000000000000000" });
    expect(charge(db, call(1, 'k', MAX_CHARGE_CENTS + 1))).toEqual({ kind: 'invalid', message: "cents must be at most 10000000000 (100 million per charge, this lab's cap), got 10000000001" });
    expect(charge(db, call(1, 'k', Number.POSITIVE_INFINITY))).toEqual({ kind: 'invalid', message: 'cents must be an integer, got Infinity' });
    expect(db.export()).toEqual(before);
    const r = charge(db, call(1, 'k', MAX_CHARGE_CENTS));
    expect(r.kind === 'executed' && r.result.cents).toBe(10_000_000_000);
    expect(readTables(db).charges[0].cents).toBe(10_000_000_000);
  });

  it('changing a returned object never changes what a later replay returns', () => {
    const db = fresh();
    const first = charge(db, call(1, 'k'));
    const replay1 = charge(db, call(2, 'k'));
    if (first.kind !== 'executed' || replay1.kind !== 'replayed') throw new Error('setup');
    first.result.cents = 1;
    replay1.result.receipt = 'tampered';
    (replay1.result as unknown as Record<string, unknown>).extra = true;
    const replay2 = charge(db, call(3, 'k'));
    expect(replay2).toEqual({ kind: 'replayed', result: { receipt: 'charge-001', account: 'acct-1', cents: 500, requestId: 1 } });
    expect(replay2.kind === 'replayed' && replay2.result).not.toBe(replay1.result);
  });

  it('records survive closing and reopening the database (export bytes, open a new database on them)', () => {
    const db = fresh();
    charge(db, call(1, 'k'));
    const bytes = db.export();
    db.close();
    const reopened = openBytes(SQL, bytes);
    expect(ledgerSchemaProblem(reopened)).toBeNull();
    expect(charge(reopened, call(2, 'k'))).toEqual({ kind: 'replayed', result: { receipt: 'charge-001', account: 'acct-1', cents: 500, requestId: 1 } });
    expect(charge(reopened, call(3, null)).kind === 'executed' && receipt(charge(reopened, call(4, null)))).toBe('charge-003');
  });

  it('the fingerprint covers the business arguments only, in canonical JSON', () => {
    expect(canonicalJson({ cents: 500, account: 'a' })).toBe('{"account":"a","cents":500}');
    expect(fingerprint({ account: 'a', cents: 500 })).toBe(fingerprint({ cents: 500, account: 'a' }));
    expect(fingerprint({ account: 'a', cents: 500 })).not.toBe(fingerprint({ account: 'a', cents: 501 }));
    // SHA-256 of the canonical text (independent check with Node's crypto).
    expect(fingerprint({ account: 'a', cents: 500 })).toBe(nodeSha('{"account":"a","cents":500}'));
    // Same key, same arguments, different request ids: replay (the id is not in the fingerprint).
    const db = fresh();
    charge(db, call('x', 'k'));
    expect(charge(db, call(99, 'k')).kind).toBe('replayed');
  });

  it('property: for any sequence of keyed calls, executions = distinct (key) first uses with valid amounts', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c', null), cents: fc.constantFrom(100, 200, -5) }), { maxLength: 12 }), (calls) => {
        const db = fresh();
        const seen = new Map<string, number>();
        let expected = 0;
        calls.forEach((c, i) => {
          const r = charge(db, call(i, c.key, c.cents));
          if (c.cents <= 0) return expect(r.kind).toBe('invalid');
          if (c.key === null) return expected++;
          const prev = seen.get(c.key);
          if (prev === undefined) {
            seen.set(c.key, c.cents);
            expected++;
            expect(r.kind).toBe('executed');
          } else expect(r.kind).toBe(prev === c.cents ? 'replayed' : 'mismatch');
        });
        expect(readTables(db).executions).toBe(expected);
        db.close();
      }),
      { numRuns: 60 },
    );
  });
});

describe('uploads: bad files are refused with a clear message', () => {
  it('non-SQLite bytes', () => {
    expect(() => openBytes(SQL, new TextEncoder().encode('{"not":"sqlite"}'.repeat(10)))).toThrow('this file is not a SQLite database (its first 16 bytes are not "SQLite format 3")');
  });
  it('a truncated or corrupt SQLite file', () => {
    const db = fresh();
    for (let i = 0; i < 50; i++) charge(db, call(i, `k${i}`));
    const bytes = db.export();
    const broken = bytes.slice();
    broken.fill(0x5a, 100, 4096 + 200);
    expect(() => openBytes(SQL, broken)).toThrow(/SQLite (cannot read this file|reports the file as damaged)/);
  });
  it('a SQLite database with the wrong schema', () => {
    const other = memoryOpener(SQL)();
    other.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    const reopened = openBytes(SQL, other.export());
    expect(ledgerSchemaProblem(reopened)).toBe('the table "ledger_meta" is missing');
    const partial = fresh();
    partial.exec('ALTER TABLE charges DROP COLUMN key');
    expect(ledgerSchemaProblem(partial)).toBe('the table "charges" lacks the column "key"');
  });
});

function nodeSha(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
