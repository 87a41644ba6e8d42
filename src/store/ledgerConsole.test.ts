import { beforeAll, describe, expect, it } from 'vitest';
import type { SqlJsStatic } from 'sql.js';
import { loadSqlJsNode } from '../db/node';
import { memoryOpener, openBytes } from '../db/sqljs';
import { createLedger, charge } from '../sim/ledger';
import { CONSOLE_BUDGET_MS, consoleErrorText, createConsoleRunner, outOfMemoryMessage, runReadOnly, tooLongMessage, type ConsoleDatabase, type ConsoleReply, type ConsoleRequest, type ConsoleWorker } from './ledgerConsole';

let SQL: SqlJsStatic;
beforeAll(async () => {
  SQL = await loadSqlJsNode();
});

const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c';

/** A worker stand-in on this thread: runs like console.worker.ts, or (`hang`) announces the start and never answers, like a runaway statement. */
function fakeWorker(mode: 'real' | 'hang', log: string[]): ConsoleWorker {
  const w: ConsoleWorker = {
    onmessage: null,
    onerror: null,
    terminate: () => log.push('terminate'),
    postMessage(m: ConsoleRequest) {
      log.push(`post ${m.id}`);
      const reply = (r: ConsoleReply) => queueMicrotask(() => w.onmessage?.({ data: r }));
      reply({ type: 'started', id: m.id });
      if (mode === 'hang') return;
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
});
