/// <reference lib="webworker" />
import { loadSqlJs } from '../../db/browser';
import { openBytes } from '../../db/sqljs';
import { consoleErrorText, runReadOnly, type ConsoleDatabase, type ConsoleReply, type ConsoleRequest } from '../../store/ledgerConsole';

/**
 * The SQL console's worker: opens a copy of a ledger (file bytes) and runs one read-only
 * statement on it. The page terminates this worker when a statement outlives its budget, so a
 * runaway query (a recursive CTE without LIMIT) never freezes the page or touches its ledgers.
 */
const ctx = self as unknown as DedicatedWorkerGlobalScope;

ctx.onmessage = async (message: MessageEvent<ConsoleRequest>) => {
  const { id, bytes, sql } = message.data;
  const post = (reply: ConsoleReply) => ctx.postMessage(reply);
  let db: ReturnType<typeof openBytes> | null = null;
  try {
    db = openBytes(await loadSqlJs(), bytes);
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
