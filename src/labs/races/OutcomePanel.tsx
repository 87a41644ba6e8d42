import { useMemo } from 'react';
import { formatMs } from '../../charts/format';
import type { LabTraceView } from '../../sim/lab';
import type { RacesState, RacesTrace, RequestOutcome } from '../../sim/races';
import { finalResponseNote, serverWorkText } from '../../store/racesStatements';
import { racesOutcomeAt } from '../../store/racesStore';
import { racesOriginWord } from '../../store/failureOrigins';
import type { Revision } from '../../sim/mcp';
import { racesTraceView, selectConfig, selectCursor, selectTrace } from '../../store/racesStore';
import { useRaces } from './context';
import { RuleRef } from './RuleRef';
import { requestLabel } from './timelineMarks';


export function stateBadgeClass(state: string): string {
  if (state === 'completed' || state === 'ended-by-server') return 'badge badge-ok';
  if (state === 'pending') return 'badge badge-pending';
  if (state === 'cancelled' || state === 'connection-closed') return 'badge badge-warn';
  return 'badge badge-bad';
}

interface IgnoredItem {
  at: number;
  by: string;
  what: string;
  reason: string;
  rule?: string;
}

/** Every ignored event of steps 0…`uptoIndex`, read through the trace's per-step accessors (no states built). */
function ignoredUpTo(trace: LabTraceView<RacesState>, uptoIndex: number): IgnoredItem[] {
  const out: IgnoredItem[] = [];
  for (let i = 0; i <= uptoIndex && i < trace.stepCount; i++) {
    for (const ig of trace.ignoredOf(i)) out.push({ at: trace.atOf(i), ...ig });
  }
  return out;
}

function IgnoredBySide({ items, later, revision }: { items: IgnoredItem[]; later: number; revision: Revision }) {
  const sides = ['client', 'server'] as const;
  // Up to the playhead: the summary above counts the whole trace too, so say which (walkthrough).
  if (items.length === 0) return <p className="muted small">Neither side has ignored anything yet{later > 0 ? `; ${later} later in the trace (move the playhead on to see ${later === 1 ? 'it' : 'them'}).` : '.'}</p>;
  return (
    <div className="ignored-sides">
      {sides.map((side) => {
        const list = items.filter((i) => i.by === side);
        return (
          <div key={side}>
            <h3 className="subhead">
              {side === 'client' ? 'Client' : 'Server'} ignored ({list.length})
            </h3>
            {list.length === 0 ? (
              <p className="muted small">nothing</p>
            ) : (
              <ul className="ignored-list">
                {list.slice(0, 12).map((i, k) => (
                  <li key={k}>
                    <span className="mono small">{formatMs(i.at)} ms</span> {i.what} — {i.reason} {i.rule && <RuleRef rule={i.rule} revision={revision} compact />}
                  </li>
                ))}
                {list.length > 12 && <li className="muted small">… and {list.length - 12} more</li>}
              </ul>
            )}
          </div>
        );
      })}
    </div>
  );
}

function RequestFacts({ r, testIds, revision }: { r: RequestOutcome | undefined; testIds: boolean; revision: Revision }) {
  if (!r) return <p className="muted">Not started yet.</p>;
  const tid = (name: string) => (testIds ? name : undefined);
  return (
    <dl className="facts">
      <dt>Terminal state</dt>
      <dd>
        <span className={stateBadgeClass(r.state)} data-testid={tid('outcome-state')}>
          {r.state}
        </span>
        {r.atMs !== null && <span className="muted small"> at {formatMs(r.atMs)} ms</span>}
      </dd>
      <dt>Failure origin</dt>
      <dd>
        <OriginWord r={r} testId={tid('outcome-origin')} />
      </dd>
      <dt>Final response</dt>
      <dd>
        <span data-testid={tid('final-response')}>{r.finalResponse ? 'yes' : 'no'}</span>
        <span className="muted small"> — {finalResponseNote(r)}</span>
      </dd>
      <dt>Cancel signal on the wire</dt>
      <dd>
        <code data-testid={tid('cancel-signal')}>{r.cancelSignal}</code>
      </dd>
      <dt>Server</dt>
      <dd>{serverWorkText(r)}</dd>
      <dt>Why</dt>
      <dd className="why">
        {r.reason}
        {r.rule && (
          <>
            {'. '}
            <RuleRef rule={r.rule} revision={revision} />
          </>
        )}
      </dd>
    </dl>
  );
}

/** The postmortem's origin of a terminal state ("user cancel", "client timeout", …), or a muted "none". */
function OriginWord({ r, testId }: { r: RequestOutcome; testId?: string }) {
  const word = racesOriginWord(r);
  return word === null ? (
    <span className="muted small" data-testid={testId}>
      none{r.state === 'failed' && r.isError ? ' of the five (the tool ran and reported isError)' : ''}
    </span>
  ) : (
    <span data-testid={testId}>{word}</span>
  );
}

/** Outcome per request: at the playhead and final (after the last step). */
export function OutcomePanel() {
  const trace = useRaces(selectTrace);
  const cursorMs = useRaces(selectCursor);
  const config = useRaces(selectConfig);
  const atCursor = useMemo(() => racesOutcomeAt(trace, cursorMs), [trace, cursorMs]);
  const final = trace.outcome;
  const view = racesTraceView(trace);
  const idx = view.indexAt(cursorMs);
  const ignoredNow = useMemo(() => ignoredUpTo(view, idx), [view, idx]);
  const ignoredAll = useMemo(() => ignoredUpTo(view, view.stepCount - 1), [view]);
  const many = final.requests.length > 2;
  const first = final.requests[0];
  const byKeyNow = new Map(atCursor.requests.map((r) => [r.key, r]));

  return (
    <section className="panel outcome" aria-labelledby="outcome-h">
      <h2 id="outcome-h">Outcome</h2>
      {final.requests.length === 0 && (
        <p>
          No request was started. <span data-testid="outcome-state">none</span> · <span data-testid="cancel-signal">none</span> · <span data-testid="final-response">no</span>
        </p>
      )}
      {!many &&
        final.requests.map((r, i) => (
          <div key={r.key} className="outcome-request">
            {final.requests.length > 1 && <h3 className="mono request-h">{requestLabel(r)}</h3>}
            <div className="outcome-cols">
              <div className="outcome-col">
                <h3 className="subhead">
                  Final <span className="muted small">(after the last step, {formatMs(trace.endAt)} ms)</span>
                </h3>
                <span className="visually-hidden">final state of {r.key}: </span>
                {final.requests.length > 1 ? (
                  <span data-testid={`outcome-state-${r.key}`} className="visually-hidden">
                    {r.state}
                  </span>
                ) : null}
                <RequestFacts r={r} testIds={i === 0} revision={config.revision} />
              </div>
              <div className="outcome-col at-cursor">
                <h3 className="subhead">
                  At the playhead <span className="muted small">({formatMs(Math.floor(cursorMs))} ms)</span>
                </h3>
                <RequestFacts r={byKeyNow.get(r.key)} testIds={false} revision={config.revision} />
              </div>
            </div>
          </div>
        ))}
      {many && first && (
        <>
          <SummaryLine trace={trace} now={atCursor.summary} />
          <div className="table-wrap" tabIndex={0} role="region" aria-label="Outcome of every request">
            <table className="outcome-table">
              <caption className="visually-hidden">Outcome of every request, final and at the playhead</caption>
              <thead>
                <tr>
                  <th scope="col">Request</th>
                  <th scope="col">Final state</th>
                  <th scope="col">Origin</th>
                  <th scope="col">At playhead</th>
                  <th scope="col">Final response</th>
                  <th scope="col">Cancel signal</th>
                  <th scope="col">Server</th>
                </tr>
              </thead>
              <tbody>
                {final.requests.map((r, i) => {
                  const now = byKeyNow.get(r.key);
                  return (
                    <tr key={r.key}>
                      <th scope="row" className="mono">
                        {requestLabel(r)}
                      </th>
                      <td>
                        <span data-testid={`outcome-state-${r.key}`} className={stateBadgeClass(r.state)}>
                          {i === 0 ? <span data-testid="outcome-state">{r.state}</span> : r.state}
                        </span>
                        {r.atMs !== null && <span className="muted small"> {formatMs(r.atMs)} ms</span>}
                      </td>
                      <td>
                        <OriginWord r={r} testId={i === 0 ? 'outcome-origin' : `outcome-origin-${r.key}`} />
                      </td>
                      <td>{now ? <span className={stateBadgeClass(now.state)}>{now.state}</span> : <span className="muted small">not started</span>}</td>
                      <td data-testid={i === 0 ? 'final-response' : undefined}>{r.finalResponse ? 'yes' : 'no'}</td>
                      <td>
                        <code data-testid={i === 0 ? 'cancel-signal' : undefined}>{r.cancelSignal}</code>
                      </td>
                      <td>{r.serverState}</td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
          <p className="why small">
            First request: {first.reason}
            {first.rule && (
              <>
                {'. '}
                <RuleRef rule={first.rule} revision={config.revision} />
              </>
            )}
          </p>
        </>
      )}
      <details className="ignored-details" open={ignoredAll.length > 0 && ignoredAll.length <= 12}>
        <summary>
          Ignored events: {ignoredNow.length} up to the playhead, {ignoredAll.length} in the whole trace
        </summary>
        <IgnoredBySide items={ignoredNow} later={ignoredAll.length - ignoredNow.length} revision={config.revision} />
      </details>
    </section>
  );
}

/** The whole run in three lines; `now` is the summary at the playhead (the panel's outcome there). */
function SummaryLine({ trace, now }: { trace: RacesTrace; now: RacesTrace['outcome']['summary'] }) {
  const s = trace.outcome.summary;
  const states = Object.entries(s.states)
    .map(([k, v]) => `${v} ${k}`)
    .join(', ');
  return (
    <ul className="summary-line">
      <li>
        <strong>{s.requests}</strong> requests — final: {states}
      </li>
      <li>
        <strong>{s.cancelSignals}</strong> cancellation signals · <strong>{s.finalResponses}</strong> final responses ({s.lateResponsesDropped} dropped as late)
      </li>
      <li>
        Work in flight: <strong>{now.workInFlight}</strong> at the playhead, {s.workInFlight} at the end; last work stopped at {s.lastWorkEndedAtMs === null ? '—' : `${formatMs(s.lastWorkEndedAtMs)} ms`}
      </li>
    </ul>
  );
}
