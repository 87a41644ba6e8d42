import { useMemo, useState } from 'react';
import { DEGRADED_FEATURE_LIST, POSTMORTEM_TIERS, tierRun } from '../../store/resilienceSeeds';
import { PlotLegend, SeedPlot } from './SeedPlot';
import { n, pct, Badge } from './seedKit';

/** The resilience lab's seed panel for issue 13 item 3: the three protection tiers over virtual time. */

const TIER_NAMES = { request: 'request level: 429 for 30 % (cached last success)', service: 'service level: shift 20 % to the second upstream (30 s warm-up)', cluster: 'cluster level: degraded mode' } as const;

/** The three protection tiers engaging in turn over the incident, with the four breaker metrics. */
export function TiersPanel() {
  const [misclassify, setMisclassify] = useState(true);
  const [second, setSecond] = useState(97);
  const run = useMemo(() => tierRun({ cancelFraction: 0.1, misclassify }), [misclassify]);
  const total = run.seconds.length;
  const s = run.seconds[Math.min(second, total - 1)];
  const series = (f: (x: (typeof run.seconds)[number]) => number | null) => run.seconds.map((x) => [x.second, f(x) ?? 0] as const);
  const bandsOf = (on: (x: (typeof run.seconds)[number]) => boolean) => {
    const out: { from: number; to: number }[] = [];
    for (const x of run.seconds) {
      if (!on(x)) continue;
      const last = out[out.length - 1];
      if (last && last.to === x.second) last.to = x.second + 1;
      else out.push({ from: x.second, to: x.second + 1 });
    }
    return out;
  };
  const tierBands = [
    { tier: 'request' as const, cls: 'seed-band-request', bands: bandsOf((x) => x.shedding) },
    { tier: 'service' as const, cls: 'seed-band-service', bands: bandsOf((x) => x.shiftedFraction > 0) },
    { tier: 'cluster' as const, cls: 'seed-band-cluster', bands: bandsOf((x) => x.degraded) },
  ];
  const maxFlight = Math.max(...run.seconds.map((x) => x.metrics.requestsInFlight));
  const maxRatio = Math.max(...run.seconds.map((x) => x.metrics.cancelToTimeoutRatio ?? 0));
  const fmtS = (v: number) => `${v}`;
  return (
    <section className="panel seed-panel" aria-labelledby="seed-tiers-h" data-testid="seed-tiers">
      <h2 id="seed-tiers-h">Three protection tiers</h2>
      <p className="small muted">
        The incident's traffic, 200 requests a second: 0.3 % errors, then from 60 s to 300 s 47 % (timeouts) with the upstream's p90 rising 500 ms a second to 8 s. Each tier is evaluated at the end of a second and acts from the
        next: request level (error rate &gt; 15 % in 10 s), service level (p90 &gt; 5 s), cluster level (&gt; 1000 errors a minute; {DEGRADED_FEATURE_LIST.join(', ')}).
      </p>
      <ol className="seed-changes" data-testid="seed-tier-changes">
        {run.changes.map((c) => (
          <li key={`${c.tier}-${c.second}`}>
            <button type="button" className="link-btn" onClick={() => setSecond(c.second)} aria-label={`Read the metrics at ${c.second} s`}>
              {c.second} s
            </button>{' '}
            {TIER_NAMES[c.tier]} <Badge status={c.to === 'engaged' ? 'warn' : 'ok'}>{c.to}</Badge>
          </li>
        ))}
      </ol>
      <SeedPlot
        testId="seed-tier-plot"
        label="The three tiers over virtual time, 0 to 420 s: request level engaged from 64 s, service level from 68 s, cluster level from 74 s; bands show when each is in force"
        lines={[{ id: 'err10', label: 'error rate over 10 s', className: 's-long', points: series((x) => x.errorRate10s) }, { id: 'health', label: 'upstream health', className: 's-code6', points: series((x) => x.metrics.upstreamHealthScore) }]}
        lanes={tierBands.map((t) => ({ id: t.tier, label: t.tier, className: t.cls, bands: t.bands }))}
        guides={[{ at: POSTMORTEM_TIERS.requestErrorRate, label: '15 % threshold', className: 'seed-guide', axis: 'y' }]}
        xDomain={[0, total]}
        yDomain={[0, 1]}
        xLabel="virtual time (s)"
        yLabel="fraction"
        xFormat={fmtS}
        yFormat={(v) => `${Math.round(v * 100)}%`}
        cursorX={s.second}
        height={200}
      />
      <PlotLegend
        items={[
          { label: 'error rate, 10 s', className: 's-long' },
          { label: 'upstream_health_score', className: 's-code6' },
        ]}
      />
      <div className="seed-multiples">
        <SeedPlot testId="seed-flight-plot" label="requests_in_flight over virtual time" lines={[{ id: 'flight', label: 'requests in flight', className: 's-code3', points: series((x) => x.metrics.requestsInFlight) }]} xDomain={[0, total]} yDomain={[0, maxFlight]} xLabel="s" yLabel="requests_in_flight" xFormat={fmtS} yFormat={(v) => n(v)} cursorX={s.second} height={150} />
        <SeedPlot testId="seed-err5-plot" label="error_ratio_5m over virtual time" lines={[{ id: 'err5', label: '5-minute error ratio', className: 's-long', points: series((x) => x.metrics.errorRatio5m) }]} xDomain={[0, total]} yDomain={[0, 0.5]} xLabel="s" yLabel="error_ratio_5m" xFormat={fmtS} yFormat={(v) => `${Math.round(v * 100)}%`} cursorX={s.second} height={150} />
        <SeedPlot testId="seed-ratio-plot" label="cancel_to_timeout_ratio over virtual time" lines={[{ id: 'ratio', label: 'cancel to timeout ratio', className: 's-static', points: series((x) => x.metrics.cancelToTimeoutRatio) }]} xDomain={[0, total]} yDomain={[0, Math.max(1, maxRatio)]} xLabel="s" yLabel="cancel_to_timeout_ratio" xFormat={fmtS} yFormat={(v) => n(v, 1)} cursorX={s.second} height={150} />
      </div>
      <div className="button-row">
        <label className="field-inline seed-slider">
          <span className="seed-slider-value" data-testid="seed-tier-second-label">Read at {s.second} s</span>
          <input type="range" min={0} max={total - 1} step={1} value={s.second} onChange={(e) => setSecond(Number(e.currentTarget.value))} data-testid="seed-tier-second" aria-valuetext={`${s.second} seconds`} />
        </label>
        <label className="toggle">
          <input type="checkbox" checked={misclassify} onChange={(e) => setMisclassify(e.currentTarget.checked)} data-testid="seed-tier-misclassify" /> 38 % of user cancels (10 % of requests) counted as timeouts
        </label>
      </div>
      <dl className="stats" data-testid="seed-tier-metrics">
        <div className="stat">
          <dt>Tiers in force</dt>
          <dd data-testid="seed-tier-state">{[s.shedding && 'request', s.shiftedFraction > 0 && `service (${pct(s.shiftedFraction)} shifted)`, s.degraded && 'cluster'].filter(Boolean).join(' · ') || 'none'}</dd>
        </div>
        <div className="stat">
          <dt>requests_in_flight</dt>
          <dd data-testid="seed-metric-flight">{n(s.metrics.requestsInFlight)}</dd>
        </div>
        <div className="stat">
          <dt>error_ratio_5m</dt>
          <dd data-testid="seed-metric-err5">{pct(s.metrics.errorRatio5m)}</dd>
        </div>
        <div className="stat">
          <dt>cancel_to_timeout_ratio</dt>
          <dd data-testid="seed-metric-ratio">{s.metrics.cancelToTimeoutRatio === null ? '—' : n(s.metrics.cancelToTimeoutRatio, 2)}</dd>
        </div>
        <div className="stat">
          <dt>upstream_health_score</dt>
          <dd data-testid="seed-metric-health">{n(s.metrics.upstreamHealthScore, 2)}</dd>
        </div>
        <div className="stat">
          <dt>Served from cache (429) / to second upstream</dt>
          <dd>
            {n(s.servedFromCache)} / {n(s.toSecondary, 1)}
          </dd>
        </div>
      </dl>
      <p className="small muted">
        Model conventions the text leaves open: no hysteresis, the shift ramps down as it ramped up, in flight by Little's law on the p90, health = 1 − the primary's 10 s error rate; cancels are the model's 10 % of requests.
      </p>
    </section>
  );
}
