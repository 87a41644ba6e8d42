import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import {
  bytesAtPlayhead,
  checkLedgerExpectation,
  classifyRetry,
  INVENTORY_BUG_TEXT,
  INVENTORY_BUGS,
  LEDGER_TIE_RULE,
  practiceOpener,
  PRACTICE_CHECKS,
  selectStateAt,
  selectStepIndex,
  type InventoryVariant,
  type PracticeCheck,
} from '../../store/ledgerStore';
import { CONSOLE_BUDGET_MS, CONSOLE_MAX_ROWS, createConsoleRunner, cutRowsText, type ConsoleWorker, type QueryResult } from '../../store/ledgerConsole';
import { useLedger, useLedgerContext } from './context';
import type { Json } from '../../sim/types';
import { RowsTable } from './Tables';

/** What happened at the playhead, in words. */
export function NowPanel() {
  const steps = useLedger((s) => s.trace.steps);
  const index = useLedger(selectStepIndex);
  const cursorMs = useLedger((s) => s.cursorMs);
  // The latest moment at or before the playhead where something happened, all its notes.
  const here = useMemo(() => {
    let i = index;
    while (i >= 0 && steps[i].why === '') i--;
    if (i < 0) return [];
    const at = steps[i].at;
    return steps.filter((s) => s.at === at && s.why !== '');
  }, [steps, index]);
  return (
    <section className="panel now" aria-labelledby="ledger-now-h" aria-live="polite">
      <h2 id="ledger-now-h">Now · t = {Math.floor(cursorMs)} ms</h2>
      {here.length === 0 ? (
        <p className="muted">Nothing has happened yet. Step forward (→) or drag the playhead.</p>
      ) : (
        <ul className="now-steps" data-testid="now-steps">
          {here.map((s) => (
            <li key={s.index}>
              <p className="now-why-minor">
                <span className="badge badge-muted">{s.at} ms</span> {s.why}
              </p>
              {s.violations.map((v) => (
                <p key={v.invariant} className="bad-text small">
                  ✗ {v.invariant}: {v.message}
                </p>
              ))}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The ledger's SQL tables as they are at the playhead. */
export function TablesPanel() {
  const state = useLedger(selectStateAt);
  const t = state.tables;
  return (
    <section className="panel" aria-labelledby="ledger-tables-h">
      <h2 id="ledger-tables-h">
        SQL tables at the playhead <span className="badge badge-info" data-testid="executions-now">executions = {t.executions}</span>
      </h2>
      <div className="tables-grid">
        <RowsTable caption="charges (the side effect)" testId="table-charges" columns={['receipt', 'account', 'cents', 'request_id', 'key']} rows={t.charges} />
        <RowsTable caption="idempotency (key records)" testId="table-idempotency" columns={['key', 'status', 'result', 'request_id']} rows={t.idempotency} />
      </div>
      <details>
        <summary>op_log ({t.log.length} rows)</summary>
        <RowsTable caption="op_log" columns={['seq', 'at_ms', 'actor', 'op', 'detail']} rows={t.log} />
      </details>
    </section>
  );
}

const REPLY_BADGE: Record<string, string> = { executed: 'badge-ok', replayed: 'badge-info', 'in-use': 'badge-warn', busy: 'badge-warn', constraint: 'badge-bad', pending: 'badge-pending', mismatch: 'badge-bad', invalid: 'badge-bad' };

/** The trace's outcome and invariants (end of the scenario). */
export function OutcomePanel() {
  const outcome = useLedger((s) => s.trace.outcome);
  const invariants = useLedger((s) => s.trace.invariants);
  const hasSteps = useLedger((s) => s.scenario.events.some((e) => e.actor === 'db'));
  const m = outcome.summary;
  return (
    <section className="panel" aria-labelledby="ledger-outcome-h">
      <h2 id="ledger-outcome-h">Outcome</h2>
      <dl className="outcome-list">
        <dt>Executions</dt>
        <dd>
          <span className={`badge ${m.executions > 1 && m.doubleExecuted > 0 ? 'badge-bad' : 'badge-ok'}`} data-testid="outcome-executions">
            {m.executions}
          </span>
        </dd>
        <dt>Key records</dt>
        <dd data-testid="outcome-records">{m.records}</dd>
        <dt>Receipts</dt>
        <dd className="mono small">{m.receipts.join(', ') || '—'}</dd>
        {hasSteps && (
          <>
            <dt>Connection A</dt>
            <dd>
              <span className={`badge ${REPLY_BADGE[m.connA]}`} data-testid="conn-A-reply">
                {m.connA}
              </span>
            </dd>
            <dt>Connection B</dt>
            <dd>
              <span className={`badge ${REPLY_BADGE[m.connB]}`} data-testid="conn-B-reply">
                {m.connB}
              </span>
            </dd>
          </>
        )}
      </dl>
      {outcome.calls.length > 0 && (
        <table className="sql-table">
          <caption>Calls</caption>
          <thead>
            <tr>
              <th scope="col">id</th>
              <th scope="col">key</th>
              <th scope="col">server</th>
              <th scope="col">client</th>
            </tr>
          </thead>
          <tbody>
            {outcome.calls.map((c) => (
              <tr key={c.key} data-testid={`call-${c.key}`}>
                <td className="mono">{c.key}</td>
                <td className="mono">{c.idempotencyKey ?? '—'}</td>
                <td>
                  <span className={`badge ${REPLY_BADGE[c.reply ?? 'pending']}`}>{c.reply ?? 'running'}</span> {c.receipt ?? ''}
                  {c.reply === 'replayed' ? ` of id ${JSON.stringify(c.resultRequestId)}` : ''}
                </td>
                <td>{c.client}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h3>Invariants</h3>
      <ul className="invariants">
        {invariants.map((i) => (
          <li key={i.name} data-testid={`invariant-${i.name}`} data-status={i.firstViolation ? 'violated' : 'holds'}>
            <span className={`badge ${i.firstViolation ? 'badge-bad' : 'badge-ok'}`}>{i.firstViolation ? 'violated' : 'holds'}</span> <strong>{i.name}</strong>
            <span className="small muted"> — {i.description}</span>
            {i.firstViolation && (
              <div className="small bad-text">
                at {i.firstViolation.at} ms: {i.firstViolation.message}
              </div>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Each connection's state at the playhead. */
export function ConnectionsPanel() {
  const state = useLedger(selectStateAt);
  return (
    <section className="panel" aria-labelledby="ledger-conns-h">
      <h2 id="ledger-conns-h">Connections at the playhead</h2>
      <p className="small muted">Write lock: {state.writer ? `held by ${state.writer}` : 'free'} · commits so far: {state.version}</p>
      {(['A', 'B'] as const).map((id) => {
        const c = state.conns[id];
        return (
          <div key={id} className="conn-card" data-testid={`conn-${id}`}>
            <strong>Connection {id}</strong> <span className="badge badge-muted">{c.phase}</span> <span className={`badge ${REPLY_BADGE[c.reply]}`}>{c.reply}</span>
            <div className="small">
              read saw: {c.saw ?? '—'} · uncommitted: {c.pending.length ? c.pending.join(', ') : 'nothing'}
              {c.backlog.length ? ` · held: ${c.backlog.join(', ')}` : ''}
              {c.error ? <span className="bad-text"> · {c.error}</span> : null}
            </div>
          </div>
        );
      })}
    </section>
  );
}

/** SAFE / CONDITIONAL / UNSAFE per operation of the scenario, from the shared classifier. */
export function ClassificationPanel() {
  const scenario = useLedger((s) => s.scenario);
  const rows = useMemo(() => {
    const out: { op: string; sideEffect: boolean; key: string | null; sameArguments: boolean }[] = [{ op: 'get_balance(acct-1) — read only', sideEffect: false, key: null, sameArguments: true }];
    const first = new Map<string, string>();
    for (const e of scenario.events) {
      if (e.actor !== 'client' || e.kind !== 'call') continue;
      const key = typeof e.key === 'string' ? e.key : null;
      const args = `${String(e.account)}/${String(e.cents)}`;
      const prev = key === null ? undefined : first.get(key);
      if (key !== null && prev === undefined) first.set(key, args);
      out.push({ op: `charge(${String(e.account)}, ${String(e.cents)}) id ${JSON.stringify(e.requestId)}${key !== null ? ` key "${key}"` : ' no key'}`, sideEffect: true, key, sameArguments: prev === undefined || prev === args });
    }
    if (scenario.events.some((e) => e.actor === 'db')) {
      const race = (scenario.config as { race: { key: string; account: string; cents: number } }).race;
      out.push({ op: `charge(${race.account}, ${race.cents}) on A and B, key "${race.key}"`, sideEffect: true, key: race.key, sameArguments: true });
    }
    out.push({ op: 'charge(acct-1, 500) with key "" (empty)', sideEffect: true, key: '', sameArguments: true });
    return out.map((r) => ({ ...r, verdict: classifyRetry({ sideEffect: r.sideEffect, idempotencyKey: r.key, sameArguments: r.sameArguments }) }));
  }, [scenario]);
  return (
    <section className="panel" aria-labelledby="ledger-classify-h">
      <h2 id="ledger-classify-h">May it be retried?</h2>
      <ul className="classify-list" data-testid="classification">
        {rows.map((r) => (
          <li key={r.op}>
            <span className={`badge ${r.verdict.verdict === 'SAFE' ? 'badge-ok' : r.verdict.verdict === 'CONDITIONAL' ? 'badge-warn' : 'badge-bad'}`}>{r.verdict.verdict}</span>{' '}
            <span className="mono small">{r.op}</span>
            <div className="small muted">{r.verdict.reason}</div>
          </li>
        ))}
      </ul>
    </section>
  );
}

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
        const live = db.getState().database();
        if (!live) return setResult({ ok: false, error: 'your ledger is not loaded' });
        bytes = live.export();
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

/** The practice lab: reserve_inventory's ten requirements, checked live on sql.js. */
export function PracticePanel() {
  const { SQL } = useLedgerContext();
  const [variant, setVariant] = useState<InventoryVariant>('correct');
  const [results, setResults] = useState<{ check: PracticeCheck; ok: boolean; detail: string }[] | null>(null);
  const run = () => {
    const open = practiceOpener(SQL);
    setResults(PRACTICE_CHECKS.map((check) => ({ check, ...check.run(open, variant) })));
  };
  return (
    <section className="panel" aria-labelledby="ledger-practice-h">
      <h2 id="ledger-practice-h">Practice: reserve_inventory</h2>
      <p className="small">
        The lesson's practice tool reserves <code>quantity</code> of a <code>sku</code> for a <code>tenant</code>. Its idempotency key is bound to all four (with the operation
        name) by the fingerprint; the key is claimed with one <code>INSERT … ON CONFLICT(key) DO NOTHING RETURNING</code>. Run the ten checks on real SQLite:
      </p>
      <div className="practice-controls">
        <label>
          Tool under test{' '}
          <select
            value={variant}
            data-testid="practice-variant"
            onChange={(e) => {
              setVariant(e.target.value as InventoryVariant);
              setResults(null);
            }}
          >
            <option value="correct">the lesson's tool</option>
            <option value="naive">naive (every bug below)</option>
            {INVENTORY_BUGS.map((bug) => (
              <option key={bug} value={bug}>
                one bug: {INVENTORY_BUG_TEXT[bug]}
              </option>
            ))}
          </select>
        </label>{' '}
        <button type="button" onClick={run} data-testid="practice-run">
          Run the ten checks
        </button>
      </div>
      <ol className="practice-list">
        {PRACTICE_CHECKS.map((c, i) => {
          const r = results?.[i];
          return (
            <li key={c.id} data-testid={`practice-${c.id}`} data-status={r ? (r.ok ? 'pass' : 'fail') : 'not-run'}>
              {r && <span className={`badge ${r.ok ? 'badge-ok' : 'badge-bad'}`}>{r.ok ? 'pass' : 'fail'}</span>} {c.requirement}
              {r && <div className="small muted">{r.detail}</div>}
            </li>
          );
        })}
      </ol>
      <h3>When the inventory lives in another service</h3>
      <p className="small">
        A local transaction cannot include a remote call. Either pass <strong>the same idempotency key upstream</strong> (the inventory service deduplicates it too, so a retry
        of the whole tool replays there as well), or write the reservation request into an <strong>outbox</strong> table in the same SQLite transaction that claims the key,
        and let a relay deliver it with that key until the service acknowledges — at least once, deduplicated by key at the far end.
      </p>
    </section>
  );
}

/** The JSON-RPC messages on the wire up to the playhead (tools/call requests and their results). */
export function WirePanel() {
  const effects = useLedger((s) => s.trace.effects);
  const cursorMs = useLedger((s) => s.cursorMs);
  const shown = effects.filter((e) => e.at <= cursorMs && e.message !== undefined);
  if (effects.length === 0) return null;
  return (
    <section className="panel" aria-labelledby="ledger-wire-h">
      <h2 id="ledger-wire-h">Wire up to the playhead ({shown.length} message{shown.length === 1 ? '' : 's'})</h2>
      <p className="small muted">Each retry is a new JSON-RPC id; only the idempotency key in the arguments can tell the server it is the same operation.</p>
      <ol className="wire-list" data-testid="wire-list">
        {shown.map((e, i) => (
          <li key={i}>
            <details>
              <summary>
                <span className="badge badge-muted">{e.at} ms</span> {e.from === 'client' ? 'client → server' : 'server → client'}: {wireSummary(e.message)}
                {e.from === 'server' && e.arrivesAt === undefined ? <span className="bad-text"> (lost: the client had given up)</span> : null}
              </summary>
              <pre className="wire-json">{JSON.stringify(e.message, null, 2)}</pre>
            </details>
          </li>
        ))}
      </ol>
    </section>
  );
}

function wireSummary(message: unknown): string {
  const m = message as { id?: unknown; method?: string; params?: { arguments?: Record<string, unknown> }; result?: { isError?: boolean; content?: { text?: string }[] } };
  if (m.method) {
    const args = m.params?.arguments ?? {};
    return `${m.method} id ${JSON.stringify(m.id)} charge(${String(args.account)}, ${String(args.cents)})${args.idempotencyKey !== undefined ? ` key "${String(args.idempotencyKey)}"` : ' no key'}`;
  }
  return `result for id ${JSON.stringify(m.id)}${m.result?.isError ? ' (isError)' : ''}: ${m.result?.content?.[0]?.text ?? ''}`;
}

/** The lesson's expected outcomes for this scenario: apply each one's settings, see whether the trace meets it. */
export function LessonPanel() {
  const { store } = useLedgerContext();
  const scenario = useLedger((s) => s.scenario);
  const trace = useLedger((s) => s.trace);
  const original = useLedger((s) => s.original);
  const expectations = original.expect ?? [];
  if (expectations.length === 0) return null;
  const sameEvents = JSON.stringify(scenario.events) === JSON.stringify(original.events);
  return (
    <section className="panel" aria-labelledby="ledger-lesson-h">
      <h2 id="ledger-lesson-h">The lesson says</h2>
      {!sameEvents && <p className="small muted">You moved events: the checks below are for the lesson's order (Reset scenario restores it).</p>}
      <ul className="classify-list">
        {expectations.map((e, i) => {
          const met = sameEvents && checkLedgerExpectation(trace, e).length === 0 && configMatches(scenario.config as Record<string, Json>, e.overrides as Record<string, Json> | undefined);
          return (
            <li key={e.label} data-testid={`lesson-${i}`} data-met={met ? 'yes' : 'no'}>
              <button type="button" onClick={() => store.getState().setConfig({ ...(original.config as Record<string, Json>), ...((e.overrides as Record<string, Json>) ?? {}) })}>
                Apply
              </button>{' '}
              {met && <span className="badge badge-ok">✓ now</span>} {e.label}
              {e.violates && e.violates.length > 0 && <div className="small bad-text">breaks {e.violates.join(', ')}</div>}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function configMatches(config: Record<string, Json>, overrides: Record<string, Json> | undefined): boolean {
  return Object.entries(overrides ?? {}).every(([k, v]) => JSON.stringify(config[k]) === JSON.stringify(v));
}

/** The tie rule: what runs first when two things happen in the same millisecond. */
export function TieRulePanel() {
  return (
    <section className="panel" aria-labelledby="ledger-tie-h">
      <h2 id="ledger-tie-h">Same millisecond: who goes first</h2>
      <ol className="small tie-list">
        {LEDGER_TIE_RULE.map((r) => (
          <li key={r.rank}>
            <strong>{r.name}</strong> — {r.why}
          </li>
        ))}
      </ol>
    </section>
  );
}
