import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { bytesAtPlayhead } from '../../store/ledgerStore';
import { CONSOLE_BUDGET_MS, CONSOLE_MAX_ROWS, createConsoleRunner, cutRowsText, type ConsoleWorker, type QueryResult } from '../../store/ledgerConsole';
import { useLedgerContext } from './context';
import { RowsTable } from './Tables';

/**
 * Read-only SQL on a copy of the scenario's database at the playhead, or of the learner's ledger,
 * in a worker with a time budget. The worker is started (and SQLite loaded in it) when the panel
 * mounts and kept warm between statements; the section's `data-worker-starts` counts the workers
 * started (read by the browser tests). A worker that cannot start (offline before the site was
 * cached, a redeploy's missing file) says so with a Retry button.
 */
export function ConsolePanel() {
  const { store, db } = useLedgerContext();
  const [sql, setSql] = useState('SELECT key, status, result FROM idempotency');
  const [target, setTarget] = useState<'scenario' | 'mine'>('scenario');
  const [result, setResult] = useState<QueryResult | null>(null);
  const [running, setRunning] = useState(false);
  const runner = useMemo(() => createConsoleRunner({ spawn: () => new Worker(new URL('./console.worker.ts', import.meta.url), { type: 'module' }) as unknown as ConsoleWorker }), []);
  const worker = useSyncExternalStore(runner.subscribe, runner.status);
  useEffect(() => {
    runner.warm();
    return () => runner.dispose();
  }, [runner]);
  const run = async () => {
    if (running) return;
    let bytes: Uint8Array;
    try {
      if (target === 'scenario') bytes = bytesAtPlayhead(store.getState());
      else {
        bytes = db.getState().exportBytes();
        if (bytes.length === 0) return setResult({ ok: false, error: 'your ledger is not loaded' });
      }
    } catch (err) {
      return setResult({ ok: false, error: (err as Error).message });
    }
    setRunning(true);
    setResult(null);
    const r = await runner.run(bytes, sql);
    setRunning(false);
    setResult(r);
    // A statement stopped for its budget took its worker with it: start the next one now, not at the next Run.
    if (runner.status().state === 'idle') runner.warm();
  };
  const workerError = worker.state === 'failed' ? worker.error : null;
  return (
    <section className="panel" aria-labelledby="ledger-console-h" data-testid="console-panel" data-worker-starts={runner.starts()} data-worker-state={worker.state}>
      <h2 id="ledger-console-h">SQL console (read-only)</h2>
      <div className="console-row">
        <label className="field-inline">
          <span>Database</span>
          <select value={target} onChange={(e) => setTarget(e.currentTarget.value as 'scenario' | 'mine')} data-testid="console-target">
            <option value="scenario">scenario, at the playhead</option>
            <option value="mine">my ledger</option>
          </select>
        </label>
        <button type="button" onClick={() => void run()} disabled={running || workerError !== null} data-testid="console-run">
          Run
        </button>
        <button type="button" onClick={() => runner.cancel()} disabled={!running} data-testid="console-stop">
          Stop
        </button>
        {running && (
          <span className="small muted" role="status" data-testid="console-running">
            running… (stopped after {CONSOLE_BUDGET_MS} ms)
          </span>
        )}
      </div>
      <label className="visually-hidden" htmlFor="ledger-sql">
        SQL query
      </label>
      <textarea
        id="ledger-sql"
        className="console-sql mono"
        rows={3}
        value={sql}
        onChange={(e) => setSql(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
            e.preventDefault();
            void run();
          }
        }}
        data-testid="console-sql"
      />
      <p className="help">
        Ctrl+Enter runs. The query runs on a copy, in a background worker: writes are refused (PRAGMA query_only, and PRAGMA writes are not run), a statement that runs longer than{' '}
        {CONSOLE_BUDGET_MS} ms is stopped, at most {CONSOLE_MAX_ROWS} rows are shown, and the ledgers on this page never change.
      </p>
      {workerError && (
        <div className="bad-text console-worker-error" role="alert" data-testid="console-worker-error">
          <span>{workerError}</span>{' '}
          <button type="button" className="small-btn" onClick={() => runner.retry()} data-testid="console-retry">
            Retry
          </button>
        </div>
      )}
      {result && !result.ok && result.error !== workerError && (
        <p className="bad-text" role="alert" data-testid="console-error">
          {result.error}
        </p>
      )}
      {result && result.ok && result.totalRows !== undefined && (
        <p className="small" role="status" data-testid="console-cut">
          {cutRowsText(result.rows.length, result.totalRows)}
        </p>
      )}
      {result && result.ok && <RowsTable caption="result" columns={result.columns} rows={result.rows} testId="console-result" empty="no rows" />}
    </section>
  );
}
