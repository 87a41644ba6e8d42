import { useId, useMemo, useState } from 'react';
import { formatMs } from '../../charts/format';
import { compareTimeouts } from '../../sim/resilience/timeouts';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * Timeouts from latency: a static timeout against the dynamic p99 × (1.2 + load factor), capped,
 * over seeded log-normal latencies (median 200 ms) as load grows. The dynamic timeout uses the p99
 * the client observed at the previous load level.
 */
export function TimeoutsPanel() {
  const [staticMs, setStaticMs] = useState(700);
  const [capMs, setCapMs] = useState(5000);
  const id = useId();
  const rows = useMemo(() => compareTimeouts({ seed: 7, n: 4000, medianMs: 200, sigma: 0.5, staticTimeoutMs: staticMs, capMs, loadFactors: [0, 0.5, 1, 2, 4] }), [staticMs, capMs]);
  return (
    <section className="panel" aria-labelledby={`${id}-h`}>
      <h2 id={`${id}-h`}>Timeouts from latency</h2>
      <p className="small muted">
        4 000 seeded calls per load level, log-normal latency with a 200 ms median, stretched by 1 + load. Dynamic timeout = observed p99 × (1.2 + load factor),
        capped. A call slower than its timeout is a timeout the caller then retries — more load.
      </p>
      <div className="button-row">
        <label className="field-inline">
          <span>Static timeout (ms)</span>
          <input type="number" min={1} step={50} value={staticMs} data-testid="static-timeout" onChange={(e) => setStaticMs(Math.max(1, Math.round(Number(e.currentTarget.value)) || 1))} />
        </label>
        <label className="field-inline">
          <span>Cap (ms)</span>
          <input type="number" min={1} step={500} value={capMs} onChange={(e) => setCapMs(Math.max(1, Math.round(Number(e.currentTarget.value)) || 1))} />
        </label>
      </div>
      <table className="timeouts-table">
        <thead>
          <tr>
            <th scope="col">load</th>
            <th scope="col">p50</th>
            <th scope="col">p99</th>
            <th scope="col">static timeouts</th>
            <th scope="col">dynamic timeout</th>
            <th scope="col">dynamic timeouts</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.loadFactor}>
              <td>{r.loadFactor}</td>
              <td>{formatMs(r.p50Ms)} ms</td>
              <td>{formatMs(r.p99Ms)} ms</td>
              <td className={r.staticTimeoutRate > 0.05 ? 'tone-bad' : undefined}>{pct(r.staticTimeoutRate)}</td>
              <td>{formatMs(r.dynamicTimeoutMs)} ms</td>
              <td className={r.dynamicTimeoutRate > 0.05 ? 'tone-bad' : undefined}>{pct(r.dynamicTimeoutRate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
