import { memo, useDeferredValue, useEffect, useMemo, useRef } from 'react';
import { formatMs } from '../../charts/format';
import type { LabTraceView } from '../../sim/lab';
import type { RacesOutcome, RacesState } from '../../sim/races';
import { effectLostAtMs } from '../../store/racesStatements';
import { headerText, racesTraceView, selectCursor, selectTrace, stepEffectEnds } from '../../store/racesStore';
import { useRaces } from './context';
import { effectLabel } from './timelineMarks';

const LIMIT = 40;

interface WireItem {
  key: string;
  from: 'client' | 'server';
  sentAt: number;
  arrivesAt: number | null;
  label: string;
  http: string | null;
  /** The JSON-RPC message (stringified only when the entry is shown). */
  message: unknown;
  /** 2026-07-28 HTTP request headers as `Name: value` lines joined by "; " (null when none). */
  headers: string | null;
  malformed: boolean;
  transport: string;
  /** When this final response was lost with the stream the client dropped (the outcome's `lost-with-stream`), or null. */
  lostAt: number | null;
}

const WireEntry = memo(function WireEntry(item: WireItem & { newest: boolean; inFlight: boolean; lost: boolean }) {
  const { newest, inFlight, lost } = item;
  const to = item.from === 'client' ? 'server' : 'client';
  return (
    <li className={`wire-item from-${item.from}${newest ? ' is-newest' : ''}${item.malformed ? ' is-malformed' : ''}`} aria-current={newest ? 'step' : undefined}>
      <div className="wire-head">
        <span className={`dir dir-${item.from}`}>
          {item.from} → {to}
        </span>
        <code className="wire-label">{item.label}</code>
        {item.malformed && <span className="badge badge-warn">malformed (deliberate)</span>}
        {newest && <span className="badge badge-info">newest</span>}
        <span className="wire-times">
          sent {formatMs(item.sentAt)} ms ·{' '}
          {lost ? (
            <span className="bad-text">never reached the client: lost with the dropped stream</span>
          ) : item.arrivesAt === null ? <span className="bad-text">never delivered</span> : inFlight ? <span>in flight, arrives {formatMs(item.arrivesAt)} ms</span> : <>arrived {formatMs(item.arrivesAt)} ms</>}
        </span>
      </div>
      {item.http && <p className="wire-http">HTTP: {item.http}</p>}
      {item.headers && <p className="wire-http wire-headers">Headers: <code>{item.headers}</code></p>}
      {item.message !== undefined && <pre className="wire-json">{JSON.stringify(item.message, null, 2)}</pre>}
    </li>
  );
});

/** The wire items of step `s` (its effects in order, keyed `step-index`). */
function stepItems(trace: LabTraceView<RacesState>, outcome: RacesOutcome, s: number): WireItem[] {
  const sentAt = trace.atOf(s);
  return trace.effectsOf(s).map((e, i) => ({
    key: `${s}-${i}`,
    from: e.from,
    sentAt,
    arrivesAt: e.arrivesAt ?? null,
    label: effectLabel(e),
    http: e.http ?? null,
    headers: e.headers === undefined ? null : headerText(e.headers),
    message: e.message,
    malformed: !!e.malformed,
    transport: e.transport,
    lostAt: effectLostAtMs(outcome, e),
  }));
}

/**
 * JSON-RPC messages and HTTP actions put on the wire up to the playhead, newest last and
 * highlighted. Only the shown entries are built (walking back from the playhead's step); the
 * counts come from the trace's per-step effect counts (`stepEffectEnds`), so an edit of a long
 * trace costs this panel the last LIMIT entries, not every message.
 */
export function WirePanel() {
  const full = useDeferredValue(useRaces(selectTrace));
  const trace = racesTraceView(full);
  const cursorMs = useDeferredValue(useRaces(selectCursor));
  const idx = trace.indexAt(cursorMs);
  const ends = stepEffectEnds(trace);
  const total = trace.stepCount > 0 ? ends[trace.stepCount - 1] : 0;
  const uptoCount = idx >= 0 ? ends[idx] : 0;
  const shown = useMemo(() => {
    const parts: WireItem[][] = [];
    let n = 0;
    for (let s = idx; s >= 0 && n < LIMIT; s--) {
      if (ends[s] === (s > 0 ? ends[s - 1] : 0)) continue;
      const items = stepItems(trace, full.outcome, s);
      parts.push(items);
      n += items.length;
    }
    return parts.reverse().flat().slice(-LIMIT);
  }, [trace, full, ends, idx]);
  const newestStep = shown.length ? shown[shown.length - 1].key.split('-')[0] : null;
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [uptoCount, trace]);

  return (
    <section className="panel wire" aria-labelledby="wire-h">
      <h2 id="wire-h">
        Wire <span className="muted small">— {uptoCount} of {total} messages and HTTP actions sent by the playhead ({trace.scenario.config.transport as string})</span>
      </h2>
      {uptoCount === 0 ? (
        <p className="muted">Nothing on the wire yet.</p>
      ) : (
        <ol className="wire-list" ref={listRef} tabIndex={0} aria-label="Wire messages up to the playhead">
          {uptoCount > shown.length && <li className="muted small">… {uptoCount - shown.length} earlier entries not shown</li>}
          {shown.map((item) => (
            <WireEntry {...item} key={item.key} newest={item.key.split('-')[0] === newestStep} inFlight={item.arrivesAt !== null && item.arrivesAt > cursorMs} lost={item.lostAt !== null && cursorMs >= item.lostAt} />
          ))}
        </ol>
      )}
    </section>
  );
}
