import { useId } from 'react';
import { RACES_TIE_RULE } from '../../store/racesStore';
import { formatMs } from '../../charts/format';
import { selectScenario, selectSelectedEventId } from '../../store/racesStore';
import { useRaces, useRacesStore } from './context';

/** The tie rule (same-millisecond order), and the selected event's exact time and tie position. */
export function TieRulePanel() {
  const store = useRacesStore();
  const scenario = useRaces(selectScenario);
  const selectedId = useRaces(selectSelectedEventId);
  const ev = scenario.events.find((e) => e.id === selectedId) ?? null;
  const same = ev ? scenario.events.filter((e) => e.at === ev.at) : [];
  const pos = ev ? same.indexOf(ev) : -1;
  const atId = useId();

  return (
    <section className="panel tie" aria-labelledby="tie-h">
      <h2 id="tie-h">Same millisecond? The tie rule</h2>
      <p className="small">
        Entries leave the queue by time; at the same millisecond by rank (lowest first); at the same rank in scenario list order. Races live here.
      </p>
      <ol className="tie-list">
        {RACES_TIE_RULE.map((t) => (
          <li key={t.rank}>
            <strong>{t.name}</strong> <span className="small">— {t.why}</span>
          </li>
        ))}
      </ol>
      <div className="selected-event" aria-live="polite">
        <h3>Selected event</h3>
        {!ev ? (
          <p className="muted small">Click or focus an event on the timeline to edit its time here.</p>
        ) : (
          <>
            <p className="small">
              <code>{ev.id}</code> — {ev.actor} {ev.kind}
              {ev.label ? ` (“${ev.label}”)` : ''}
            </p>
            <div className="field-inline">
              <label htmlFor={atId}>at</label>
              <input
                id={atId}
                key={`${ev.id}-${ev.at}`}
                type="number"
                min={0}
                step={10}
                defaultValue={ev.at}
                onBlur={(e) => store.getState().moveEvent(ev.id, Number(e.currentTarget.value) || 0)}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') store.getState().moveEvent(ev.id, Number(e.currentTarget.value) || 0);
                }}
              />
              <span className="muted small">ms</span>
            </div>
            {same.length > 1 ? (
              <div className="tie-order">
                <span className="small">
                  {pos + 1} of {same.length} scripted events at {formatMs(ev.at)} ms
                </span>
                <button type="button" className="small-btn" disabled={pos <= 0} onClick={() => store.getState().reorderEvent(ev.id, -1)}>
                  Run earlier in the tie
                </button>
                <button type="button" className="small-btn" disabled={pos >= same.length - 1} onClick={() => store.getState().reorderEvent(ev.id, 1)}>
                  Run later in the tie
                </button>
              </div>
            ) : (
              <p className="muted small">No other scripted event shares its millisecond. Drag it onto another event's time to make a tie.</p>
            )}
          </>
        )}
      </div>
    </section>
  );
}
