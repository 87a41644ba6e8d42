import { useDeferredValue, useMemo } from 'react';
import { formatMs } from '../../charts/format';
import type { ResilienceTrace } from '../../sim/resilience';
import { replayResilience, resilienceStateAt, withOverrides } from '../../store/resilienceStore';
import type { StormAttempt, StormState } from '../../sim/resilience/storm';
import type { Json } from '../../sim/types';
import { useR, useResilienceStore } from './context';

const MARK: Record<StormAttempt['result'], string> = { pending: '…', ok: '✓', receipt: '✓', failed: '✗', timeout: '', abandoned: '–', cancelled: '⊘' };
const RESULT_NAME: Record<StormAttempt['result'], string> = { pending: 'running', ok: 'ok', receipt: 'receipt', failed: 'failed', timeout: 'timed out', abandoned: 'abandoned', cancelled: 'cancelled' };

/** The five fixes, in the lesson's order. */
export const STORM_FIXES = [
  ['retryAtOneLayerOnly', 'Retry at one layer only'],
  ['deadlinePropagation', 'Deadlines passed down'],
  ['retryBudget', 'Retry budget per layer'],
  ['cancelPropagation', 'Cancellation propagated'],
  ['idempotencyKeys', 'Idempotency keys upstream'],
] as const;

type FixName = (typeof STORM_FIXES)[number][0];

/** Per-layer counts of a storm state: attempts by result, and how many ran on after the user's cancel. */
export function layerCounts(s: StormState): { name: string; attempts: number; byResult: Partial<Record<StormAttempt['result'], number>>; afterCancel: number }[] {
  const cancelAt = s.user.cancelAt;
  return s.config.layers.map((l, i) => {
    const byResult: Partial<Record<StormAttempt['result'], number>> = {};
    let attempts = 0;
    let afterCancel = 0;
    for (const id of s.attemptOrder) {
      const a = s.attempts[id];
      if (a.layer !== i) continue;
      attempts++;
      byResult[a.result] = (byResult[a.result] ?? 0) + 1;
      if (cancelAt !== null && (a.endAt === null || a.endAt > cancelAt)) afterCancel++;
    }
    return { name: l.name, attempts, byResult, afterCancel };
  });
}

/** Upstream executions of a storm state: total, delivered, killed, and those running at or started after the user's cancel. */
export function executionCounts(s: StormState): { total: number; delivered: number; wasted: number; killed: number; afterCancel: number } {
  const cancelAt = s.user.cancelAt;
  let delivered = 0;
  let wasted = 0;
  let killed = 0;
  let afterCancel = 0;
  for (const e of s.executions) {
    if (e.state === 'killed') killed++;
    if (e.state === 'ok') {
      if (e.waiters.some((w) => s.attempts[w].result === 'ok' || s.attempts[w].result === 'receipt')) delivered++;
      else wasted++;
    }
    if (cancelAt !== null && (e.endAt === null || e.endAt > cancelAt)) afterCancel++;
  }
  return { total: s.executions.length, delivered, wasted, killed, afterCancel };
}

function finalState(t: ResilienceTrace): StormState {
  return (t.steps.length ? t.steps[t.steps.length - 1].state : t.initial) as StormState;
}

/** One attempt and what it caused one layer down (the expandable detail). */
function Node({ s, id }: { s: StormState; id: string }) {
  const a = s.attempts[id];
  const children = s.attemptOrder.filter((x) => s.attempts[x].callId === `${id}>C${a.layer + 1}`);
  const exec = a.child !== null && a.child.startsWith('E') ? s.executions.find((e) => e.id === a.child) : undefined;
  return (
    <li>
      <span className={`storm-node r-${a.result}`}>
        {s.config.layers[a.layer].name} #{a.n} {MARK[a.result]} {RESULT_NAME[a.result]}
      </span>
      {exec && <span className={`storm-exec e-${exec.state}`}> → {exec.id} {exec.state}</span>}
      {children.length > 0 && (
        <ul>
          {children.map((c) => (
            <Node key={c} s={s} id={c} />
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * The retry storm as a flow: client → MCP server → … → upstream API, one box per layer with its
 * attempts at the playhead (and by the end), how many each attempt above multiplied into, the
 * results, and the work still running after the user's cancel. Below: the fixes one by one (each
 * replayed alone, click to apply), and the full attempt tree on request.
 */
export function StormTree() {
  const store = useResilienceStore();
  const trace = useDeferredValue(useR((s) => s.trace));
  const scenario = useDeferredValue(useR((s) => s.scenario));
  const cursorMs = useDeferredValue(useR((s) => Math.floor(s.cursorMs)));
  const end = finalState(trace);
  const now = resilienceStateAt(trace, cursorMs) as StormState;
  const fixes = useMemo(() => {
    const base = scenario.config as { fixes: Record<FixName, boolean> };
    const none = Object.fromEntries(STORM_FIXES.map(([k]) => [k, false])) as Record<FixName, boolean>;
    const rows: { label: string; fixes: Record<FixName, boolean> }[] = [
      { label: 'No fix (the storm)', fixes: none },
      ...STORM_FIXES.map(([k, label]) => ({ label: `${label} (alone)`, fixes: { ...none, [k]: true } })),
      { label: 'All five fixes', fixes: Object.fromEntries(STORM_FIXES.map(([k]) => [k, true])) as Record<FixName, boolean> },
    ];
    return rows.map((r) => {
      const t = replayResilience(withOverrides(scenario, { fixes: r.fixes as unknown as Json }));
      const f = finalState(t);
      const current = STORM_FIXES.every(([k]) => base.fixes[k] === r.fixes[k]);
      return { ...r, upstream: f.executions.length, afterCancel: executionCounts(f).afterCancel, perLayer: layerCounts(f).map((l) => l.attempts), current };
    });
  }, [scenario]);
  if (end.mechanism !== 'storm') return null;
  const layersNow = layerCounts(now);
  const layersEnd = layerCounts(end);
  const execNow = executionCounts(now);
  const execEnd = executionCounts(end);
  const cancelled = end.user.cancelAt !== null;
  const maxUpstream = Math.max(1, ...fixes.map((f) => f.upstream));
  const roots = end.attemptOrder.filter((id) => end.attempts[id].layer === 0);
  return (
    <section className="panel storm-flow" aria-labelledby="flow-h">
      <h2 id="flow-h">
        Attempts per layer <span className="muted small">— at the playhead, {formatMs(cursorMs)} ms (big numbers and red boxes); totals by the end of the run marked “by the end”</span>
      </h2>
      <ol className="storm-layers" data-testid="storm-flow" aria-label="Layers from the client down to the upstream API">
        {layersEnd.map((l, i) => {
          const n = layersNow[i];
          const factor = i === 0 ? null : layersEnd[i - 1].attempts === 0 ? null : l.attempts / layersEnd[i - 1].attempts;
          return (
            <li key={l.name} className="storm-layer" data-testid={`storm-layer-${i}`}>
              {i > 0 && (
                <span className="storm-arrow" aria-hidden="true">
                  →
                </span>
              )}
              <div className="storm-box">
                <div className="storm-box-name">{l.name}</div>
                <div className="storm-box-count">
                  <strong data-testid={`storm-layer-${i}-now`}>{n.attempts}</strong> attempt{n.attempts === 1 ? '' : 's'} <span className="muted small">(by the end: {l.attempts})</span>
                </div>
                {factor !== null && factor !== 1 && <div className="storm-factor">× {Number.isInteger(factor) ? factor : factor.toFixed(1)} per attempt above</div>}
                <div className="storm-results small">
                  <span className="muted">by the end:</span>
                  {(Object.keys(l.byResult) as StormAttempt['result'][]).map((r) => (
                    <span key={r} className={`storm-node r-${r}`}>
                      {MARK[r] && `${MARK[r]} `}
                      {l.byResult[r]} {RESULT_NAME[r]}
                    </span>
                  ))}
                </div>
                {n.afterCancel > 0 && (
                  <div className="storm-after-cancel" data-testid={`storm-layer-${i}-after-cancel`}>
                    {n.afterCancel} still running after the cancel
                  </div>
                )}
                {cancelled && l.afterCancel > 0 && l.afterCancel !== n.afterCancel && (
                  <div className="small muted" data-testid={`storm-layer-${i}-after-cancel-end`}>
                    by the end: {l.afterCancel} ran on after the cancel
                  </div>
                )}
              </div>
            </li>
          );
        })}
        <li className="storm-layer">
          <span className="storm-arrow" aria-hidden="true">
            →
          </span>
          <div className="storm-box storm-box-upstream">
            <div className="storm-box-name">Upstream API</div>
            <div className="storm-box-count">
              <strong data-testid="storm-exec-now">{execNow.total}</strong> execution{execNow.total === 1 ? '' : 's'} <span className="muted small">(by the end: {execEnd.total})</span>
            </div>
            <div className="storm-results small">
              <span className="muted">by the end:</span>
              <span className={execEnd.delivered > 0 ? 'storm-exec e-ok' : 'muted'}>{execEnd.delivered > 0 ? '✓ ' : ''}{execEnd.delivered} delivered</span>
              {execEnd.wasted > 0 && <span className="storm-node r-timeout">{execEnd.wasted} finished, nobody waiting</span>}
              {execEnd.killed > 0 && <span className="storm-exec e-killed">{execEnd.killed} killed by the guard</span>}
            </div>
            {execNow.afterCancel > 0 && (
              <div className="storm-after-cancel" data-testid="storm-exec-after-cancel">
                {execNow.afterCancel} duplicate execution{execNow.afterCancel === 1 ? '' : 's'} running at or started after the cancel
              </div>
            )}
            {cancelled && execEnd.afterCancel > 0 && execEnd.afterCancel !== execNow.afterCancel && (
              <div className="small muted" data-testid="storm-exec-after-cancel-end">
                by the end: {execEnd.afterCancel} duplicate execution{execEnd.afterCancel === 1 ? '' : 's'} ran at or after the cancel
              </div>
            )}
          </div>
        </li>
      </ol>

      <h3>The fixes, one at a time</h3>
      <table className="storm-fixes" data-testid="storm-fixes">
        <caption className="visually-hidden">Upstream executions and duplicate work after the cancel, per fix (each replayed alone)</caption>
        <thead>
          <tr>
            <th scope="col">Settings</th>
            <th scope="col">Attempts per layer</th>
            <th scope="col">Upstream executions</th>
            {cancelled && <th scope="col">After the cancel</th>}
          </tr>
        </thead>
        <tbody>
          {fixes.map((f) => (
            <tr key={f.label} className={f.current ? 'is-current' : undefined} aria-current={f.current ? 'true' : undefined}>
              <th scope="row">
                <button type="button" className="link-btn" onClick={() => store.getState().setConfig({ fixes: f.fixes as unknown as Json } as Record<string, Json>)} aria-label={`Apply: ${f.label}`}>
                  {f.label}
                </button>
                {f.current && <span className="badge badge-info">shown</span>}
              </th>
              <td className="num">{f.perLayer.join(' → ')}</td>
              <td>
                <span className="storm-bar" style={{ width: `${(f.upstream / maxUpstream) * 100}%` }} aria-hidden="true" />
                <span className="num">{f.upstream}</span>
              </td>
              {cancelled && <td className={f.afterCancel > 0 ? 'num tone-bad' : 'num'}>{f.afterCancel}</td>}
            </tr>
          ))}
        </tbody>
      </table>

      <details open={end.attemptOrder.length <= 24}>
        <summary>Every attempt, as a tree ({end.attemptOrder.length} attempts)</summary>
        {/* The tree scrolls (max-height in resilience.css): focusable, so the keyboard can scroll it too. */}
        <ul className="tree" tabIndex={0} aria-label={`Every attempt, as a tree (${end.attemptOrder.length} attempts; scrolls)`} data-testid="storm-attempt-tree">
          {roots.map((r) => (
            <Node key={r} s={end} id={r} />
          ))}
        </ul>
      </details>
    </section>
  );
}
