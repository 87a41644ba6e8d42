import { useId, useMemo } from 'react';
import { formatMs } from '../../charts/format';
import { compareTimeouts, selectTimeouts } from '../../store/resilienceStore';
import { useR, useResilienceStore } from './context';
import { parseMsSetting } from './msInput';
import { ColumnHeads } from '../common/ColumnHeads';

/** Largest static timeout or cap the panel accepts (10 minutes). */
const MAX_MS = 600_000;

/**
 * A millisecond setting typed in a number box, committed on Enter or leaving the box. A bad value
 * is refused with the error banner (field and range named); the previous value is kept and shown.
 * A good value clears that banner (its cause is fixed), and a change is undoable like every edit.
 */
function MsInput({ label, value, step, testId, onChange }: { label: string; value: number; step: number; testId: string; onChange(v: number): void }) {
  const store = useResilienceStore();
  const commit = (input: HTMLInputElement) => {
    const r = parseMsSetting(input.value, label, 1, MAX_MS);
    if (r.ok) {
      if (r.value !== value) onChange(r.value);
      else if (store.getState().error?.errors.some((e) => e.startsWith(`${label}:`))) store.getState().clearError();
      return;
    }
    store.getState().setError({ title: 'That setting is not valid; the previous settings are kept', errors: [r.error] });
    input.value = String(value);
  };
  return (
    <label className="field-inline">
      <span>{label}</span>
      <input
        key={value}
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_MS}
        step={step}
        defaultValue={value}
        data-testid={testId}
        onBlur={(e) => {
          if (e.currentTarget.value !== String(value)) commit(e.currentTarget);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') commit(e.currentTarget);
        }}
      />
    </label>
  );
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

/**
 * Timeouts from latency: a static timeout against the dynamic p99 × (1.2 + load factor), capped,
 * over seeded log-normal latencies (median 200 ms) as load grows. The dynamic timeout uses the p99
 * the client observed at the previous load level.
 */
export function TimeoutsPanel() {
  const store = useResilienceStore();
  const { staticTimeoutMs: staticMs, timeoutCapMs: capMs } = useR(selectTimeouts);
  const setStaticMs = (v: number) => store.getState().setExtra({ staticTimeoutMs: v });
  const setCapMs = (v: number) => store.getState().setExtra({ timeoutCapMs: v });
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
        <MsInput label="Static timeout (ms)" value={staticMs} step={50} testId="static-timeout" onChange={setStaticMs} />
        <MsInput label="Cap (ms)" value={capMs} step={500} testId="timeout-cap" onChange={setCapMs} />
      </div>
      {/* Fits at 390 px (units in the headers, headers wrap); narrower, it scrolls in a labelled, focusable region whose edge shadows show there is more (walkthrough: cut at 390 px with no hint). */}
      <div className="table-scroll scroll-hint" role="region" aria-label="Timeouts by load (scrolls sideways on a narrow screen)" tabIndex={0} data-testid="timeouts-region">
        <table className="timeouts-table">
          <ColumnHeads columns={['load', 'p50 (ms)', 'p99 (ms)', 'static timeouts', 'dynamic timeout (ms)', 'dynamic timeouts']} />
          <tbody>
            {rows.map((r) => (
              <tr key={r.loadFactor}>
                <td>{r.loadFactor}</td>
                <td>{formatMs(r.p50Ms)}</td>
                <td>{formatMs(r.p99Ms)}</td>
                <td className={r.staticTimeoutRate > 0.05 ? 'tone-bad' : undefined}>{pct(r.staticTimeoutRate)}</td>
                <td>{formatMs(r.dynamicTimeoutMs)}</td>
                <td className={r.dynamicTimeoutRate > 0.05 ? 'tone-bad' : undefined}>{pct(r.dynamicTimeoutRate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
