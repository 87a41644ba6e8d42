import { useId, useState } from 'react';
import { formatMs } from '../../charts/format';
import { durableTaskRows } from '../../store/resilienceDurableTask';

/**
 * "A durable task survives the HTTP connection closing" (the lesson; issue 13 item 9): drop the
 * connection before or after the task handle reached the client and see how each revision gets
 * the result back — polling `tasks/get` with the id it holds, listing tasks (2025-11-25 only), or
 * re-issuing the request (2026-07-28: a broken stream loses the request) — and how many times the
 * work runs.
 */
export function DurableTaskPanel() {
  const id = useId();
  const [text, setText] = useState('2000');
  const [dropAtMs, setDropAtMs] = useState(2000);
  const [problem, setProblem] = useState<string | null>(null);
  const rows = durableTaskRows(dropAtMs);
  const apply = (value: string) => {
    setText(value);
    const n = Number(value);
    try {
      durableTaskRows(n);
      setDropAtMs(n);
      setProblem(null);
    } catch (err) {
      setProblem((err as Error).message);
    }
  };
  return (
    <section className="panel" aria-labelledby={`${id}-h`} data-testid="durable-task">
      <h2 id={`${id}-h`}>A durable task when the HTTP connection closes</h2>
      <p className="small">
        Request at 0 ms; the server durably creates the task at 100 ms and its handle reaches the client at 120 ms; the work takes 5 000 ms; the
        client is back 1 000 ms after the drop and polls <code>tasks/get</code> every 1 000 ms. Drop before 120 ms and the client has no id to poll.
      </p>
      <p>
        <label htmlFor={`${id}-drop`}>Connection drops at (ms) </label>
        <input id={`${id}-drop`} className="ms-input" inputMode="numeric" value={text} onChange={(e) => apply(e.target.value)} aria-invalid={problem !== null} data-testid="durable-drop" />{' '}
        <button type="button" className="small-btn" onClick={() => apply('110')}>before the handle (110 ms)</button>{' '}
        <button type="button" className="small-btn" onClick={() => apply('2000')}>after it (2 000 ms)</button>
      </p>
      {problem && <p className="field-error" role="alert">{problem}</p>}
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Durable task runs by revision: what each side holds">
      <table className="sql-table">
        <thead>
          <tr><th scope="col">revision</th><th scope="col">client had the id</th><th scope="col">client knows</th><th scope="col">server has</th><th scope="col">recovered by</th><th scope="col">executions</th><th scope="col">result at</th><th scope="col">broken</th></tr>
        </thead>
        <tbody>
          {rows.map(({ label, result: r, clientKnows, serverHas }) => (
            <tr key={label} data-testid="durable-row">
              <td>{label}</td>
              <td>{r.clientHadHandle ? 'yes' : 'no'}</td>
              <td data-testid="durable-client-knows">{clientKnows}</td>
              <td data-testid="durable-server-has">{serverHas}</td>
              <td><code>{r.recoveredBy}</code>{r.requestLost ? ' (the request was lost)' : ''}</td>
              <td>{r.executions}{r.orphanedTasks ? ` (${r.orphanedTasks} orphaned)` : ''}</td>
              <td>{formatMs(r.resultAtMs)} ms</td>
              <td>{r.violations.length ? <span className="badge badge-bad">{r.violations.join(', ')}</span> : <span className="badge badge-ok">none</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      </div>
    </section>
  );
}
