import { InvariantList } from '../common/InvariantsPanel';
import { Fragment, useMemo } from 'react';
import {
  checkLedgerExpectation,
  classifyRetry,
  selectStateAt,
  selectStepIndex,
} from '../../store/ledgerStore';
import { ledgerFailingCases } from '../../store/ledgerFailingCases';
import { useLedger, useLedgerContext } from './context';
import type { Json } from '../../sim/types';
import { RowsTable } from './Tables';

export { ConsolePanel } from './ConsolePanel';
export { PracticePanel } from './PracticePanel';

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
            {(['A', 'B'] as const).map((conn) => (
              <Fragment key={conn}>
                <dt>Connection {conn}</dt>
                <dd>
                  <span className={`badge ${REPLY_BADGE[m[`conn${conn}`]]}`} data-testid={`conn-${conn}-reply`}>
                    {m[`conn${conn}`]}
                  </span>
                </dd>
              </Fragment>
            ))}
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
      <InvariantList />
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
  const outcome = useLedger((s) => s.trace.outcome);
  const failing = useMemo(() => ledgerFailingCases(outcome), [outcome]);
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
      {failing.length > 0 && (
        <>
          <h3 className="subhead">Failed calls, by origin</h3>
          <ul className="classify-list" data-testid="failing-origins">
            {failing.map((f) => (
              <li key={JSON.stringify(f.requestId)}>
                <span className={`badge ${f.classification.verdict === 'SAFE' ? 'badge-ok' : f.classification.verdict === 'CONDITIONAL' ? 'badge-warn' : 'badge-bad'}`}>{f.classification.verdict}</span>{' '}
                <span className="mono small">
                  id {JSON.stringify(f.requestId)} {f.client}
                </span>{' '}
                — origin: <span data-testid="failing-origin">{f.originWord ?? 'none of the five (tool error)'}</span>
                <div className="small muted">{f.classification.reason}</div>
              </li>
            ))}
          </ul>
        </>
      )}
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
            <li key={e.label} data-testid="lesson-row" data-index={i} data-met={met ? 'yes' : 'no'}>
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
