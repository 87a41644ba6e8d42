import { beforeAll, describe, expect, it } from 'vitest';
import type { SqlJsStatic } from 'sql.js';
import { loadSqlJsNode } from '../db/node';
import { PersistError, type LedgerPersistence } from '../db/persist';
import { memoryOpener } from '../db/sqljs';
import { centsFromText, createLedgerDbStore } from './ledgerDbStore';

let SQL: SqlJsStatic;
beforeAll(async () => {
  SQL = await loadSqlJsNode();
});

/** An in-memory persistence whose next save can be made to fail like a full quota. */
function memoryPersistence() {
  let stored: Uint8Array | null = null;
  const p: LedgerPersistence & { failNext: boolean; stored(): Uint8Array | null } = {
    failNext: false,
    stored: () => stored,
    async load() {
      return stored;
    },
    async save(bytes) {
      if (p.failNext) {
        p.failNext = false;
        throw new PersistError('the browser\'s storage quota is full, so the ledger could not be saved', true);
      }
      stored = bytes.slice();
    },
    async clear() {
      stored = null;
    },
  };
  return p;
}

describe('the learner\'s ledger (persistence, upload, reset)', () => {
  it('charges persist and survive a reload (a new store on the same storage)', async () => {
    const p = memoryPersistence();
    const a = createLedgerDbStore(SQL, p);
    await a.getState().init();
    await a.getState().charge({ account: 'acct-1', cents: 500, key: 'k1' });
    await a.getState().charge({ account: 'acct-1', cents: 500, key: 'k1' });
    expect(a.getState().lastReply?.reply.kind).toBe('replayed');
    const b = createLedgerDbStore(SQL, p);
    await b.getState().init();
    expect(b.getState().tables!.charges.map((r) => r.receipt)).toEqual(['charge-001']);
    expect(b.getState().notice).toBe('Restored your saved ledger (1 charge, 1 key record).');
    await b.getState().charge({ account: 'acct-1', cents: 500, key: 'k1' });
    expect(b.getState().lastReply?.reply).toEqual({ kind: 'replayed', result: { receipt: 'charge-001', account: 'acct-1', cents: 500, requestId: 1 } });
  });

  it('an empty cents field asks for a whole number of cents (not "got 0") and sends nothing; the form\'s text otherwise reaches the model\'s checks', async () => {
    const s = createLedgerDbStore(SQL, memoryPersistence());
    await s.getState().init();
    await s.getState().charge({ account: 'a', cents: '  ', key: 'k' });
    expect(s.getState().error).toBe('cents: enter a whole number of cents from 1 to 10,000,000,000');
    expect(s.getState().lastReply).toBeNull();
    expect(s.getState().tables!.charges).toEqual([]);
    expect(centsFromText('')).toEqual({ ok: false, error: 'cents: enter a whole number of cents from 1 to 10,000,000,000' });
    expect(centsFromText(' 250 ')).toEqual({ ok: true, cents: 250 });
    await s.getState().charge({ account: 'a', cents: '250', key: 'k' });
    expect(s.getState().error).toBeNull();
    expect(s.getState().tables!.charges).toHaveLength(1);
  });

  it('reset empties the ledger and the storage', async () => {
    const p = memoryPersistence();
    const s = createLedgerDbStore(SQL, p);
    await s.getState().init();
    await s.getState().charge({ account: 'a', cents: 1, key: '' });
    await s.getState().reset();
    expect(s.getState().tables!.charges).toEqual([]);
    expect(p.stored()).toBeNull();
  });

  it('bad uploads are refused with a clear message and keep the ledger', async () => {
    const p = memoryPersistence();
    const s = createLedgerDbStore(SQL, p);
    await s.getState().init();
    await s.getState().charge({ account: 'a', cents: 100, key: 'k' });
    const before = p.stored();

    await s.getState().upload(new TextEncoder().encode('hello, not a database at all'.repeat(8)), 'notes.txt');
    expect(s.getState().error).toBe('notes.txt was not loaded: this file is not a SQLite database (its first 16 bytes are not "SQLite format 3"). Your current ledger is unchanged.');

    const other = memoryOpener(SQL)();
    other.exec('CREATE TABLE t (x)');
    await s.getState().upload(other.export(), 'other.sqlite');
    expect(s.getState().error).toBe('other.sqlite was not loaded: it is a SQLite database but not a ledger of this lab: the table "ledger_meta" is missing. Your current ledger is unchanged.');

    const good = createLedgerDbStore(SQL, memoryPersistence());
    await good.getState().init();
    await good.getState().charge({ account: 'b', cents: 200, key: 'x' });
    await good.getState().charge({ account: 'b', cents: 300, key: 'y' });
    p.failNext = true;
    await s.getState().upload(good.getState().exportBytes(), 'good.sqlite');
    expect(s.getState().error).toBe('good.sqlite was not loaded: the browser\'s storage quota is full, so the ledger could not be saved. Your current ledger is unchanged.');

    expect(s.getState().tables!.charges.map((r) => r.account)).toEqual(['a']);
    expect(p.stored()).toEqual(before);

    await s.getState().upload(good.getState().exportBytes(), 'good.sqlite');
    expect(s.getState().error).toBeNull();
    expect(s.getState().tables!.charges.map((r) => r.receipt)).toEqual(['charge-001', 'charge-002']);
    await s.getState().charge({ account: 'c', cents: 5, key: '' });
    expect(s.getState().tables!.charges.map((r) => r.receipt)).toEqual(['charge-001', 'charge-002', 'charge-003']);
  });

  it('a full quota on save keeps the charge in memory and says so', async () => {
    const p = memoryPersistence();
    const s = createLedgerDbStore(SQL, p);
    await s.getState().init();
    p.failNext = true;
    await s.getState().charge({ account: 'a', cents: 100, key: 'k' });
    expect(s.getState().tables!.charges.length).toBe(1);
    expect(s.getState().error).toBe('Not saved: the browser\'s storage quota is full, so the ledger could not be saved. The ledger is still here in this tab — download it to keep a copy.');
  });
});
