import { useDeferredValue } from 'react';
import type { StormAttempt, StormState } from '../../sim/resilience/storm';
import { useR } from './context';

const MARK: Record<StormAttempt['result'], string> = { pending: '…', ok: '✓', receipt: '✓ receipt', failed: '✗', timeout: '⏱ timed out', abandoned: '–', cancelled: '⊘ cancelled' };

function Node({ s, id }: { s: StormState; id: string }) {
  const a = s.attempts[id];
  const children = s.attemptOrder.filter((x) => s.attempts[x].callId === `${id}>C${a.layer + 1}`);
  const exec = a.child !== null && a.child.startsWith('E') ? s.executions.find((e) => e.id === a.child) : undefined;
  return (
    <li>
      <span className={`storm-node r-${a.result}`}>
        {s.config.layers[a.layer].name} #{a.n} {MARK[a.result]}
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

/** Attempts per layer as a tree: each attempt with the attempts it caused one layer down. */
export function StormTree() {
  const trace = useDeferredValue(useR((s) => s.trace));
  const s = (trace.steps.length ? trace.steps[trace.steps.length - 1].state : trace.initial) as StormState;
  if (s.mechanism !== 'storm') return null;
  const roots = s.attemptOrder.filter((id) => s.attempts[id].layer === 0);
  const perLayer = s.config.layers.map((_, i) => s.attemptOrder.filter((id) => s.attempts[id].layer === i).length);
  return (
    <section className="panel storm-tree" aria-labelledby="tree-h">
      <h2 id="tree-h">Attempts per layer</h2>
      <p className="storm-counts" data-testid="storm-counts">
        {s.config.layers.map((l, i) => (
          <span key={l.name}>
            {i > 0 && ' → '}
            <strong>{l.name}</strong> {perLayer[i]}
          </span>
        ))}{' '}
        → <strong>upstream executions</strong> {s.executions.length}
      </p>
      <details open={perLayer[perLayer.length - 1] <= 16}>
        <summary>The tree ({s.attemptOrder.length} attempts)</summary>
        <ul className="tree">
          {roots.map((r) => (
            <Node key={r} s={s} id={r} />
          ))}
        </ul>
      </details>
    </section>
  );
}
