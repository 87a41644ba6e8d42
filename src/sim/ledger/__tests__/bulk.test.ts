import { beforeAll, describe, expect, it } from 'vitest';
import { charge, createLedger, fillLedger, readTables, type OpenDatabase } from '..';
import { opener } from './helpers';

let open: OpenDatabase;
beforeAll(async () => {
  open = await opener();
});

describe('fillLedger (the big file of the benchmark and the browser test)', () => {
  it('writes what charge() would have written, so the filled ledger replays and continues like a charged one', () => {
    const filled = open();
    createLedger(filled);
    fillLedger(filled, 12);
    const charged = open();
    createLedger(charged);
    for (let i = 1; i <= 12; i++) charge(charged, { requestId: i, key: `bulk-${i}`, args: { account: 'acct-1', cents: 100 + (i % 7) }, atMs: 0 });
    const a = readTables(filled);
    const b = readTables(charged);
    expect(a.executions).toBe(12);
    expect(a.charges).toEqual(b.charges);
    expect(a.idempotency).toEqual(b.idempotency);
    // op_log: charge() also logs each claim; the fill logs the executions only, with the same text.
    expect(a.log.map((r) => r.detail)).toEqual(b.log.filter((r) => r.op === 'execute').map((r) => r.detail));
    expect(charge(filled, { requestId: 13, key: 'bulk-5', args: { account: 'acct-1', cents: 105 }, atMs: 0 })).toEqual({ kind: 'replayed', result: { receipt: 'charge-005', account: 'acct-1', cents: 105, requestId: 5 } });
    expect(charge(filled, { requestId: 14, key: 'new', args: { account: 'acct-1', cents: 1 }, atMs: 0 })).toMatchObject({ kind: 'executed', result: { receipt: 'charge-013' } });
  });

  it('refuses a count that is not a whole number up to a million, naming the field', () => {
    const db = open();
    createLedger(db);
    expect(() => fillLedger(db, 1.5)).toThrow('charges: 1.5 is not an integer from 0 to 1,000,000 — pass a whole number of charges');
    expect(() => fillLedger(db, -1)).toThrow(RangeError);
  });
});
