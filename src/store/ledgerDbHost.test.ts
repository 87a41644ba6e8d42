import { beforeAll, describe, expect, it } from 'vitest';
import type { SqlJsStatic } from 'sql.js';
import { loadSqlJsNode } from '../db/node';
import { memoryOpener } from '../db/sqljs';
import type { LedgerPersistence } from '../db/persist';
import { createLedger, fillLedger } from '../sim/ledger';
import { createLedgerDbHost, LEDGER_PAGE_ROWS, workerLedgerBackend, type LedgerDbWorkerPort, type LedgerDbWorkerReply, type LedgerDbWorkerRequest } from './ledgerDbHost';
import { createLedgerDbStore } from './ledgerDbStore';

let SQL: SqlJsStatic;
beforeAll(async () => {
  SQL = await loadSqlJsNode();
});

const memory = (): LedgerPersistence => {
  let stored: Uint8Array | null = null;
  return { load: async () => stored, save: async (b) => void (stored = b.slice()), clear: async () => void (stored = null) };
};

/** A ledger file with `n` charges (fillLedger). */
function bigFile(n: number): Uint8Array {
  const db = memoryOpener(SQL)();
  createLedger(db);
  fillLedger(db, n);
  const bytes = db.export();
  db.close();
  return bytes;
}

/** A fake worker that runs the real host on this thread, answering asynchronously like postMessage does. */
function fakeWorker(host: ReturnType<typeof createLedgerDbHost>): LedgerDbWorkerPort & { posted: LedgerDbWorkerRequest[] } {
  const port: LedgerDbWorkerPort & { posted: LedgerDbWorkerRequest[] } = {
    posted: [],
    onmessage: null,
    onerror: null,
    terminate() {},
    postMessage(m) {
      port.posted.push(m);
      queueMicrotask(() => {
        let data: LedgerDbWorkerReply;
        try {
          data = { id: m.id, ok: true, reply: host.handle(m.request) };
        } catch (err) {
          data = { id: m.id, ok: false, error: (err as Error).message };
        }
        port.onmessage?.({ data });
      });
    },
  };
  return port;
}

describe('the learner\'s ledger on a big file: one page, counts from SQL, SQL in the backend', () => {
  it('an upload of 1,234 charges shows 100 rows, the SQL counts, and pages forward, back and to the clamped end', async () => {
    const host = createLedgerDbHost(SQL);
    const port = fakeWorker(host);
    const s = createLedgerDbStore(SQL, memory(), { backend: workerLedgerBackend(() => port) });
    await s.getState().init();
    await s.getState().upload(bigFile(1234), 'big.sqlite');
    const t = s.getState().tables!;
    expect(s.getState().error).toBeNull();
    expect(s.getState().notice).toBe('Loaded big.sqlite: 1,234 charge(s), 1,234 key record(s). Charges continue from it.');
    expect(t.counts).toEqual({ charges: 1234, idempotency: 1234 });
    expect(t.executions).toBe(1234);
    expect(t.charges).toHaveLength(LEDGER_PAGE_ROWS);
    expect(t.offsets).toEqual({ charges: 0, idempotency: 0 });
    expect(t.charges[0].receipt).toBe('charge-001');
    await s.getState().page('charges', 100);
    expect(s.getState().tables!.offsets.charges).toBe(100);
    expect(s.getState().tables!.charges[0].receipt).toBe('charge-101');
    await s.getState().page('charges', 99_999);
    expect(s.getState().tables!.offsets.charges).toBe(1200);
    expect(s.getState().tables!.charges).toHaveLength(34);
    await s.getState().page('charges', -5);
    expect(s.getState().tables!.offsets.charges).toBe(0);
    // The SQL ran in the backend: the store sent it requests and holds no database of its own.
    expect(port.posted.map((m) => m.request.op)).toEqual(['open', 'stage', 'adopt', 'page', 'page', 'page']);
    expect(s.getState().engine).toEqual({ thread: 'main', opens: 2 });
    // The next charge continues the big ledger (request id = op_log lines + 1) and keeps the page.
    await s.getState().charge({ account: 'acct-1', cents: 7, key: '' });
    expect(s.getState().lastReply).toMatchObject({ requestId: 1235, reply: { kind: 'executed', result: { receipt: 'charge-1235' } } });
    expect(s.getState().tables!.counts.charges).toBe(1235);
  });

  it('a worker that fails makes every call fail with a message saying so, and the ledger keeps its state', async () => {
    const port = fakeWorker(createLedgerDbHost(SQL));
    const s = createLedgerDbStore(SQL, memory(), { backend: workerLedgerBackend(() => port) });
    await s.getState().init();
    await s.getState().charge({ account: 'a', cents: 5, key: 'k' });
    port.onerror?.({ message: 'Failed to fetch' });
    await s.getState().charge({ account: 'a', cents: 5, key: 'k2' });
    expect(s.getState().error).toBe("SQLite error: the ledger's worker failed: Failed to fetch — reload the page");
    expect(s.getState().tables!.counts.charges).toBe(1);
  });

  it('the host refuses an adopt with nothing staged, naming what to do', () => {
    const host = createLedgerDbHost(SQL);
    host.handle({ op: 'open', bytes: null });
    expect(() => host.handle({ op: 'adopt' })).toThrow('ledger host: adopt with no staged ledger (stage one first)');
  });
});
