import { useId, useMemo, useState } from 'react';
import { Timeline } from '../../charts/Timeline';
import {
  DEFAULT_ALLOWANCE_MS,
  shownEntries,
  type Finding,
  type TrafficState,
} from '../../store/trafficStore';
import { useTraffic, useTrafficApi, useTrafficFields } from './context';
import { entryLabel, entryMarkId, TRAFFIC_LANES, trafficDomain, trafficMarks } from './trafficMarks';

const EMPTY: number[] = [];

/** "1 line", "100,000 lines": a count with its noun in the right number. */
const counted = (n: number, noun: string): string => `${n.toLocaleString('en')} ${noun}${n === 1 ? '' : 's'}`;

/** The entries the filter shows (memoised on transcript and filter). */
export function useShown(): number[] {
  const { transcript, filter, spans } = useTrafficFields('transcript', 'filter', 'spans');
  return useMemo(() => (transcript ? shownEntries(transcript, filter, spans) : EMPTY), [transcript, filter, spans]);
}

const currentFindingOf = (s: TrafficState): Finding | null => (s.currentFinding !== null ? (s.report?.findings[s.currentFinding] ?? null) : null);

/** What was loaded: the format (named), the revision and how it was found, counts, skipped lines. */
export function SummaryPanel() {
  const { transcript: t, report, source } = useTrafficFields('transcript', 'report', 'source');
  if (!t) {
    return (
      <section className="panel traffic-summary" aria-label="Transcript">
        <h2>Transcript</h2>
        <p className="muted small" data-testid="traffic-empty">
          No transcript loaded yet.
        </p>
      </section>
    );
  }
  return (
    <section className="panel traffic-summary" aria-label="Transcript" data-testid="traffic-summary">
      <h2>Transcript</h2>
      <dl className="traffic-facts">
        <dt>Source</dt>
        <dd data-testid="traffic-source">{source}</dd>
        <dt>Format</dt>
        <dd data-testid="traffic-format" data-format={t.format}>
          {t.formatName}
        </dd>
        <dt>Revision</dt>
        <dd data-testid="traffic-revision">
          <RevisionText revision={t.revision} note={t.revisionNote} />
        </dd>
        <dt>Read</dt>
        <dd data-testid="traffic-counts">
          {counted(t.lineCount, 'line')} · {counted(t.messageIndices.length, 'message')} · {counted(report?.checked.requests ?? 0, 'request')} · {(t.entries.length - t.messageIndices.length).toLocaleString('en')} other
          entries
        </dd>
        {t.timeAssumption && (
          <>
            <dt>Times</dt>
            <dd data-testid="traffic-time-assumption">
              {t.timeAssumption}
              <span className="traffic-consequence small" data-testid="traffic-time-consequence">
                {timingConsequence(report?.options.allowanceMs ?? DEFAULT_ALLOWANCE_MS, report?.options.maxMs ?? null)}
              </span>
            </dd>
          </>
        )}
        {t.outOfOrder.count > 0 && (
          <>
            <dt>Order</dt>
            <dd>
              {t.outOfOrder.count} entries were earlier than the line before them (first at line {t.outOfOrder.firstLine}); sorted by time
            </dd>
          </>
        )}
      </dl>
      <details className="traffic-skipped" data-testid="traffic-skipped">
        <summary>
          <span data-testid="traffic-skipped-count">{t.skipped.length}</span> line{t.skipped.length === 1 ? '' : 's'} skipped
        </summary>
        {t.skipped.length > 0 && (
          <ul className="small">
            {t.skipped.slice(0, 200).map((k) => (
              <li key={k.line}>
                line {k.line}: {k.reason} — <code>{k.text}</code>
              </li>
            ))}
            {t.skipped.length > 200 && <li>… and {t.skipped.length - 200} more</li>}
          </ul>
        )}
      </details>
    </section>
  );
}

/**
 * The revision line: the note alone when it names the revision (`2026-07-28, from the initialize
 * handshake`), so the revision is said once; the revision and the note otherwise.
 */
function RevisionText({ revision, note }: { revision: string; note: string }) {
  if (note.startsWith(`${revision}, `)) {
    return (
      <>
        {revision}
        <span className="muted small">{note.slice(revision.length)}</span>
      </>
    );
  }
  if (note.includes(revision)) return <>{note}</>;
  return (
    <>
      {revision} <span className="muted small">({note})</span>
    </>
  );
}

const count = (v: number) => v.toLocaleString('en-US');

/**
 * What "1 ms per line" does to the timing rules: they measure lines, so a response counts as late
 * after its cancellation only more than `allowanceMs` lines later, and a call as too long only past
 * `maxMs` lines — a short recording of bare lines never trips them.
 */
export function timingConsequence(allowanceMs: number, maxMs: number | null): string {
  const max = maxMs === null ? '' : ` and a call counts as longer than the maximum only past ${count(maxMs)} lines`;
  return ` So the timing rules count lines, not time: a response or progress counts as late after its cancellation only when it comes more than ${count(allowanceMs)} lines after it (the ${count(allowanceMs)} ms latency allowance)${max}. A recording shorter than that never trips them; the other rules (ids, order, message shape) still apply. Add a "ts" to each line to check timing.`;
}

/** The transcript on the shared Timeline: client and server lanes, calls as spans, messages as marks. */
export function TrafficTimeline() {
  const { store } = useTrafficApi();
  const { transcript: t, spans, cursorMs, selectedEntry: selected, loadCount } = useTrafficFields('transcript', 'spans', 'cursorMs', 'selectedEntry', 'loadCount');
  const finding = useTraffic(currentFindingOf);
  const shown = useShown();
  const domain = useMemo(() => trafficDomain(t), [t]);
  const marks = useMemo(() => (t ? trafficMarks(t, spans, shown, finding?.entries ?? EMPTY, selected, cursorMs) : []), [t, spans, shown, finding, selected, cursorMs]);
  const onSeek = useMemo(() => (ms: number) => store.getState().seek(ms), [store]);
  if (!t) return null;
  return (
    <section className="panel timeline-panel" aria-labelledby="traffic-tl-h" data-testid="traffic-timeline" data-marks={marks.length}>
      <h2 id="traffic-tl-h">
        Timeline <span className="muted small">— click or drag on it to select the nearest message; {shown.length > 600 ? 'zoomed out: entries grouped, calls in flight as steps' : 'open-ended bars: no outcome in the transcript'}</span>
      </h2>
      <Timeline lanes={TRAFFIC_LANES} marks={marks} domain={domain} cursorMs={cursorMs} label="The imported transcript: client and server lanes" onSeek={onSeek} resetKey={loadCount} snapMs={1} />
      <p className="small muted" data-testid="traffic-no-playback">
        This timeline is the recording as it happened: there is no clock to play and nothing to drag here — the page is for checking real traffic against the rules. To play a call step by step and change it, select a tools/call (in
        the list, a finding or here) and press “Open call #… as a scenario” under What if: the races lab opens it on its own timeline.
      </p>
    </section>
  );
}

/** Filters by id, method and tool, and the check options (latency allowance, optional maximum). */
export function OptionsPanel() {
  const { store, runner } = useTrafficApi();
  const { filter, allowanceText: allowance, maxText: max, fieldErrors: errors, spans } = useTrafficFields('filter', 'allowanceText', 'maxText', 'fieldErrors', 'spans');
  const methods = useMemo(() => [...new Set(spans.map((s) => s.method))].sort(), [spans]);
  const tools = useMemo(() => [...new Set(spans.map((s) => s.tool).filter((x): x is string => x !== null))].sort(), [spans]);
  const ids = { id: useId(), method: useId(), tool: useId(), allowance: useId(), max: useId(), ml: useId(), tl: useId() };
  const setOption = (kind: 'allowance' | 'max', text: string) => {
    const s = store.getState();
    const options = kind === 'allowance' ? s.setAllowanceText(text) : s.setMaxText(text);
    if (options) runner.recheck(options);
  };
  return (
    <section className="panel traffic-options" aria-label="Filter and check options">
      <h2>Filter</h2>
      <div className="traffic-fields">
        <label htmlFor={ids.id}>id</label>
        <input id={ids.id} data-testid="filter-id" value={filter.id} placeholder="any" onChange={(e) => store.getState().setFilter('id', e.currentTarget.value)} />
        <label htmlFor={ids.method}>method</label>
        <input id={ids.method} data-testid="filter-method" list={ids.ml} value={filter.method} placeholder="any" onChange={(e) => store.getState().setFilter('method', e.currentTarget.value)} />
        <datalist id={ids.ml}>{methods.map((m) => <option key={m} value={m} />)}</datalist>
        <label htmlFor={ids.tool}>tool</label>
        <input id={ids.tool} data-testid="filter-tool" list={ids.tl} value={filter.tool} placeholder="any" onChange={(e) => store.getState().setFilter('tool', e.currentTarget.value)} />
        <datalist id={ids.tl}>{tools.map((m) => <option key={m} value={m} />)}</datalist>
      </div>
      <h2>Check options</h2>
      <div className="traffic-fields">
        <label htmlFor={ids.allowance}>latency allowance (ms)</label>
        <input id={ids.allowance} data-testid="option-allowance" inputMode="numeric" value={allowance} aria-invalid={errors.allowanceMs ? true : undefined} onChange={(e) => setOption('allowance', e.currentTarget.value)} />
        <label htmlFor={ids.max}>maximum call time (ms)</label>
        <input id={ids.max} data-testid="option-max" inputMode="numeric" value={max} placeholder="none" aria-invalid={errors.maxMs ? true : undefined} onChange={(e) => setOption('max', e.currentTarget.value)} />
      </div>
      {(errors.allowanceMs || errors.maxMs) && (
        <ul className="field-errors" role="alert" data-testid="option-errors">
          {errors.allowanceMs && <li>{errors.allowanceMs}</li>}
          {errors.maxMs && <li>{errors.maxMs}</li>}
        </ul>
      )}
      <p className="small muted">A response or progress more than the allowance after its cancellation means the server kept working. The maximum flags every call that lived longer.</p>
    </section>
  );
}

/** The findings, with next/previous stepping; a finding's messages select on click. */
export function FindingsPanel() {
  const { store } = useTrafficApi();
  const { report, currentFinding: current, transcript: t } = useTrafficFields('report', 'currentFinding', 'transcript');
  if (!report || !t) return null;
  const { findings, counts } = report;
  return (
    <section className="panel traffic-findings" aria-labelledby="findings-h" data-testid="traffic-findings">
      <div className="findings-head">
        <h2 id="findings-h">
          Findings <span data-testid="findings-count">{findings.length}</span>
        </h2>
        <span className="small muted">
          {counts.error} error · {counts.warning} warning · {counts.info} info
        </span>
        <div className="button-row">
          <button type="button" className="small-btn" data-testid="finding-prev" disabled={findings.length === 0} onClick={() => store.getState().stepFinding('previous')}>
            ← Previous finding
          </button>
          <button type="button" className="small-btn" data-testid="finding-next" disabled={findings.length === 0} onClick={() => store.getState().stepFinding('next')}>
            Next finding →
          </button>
        </div>
      </div>
      {findings.length === 0 ? (
        <p data-testid="findings-clean">No rule broken in the observed messages{report.options.maxMs === null ? ' (set a maximum to check call lengths)' : ''}.</p>
      ) : (
        <ol className="findings-list">
          {findings.map((f, i) => (
            <li key={i} className={`finding sev-${f.severity}${i === current ? ' is-current' : ''}`} data-testid="finding" data-check={f.check} aria-current={i === current ? 'true' : undefined}>
              <div className="finding-head">
                <span className={`badge sev-${f.severity}`}>{f.severity}</span>
                <button type="button" className="link-btn finding-title" data-testid="finding-select" onClick={() => store.getState().selectFinding(i)}>
                  {f.title}
                </button>
                <span className="muted small">at {f.atMs} ms</span>
              </div>
              <p className="small">{f.message}</p>
              <p className="small finding-meta">
                rule <code data-testid="finding-rule">{f.rule || f.check}</code> · taught by{' '}
                <a href={f.teaches.href} data-testid="finding-teaches">
                  {f.teaches.lab} {f.teaches.scenario}
                </a>
              </p>
              <div className="finding-entries">
                {f.entries.slice(0, 12).map((ix) => (
                  <button
                    key={ix}
                    type="button"
                    className="small-btn"
                    data-testid="finding-entry"
                    onClick={() => {
                      store.getState().selectFinding(i);
                      store.getState().selectEntry(ix);
                    }}
                  >
                    {t.entries[ix].atMs} ms {entryLabel(t.entries[ix])}
                  </button>
                ))}
                {f.entries.length > 12 && <span className="small muted">… {f.entries.length - 12} more</span>}
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

const ROW_H = 26;
const LIST_H = 312;

/** The message list (windowed: only the rows in view are in the DOM) beside the wire panel. */
export function MessagesPanel() {
  const { store } = useTrafficApi();
  const { transcript: t, selectedEntry: selected } = useTrafficFields('transcript', 'selectedEntry');
  const finding = useTraffic(currentFindingOf);
  const shown = useShown();
  const [scrollTop, setScrollTop] = useState(0);
  if (!t) return null;
  const first = Math.max(0, Math.floor(scrollTop / ROW_H) - 5);
  const last = Math.min(shown.length, first + Math.ceil(LIST_H / ROW_H) + 10);
  const inFinding = new Set(finding?.entries ?? EMPTY);
  const e = selected !== null ? t.entries[selected] : undefined;
  return (
    <section className="panel traffic-messages" aria-labelledby="msgs-h">
      <h2 id="msgs-h">
        Messages <span className="muted small" data-testid="shown-count">{shown.length.toLocaleString('en')} shown</span>
      </h2>
      <div className="traffic-split">
        <div className="msg-list" role="listbox" aria-label="Transcript entries" tabIndex={0} style={{ height: Math.min(LIST_H, Math.max(3, shown.length) * ROW_H + 2) }} onScroll={(ev) => setScrollTop(ev.currentTarget.scrollTop)} data-testid="msg-list"
          onKeyDown={(ev) => {
            if (ev.key !== 'ArrowDown' && ev.key !== 'ArrowUp') return;
            ev.preventDefault();
            const pos = selected === null ? -1 : shown.indexOf(selected);
            const next = shown[Math.max(0, Math.min(shown.length - 1, pos + (ev.key === 'ArrowDown' ? 1 : -1)))];
            if (next !== undefined) store.getState().selectEntry(next);
          }}
        >
          <div style={{ height: shown.length * ROW_H, position: 'relative' }}>
            {shown.slice(first, last).map((ix, k) => {
              const en = t.entries[ix];
              return (
                <div
                  key={ix}
                  role="option"
                  aria-selected={ix === selected}
                  className={`msg-row${ix === selected ? ' is-selected' : ''}${inFinding.has(ix) ? ' in-finding' : ''} msg-${en.type}`}
                  style={{ top: (first + k) * ROW_H, height: ROW_H }}
                  data-testid="msg-row"
                  data-entry={ix}
                  onClick={() => store.getState().selectEntry(ix)}
                >
                  <span className="msg-time">{en.atMs} ms</span>
                  <span className="msg-label">{entryLabel(en)}</span>
                </div>
              );
            })}
          </div>
        </div>
        <div className="wire-view" data-testid="traffic-wire" data-entry={selected ?? ''} data-mark={selected !== null ? entryMarkId(selected) : ''}>
          {e ? (
            <>
              <p className="small">
                <strong>{entryLabel(e)}</strong> · {e.atMs} ms · line {e.line}
                {e.type === 'message' && (
                  <>
                    {' '}
                    · {e.direction === 'c2s' ? 'client → server' : 'server → client'} · {e.transport}
                    {e.status !== undefined && ` · HTTP ${e.status}`}
                  </>
                )}
              </p>
              <p className="small muted">As received:</p>
              <pre className="wire-raw" data-testid="wire-raw">{e.type === 'message' ? e.raw : e.text}</pre>
            </>
          ) : (
            <p className="muted small">Select a message (in the list, a finding or on the timeline) to see it as received.</p>
          )}
        </div>
      </div>
    </section>
  );
}
