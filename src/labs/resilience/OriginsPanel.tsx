import { useMemo, useState } from 'react';
import { costGateVerdict, loadTest, treeExamples } from '../../store/resilienceSeeds';
import { n, NumberField, Badge } from './seedKit';

/** The resilience lab's seed panel for issue 13 item 1: the postmortem's error origins, decision tree, cost gate and 38 % load test. */

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
