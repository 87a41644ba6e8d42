import { memo, useCallback, useEffect, useId, useRef, useState } from 'react';
import type { LabId } from '../../sim/labIds';
import type { Scenario } from '../../sim/types';
import { selectScenario, selectSelectedEventId } from '../../store/labSelectors';
import type { LabStoreState } from '../../store/labStore';
import { useLab, useLabStore } from './LabContext';
import type { AllOrdersClass, AllOrdersReply, AllOrdersRequest } from './allOrdersProtocol';
import { RunControls, type RunStatus } from './RunControls';
import { addSelectedHint } from './addSelectedHint';
import { failOnWorkerError } from './workerFailure';

/** Most events one exploration orders (8! = 40,320 orders). */
export const MAX_ORDER_EVENTS = 8;

/**
 * The All orders panel's place when a lab cannot explore the scenario on screen: the same header
 * and test id, and one line saying why and where it does apply (walkthrough: the panel vanished
 * with no word).
 */
export function AllOrdersUnavailable({ lab, why }: { lab: LabId; why: string }) {
  return (
    <section className="panel" aria-labelledby={`${lab}-all-orders-h`} data-testid="all-orders" data-available="false">
      <h2 id={`${lab}-all-orders-h`}>All orders</h2>
      <p className="small muted" data-testid="all-orders-unavailable">
        {why}
      </p>
    </section>
  );
}

type Status = RunStatus;

interface Result {
  /** The scenario explored. */
  of: Scenario;
  events: string[];
  total: number;
  evaluated: number;
  rejected: number;
  pruned: number;
  classes: AllOrdersClass[];
}

/**
 * "All orders" (every lab): the learner ticks up to 8 events (or adds the timeline's selection;
 * with none ticked the lab's natural set is used), the lab's explorer replays every order in a
 * Web Worker with progress and Cancel, and each outcome class (terminal state per call, broken
 * invariants) is listed with its count and "Open the shortest counterexample" ("… order" when it breaks nothing), which loads that
 * order as an undoable edit. Results are cleared when the scenario changes. `scope` (a sentence
 * put first in the intro) says how it differs from a lab's own explorer on the same page (ledger).
 */
export function AllOrdersPanel({ lab, scope }: { lab: LabId; scope?: string }) {
  const store = useLabStore<LabStoreState>();
  const scenario = useLab(selectScenario) as Scenario;
  const selectedOnTimeline = useLab(selectSelectedEventId);
  const [ticked, setPicked] = useState<string[]>([]);
  const [status, setStatus] = useState<Status>('idle');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const [message, setMessage] = useState('');
  const worker = useRef<Worker | null>(null);

  useEffect(() => () => worker.current?.terminate(), []);
  // Ticks of events the scenario no longer has are ignored; a result belongs to the scenario it
  // was computed for (and stays shown while one of its counterexamples is open).
  const picked = ticked.filter((id) => scenario.events.some((e) => e.id === id));
  const shown = result && (result.of === scenario || result.classes.some((c) => c.scenario === scenario)) ? result : null;

  const toggle = useCallback((id: string) => setPicked((p) => (p.includes(id) ? p.filter((x) => x !== id) : p.length >= MAX_ORDER_EVENTS ? p : [...p, id])), []);
  const addHint = addSelectedHint(selectedOnTimeline ?? null, picked, MAX_ORDER_EVENTS);
  const addHintId = useId();
  // The event list is drawn only while its <details> is open: a drag then re-renders none of its
  // (up to 200) checkboxes, and an open list re-renders only the row of the moved event.
  const [listOpen, setListOpen] = useState(false);

  const start = () => {
    worker.current?.terminate();
    const w = new Worker(new URL('./allOrders.worker.ts', import.meta.url), { type: 'module' });
    worker.current = w;
    const current = store.getState().scenario;
    setResult(null);
    setStatus('running');
    setProgress({ done: 0, total: 0 });
    let heard = false;
    w.onmessage = (e: MessageEvent<AllOrdersReply>) => {
      heard = true;
      const m = e.data;
      if (m.type === 'progress') setProgress({ done: m.done, total: m.total });
      else if (m.type === 'result') {
        setResult({ ...m, of: current });
        setPicked(m.events);
        setStatus('done');
        w.terminate();
        worker.current = null;
      } else {
        setStatus('error');
        setMessage(`All orders: ${m.message}`);
        w.terminate();
        worker.current = null;
      }
    };
    failOnWorkerError(w, worker, () => heard, (reason) => {
      setStatus('error');
      setMessage(`All orders: ${reason} — check the connection, then press Retry`);
    });
    const request: AllOrdersRequest = { lab, scenario: current, events: picked.length ? picked : null };
    w.postMessage(request);
  };
  const cancel = () => {
    worker.current?.terminate();
    worker.current = null;
    setStatus('cancelled');
  };
  const open = (c: AllOrdersClass) => {
    store.getState().showScenario(c.scenario);
  };

  const listed = scenario.events.slice(0, 200);
  if (scenario.events.length === 0) {
    return (
      <section className="panel" aria-labelledby={`${lab}-all-orders-h`} data-testid="all-orders">
        <h2 id={`${lab}-all-orders-h`}>All orders</h2>
        <p className="small muted">This scenario has no scripted events to order (its story is in its settings).</p>
      </section>
    );
  }
  return (
    <section className="panel" aria-labelledby={`${lab}-all-orders-h`} data-testid="all-orders">
      <h2 id={`${lab}-all-orders-h`}>All orders</h2>
      <p className="small" data-testid="all-orders-intro">
        {scope && <>{scope} </>}Tick up to {MAX_ORDER_EVENTS} events (none: the lab&apos;s own set). Every order of them over the same time slots is replayed in a background worker; orders the lab
        forbids (one lane&apos;s own steps out of order) are skipped.
      </p>
      <details onToggle={(e) => setListOpen(e.currentTarget.open)}>
        <summary>
          Events to order ({picked.length ? `${picked.length} ticked` : 'the lab\u2019s set'})
        </summary>
        <div className="all-orders-events">
          {listOpen &&
            listed.map((e) => {
              const checked = picked.includes(e.id);
              return <EventTick key={e.id} id={e.id} kind={e.kind} at={e.at} checked={checked} disabled={!checked && picked.length >= MAX_ORDER_EVENTS} onToggle={toggle} />;
            })}
        </div>
      </details>
      <RunControls testIdPrefix="all-orders" runLabel="Explore all orders" status={status} progress={status === 'done' && !shown ? null : progress} message={message} onRun={start} onCancel={cancel} totalPendingAsEllipsis>
        <button type="button" className="small-btn" onClick={() => selectedOnTimeline && !picked.includes(selectedOnTimeline) && toggle(selectedOnTimeline)} disabled={addHint !== null} aria-describedby={addHint !== null ? addHintId : undefined} data-testid="all-orders-add-selected">
          Add the selected event{selectedOnTimeline ? ` (${selectedOnTimeline})` : ''}
        </button>
        {addHint !== null && (
          <span className="muted small all-orders-add-hint" id={addHintId} data-testid="all-orders-add-hint">
            {addHint}
          </span>
        )}
      </RunControls>
      {shown && (
        <div className="all-orders-table-wrap">
        <table className="sql-table all-orders-table" data-testid="all-orders-classes">
          <caption>
            {shown.events.join(', ')}: {shown.total} {shown.total === 1 ? 'order' : 'orders'}, {shown.evaluated} replayed, {shown.rejected} forbidden by the lab, {shown.pruned} pruned as equivalent
          </caption>
          <thead>
            <tr>
              <th scope="col">orders</th>
              <th scope="col">outcome (terminal state per call)</th>
              <th scope="col">broken invariants</th>
              <th scope="col">on the timeline</th>
            </tr>
          </thead>
          <tbody>
            {shown.classes.map((c, i) => (
              <tr key={c.key} data-testid="all-orders-class" data-count={c.count} data-broken={c.broken.join(',')} data-inversions={c.inversions}>
                <td>{c.count}</td>
                <td className="small all-orders-outcome">{readableClass(c.key.split(' | broken:')[0])}</td>
                <td>{c.broken.length ? <span className="badge badge-bad">{c.broken.join(', ')}</span> : <span className="badge badge-ok">none</span>}</td>
                <td>
                  <button type="button" className="small-btn" onClick={() => open(c)} data-testid={`all-orders-open-${i}`} title={c.example.join(' → ')}>
                    {c.broken.length ? 'Open the shortest counterexample' : 'Open the shortest order'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        </div>
      )}
    </section>
  );
}

/** One event's tick box in the All orders list (memoised: a drag re-renders only the moved event's row). */
const EventTick = memo(function EventTick({ id, kind, at, checked, disabled, onToggle }: { id: string; kind: string; at: number; checked: boolean; disabled: boolean; onToggle: (id: string) => void }) {
  return (
    <label className="field-inline small">
      <input type="checkbox" checked={checked} onChange={() => onToggle(id)} disabled={disabled} data-testid={`all-orders-event-${id}`} />
      <span>
        {id} · {kind} @ {at} ms
      </span>
    </label>
  );
});

/**
 * An outcome class key as text a learner can read. A generic `outcomeKey` (sorted JSON-like, times
 * left out: it starts with `{` or `[`) loses its braces and quotes and gets a space after each colon
 * and comma; a lab's own class text (races: `1:cancelled · 2:completed`) is shown as it is.
 * Display only — the key still groups.
 */
export function readableClass(key: string): string {
  if (!/^[{[]/.test(key)) return key;
  return key.replace(/[{}"]/g, '').replace(/:/g, ': ').replace(/,/g, ', ');
}
