import { memo, useDeferredValue, useEffect, useMemo, useRef } from 'react';
import { formatMs } from '../../charts/format';
import { racesTraceView, selectCursor, selectTrace } from '../../store/racesStore';
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
}

const WireEntry = memo(function WireEntry(item: WireItem & { newest: boolean; inFlight: boolean }) {
  const { newest, inFlight } = item;
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
          {item.arrivesAt === null ? <span className="bad-text">never delivered</span> : inFlight ? <span>in flight, arrives {formatMs(item.arrivesAt)} ms</span> : <>arrived {formatMs(item.arrivesAt)} ms</>}
        </span>
      </div>
      {item.http && <p className="wire-http">HTTP: {item.http}</p>}
      {item.headers && <p className="wire-http wire-headers">Headers: <code>{item.headers}</code></p>}
      {item.message !== undefined && <pre className="wire-json">{JSON.stringify(item.message, null, 2)}</pre>}
    </li>
  );
});

/** JSON-RPC messages and HTTP actions put on the wire up to the playhead, newest last and highlighted. */
export function WirePanel() {
  const trace = racesTraceView(useDeferredValue(useRaces(selectTrace)));
  const cursorMs = useDeferredValue(useRaces(selectCursor));
  const idx = trace.indexAt(cursorMs);
  const all = useMemo(() => {
    const out: WireItem[] = [];
    for (let s = 0; s < trace.stepCount; s++) {
      const sentAt = trace.atOf(s);
      trace.effectsOf(s).forEach((e, i) => {
        out.push({
          key: `${s}-${i}`,
          from: e.from,
          sentAt,
          arrivesAt: e.arrivesAt ?? null,
          label: effectLabel(e),
          http: e.http ?? null,
          headers: e.headers === undefined ? null : Object.entries(e.headers).map(([k, v]) => `${k}: ${v}`).join('; '),
          message: e.message,
          malformed: !!e.malformed,
          transport: e.transport,
        });
      });
    }
    return out;
  }, [trace]);
  const lastSentIndex = idx;
  const upto = useMemo(() => all.filter((it) => Number(it.key.split('-')[0]) <= lastSentIndex), [all, lastSentIndex]);
  const shown = upto.slice(-LIMIT);
  const newestStep = upto.length ? upto[upto.length - 1].key.split('-')[0] : null;
  const listRef = useRef<HTMLOListElement>(null);

  useEffect(() => {
    const el = listRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [upto.length, trace]);

  return (
    <section className="panel wire" aria-labelledby="wire-h">
      <h2 id="wire-h">
        Wire <span className="muted small">— {upto.length} of {all.length} messages and HTTP actions sent by the playhead ({trace.scenario.config.transport as string})</span>
      </h2>
      {upto.length === 0 ? (
        <p className="muted">Nothing on the wire yet.</p>
      ) : (
        <ol className="wire-list" ref={listRef} tabIndex={0} aria-label="Wire messages up to the playhead">
          {upto.length > shown.length && <li className="muted small">… {upto.length - shown.length} earlier entries not shown</li>}
          {shown.map((item) => (
            <WireEntry {...item} key={item.key} newest={item.key.split('-')[0] === newestStep} inFlight={item.arrivesAt !== null && item.arrivesAt > cursorMs} />
          ))}
        </ol>
      )}
    </section>
  );
}
