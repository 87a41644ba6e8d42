import './kit.css';
import { useId } from 'react';
import { formatMs } from '../../charts/format';
import { selectScenario, selectSelectedEventId } from '../../store/labSelectors';
import type { LabData } from '../../store/labStore';
import { useLab, useLabStore } from './LabContext';

/** One rank of a lab's tie rule (the definition's `tieRule`): lower ranks leave the queue first at a shared millisecond. */
export interface TieRank {
  rank: number;
  name: string;
  why: string;
}

interface StoreSlice extends LabData<unknown, unknown> {
  moveEvent(id: string, atMs: number): void;
  reorderEvent(id: string, direction: -1 | 1): void;
}

/**
 * The page kit's tie-rule panel (`data-testid="tie-rule"`): what runs first when things share a
 * millisecond — the lab's ranks, then scenario list order. With `editable`, the selected event's
 * exact time can be typed and its place among the scripted events at its millisecond changed
 * ("Run earlier / later in the tie"), both undoable store edits.
 */
export function TieRulePanel({ rule, editable = false }: { rule: readonly TieRank[]; editable?: boolean }) {
  return (
    <section className="panel tie" aria-labelledby="tie-h" data-testid="tie-rule">
      <h2 id="tie-h">Same millisecond? The tie rule</h2>
      <p className="small">Entries leave the queue by time; at the same millisecond by rank (lowest first); at the same rank in scenario list order. Races live here.</p>
      <ol className="tie-list">
        {rule.map((t) => (
          <li key={t.rank}>
            <strong>{t.name}</strong> <span className="small">— {t.why}</span>
          </li>
        ))}
      </ol>
      {editable && <SelectedEvent />}
    </section>
  );
}

/** The selected scripted event: its exact time (typed) and its order among the events at its millisecond. */
function SelectedEvent() {
  const store = useLabStore<StoreSlice>();
  const scenario = useLab(selectScenario);
  const selectedId = useLab(selectSelectedEventId);
  const ev = scenario.events.find((e) => e.id === selectedId) ?? null;
  const same = ev ? scenario.events.filter((e) => e.at === ev.at) : [];
  const pos = ev ? same.indexOf(ev) : -1;
  const atId = useId();
  return (
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
            <p className="muted small">No other scripted event shares its millisecond. Drag it onto another event&apos;s time to make a tie.</p>
          )}
        </>
      )}
    </div>
  );
}
