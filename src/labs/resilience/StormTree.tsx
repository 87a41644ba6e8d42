import { useDeferredValue } from 'react';
import { formatMs } from '../../charts/format';
import { resilienceStateAt } from '../../store/resilienceStore';
import { executionCounts, layerCounts, stormFinalState, stormFixRows } from '../../store/resilienceStorm';
import type { StormAttempt, StormState } from '../../sim/resilience/storm';
import type { Json } from '../../sim/types';
import { useR, useResilienceStore } from './context';

const MARK: Record<StormAttempt['result'], string> = { pending: '…', ok: '✓', receipt: '✓', failed: '✗', timeout: '', abandoned: '–', cancelled: '⊘' };
const RESULT_NAME: Record<StormAttempt['result'], string> = { pending: 'running', ok: 'ok', receipt: 'receipt', failed: 'failed', timeout: 'timed out', abandoned: 'abandoned', cancelled: 'cancelled' };

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
 * replayed alone in the store floor, click to apply), and the full attempt tree on request.
 */
export function StormTree() {
  const store = useResilienceStore();
  const trace = useDeferredValue(useR((s) => s.trace));
  const scenario = useDeferredValue(useR((s) => s.scenario));
  const cursorMs = useDeferredValue(useR((s) => Math.floor(s.cursorMs)));
  const end = stormFinalState(trace);
  const now = resilienceStateAt(trace, cursorMs) as StormState;
  const fixes = stormFixRows(scenario); // computed (and cached) in the store floor: the view never replays
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
            // The whole row applies its settings (the button in its header cell is the keyboard way).
            <tr key={f.label} className={f.current ? 'is-current storm-fix-row' : 'storm-fix-row'} aria-current={f.current ? 'true' : undefined} data-testid="storm-fix-row" onClick={() => store.getState().setConfig({ fixes: f.fixes as unknown as Json } as Record<string, Json>)}>
              <th scope="row">
                <button type="button" className="link-btn" onClick={(e) => {
                    e.stopPropagation();
                    store.getState().setConfig({ fixes: f.fixes as unknown as Json } as Record<string, Json>);
                  }} aria-label={`Apply: ${f.label}`}>
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
