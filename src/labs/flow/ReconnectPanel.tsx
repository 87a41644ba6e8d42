import { useDeferredValue, useMemo, useState } from 'react';
import { useStore } from 'zustand';
import type { FlowConfig } from '../../sim/flow';
import type { PlanStep } from '../../sim/flow/reconnect';
import { reconnectPlan, streamDrop } from '../../store/flowStore';
import type { FlowStore } from '../../store/flowStore';

const fmt = (ms: number) => ms.toLocaleString('en-US');

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
  const inFlight = i.inFlight.length ? i.inFlight.map((c) => `${c.tool} (tools/call id ${c.id})`).join(', ') : 'no call';
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
            value={storeEvents}
            data-testid="plan-store"
            onChange={(e) => e.target.value !== '' && Number(e.target.value) >= 1 && setStoreFor({ id: trace.scenario.id, events: Math.floor(Number(e.target.value)) })}
          />
        </label>
      </div>
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
