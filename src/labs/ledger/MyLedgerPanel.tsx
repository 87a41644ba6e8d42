import { useState } from 'react';
import { useLedgerContext } from './context';
import { Pager, RowsTable } from './Tables';
import { downloadFile } from '../common/download';
import { useFields } from '../common/useFields';
import { MAX_CHARGE_CENTS } from '../../store/ledgerStore';
import { LEDGER_PAGE_ROWS, type LedgerPagedTable } from '../../store/ledgerDbHost';

/** The learner's own persistent ledger: charge, download, upload, reset. */
export function MyLedgerPanel() {
  const { db } = useLedgerContext();
  const { tables, lastReply, notice, error, engine } = useFields(db, 'tables', 'lastReply', 'notice', 'error', 'engine');
  const [account, setAccount] = useState('acct-1');
  const [cents, setCents] = useState('500');
  const [key, setKey] = useState('order-1');
  const a = db.getState;

  const download = () => downloadFile('ledger.sqlite', a().exportBytes() as BlobPart, 'application/vnd.sqlite3');
  const upload = async (file: File | undefined) => {
    if (!file) return;
    await a().upload(new Uint8Array(await file.arrayBuffer()), file.name);
  };

  return (
    <section className="panel" aria-labelledby="my-ledger-h">
      <h2 id="my-ledger-h">My ledger (saved in this browser)</h2>
      <p className="small muted">
        Call <code>charge(account, cents)</code> yourself. Send twice with the same key: the second call replays. Clear the key: every send charges. It survives a reload. Amounts are whole cents, from 1 to {MAX_CHARGE_CENTS.toLocaleString('en-US')} (this lab's cap for one charge).
      </p>
      <form
        className="charge-form"
        onSubmit={(e) => {
          e.preventDefault();
          void a().charge({ account, cents, key });
        }}
      >
        <label>
          account <input type="text" value={account} onChange={(e) => setAccount(e.currentTarget.value)} data-testid="my-account" />
        </label>
        <label>
          cents <input type="number" value={cents} onChange={(e) => setCents(e.currentTarget.value)} data-testid="my-cents" />
        </label>
        <label>
          idempotency key <input type="text" value={key} onChange={(e) => setKey(e.currentTarget.value)} data-testid="my-key" placeholder="(none)" />
        </label>
        <button type="submit" data-testid="my-send">
          Send charge
        </button>
      </form>
      {lastReply && (
        <p data-testid="my-reply" aria-live="polite">
          Request {lastReply.requestId}:{' '}
          {lastReply.reply.kind === 'executed' || lastReply.reply.kind === 'replayed' ? (
            <>
              <span className={`badge ${lastReply.reply.kind === 'executed' ? 'badge-ok' : 'badge-info'}`}>{lastReply.reply.kind}</span> {lastReply.reply.result.receipt} (request{' '}
              {JSON.stringify(lastReply.reply.result.requestId)})
            </>
          ) : (
            <>
              <span className="badge badge-bad">{lastReply.reply.kind}</span> {lastReply.reply.message}
            </>
          )}
        </p>
      )}
      {notice && (
        <p className="small" role="status" data-testid="my-notice">
          {notice}
        </p>
      )}
      {error && (
        <p className="bad-text" role="alert" data-testid="my-error">
          {error}
        </p>
      )}
      <div className="button-row">
        <button type="button" onClick={download} data-testid="my-download">
          Download ledger.sqlite
        </button>
        <label className="file-label">
          Upload a .sqlite…
          <input type="file" accept=".sqlite,.db,.sqlite3,application/vnd.sqlite3,application/octet-stream" className="visually-hidden-file" data-testid="my-upload" onChange={(e) => void upload(e.currentTarget.files?.[0])} />
        </label>
        <button type="button" onClick={() => void a().reset()} data-testid="my-reset">
          Reset ledger
        </button>
      </div>
      {engine && (
        <p className="small muted" data-testid="my-engine" data-thread={engine.thread} data-opens={engine.opens}>
          {engine.thread === 'worker' ? 'SQLite runs in a background worker' : 'SQLite runs on this page\'s thread'}: it opened {engine.opens} database{engine.opens === 1 ? '' : 's'} there; the tables show {LEDGER_PAGE_ROWS} rows a page, counted by SQL.
        </p>
      )}
      {tables && (
        <div className="tables-grid">
          {(
            [
              ['charges', ['receipt', 'account', 'cents', 'request_id', 'key']],
              ['idempotency', ['key', 'status', 'result']],
            ] as [LedgerPagedTable, string[]][]
          ).map(([table, columns]) => (
            <div key={table}>
              <RowsTable caption={table} testId={`my-${table}`} columns={columns} rows={tables[table]} total={tables.counts[table]} />
              <Pager offset={tables.offsets[table]} shown={tables[table].length} total={tables.counts[table]} pageRows={LEDGER_PAGE_ROWS} testId={`my-${table}-pager`} onPage={(offset) => void a().page(table, offset)} />
            </div>
          ))}
        </div>
      )}
    </section>
  );
}
