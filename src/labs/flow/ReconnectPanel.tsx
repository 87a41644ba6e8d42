import { useDeferredValue, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { FlowConfig } from '../../sim/flow';
import type { PlanStep } from '../../sim/flow/reconnect';
import { reconnectPlan, streamDrop } from '../../store/flowStore';
import type { FlowStore } from '../../store/flowStore';
import { ErrorBanner } from '../common/ErrorBanner';

const fmt = (ms: number) => ms.toLocaleString('en-US');

/** The largest event store the plan takes (events). */
export const EVENT_STORE_MAX = 1_000_000;

/**
 * Why the event-store box refuses `text` (null when it takes it), in the labs' wording
 * `field: what is wrong — what to do`: a whole number of events from 1 to EVENT_STORE_MAX.
 */
export function eventStoreProblem(text: string): string | null {
  const range = `enter a whole number of events from 1 to ${fmt(EVENT_STORE_MAX)}`;
  if (text.trim() === '') return `plan.eventStoreEvents: is empty — ${range}`;
  const n = Number(text);
  if (!Number.isFinite(n)) return `plan.eventStoreEvents: "${text}" is not a number — ${range}`;
  if (!Number.isInteger(n)) return `plan.eventStoreEvents: ${text} is not a whole number — ${range}`;
  if (n < 1) return `plan.eventStoreEvents: ${fmt(n)} is below 1 — ${range}`;
  if (n > EVENT_STORE_MAX) return `plan.eventStoreEvents: ${fmt(n)} is above the maximum (${fmt(EVENT_STORE_MAX)}) — ${range}`;
  return null;
}

function Steps({ steps, testId }: { steps: PlanStep[]; testId: string }) {
  return (
    <ol className="plan" data-testid={testId}>
      {steps.map((s, i) => (
        <li key={i} className={`plan-step from-${s.from}`}>
          <div className="plan-head">
            <span className={`badge ${s.from === 'client' ? 'badge-info' : 'badge-ok'}`}>{s.from}</span> <code>{s.http}</code>
          </div>
          {s.message !== undefined && (
            <pre className="plan-msg" tabIndex={0}>
              {JSON.stringify(s.message, null, 1)}
            </pre>
          )}
          <p className="plan-note">{s.note}</p>
        </li>
      ))}
    </ol>
  );
}

/**
 * The reconnect plan for the current scenario's stream drop (or a drop assumed at the playhead when
 * the stream never drops), under both revisions side by side, as wire messages with a note each.
 * Two assumptions the scenario does not fix are switches here: whether the in-flight calls are safe
 * to repeat, and how many events the 2025-11-25 event store keeps (default: the buffer's capacity).
 */
export function ReconnectPanel({ store }: { store: FlowStore }) {
  const trace = useStore(store, (s) => s.trace);
  const cursorMs = useDeferredValue(useStore(store, (s) => Math.floor(s.cursorMs)));
  const capacity = (trace.scenario.config as unknown as FlowConfig).capacityEvents;
  const [storeFor, setStoreFor] = useState<{ id: string; events: number } | null>(null);
  const storeEvents = storeFor && storeFor.id === trace.scenario.id ? storeFor.events : capacity;
  const [safe, setSafe] = useState(false);
  const [storeDraft, setStoreDraft] = useState<string | null>(null);
  const [storeError, setStoreError] = useState<string | null>(null);
  // Like the herd's boxes: a good value applies as it is typed; a bad one is refused in the shared
  // banner, and leaving the box shows the kept value again.
  const typeStore = (text: string) => {
    setStoreDraft(text);
    const problem = eventStoreProblem(text);
    if (problem) setStoreError(`${problem}; the plan keeps ${fmt(storeEvents)}`);
    else {
      setStoreError(null);
      setStoreFor({ id: trace.scenario.id, events: Number(text) });
    }
  };
  const leaveStore = () => setStoreDraft(null);
  const drop = useMemo(() => streamDrop(trace, cursorMs, { eventStoreEvents: storeEvents, inFlightSafe: safe }), [trace, cursorMs, storeEvents, safe]);
  if (!drop) {
    return (
      <section className="panel" aria-labelledby="plan-h">
        <h2 id="plan-h">Reconnect plan after the drop</h2>
        <p data-testid="plan-drop">This scenario is a fleet of clients without a single stream to follow; pick a stream scenario (R1, R2, P1, P2 or F1) to see the reconnect plan for its drop.</p>
      </section>
    );
  }
  const i = drop.input;
  const inFlight = i.inFlight.length ? i.inFlight.map((c) => `${c.tool} (request ${JSON.stringify(c.id)}${c.idempotencyKey !== undefined ? `, idempotency key ${JSON.stringify(c.idempotencyKey)}` : ''})`).join(', ') : 'no call';
  return (
    <section className="panel" aria-labelledby="plan-h">
      <h2 id="plan-h">Reconnect plan after the drop the timeline shows</h2>
      <p data-testid="plan-drop">
        {drop.assumed ? (
          <>
            <strong>No drop in this run</strong> ({drop.reason}). The plans are for a drop at the playhead, <strong>t = {fmt(drop.atMs)} ms</strong>: move the playhead to see them change, or pick the
            “disconnect at capacity” policy.{' '}
          </>
        ) : (
          <>
            <strong>The stream dropped at t = {fmt(drop.atMs)} ms</strong> ({drop.reason}){drop.reconnectAtMs !== null ? `; the client reconnected at ${fmt(drop.reconnectAtMs)} ms` : '; the client did not reconnect within the run'}.{' '}
          </>
        )}
        {fmt(drop.lostAtDrop)} queued or held event{drop.lostAtDrop === 1 ? '' : 's'} lost with it; the client had seen event {fmt(i.lastEventId)}; in flight: {inFlight}; subscribed to{' '}
        {(i.filter.resourceSubscriptions ?? []).join(', ')}; marked for refetch: {i.affectedResources.length ? i.affectedResources.join(', ') : 'nothing'}.
      </p>
      <div className="flow-plan-options">
        <label className="flow-check">
          <input type="checkbox" checked={safe} onChange={(e) => setSafe(e.target.checked)} data-testid="plan-safe" /> the in-flight calls are safe to repeat (read-only or idempotent)
        </label>
        <label className="flow-field">
          <span>2025-11-25 event store keeps the newest (events)</span>
          <input
            type="number"
            min={1}
            max={EVENT_STORE_MAX}
            step={1}
            value={storeDraft ?? String(storeEvents)}
            data-testid="plan-store"
            aria-invalid={storeError !== null}
            onChange={(e) => typeStore(e.target.value)}
            onBlur={leaveStore}
          />
        </label>
      </div>
      <ErrorBanner error={storeError ? { title: 'Event store size not applied', errors: [storeError] } : null} onDismiss={() => setStoreError(null)} testId="plan-store-error" />
      <div className="plan-grid">
        <div>
          <h3>2026-07-28 (no resumption)</h3>
          <Steps steps={reconnectPlan('2026-07-28', i)} testId="plan-2026" />
        </div>
        <div>
          <h3>2025-11-25 (Last-Event-ID)</h3>
          <Steps steps={reconnectPlan('2025-11-25', i)} testId="plan-2025" />
        </div>
      </div>
    </section>
  );
}
