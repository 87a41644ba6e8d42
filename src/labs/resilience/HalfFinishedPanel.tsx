import { useId, useState } from 'react';
import { formatMs } from '../../charts/format';
import { halfFinished } from '../../store/resilienceHalfFinished';

const CAUSE: Record<string, string> = { original: 'the original request', 'upstream-requeue': 're-queued by the upstream', 'client-retry': 'the client\'s retry' };

/**
 * The postmortem's half-finished result (issue 13 item 5): a cut at 73 %, a silent re-queue and a
 * retry in the same millisecond, and the two fixes it lists, each a switch.
 */
export function HalfFinishedPanel() {
  const id = useId();
  const [priorityCancelChannel, setPriority] = useState(false);
  const [gatewayFingerprint, setFingerprint] = useState(false);
  const r = halfFinished({ priorityCancelChannel, gatewayFingerprint });
  const round = (ms: number) => formatMs(Math.round(ms));
  return (
    <section className="panel" aria-labelledby={`${id}-h`} data-testid="half-finished">
      <h2 id={`${id}-h`}>The half-finished result (postmortem)</h2>
      <p className="small">
        The user stops at 8 000 ms. The cancel needs 320 ms to cross the whole chain (client → MCP server → upstream API → model cluster). The
        MCP server cuts the upstream with 73 % of the response transferred; the upstream silently re-queues the request, and the client retries in
        the same millisecond.
      </p>
      <p>
        <label className="field-inline"><input type="checkbox" checked={priorityCancelChannel} onChange={(e) => setPriority(e.target.checked)} data-testid="half-priority" /> fix: a priority channel for cancel signals</label>{' '}
        <label className="field-inline"><input type="checkbox" checked={gatewayFingerprint} onChange={(e) => setFingerprint(e.target.checked)} data-testid="half-fingerprint" /> fix: a request fingerprint at the gateway</label>
      </p>
      <p data-testid="half-verdict">
        The user is left with: <strong>{r.clientSees}</strong> · {r.executions.length} execution{r.executions.length === 1 ? '' : 's'}, {r.executionsAfterCancel} started after the cancel ·{' '}
        {r.violations.length ? <span className="badge badge-bad">{r.violations.join(', ')}</span> : <span className="badge badge-ok">nothing broken</span>}
      </p>
      <div className="table-wrap">
        <table className="sql-table">
          <thead><tr><th scope="col">execution</th><th scope="col">started at</th><th scope="col">stopped at</th></tr></thead>
          <tbody>
            {r.executions.map((e) => (
              <tr key={e.id} data-testid="half-execution">
                <td>{e.id}: {CAUSE[e.cause] ?? e.cause}</td>
                <td>{round(e.startAtMs)} ms</td>
                <td>{e.stoppedAtMs === null ? 'never (runs unseen)' : `${round(e.stoppedAtMs)} ms${e.transferredFraction !== null ? `, ${Math.round(e.transferredFraction * 100)} % transferred` : ''}`}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ol className="small">
        {r.timeline.map((t, i) => (
          <li key={i}>{round(t.atMs)} ms · {t.node}: {t.what}</li>
        ))}
      </ol>
    </section>
  );
}
