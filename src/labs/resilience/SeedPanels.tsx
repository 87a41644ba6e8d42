import { useId, useMemo, useState, type ReactNode } from 'react';
import { formatMs } from '../../charts/format';
import {
  articleComparison,
  checklistForScenario,
  costGateVerdict,
  DEGRADED_FEATURE_LIST,
  halfOpenBurst,
  incidentClientLints,
  loadTest,
  POSTMORTEM_TIERS,
  tierRun,
  timeoutPlot,
  treeExamples,
  type ChecklistFinding,
} from '../../store/resilienceSeeds';
import { useR } from './context';
import { PlotLegend, SeedPlot, type PlotLine } from './SeedPlot';
import './seeds.css';

/**
 * The resilience lab's panels for the seed documents (issue 13 items 1–4 and 7): the production
 * checklist over the loaded scenario; the postmortem's error origins, decision tree, cost gate and
 * 38 % load test; dynamic timeout v2 against load; the three protection tiers over virtual time;
 * the article's retry and breaker beside the corrected ones. Everything is computed through the
 * store's named selectors (src/store/resilienceSeeds.ts).
 */

/** A number grouped like the lab's times (`formatMs`: "11 160"), at most `digits` decimals. */
const n = (x: number, digits = 0) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: 0 }).replace(/,/g, ' ');
const pct = (x: number, digits = 1) => `${n(x * 100, digits)} %`;

/**
 * A number box that keeps the last good value: a bad entry shows `field: what is wrong — what to
 * do` under the box and changes nothing.
 */
function NumberField({ label, value, min, max, step, testId, onChange, unit }: { label: string; value: number; min: number; max: number; step: number; testId: string; unit?: string; onChange(v: number): void }) {
  const [text, setText] = useState(String(value));
  const [error, setError] = useState<string | null>(null);
  // follow a new value from outside (another scenario, an edit), keeping what is being typed
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    if (Number(text) !== value) {
      setText(String(value));
      setError(null);
    }
  }
  const id = useId();
  const commit = (raw: string) => {
    setText(raw);
    const v = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(v) || v < min || v > max) {
      setError(`${label}: ${JSON.stringify(raw)} is not a number from ${min} to ${max} — type one in that range`);
      return;
    }
    setError(null);
    onChange(v);
  };
  return (
    <span className="seed-field">
      <label className="field-inline">
        <span>
          {label}
          {unit ? ` (${unit})` : ''}
        </span>
        <input type="number" value={text} min={min} max={max} step={step} data-testid={testId} aria-invalid={error !== null} aria-describedby={error ? `${id}-err` : undefined} onChange={(e) => commit(e.currentTarget.value)} />
      </label>
      {error && (
        <span id={`${id}-err`} role="alert" className="seed-field-error" data-testid={`${testId}-error`}>
          {error}
        </span>
      )}
    </span>
  );
}

function Badge({ status, children }: { status: 'pass' | 'fail' | 'n/a' | 'ok' | 'bad' | 'warn'; children: ReactNode }) {
  const cls = status === 'pass' || status === 'ok' ? 'badge-ok' : status === 'fail' || status === 'bad' ? 'badge-bad' : status === 'warn' ? 'badge-warn' : 'badge-muted';
  return <span className={`badge ${cls}`}>{children}</span>;
}

// ───────────── 4. the checklist as lints ─────────────

/** The checklist items in English (the postmortem's words are in each row's title). */
const RULE_WORDS: Record<ChecklistFinding['rule'], string> = {
  'initial-timeout-floor': 'initial timeout ≥ historical p99 × 1.5',
  'absolute-cap': 'absolute cap ≤ 30 s (the user-experience red line)',
  'stream-chunk-timeout': 'a stream has a chunk timeout, checked every 100 ms',
  'distinct-retry-timeout': 'first request and retries have different timeouts',
  'max-retries': 'at most 2 retries (3 for critical work)',
  'retry-interval': 'retry interval ≥ time already spent × 0.3',
  'x-retry-count': 'every retry carries an x-retry-count header',
  'cause-propagated': 'the original error cause travels across services',
};

function FindingsList({ findings, testId }: { findings: readonly ChecklistFinding[]; testId: string }) {
  return (
    <ul className="seed-lints" data-testid={testId}>
      {findings.map((f) => (
        <li key={f.rule} data-testid={`${testId}-${f.rule}`} data-status={f.status}>
          <Badge status={f.status}>{f.status === 'pass' ? '✓ pass' : f.status === 'fail' ? '✗ fail' : 'n/a'}</Badge> <code>{f.rule}</code>{' '}
          <span className="muted small" title={f.text}>
            (item {f.item}: {RULE_WORDS[f.rule]})
          </span>
          <div className="small">{f.detail}</div>
        </li>
      ))}
    </ul>
  );
}

/** The production checklist ("生产环境验证清单") as named lints over the loaded scenario, edits included. */
export function ChecklistPanel() {
  const scenario = useR((s) => s.scenario);
  const [p99, setP99] = useState<number | null>(null);
  const lints = useMemo(() => checklistForScenario(scenario, p99), [scenario, p99]);
  const incident = useMemo(() => incidentClientLints(), []);
  const failed = lints.reduce((a, l) => a + l.failed, 0);
  const passed = lints.reduce((a, l) => a + l.passed, 0);
  return (
    <section className="panel seed-panel" aria-labelledby="seed-check-h" data-testid="seed-checklist">
      <h2 id="seed-check-h">
        Production checklist <span className="muted small">— {passed} pass, {failed} fail</span>
      </h2>
      <p className="small muted">
        The postmortem's production checklist (items 2–10 of the seed text) as lints over this scenario as it is now — every edit re-runs them. The p99 they compare with is{' '}
        {p99 === null ? `${formatMs(lints[0]?.p99Ms ?? 0)} ms, from ${lints[0]?.p99Source ?? '—'}` : 'the one typed'}; type another to see the floor move.
      </p>
      <div className="button-row">
        <NumberField label="Historical p99" unit="ms" value={lints[0]?.p99Ms ?? 0} min={0} max={600_000} step={100} testId="seed-p99" onChange={setP99} />
        {p99 !== null && (
          <button type="button" onClick={() => setP99(null)}>
            Use the scenario's p99
          </button>
        )}
      </div>
      {lints.map((l, i) => (
        <div key={`${l.layer}-${i}`} className="seed-layer" data-testid={`seed-layer-${i}`}>
          <h3>
            {l.layer}{' '}
            <span className="muted small" data-testid={`seed-layer-${i}-count`}>
              {l.passed} pass · {l.failed} fail · {l.findings.length - l.passed - l.failed} n/a
            </span>
          </h3>
          <FindingsList findings={l.findings} testId={`seed-lints-${i}`} />
        </div>
      ))}
      <details>
        <summary>The incident's own client (fixed 10 s, p99 14 s): {incident.filter((f) => f.status === 'fail').length} of 8 fail</summary>
        <FindingsList findings={incident} testId="seed-lints-incident" />
      </details>
    </section>
  );
}

// ───────────── 1. origins, tree, gate, load test ─────────────

const DECISION_WORDS: Record<string, string> = { stop: 'stop at once', retry: 'may retry', 'degraded-retry': 'degraded retry', 'return-partial': 'return the partial result', 'fail-fast': 'fail fast' };

/** The postmortem's five origins, its decision tree, its cost gate and its 38 % load test. */
export function OriginsPanel() {
  const examples = useMemo(() => treeExamples(), []);
  const [gate, setGate] = useState({ retryCost: 80, remainingQuota: 1000, clusterHealthScore: 0.75 });
  const verdict = useMemo(() => costGateVerdict(gate), [gate]);
  const [fractionPct, setFractionPct] = useState(38);
  const [p99Ms, setP99Ms] = useState(14_000);
  const [allTimeOut, setAllTimeOut] = useState(true);
  const r = useMemo(() => loadTest({ misclassifiedFraction: fractionPct / 100, p99Ms, retriesAlsoTimeOut: allTimeOut }), [fractionPct, p99Ms, allTimeOut]);
  const maxAttempts = Math.max(r.incident.upstreamAttempts, r.fixed.upstreamAttempts);
  return (
    <section className="panel seed-panel" aria-labelledby="seed-origins-h" data-testid="seed-origins">
      <h2 id="seed-origins-h">Error origins and the retry decision tree</h2>
      <p className="small muted">
        The postmortem classifies every failure by origin — user cancel, client timeout, server overload, network issue, partial success (streams) — and decides by its tree, first matching branch wins: 1 user cancel → stop, never
        retry; 2 HTTP 502/503/504 → may retry; 3 timeout with p99 under the current threshold → degraded retry; 4 a stream that delivered more than half → return the partial result; 5 anything else → fail fast. The lab's
        classifier uses the same five words.
      </p>
      <ul className="seed-tree" data-testid="seed-tree">
        {examples.map((e) => (
          <li key={e.id} data-testid={`seed-tree-${e.id}`} data-decision={e.verdict.decision}>
            <Badge status={e.verdict.decision === 'stop' || e.verdict.decision === 'fail-fast' ? 'bad' : e.verdict.decision === 'return-partial' ? 'warn' : 'ok'}>
              {e.verdict.branch}. {DECISION_WORDS[e.verdict.decision]}
            </Badge>{' '}
            <strong>{e.originWord}</strong>: {e.label}
            <div className="small muted">{e.verdict.reason}</div>
          </li>
        ))}
      </ul>

      <h3>Cost gate</h3>
      <p className="small muted">A retry the tree allows still needs both checks (the postmortem's cost model): its cost under 10 % of the remaining quota, and the cluster health score above 0.7.</p>
      <div className="button-row">
        <NumberField label="Retry cost" value={gate.retryCost} min={0} max={1e9} step={1} testId="gate-cost" onChange={(v) => setGate((g) => ({ ...g, retryCost: v }))} />
        <NumberField label="Remaining quota" value={gate.remainingQuota} min={0} max={1e9} step={10} testId="gate-quota" onChange={(v) => setGate((g) => ({ ...g, remainingQuota: v }))} />
        <NumberField label="Cluster health" value={gate.clusterHealthScore} min={0} max={1} step={0.01} testId="gate-health" onChange={(v) => setGate((g) => ({ ...g, clusterHealthScore: v }))} />
      </div>
      <p data-testid="gate-verdict" data-allowed={verdict.allowed ? 'yes' : 'no'}>
        <Badge status={verdict.allowed ? 'ok' : 'bad'}>{verdict.allowed ? 'retry allowed' : 'no retry'}</Badge> {verdict.reason}
      </p>

      <h3>The load test: cancels classified as timeouts</h3>
      <p className="small muted">
        10 000 requests, 1 000 user cancels, 200 real client timeouts, 3 attempts as in <code>call_mcp_with_retry</code>. In the postmortem's load test 38 % of the cancels were classified as timeouts — and retried, for users who had
        already left. The fix classifies by origin: a user cancel stops; a real timeout follows the tree.
      </p>
      <div className="button-row">
        <NumberField label="Cancels read as timeouts" unit="%" value={fractionPct} min={0} max={100} step={1} testId="loadtest-fraction" onChange={setFractionPct} />
        <label className="field-inline">
          <span>p99 of the timed-out class</span>
          <select value={p99Ms} data-testid="loadtest-p99" onChange={(e) => setP99Ms(Number(e.currentTarget.value))}>
            <option value={14000}>14 s (long documents)</option>
            <option value={6000}>6 s (code generation)</option>
          </select>
        </label>
        <label className="toggle">
          <input type="checkbox" checked={allTimeOut} onChange={(e) => setAllTimeOut(e.currentTarget.checked)} data-testid="loadtest-all-time-out" /> every retry times out again
        </label>
      </div>
      <div className="seed-compare" data-testid="loadtest">
        {([['incident', 'Incident: misread cancels retried', r.incident], ['fixed', 'Fix: classified by origin', r.fixed]] as const).map(([id, title, p]) => (
          <div key={id} className={`seed-card seed-card-${id}`} data-testid={`loadtest-${id}`}>
            <h4>{title}</h4>
            <div className="seed-bar" aria-hidden="true">
              <span style={{ width: `${(p.upstreamAttempts / maxAttempts) * 100}%` }} />
            </div>
            <dl className="stats">
              <div className="stat">
                <dt>Upstream attempts</dt>
                <dd data-testid={`loadtest-${id}-attempts`}>{n(p.upstreamAttempts)}</dd>
              </div>
              <div className="stat">
                <dt>Retries (for users who had left)</dt>
                <dd data-testid={`loadtest-${id}-retries`}>
                  {n(p.retries)} ({n(p.retriesForCancelledUsers)})
                </dd>
              </div>
              <div className="stat">
                <dt>Amplification</dt>
                <dd>×{n(p.amplification, 3)}</dd>
              </div>
              <div className="stat">
                <dt>cancel_to_timeout_ratio seen</dt>
                <dd data-testid={`loadtest-${id}-ratio`}>
                  {n(p.observedCancels)} / {n(p.observedTimeouts)} = {Number.isFinite(p.cancelToTimeoutRatio) ? n(p.cancelToTimeoutRatio, 2) : '∞'}
                </dd>
              </div>
            </dl>
          </div>
        ))}
      </div>
      <p className="small" data-testid="loadtest-summary">
        {n(r.misclassifiedCancels)} cancels misread × {r.retriesPerTimedOutRequest} retries each: the incident sends <strong>{n(r.extraUpstreamAttempts)}</strong> more attempts to the upstream than the fix, during an overload that makes every
        one of them slower — and hides the cancels from the breaker metric.
      </p>
    </section>
  );
}

// ───────────── 2. dynamic timeout v2 ─────────────

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

// ───────────── 3. the three tiers ─────────────

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
          <span>Read at {s.second} s</span>
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

// ───────────── 7. the article's policies ─────────────

/** The article's retryWithBackoff and CircuitBreaker as written beside the corrected ones, over one scripted outage. */
export function ArticlePanel() {
  const [seeded, setSeeded] = useState(false);
  const [seed, setSeed] = useState(42);
  const rows = useMemo(() => articleComparison(seeded ? seed : null), [seeded, seed]);
  const burst = useMemo(() => halfOpenBurst(), []);
  return (
    <section className="panel seed-panel" aria-labelledby="seed-article-h" data-testid="seed-article">
      <h2 id="seed-article-h">The article's retry and breaker, as written and corrected</h2>
      <p className="small muted">
        The article's <code>retryWithBackoff</code> (3 attempts, 100 ms × 2^attempt + jitter, and a sleep after the last attempt too), its <code>CircuitBreaker</code> (threshold 5, reset 10 000 ms counted from the last failure, half-open
        lazily on the next call, closes on any success, every half-open caller admitted) and its composition <code>breaker.execute(() =&gt; retryWithBackoff(…))</code>. <code>isRetryableError</code> is never defined there: here it is
        injected (408, 429, 502, 503, 504). <code>Math.random() * 100</code> is the one non-reproducible element: replaced by a seeded draw with the same distribution, uniform on [0, 100) ms. The outage: 26 calls, one every 1 200 ms; 503
        until 20 000 ms; 100 ms per attempt.
      </p>
      <div className="button-row">
        <label className="toggle">
          <input type="checkbox" checked={seeded} onChange={(e) => setSeeded(e.currentTarget.checked)} data-testid="article-jitter" /> jitter (seeded draw on [0, 100) ms)
        </label>
        {seeded && <NumberField label="Seed" value={seed} min={0} max={2 ** 31 - 1} step={1} testId="article-seed" onChange={(v) => setSeed(Math.floor(v))} />}
      </div>
      <div className="seed-compare seed-compare-4" data-testid="article-rows">
        {rows.map((r) => {
          const res = r.result;
          const failing = res.calls.find((c) => c.state === 'failed');
          return (
            <div key={r.id} className={`seed-card seed-card-${r.id.startsWith('article') ? 'incident' : 'fixed'}`} data-testid={`article-${r.id}`}>
              <h4>{r.label}</h4>
              <dl className="stats">
                <div className="stat">
                  <dt>Attempts before the breaker opens</dt>
                  <dd data-testid={`article-${r.id}-before-open`}>{res.attemptsBeforeFirstOpen ?? 'never'}</dd>
                </div>
                <div className="stat">
                  <dt>Upstream attempts (during the outage)</dt>
                  <dd data-testid={`article-${r.id}-attempts`}>
                    {res.upstreamAttempts} ({res.upstreamAttemptsDuringOutage})
                  </dd>
                </div>
                <div className="stat">
                  <dt>Calls ok / failed / rejected</dt>
                  <dd data-testid={`article-${r.id}-calls`}>
                    {res.callsSucceeded} / {res.callsFailed} / {res.callsRejected}
                  </dd>
                </div>
                <div className="stat">
                  <dt>A failing call ends after</dt>
                  <dd>{failing ? `${formatMs(Math.round(failing.endAtMs - failing.startAtMs))} ms` : '—'}</dd>
                </div>
                <div className="stat">
                  <dt>Time to recovery</dt>
                  <dd data-testid={`article-${r.id}-recovery`}>{res.timeToRecoveryMs === null ? 'never' : `${formatMs(Math.round(res.timeToRecoveryMs))} ms`}</dd>
                </div>
              </dl>
            </div>
          );
        })}
      </div>
      <p className="small" data-testid="article-cost">
        What the article's composition costs here: the breaker sees one failure per exhausted retry loop, so it opens after {rows[0].result.attemptsBeforeFirstOpen} wire attempts instead of {rows[2].result.attemptsBeforeFirstOpen}, the
        upstream takes {rows[0].result.upstreamAttemptsDuringOutage} attempts during the outage instead of {rows[2].result.upstreamAttemptsDuringOutage}, and recovery comes{' '}
        {formatMs(Math.round((rows[0].result.timeToRecoveryMs ?? 0) - (rows[2].result.timeToRecoveryMs ?? 0)))} ms later. In a burst of 4 callers after the reset, its half-open admits {burst.article.maxHalfOpenAdmitted} (
        {burst.article.upstreamAttempts} attempts in all); the corrected breaker admits {burst.corrected.maxHalfOpenAdmitted} probe ({burst.corrected.upstreamAttempts}).
      </p>
      {seeded && (
        <p className="small muted" data-testid="article-draws">
          Jitter drawn for the article's {rows[0].result.jitterDrawsMs.length} sleeps (seed {seed}): {rows[0].result.jitterDrawsMs.slice(0, 6).map((j) => `${n(j, 1)} ms`).join(', ')}
          {rows[0].result.jitterDrawsMs.length > 6 ? ', …' : ''} — the same seed, the same draws.
        </p>
      )}
    </section>
  );
}

/** The seed documents' panels, in one group under the lab's own. */
export function SeedPanels() {
  return (
    <div className="seed-panels" data-testid="seed-panels">
      <h2 className="seed-group-h">From the seed documents: the postmortem and the article</h2>
      <ChecklistPanel />
      <OriginsPanel />
      <DynamicTimeoutPanel />
      <TiersPanel />
      <ArticlePanel />
    </div>
  );
}
