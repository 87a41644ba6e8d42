import { useId, useState } from 'react';
import { downloadText } from '../common/download';
import {
  exportLoaded,
  SCENARIO_CALL_METHODS,
  scenarioLinkOf,
  TRANSCRIPT_FORMAT_NAMES,
  TRANSCRIPT_FORMATS,
  type CallSpan,
  type TranscriptFormat,
} from '../../store/trafficStore';
import { useTrafficApi, useTrafficFields } from './context';
import { ChoiceSelect } from '../common/ChoiceSelect';

/** The client-to-server call span holding message `entry` (null: none, or no message selected). */
function spanOfEntry(spans: readonly CallSpan[], entry: number | null): CallSpan | null {
  if (entry === null) return null;
  return spans.find((s) => s.direction === 'c2s' && s.entries.includes(entry)) ?? null;
}

/** "Open as a scenario" (the whole transcript or the selected call) and export in the four formats. */
export function WhatIfPanel() {
  const { store, runner } = useTrafficApi();
  const { transcript: t, spans, selectedEntry: selected, source } = useTrafficFields('transcript', 'spans', 'selectedEntry', 'source');
  const [format, setFormat] = useState<TranscriptFormat>('jsonrpc-jsonl');
  const [redact, setRedact] = useState(false);
  const formatId = useId();
  if (!t) return null;
  const call = spanOfEntry(spans, selected);
  // Only the calls the races lab can replay become a scenario (the opener drops initialize, tools/list, …).
  const openable = call !== null && SCENARIO_CALL_METHODS.includes(call.method);
  const open = (requestId?: CallSpan['id']) => {
    const r = scenarioLinkOf(t, requestId);
    if (!r.ok) return store.getState().setError({ title: 'This transcript cannot be opened as a races scenario', errors: r.errors });
    window.location.hash = r.href;
    window.scrollTo({ top: 0 }); // the races lab opens at its top (its title and timeline)
  };
  const base = (source ?? 'transcript').replace(/^The (file|sample|pasted) /, '').replace(/\.[a-z]+$/i, '').replace(/^mcp-server-/, '').replace(/[^A-Za-z0-9_-]+/g, '-') || 'transcript';
  return (
    <section className="panel traffic-whatif" aria-label="What if, and export">
      <h2>What if</h2>
      <p className="small muted">The races lab replays the calls with the same times and ids: drag the cancel, switch the client&apos;s policy and see the other outcome.</p>
      <div className="button-row">
        <button type="button" data-testid="open-scenario" onClick={() => open()}>
          Open as a scenario
        </button>
        <button type="button" data-testid="open-call-scenario" disabled={!openable} onClick={() => call && openable && open(call.id)} title={call ? undefined : 'Select a message of a client call first'}>
          {call && openable ? `Open call #${JSON.stringify(call.id)} as a scenario` : 'Open the selected call'}
        </button>
      </div>
      {call && !openable && (
        <p className="small muted" data-testid="open-call-note">
          Call #{JSON.stringify(call.id)} is <code>{call.method}</code>: only {SCENARIO_CALL_METHODS.join(' and ')} calls can become a scenario (the races lab replays those) — select one of them.
        </p>
      )}
      <h2>Export</h2>
      <div className="traffic-fields">
        <label htmlFor={formatId}>format</label>
        <ChoiceSelect id={formatId} data-testid="export-format" choices={TRANSCRIPT_FORMATS} labels={TRANSCRIPT_FORMAT_NAMES} value={format} onChange={setFormat} />
      </div>
      <label className="small check-row">
        <input type="checkbox" data-testid="export-redact" checked={redact} onChange={(e) => setRedact(e.currentTarget.checked)} /> redact arguments and results (keys and ids kept, values hashed)
      </label>
      <div className="button-row">
        <button
          type="button"
          data-testid="export-transcript"
          onClick={() => {
            const { filename, text } = exportLoaded(t, format, redact, base);
            downloadText(filename, text, format === 'inspector-v2' ? 'application/json' : 'text/plain');
          }}
        >
          Export transcript
        </button>
        <button
          type="button"
          data-testid="export-review"
          title="The reliability review report (Markdown) from this transcript; the inputs it cannot infer are asked in the report"
          onClick={async () => {
            try {
              const { filename, text } = await runner.review(redact);
              downloadText(filename, text, 'text/markdown');
            } catch (err) {
              store.getState().setError({ title: 'The review was not written', errors: [`(review): ${(err as Error).message}`] });
            }
          }}
        >
          Export review
        </button>
      </div>
    </section>
  );
}
