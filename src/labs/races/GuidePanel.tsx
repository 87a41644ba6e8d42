import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import './guide.css';
import { useStore } from 'zustand';
import { exerciseMet, withGuideParam, type RunView } from '../../store/guide';
import { GUIDE_TEXT } from '../../store/guideText';
import type { GuideProgressStore } from '../../store/guideProgress';
import { RACES_GUIDE } from '../../store/guideRaces';
import { racesOutcomeAt, selectCursor, selectScenario, selectTrace } from '../../store/racesStore';
import { useRaces, useRacesStore } from './context';

const T = GUIDE_TEXT;

/**
 * The Races lab's guided path (a lazy chunk): the current exercise, what to do, hints on request,
 * previous / next, and a tick the run itself sets — the exercise's goal read from the trace at the
 * playhead or after the last step (`exerciseMet`), never from a click. Progress lives in `progress`.
 */
export function GuidePanel({ progress }: { progress: GuideProgressStore }) {
  const store = useRacesStore();
  const { index: rawIndex, done } = useStore(progress);
  const index = Math.min(rawIndex, RACES_GUIDE.length - 1);
  const ex = RACES_GUIDE[index];
  const scenario = useRaces(selectScenario);
  const trace = useDeferredValue(useRaces(selectTrace));
  const cursorMs = useDeferredValue(useRaces(selectCursor));
  const run: RunView = useMemo(
    () => ({
      scenarioId: scenario.id,
      final: trace.outcome,
      atPlayhead: racesOutcomeAt(trace, cursorMs),
      violated: new Set(trace.invariants.filter((i) => i.firstViolation !== null).map((i) => i.name)),
    }),
    [scenario.id, trace, cursorMs],
  );
  const metNow = exerciseMet(ex, run);
  const wasDone = done.includes(ex.id);
  // The tick is the run's: once the trace shows the goal, the exercise is recorded as done.
  useEffect(() => {
    if (metNow && !wasDone) progress.setState((p) => (p.done.includes(ex.id) ? p : { ...p, done: [...p.done, ex.id] }));
  }, [metNow, wasDone, ex.id, progress]);
  const [hintsFor, setHintsFor] = useState<{ id: string; n: number }>({ id: ex.id, n: 0 });
  const hints = hintsFor.id === ex.id ? hintsFor.n : 0;
  const onScenario = scenario.id === ex.scenario;
  const go = (i: number) => progress.setState((p) => ({ ...p, index: i }));

  return (
    <section className="panel guide" aria-labelledby="guide-h" data-testid="guide">
      <div className="guide-head">
        <h2 id="guide-h">{T.heading}</h2>
        <button type="button" className="btn btn-small" onClick={() => progress.setState((p) => ({ ...p, open: false }))} data-testid="guide-close">
          {T.close}
        </button>
      </div>
      <p className="guide-count" data-testid="guide-count">
        {T.count(index + 1, RACES_GUIDE.length)} · {T.doneCount(done.filter((d) => RACES_GUIDE.some((e) => e.id === d)).length, RACES_GUIDE.length)}
      </p>
      <ol className="guide-steps" aria-label={T.stepsLabel}>
        {RACES_GUIDE.map((e, i) => (
          <li key={e.id}>
            <button type="button" className={`guide-dot${i === index ? ' is-current' : ''}${done.includes(e.id) ? ' is-done' : ''}`} aria-current={i === index ? 'step' : undefined} aria-label={T.dotLabel(i + 1, e.title, done.includes(e.id))} onClick={() => go(i)}>
              {done.includes(e.id) ? '✓' : i + 1}
            </button>
          </li>
        ))}
      </ol>
      <h3 className="guide-title">{ex.title}</h3>
      <p className="guide-task">{ex.task}</p>
      {!onScenario && (
        <p>
          <button type="button" className="btn" onClick={() => store.getState().loadBuiltin(ex.scenario)} data-testid="guide-open-scenario">
            {T.openScenario(ex.scenario)}
          </button>
        </p>
      )}
      <p className={`guide-status ${metNow ? 'is-met' : ''}`} role="status" data-testid="guide-status" data-met={metNow ? 'yes' : 'no'}>
        <span aria-hidden="true">{metNow ? '✓ ' : wasDone ? '✓ ' : '○ '}</span>
        {metNow ? T.metNow : wasDone ? T.doneBefore : onScenario ? T.notYet : T.otherScenario}
      </p>
      {(metNow || wasDone) && <p className="guide-learned">{ex.learned}</p>}
      {hints > 0 && (
        <ul className="guide-hints" data-testid="guide-hints">
          {ex.hints.slice(0, hints).map((h) => (
            <li key={h}>{h}</li>
          ))}
        </ul>
      )}
      <div className="guide-nav">
        <button type="button" className="btn" disabled={index === 0} onClick={() => go(index - 1)} data-testid="guide-prev">
          {T.previous}
        </button>
        <button type="button" className="btn" disabled={hints >= ex.hints.length} onClick={() => setHintsFor({ id: ex.id, n: hints + 1 })} data-testid="guide-hint">
          {hints >= ex.hints.length ? T.noMoreHints : T.hint(hints + 1, ex.hints.length)}
        </button>
        <button type="button" className="btn btn-primary" disabled={index === RACES_GUIDE.length - 1} onClick={() => go(index + 1)} data-testid="guide-next">
          {T.next}
        </button>
      </div>
      <p className="muted small guide-link">
        <a href={withGuideParam(window.location.hash, index + 1)} data-testid="guide-link">
          {T.shareLink(index + 1)}
        </a>
      </p>
    </section>
  );
}
