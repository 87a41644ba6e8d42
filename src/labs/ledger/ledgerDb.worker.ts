/// <reference lib="webworker" />
// A Web Worker entry file: it runs the engine's database code itself (the one exception to the labs' layering rule).
import { loadSqlJs } from '../../db/browser';
import { createLedgerDbHost, type LedgerDbWorkerReply, type LedgerDbWorkerRequest } from '../../store/ledgerDbHost';

/**
 * The learner's ledger worker: SQLite (sql.js) loads here, and every SQL statement on the
 * learner's ledger runs here — restoring the saved file, charging, checking and opening an
 * upload, counting and paging its tables — so a 100,000-charge file never blocks the page.
 * Requests are answered one at a time, in order; file bytes in replies are transferred.
 */
const ctx = self as unknown as DedicatedWorkerGlobalScope;
const host = loadSqlJs().then((SQL) => createLedgerDbHost(SQL));
let queue: Promise<void> = Promise.resolve();

ctx.onmessage = (message: MessageEvent<LedgerDbWorkerRequest>) => {
  const { id, request } = message.data;
  queue = queue.then(async () => {
    let out: LedgerDbWorkerReply;
    try {
      out = { id, ok: true, reply: (await host).handle(request) };
    } catch (err) {
      out = { id, ok: false, error: err instanceof Error ? err.message : String(err) };
    }
    const reply = out.ok ? (out.reply as { bytes?: unknown }) : null;
    const bytes = reply && reply.bytes instanceof Uint8Array ? [reply.bytes.buffer] : [];
    ctx.postMessage(out, bytes as Transferable[]);
  });
};
