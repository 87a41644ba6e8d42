import { formatMs } from '../../charts/format';
import { firstStepAtSameMs, racesTraceView, selectConfig, selectCursor, selectTrace } from '../../store/racesStore';
import { useRaces, useRacesStore } from './context';
import { RuleRef } from './RuleRef';

const SOURCE_TEXT: Record<string, string> = { script: 'scripted', timer: 'timer / arrival' };

/** What happened at the playhead and why — the main teaching text. */
export function NowPanel() {
  const store = useRacesStore();
  const trace = racesTraceView(useRaces(selectTrace));
  const cursorMs = useRaces(selectCursor);
  const config = useRaces(selectConfig);
  // Only the steps this panel shows are built (with their notes), not the whole trace.
  const idx = trace.indexAt(cursorMs);

  if (idx < 0) {
    return (
      <section className="panel now" aria-labelledby="now-h">
        <h2 id="now-h">At the playhead</h2>
        <p className="now-why">Nothing has happened yet. Step forward (→) to run the first event.</p>
      </section>
    );
  }
  const at = trace.atOf(idx);
  const first = firstStepAtSameMs(trace, idx);
  const count = idx - first + 1;
  // Many steps in one millisecond (e.g. 50 calls at once): show the last few, summarise the rest.
  const SHOWN = 4;
  const shownFrom = Math.max(first, idx - SHOWN + 1);
  const same = [];
  for (let i = shownFrom; i <= idx; i++) same.push(trace.stepAt(i));
  const hiddenCount = shownFrom - first;
  const hiddenKinds = new Map<string, number>();
  for (let i = first; i < shownFrom; i++) {
    const kind = trace.entryOf(i).kind;
    hiddenKinds.set(kind, (hiddenKinds.get(kind) ?? 0) + 1);
  }
  const next = idx + 1 < trace.stepCount ? { at: trace.atOf(idx + 1) } : undefined;
  const main = same[same.length - 1];
  const cursorFloor = Math.floor(cursorMs);

  return (
    <section className="panel now" aria-labelledby="now-h">
      <h2 id="now-h">
        What happened at <span className="nowrap">{formatMs(at)} ms</span>
        {cursorFloor !== at && <span className="muted small"> · the last step at or before the playhead ({formatMs(cursorFloor)} ms)</span>}
        {count > 1 && <span className="muted small"> · {count} steps in this millisecond, in tie-rule order</span>}
      </h2>
      {hiddenCount > 0 && (
        <p className="muted small">
          {hiddenCount} earlier steps at this millisecond:{' '}
          {[...hiddenKinds].map(([k, n]) => `${n}× ${k}`).join(', ')} …
        </p>
      )}
      <ol className="now-steps" start={count - same.length + 1}>
        {same.map((s) => (
          <li key={s.index} className={s === main ? 'is-current' : undefined}>
            <span className="step-meta">
              <span className={`lane-chip lane-${s.entry.actor}`}>{s.entry.actor}</span> <span className="muted small">{SOURCE_TEXT[s.entry.source]} · {s.entry.label}</span>
            </span>
            <p className={s === main ? 'now-why' : 'now-why-minor'}>{s.why || `${s.entry.kind}.`}</p>
            {s.rule && (
              <p className="now-rule">
                <RuleRef rule={s.rule} revision={config.revision} />
              </p>
            )}
            {s.ignored.length > 0 && (
              <ul className="ignored-list">
                {s.ignored.map((ig, i) => (
                  <li key={i}>
                    <span className="badge badge-muted">ignored by {ig.by}</span> {ig.what}: {ig.reason}
                  </li>
                ))}
              </ul>
            )}
            {s.violations.length > 0 && (
              <ul className="violation-list">
                {s.violations.map((v) => (
                  <li key={v.invariant}>
                    <span className="badge badge-bad">✗ {v.invariant}</span> {v.message}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ol>
      <p className="now-next small">
        {next ? (
          <>
            Next step at{' '}
            <button type="button" className="link-btn" onClick={() => store.getState().stepForward()}>
              {formatMs(next.at)} ms →
            </button>
          </>
        ) : (
          <span className="muted">This is the last step of the trace.</span>
        )}
      </p>
    </section>
  );
}
