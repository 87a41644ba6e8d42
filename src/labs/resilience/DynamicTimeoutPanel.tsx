import { useMemo, useState } from 'react';
import { formatMs } from '../../charts/format';
import { timeoutPlot } from '../../store/resilienceSeeds';
import { PlotLegend, SeedPlot, type PlotLine } from './SeedPlot';
import { n, Badge } from './seedKit';

/** The resilience lab's seed panel for issue 13 item 2: dynamic timeout v2 against load. */

const SERIES_CLASS: Record<string, string> = { 'long-documents@14000': 's-long', 'code-generation@3000': 's-code3', 'code-generation@6000': 's-code6', static: 's-static' };
const secs = (msValue: number) => `${n(msValue / 1000, 1)} s`;

/** Dynamic timeout v2 against load, beside the static 10 s, with the checklist floor p99 × 1.5. */
export function DynamicTimeoutPanel() {
  const [capMs, setCapMs] = useState(30_000);
  const [load, setLoad] = useState(40);
  const plot = useMemo(() => timeoutPlot(capMs), [capMs]);
  const lines: PlotLine[] = plot.series.map((s) => ({ id: s.id, label: s.label, className: SERIES_CLASS[s.id] ?? 's-static', dashed: s.id === 'static', points: s.points.map((p) => [p.loadPercent, p.timeoutMs] as const) }));
  const floors = plot.floors.map((f, i) => ({ at: f.floorMs, label: `checklist floor p99 ${secs(f.p99Ms)} × 1.5 = ${secs(f.floorMs)}`, className: `seed-floor ${['s-long', 's-code3', 's-code6'][i]}`, axis: 'y' as const }));
  const at = plot.series.map((s) => ({ s, p: s.points[load] }));
  return (
    <section className="panel seed-panel" aria-labelledby="seed-dyn-h" data-testid="seed-dynamic-timeout">
      <h2 id="seed-dyn-h">Dynamic timeout v2 against load</h2>
      <p className="small muted">
        The postmortem's formula exactly: <code>loadFactor = min(1.5, (load / 80)²)</code>, <code>timeout = min(p99 × (1.2 + loadFactor), MAX_TIMEOUT)</code>, for its two model classes (Claude-3 on long documents, p99 14 s; GPT-4
        code generation, 3–6 s, drawn at both ends) beside the static 10 s of the original code. Its own checklist asks for at least p99 × 1.5 (dashed floors): below{' '}
        <strong data-testid="seed-crossing">{n(plot.crossingLoadPercent, 2)} %</strong> load (shaded) the formula gives less — the two documents disagree.
      </p>
      <SeedPlot
        testId="seed-timeout-plot"
        label={`Timeout against cluster load, 0 to 100 percent: the v2 timeout for p99 14 s, 3 s and 6 s, the static 10 s, and the checklist floors; below ${n(plot.crossingLoadPercent, 1)} percent the v2 timeout is under the floor`}
        lines={lines}
        bands={[{ from: 0, to: plot.crossingLoadPercent, label: `below ${n(plot.crossingLoadPercent, 2)} % load: v2 < p99 × 1.5`, className: 'seed-band-bad' }]}
        guides={[...floors, { at: plot.crossingLoadPercent, label: 'crossing', className: 'seed-guide', axis: 'x' }]}
        xDomain={[0, 100]}
        yDomain={[0, 32_000]}
        xLabel="cluster load (%)"
        yLabel="timeout (s)"
        xFormat={(v) => `${v}`}
        yFormat={(v) => `${v / 1000}`}
        cursorX={load}
      />
      <PlotLegend
        items={[
          { label: 'v2, p99 14 s', className: 's-long' },
          { label: 'v2, p99 3 s', className: 's-code3' },
          { label: 'v2, p99 6 s', className: 's-code6' },
          { label: 'static 10 s', className: 's-static', dashed: true },
        ]}
      />
      <div className="button-row">
        <label className="field-inline seed-slider">
          <span>Load: {load} %</span>
          <input type="range" min={0} max={100} step={1} value={load} onChange={(e) => setLoad(Number(e.currentTarget.value))} data-testid="seed-load" aria-valuetext={`${load} percent load`} />
        </label>
        <label className="field-inline">
          <span>MAX_TIMEOUT</span>
          <select value={capMs} onChange={(e) => setCapMs(Number(e.currentTarget.value))} data-testid="seed-cap">
            <option value={30000}>30 s (the checklist's cap)</option>
            <option value={25000}>25 s</option>
            <option value={20000}>20 s (under p99 14 s × 1.5)</option>
          </select>
        </label>
      </div>
      <ul className="seed-readout" data-testid="seed-timeout-readout" aria-live="polite">
        <li className="muted small">At {load} % load: loadFactor = min(1.5, ({load} / 80)²) = {n(Math.min(1.5, (load / 80) ** 2), 4)}</li>
        {at.map(({ s, p }) => (
          <li key={s.id} data-testid={`seed-at-${s.id}`} data-below={p.belowFloor ? 'yes' : 'no'}>
            <strong>{s.id === 'static' ? 'static' : `p99 ${secs(s.p99Ms ?? 0)}`}</strong>: {formatMs(Math.round(p.timeoutMs))} ms
            {s.id !== 'static' && (
              <>
                {' '}
                vs floor {formatMs(p.floorMs)} ms <Badge status={p.belowFloor ? 'bad' : 'ok'}>{p.belowFloor ? `${formatMs(Math.round(p.floorMs - p.timeoutMs))} ms under the floor` : 'meets the floor'}</Badge>
              </>
            )}
            {s.id === 'static' && <> — under p99 for the 14 s class: every long document past 10 s times out and is retried</>}
          </li>
        ))}
      </ul>
    </section>
  );
}
