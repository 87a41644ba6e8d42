import { useDeferredValue } from 'react';
import { formatMs } from '../../charts/format';
import { selectCursor, selectTrace } from '../../store/racesStore';
import { useRaces, useRacesStore } from './context';

/** Every invariant over the whole trace: holds, or its first violation (click to seek there). */
export function InvariantsPanel() {
  const store = useRacesStore();
  // Deferred: during a drag the timeline and outcome update first, this panel right after.
  const trace = useDeferredValue(useRaces(selectTrace));
  const cursorMs = useRaces(selectCursor);
  const violated = trace.invariants.filter((i) => i.firstViolation !== null).length;
  return (
    <section className="panel invariants" aria-labelledby="inv-h">
      <h2 id="inv-h">
        Invariants <span className="muted small">— {violated === 0 ? 'all hold' : `${violated} violated`}</span>
      </h2>
      <ul className="inv-list">
        {trace.invariants.map((inv) => {
          const v = inv.firstViolation;
          const reached = v !== null && v.at <= cursorMs;
          return (
            <li key={inv.name} data-testid={`invariant-${inv.name}`} data-status={v ? 'violated' : 'holds'} className={v ? 'is-violated' : 'is-holding'}>
              <div className="inv-head">
                <span className={v ? 'badge badge-bad' : 'badge badge-ok'}>{v ? '✗ violated' : '✓ holds'}</span> <code>{inv.name}</code>
              </div>
              <p className="small">{inv.description}</p>
              {v && (
                <p className="small inv-violation">
                  <button type="button" className="link-btn" onClick={() => {
                      store.getState().seek(v.at);
                      document.getElementById('timeline-panel')?.scrollIntoView({ block: 'start' });
                    }} aria-label={`Go to the first violation of ${inv.name} at ${v.at} ms`}>
                    at {formatMs(v.at)} ms
                  </button>
                  {reached ? '' : ' (after the playhead)'}: {v.message}
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
