import { useDeferredValue, useMemo } from 'react';
import { formatMs } from '../../charts/format';
import type { Revision } from '../../sim/mcp';
import type { Json } from '../../sim/types';
import { checkedAgainst, checkTaskExtSchema, taskWireCheckPlan } from '../../store/resilienceStore';
import type { TasksState } from '../../sim/resilience/tasks';
import { useR } from './context';

const LIMIT = 30;

interface Row {
  key: number;
  from: 'client' | 'server';
  at: number;
  arrivesAt: number | null;
  label: string;
  against: string;
  extErrors: string[] | null;
  json: string;
}

/** What a message is, for its heading: the method, or "answer to <method>" / "error". */
function labelOf(m: { method?: string; error?: { code?: number } }, answers: string | undefined): string {
  if (m.method) return m.method;
  if (m.error) return `error ${m.error.code ?? ''} (to ${answers ?? '?'})`;
  return `answer to ${answers ?? '?'}`;
}

/**
 * The task messages put on the wire up to the playhead, each with what it is checked against:
 * the official schema of the revision, or — for 2026-07-28 task messages, which the official core
 * schema does not define — the official tasks extension schema (vendored from ext-tasks), run here live.
 */
export function TaskWirePanel() {
  const trace = useDeferredValue(useR((s) => s.trace));
  const cursorMs = useR((s) => Math.floor(s.cursorMs));
  const revision = (trace.initial as TasksState).config.revision as Revision;
  const rows = useMemo(() => {
    const methodOfId = new Map<string, string>();
    return trace.effects.map((e, i): Row => {
      const m = e.message as { id?: string | number; method?: string; error?: { code?: number } };
      if (m.method !== undefined && m.id !== undefined) methodOfId.set(String(m.id), m.method);
      const answers = m.method === undefined ? methodOfId.get(String(m.id)) : undefined;
      const plan = taskWireCheckPlan(revision, e.message as Json, answers);
      return {
        key: i,
        from: e.from,
        at: e.at,
        arrivesAt: e.arrivesAt ?? null,
        label: labelOf(m, answers),
        against: checkedAgainst(revision, plan),
        extErrors: plan.ext.length ? checkTaskExtSchema(plan, e.message as Json) : null,
        json: JSON.stringify(e.message, null, 2),
      };
    });
  }, [trace, revision]);
  const upto = rows.filter((r) => r.at <= cursorMs);
  const shown = upto.slice(-LIMIT);
  return (
    <section className="panel task-wire" aria-labelledby="twire-h">
      <h2 id="twire-h">
        Wire <span className="muted small">— {upto.length} of {rows.length} messages sent by the playhead ({revision})</span>
      </h2>
      <p className="help">
        {revision === '2025-11-25' ? (
          <>Every task message here is defined by the official 2025-11-25 MCP schema; the test suite checks each against its <code>$defs</code> type.</>
        ) : (
          <>
            The official 2026-07-28 core schema has no task messages (tasks moved to the <code>io.modelcontextprotocol/tasks</code> extension). Those messages are checked here, live, against the{' '}
            <strong>official tasks extension schema</strong> (modelcontextprotocol/ext-tasks <code>schema/draft/schema.json</code>); <code>tools/call</code>, errors and the tool result are checked against the official 2026-07-28 core schema in the test suite.
          </>
        )}
      </p>
      {upto.length === 0 ? (
        <p className="muted">Nothing on the wire yet.</p>
      ) : (
        <ol className="wire-list" tabIndex={0} aria-label="Task messages up to the playhead" data-testid="task-wire">
          {upto.length > shown.length && <li className="muted small">… {upto.length - shown.length} earlier messages not shown</li>}
          {shown.map((r) => (
            <li key={r.key} className={`wire-item from-${r.from}`}>
              <div className="wire-head">
                <span className={`dir dir-${r.from}`}>
                  {r.from} → {r.from === 'client' ? 'server' : 'client'}
                </span>
                <code className="wire-label">{r.label}</code>
                <span className="wire-times">
                  sent {formatMs(r.at)} ms{r.arrivesAt !== null && `, ${r.arrivesAt > cursorMs ? 'arrives' : 'arrived'} ${formatMs(r.arrivesAt)} ms`}
                </span>
              </div>
              <p className="small wire-check" data-testid="wire-checked-against">
                checked against: {r.against}
                {r.extErrors !== null && (r.extErrors.length === 0 ? <span className="badge badge-ok">✓ extension schema</span> : <span className="badge badge-bad">✗ {r.extErrors.join('; ')}</span>)}
              </p>
              <details>
                <summary className="small">JSON</summary>
                <pre className="wire-json">{r.json}</pre>
              </details>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
