import { beforeAll, describe, expect, it } from 'vitest';
import type { SqlJsStatic } from 'sql.js';
import { loadSqlJsNode } from '../db/node';
import { memoryOpener, openBytes } from '../db/sqljs';
import { createLedger, charge } from '../sim/ledger';
import { CONSOLE_BUDGET_MS, CONSOLE_LOAD_BUDGET_MS, CONSOLE_MAX_ROWS, consoleErrorText, createConsoleRunner, cutRowsText, outOfMemoryMessage, pragmaWriteError, runReadOnly, tooLongMessage, workerFailedMessage, type ConsoleDatabase, type ConsoleReply, type ConsoleRequest, type ConsoleWorker } from './ledgerConsole';

let SQL: SqlJsStatic;
beforeAll(async () => {
  SQL = await loadSqlJsNode();
});

const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c';

/** A worker stand-in on this thread: runs like console.worker.ts, or (`hang`) announces the start and never answers, like a runaway statement. */
function fakeWorker(modeOrGetter: 'real' | 'hang' | (() => 'real' | 'hang'), log: string[]): ConsoleWorker {
  const w: ConsoleWorker = {
    onmessage: null,
    onerror: null,
    terminate: () => log.push('terminate'),
    postMessage(m: ConsoleRequest) {
      log.push(`post ${m.id}`);
      const reply = (r: ConsoleReply) => queueMicrotask(() => w.onmessage?.({ data: r }));
      reply({ type: 'started', id: m.id });
      if ((typeof modeOrGetter === 'function' ? modeOrGetter() : modeOrGetter) === 'hang') return;
      const db = openBytes(SQL, m.bytes);
      const result = runReadOnly(db as unknown as ConsoleDatabase, m.sql);
      db.close();
      reply({ type: 'result', id: m.id, result });
    },
  };
  return w;
}

/** Timers run by hand: `fire()` runs every pending one. */
function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let n = 0;
  return {
    pending,
    set: (fn: () => void, ms: number) => {
      pending.set(++n, { fn, ms });
      return n;
    },
    clear: (h: unknown) => void pending.delete(h as number),
    fire() {
      const all = [...pending.values()];
      pending.clear();
      for (const t of all) t.fn();
    },
  };
}

function ledgerBytes(): Uint8Array {
  const db = memoryOpener(SQL)();
  createLedger(db);
  charge(db, { requestId: 1, key: 'k1', args: { account: 'acct-1', cents: 500 }, atMs: 0 });
  const bytes = db.export();
  db.close();
  return bytes;
}

describe('ledger SQL console', () => {
  it('answers a query on a copy of the ledger and refuses writes', async () => {
    const log: string[] = [];
    const runner = createConsoleRunner({ spawn: () => fakeWorker('real', log), timers: manualTimers() });
    const bytes = ledgerBytes();
    expect(await runner.run(bytes, 'SELECT receipt, cents FROM charges')).toEqual({ ok: true, columns: ['receipt', 'cents'], rows: [['charge-001', 500]] });
    expect(await runner.run(bytes, 'DELETE FROM charges')).toEqual({ ok: false, error: 'attempt to write a readonly database' });
    // The worker is kept between statements.
    expect(log).toEqual(['post 1', 'post 2']);
  });

  it('stops a runaway recursive query after the budget, terminates the worker and starts a fresh one next time', async () => {
    const log: string[] = [];
    const timers = manualTimers();
    let mode: 'hang' | 'real' = 'hang';
    const runner = createConsoleRunner({ spawn: () => fakeWorker(mode, log), timers });
    const bytes = ledgerBytes();
    const pending = runner.run(bytes, RUNAWAY);
    await Promise.resolve();
    await Promise.resolve();
    // After "started", the only timer is the statement's budget.
    expect([...timers.pending.values()].map((t) => t.ms)).toEqual([CONSOLE_BUDGET_MS]);
    expect(await runner.run(bytes, 'SELECT 1')).toEqual({ ok: false, error: 'a statement is still running: wait for it or press Stop' });
    timers.fire();
    expect(await pending).toEqual({ ok: false, error: `stopped after ${CONSOLE_BUDGET_MS} ms: the statement ran too long or built too much data (a recursive query without LIMIT? a huge blob?)` });
    expect(log).toEqual(['post 1', 'terminate']);
    mode = 'real';
    expect(await runner.run(bytes, 'SELECT count(*) AS n FROM charges')).toEqual({ ok: true, columns: ['n'], rows: [[1]] });
    expect(log).toEqual(['post 1', 'terminate', 'post 2']);
  });

  it('Stop ends the running statement with its own message', async () => {
    const log: string[] = [];
    const runner = createConsoleRunner({ spawn: () => fakeWorker('hang', log), timers: manualTimers() });
    const pending = runner.run(ledgerBytes(), RUNAWAY);
    runner.cancel();
    expect(await pending).toEqual({ ok: false, error: 'stopped by you before it finished' });
    expect(log).toEqual(['post 1', 'terminate']);
  });

  it('an out-of-memory error from sql.js is reported as such, and the statement\'s own error survives a failing cleanup', () => {
    let calls = 0;
    const broken = {
      exec() {
        if (calls++ > 0) throw new Error('Aborted(). Build with -sASSERTIONS for more info.');
      },
      raw: {
        exec(): never {
          throw new Error('out of memory');
        },
        iterateStatements(): never {
          throw new Error('out of memory');
        },
      },
    } as unknown as ConsoleDatabase;
    expect(runReadOnly(broken, 'SELECT randomblob(1000000000)')).toEqual({ ok: false, error: outOfMemoryMessage('out of memory') });
    expect(outOfMemoryMessage('out of memory')).toMatch(/^out of memory: the statement built more data than the console's worker can hold/);
    expect(consoleErrorText(new RangeError('Array buffer allocation failed'))).toBe(outOfMemoryMessage('Array buffer allocation failed'));
    expect(consoleErrorText(new Error('no such table: nope'))).toBe('no such table: nope');
  });

  it('a worker that dies of memory exhaustion is reported as out of memory', async () => {
    let spawned: ConsoleWorker | null = null;
    const runner = createConsoleRunner({
      spawn: () => (spawned = { postMessage() {}, terminate() {}, onmessage: null, onerror: null }),
      timers: manualTimers(),
    });
    const pending = runner.run(ledgerBytes(), 'SELECT 1');
    spawned!.onerror!({ message: 'Uncaught RangeError: Array buffer allocation failed' });
    expect(await pending).toEqual({ ok: false, error: outOfMemoryMessage('Uncaught RangeError: Array buffer allocation failed') });
  });

  it('the message names the budget', () => {
    expect(tooLongMessage(750)).toBe('stopped after 750 ms: the statement ran too long or built too much data (a recursive query without LIMIT? a huge blob?)');
  });

  it('refuses PRAGMA writes, so PRAGMA query_only = 0 cannot make the console writable', () => {
    const file = openBytes(SQL, ledgerBytes());
    const db = file as unknown as ConsoleDatabase;
    const refused = runReadOnly(db, 'PRAGMA query_only = 0; DELETE FROM charges');
    expect(refused).toEqual({ ok: false, error: 'sql: PRAGMA query_only = 0 is a PRAGMA write, refused — the console stays read-only; read a setting without a value, e.g. PRAGMA query_only' });
    // Every spelling of a write: schema-qualified, quoted, with a comment, the call form.
    for (const sql of ['PRAGMA main.query_only=0', 'pragma "query_only" = false', 'PRAGMA /* sneaky */ query_only = OFF', 'PRAGMA query_only(0)', 'SELECT 1; PRAGMA user_version = 7']) {
      const r = runReadOnly(db, sql);
      expect(r.ok, sql).toBe(false);
      expect(!r.ok && r.error, sql).toMatch(/is a PRAGMA write, refused — the console stays read-only/);
    }
    // Nothing was deleted, and the copy is still read-only afterwards.
    expect(runReadOnly(db, 'SELECT count(*) AS n FROM charges')).toEqual({ ok: true, columns: ['n'], rows: [[1]] });
    expect(runReadOnly(db, 'DELETE FROM charges')).toEqual({ ok: false, error: 'attempt to write a readonly database' });
    // Reading a setting and the table lookups stay allowed.
    expect(runReadOnly(db, 'PRAGMA query_only')).toEqual({ ok: true, columns: ['query_only'], rows: [[1]] });
    const info = runReadOnly(db, 'PRAGMA table_info(charges)');
    expect(info.ok && info.columns).toEqual(['cid', 'name', 'type', 'notnull', 'dflt_value', 'pk']);
    expect(pragmaWriteError('PRAGMA index_list(charges)')).toBeNull();
    expect(pragmaWriteError('SELECT 1')).toBeNull();
    file.close();
  });

  it('a result cut to the row limit says how many rows there were', () => {
    const file = openBytes(SQL, ledgerBytes());
    const db = file as unknown as ConsoleDatabase;
    const r = runReadOnly(db, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 1234) SELECT x FROM c');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.rows).toHaveLength(CONSOLE_MAX_ROWS);
    expect(r.rows[CONSOLE_MAX_ROWS - 1]).toEqual([CONSOLE_MAX_ROWS]);
    expect(r.totalRows).toBe(1234);
    expect(cutRowsText(r.rows.length, r.totalRows!)).toBe('showing 200 of 1,234 rows — add a WHERE or LIMIT to see the others');
    // Exactly the limit is not a cut.
    expect(runReadOnly(db, 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 200) SELECT x FROM c')).not.toHaveProperty('totalRows');
    // The last statement that returned rows is the result, as with sql.js exec.
    expect(runReadOnly(db, 'SELECT 1 AS a; SELECT 2 AS b WHERE 0')).toEqual({ ok: true, columns: ['a'], rows: [[1]] });
    file.close();
  });

  it('keeps one warm worker for every statement: warm() starts it ahead of the first Run, and only a stopped statement costs a new one', async () => {
    const log: string[] = [];
    const timers = manualTimers();
    let mode: 'hang' | 'real' = 'real';
    const runner = createConsoleRunner({ spawn: () => fakeWorker(() => mode, log), timers });
    expect(runner.starts()).toBe(0);
    runner.warm();
    runner.warm();
    expect(runner.starts()).toBe(1);
    const bytes = ledgerBytes();
    for (let i = 0; i < 5; i++) expect(await runner.run(bytes, 'SELECT 1+1 AS two')).toEqual({ ok: true, columns: ['two'], rows: [[2]] });
    expect(runner.starts()).toBe(1);
    expect(runner.status()).toEqual({ state: 'ready' });
    mode = 'hang';
    runner.cancel();
    const stuck = runner.run(bytes, RUNAWAY);
    await Promise.resolve();
    timers.fire();
    expect((await stuck).ok).toBe(false);
    expect(runner.status()).toEqual({ state: 'idle' });
    mode = 'real';
    runner.warm();
    expect(runner.starts()).toBe(2);
    expect(await runner.run(bytes, 'SELECT 1+1 AS two')).toEqual({ ok: true, columns: ['two'], rows: [[2]] });
    expect(runner.starts()).toBe(2);
  });

  it('a worker that fails to start says so and starts again on retry()', async () => {
    const workers: ConsoleWorker[] = [];
    let broken = true;
    const log: string[] = [];
    const runner = createConsoleRunner({
      spawn: () => {
        const w: ConsoleWorker = broken ? { postMessage() {}, terminate: () => log.push('terminate broken'), onmessage: null, onerror: null } : fakeWorker('real', log);
        workers.push(w);
        return w;
      },
      timers: manualTimers(),
    });
    const seen: string[] = [];
    runner.subscribe(() => seen.push(runner.status().state));
    runner.warm();
    const pending = runner.run(ledgerBytes(), 'SELECT 1');
    // The script 404s (offline, or a redeploy): the Worker's error event has no message.
    workers[0].onerror!({});
    const failed = workerFailedMessage('its script did not load');
    expect(failed).toBe("SQL console: its worker did not start (its script did not load) — check the connection, then press Retry");
    expect(await pending).toEqual({ ok: false, error: failed });
    expect(runner.status()).toEqual({ state: 'failed', error: failed });
    expect(log).toEqual(['terminate broken']);
    broken = false;
    runner.retry();
    expect(runner.starts()).toBe(2);
    expect(await runner.run(ledgerBytes(), 'SELECT 1 AS one')).toEqual({ ok: true, columns: ['one'], rows: [[1]] });
    expect(seen).toEqual(['starting', 'failed', 'starting', 'ready']);
  });

  it('SQLite failing to load in the worker, or never answering, is a failed start too', async () => {
    const timers = manualTimers();
    let w: ConsoleWorker | null = null;
    const runner = createConsoleRunner({ spawn: () => (w = { postMessage() {}, terminate() {}, onmessage: null, onerror: null }), timers });
    runner.warm();
    w!.onmessage!({ data: { type: 'failed', error: 'wasm streaming compile failed: Failed to fetch' } });
    expect(runner.status()).toEqual({ state: 'failed', error: workerFailedMessage('wasm streaming compile failed: Failed to fetch') });
    runner.retry();
    expect([...timers.pending.values()].map((t) => t.ms)).toEqual([CONSOLE_LOAD_BUDGET_MS]);
    timers.fire();
    expect(runner.status()).toEqual({ state: 'failed', error: workerFailedMessage(`SQLite did not start within ${CONSOLE_LOAD_BUDGET_MS} ms`) });
  });
});
