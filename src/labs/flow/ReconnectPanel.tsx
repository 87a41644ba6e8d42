import { useMemo, useState } from 'react';
import { reconnectPlan, type PlanStep, type ReconnectInput } from '../../sim/flow/reconnect';

/** One stream drop, planned under both revisions side by side, as wire messages with a note each. */
const SAMPLE: ReconnectInput = {
  droppedId: 7,
  nextId: 12,
  filter: { toolsListChanged: true, resourceSubscriptions: ['file:///notes/b.md', 'file:///notes/a.md'] },
  affectedResources: ['file:///notes/b.md', 'file:///notes/c.md', 'file:///notes/a.md', 'file:///notes/b.md'],
  inFlight: [
    { id: 9, tool: 'search_docs', unsafe: false },
    { id: 10, tool: 'send_invoice', unsafe: true },
  ],
  lastEventId: 40,
  eventStore: { oldestId: 35, newestId: 52 },
  sessionId: 'f3a9c2',
};

function Steps({ steps, testId }: { steps: PlanStep[]; testId: string }) {
  return (
    <ol className="plan" data-testid={testId}>
      {steps.map((s, i) => (
        <li key={i} className={`plan-step from-${s.from}`}>
          <div className="plan-head">
            <span className={`badge ${s.from === 'client' ? 'badge-info' : 'badge-ok'}`}>{s.from}</span> <code>{s.http}</code>
          </div>
          {s.message !== undefined && <pre className="plan-msg" tabIndex={0}>{JSON.stringify(s.message, null, 1)}</pre>}
          <p className="plan-note">{s.note}</p>
        </li>
      ))}
    </ol>
  );
}

export function ReconnectPanel() {
  const [evicted, setEvicted] = useState(false);
  const input = useMemo(() => (evicted ? { ...SAMPLE, eventStore: { oldestId: 45, newestId: 52 } } : SAMPLE), [evicted]);
  return (
    <section className="panel" aria-labelledby="plan-h">
      <h2 id="plan-h">Reconnect plan after the same drop</h2>
      <p className="small muted">
        The listen stream (id 7) drops with a safe call (search_docs) and an unsafe one (send_invoice) in flight, and updates to a.md, b.md, c.md possibly missed. The client saw event 40.
      </p>
      <label className="flow-check">
        <input type="checkbox" checked={evicted} onChange={(e) => setEvicted(e.target.checked)} data-testid="plan-evicted" /> the 2025-11-25 event store has evicted events 41–44
      </label>
      <div className="plan-grid">
        <div>
          <h3>2026-07-28 (no resumption)</h3>
          <Steps steps={reconnectPlan('2026-07-28', input)} testId="plan-2026" />
        </div>
        <div>
          <h3>2025-11-25 (Last-Event-ID)</h3>
          <Steps steps={reconnectPlan('2025-11-25', input)} testId="plan-2025" />
        </div>
      </div>
    </section>
  );
}
