/// <reference lib="webworker" />
// A Web Worker entry file: it runs the engine's database code itself (the one exception to the labs' layering rule).
import { loadSqlJs } from '../../db/browser';
import { openBytes } from '../../db/sqljs';
import { consoleErrorText, runReadOnly, type ConsoleDatabase, type ConsoleReply, type ConsoleRequest } from '../../store/ledgerConsole';

/**
 * The SQL console's worker: loads SQLite once when it starts (posting `ready`, or `failed` with
 * the reason), then for each request opens a copy of a ledger (file bytes) and runs one read-only
 * statement on it. The page keeps this worker warm between statements and terminates it when a
 * statement outlives its budget, so a runaway query (a recursive CTE without LIMIT) never freezes
 * the page or touches its ledgers.
 */
const ctx = self as unknown as DedicatedWorkerGlobalScope;
const post = (reply: ConsoleReply) => ctx.postMessage(reply);
const sqlite = loadSqlJs();
sqlite.then(
  () => post({ type: 'ready' }),
  (err: unknown) => post({ type: 'failed', error: `SQLite did not load: ${consoleErrorText(err)}` }),
);

ctx.onmessage = async (message: MessageEvent<ConsoleRequest>) => {
  const { id, bytes, sql } = message.data;
  let db: ReturnType<typeof openBytes> | null = null;
  try {
    db = openBytes(await sqlite, bytes);
  } catch (err) {
    post({ type: 'started', id });
    post({ type: 'result', id, result: { ok: false, error: consoleErrorText(err) } });
    return;
  }
  post({ type: 'started', id });
  const result = runReadOnly(db as unknown as ConsoleDatabase, sql);
  try {
    db.close();
  } catch {
    // sql.js may be unusable after an out-of-memory abort; the result already says so.
  }
  try {
    post({ type: 'result', id, result });
  } catch (err) {
    // Copying a huge result to the page can itself run out of memory.
    post({ type: 'result', id, result: { ok: false, error: consoleErrorText(err) } });
  }
};
