import { useMemo, useState, type ReactNode, use } from 'react';
import { Timeline } from '../../charts/Timeline';
import { formatMs, formatTime } from '../../charts/format';
import type { Scenario } from '../../sim/types';
import type { ResilienceState } from '../../sim/resilience';
import { builtinResilience } from '../../store/builtinResilience';
import { linkCodecReady } from '../../store/labLink';
import { labStoreFor } from '../../store/labStores';
import {


  classifyRetry,
  downstreamOrigin,

  selectStateAt,
  selectStepIndex,
  firstStepAtSameMs,
  finalStateOf,
  traceView,
  RESILIENCE_TIE_RULE,
  storeFromHash,
  type ResilienceStore,
} from '../../store/resilienceStore';
import { useR, useResilienceStore } from './context';
import { ErrorBanner } from '../common/ErrorBanner';
import { ImportPanel } from '../common/ImportPanel';
import { AllOrdersPanel } from '../common/AllOrdersPanel';
import { ChaosPanel } from '../common/ChaosPanel';
import { LabPage } from '../common/LabPage';
import { PlaybackBar } from '../common/PlaybackBar';
import { useTimelineBinding } from '../common/useTimelineBinding';
import { resilienceView, stormAggregated, taskKnowledge } from './marks';
import { StormTree } from './StormTree';
import { TaskWirePanel } from './TaskWirePanel';
import { TimeoutsPanel } from './TimeoutsPanel';
import { SeedPanels } from './SeedPanels';
import { DurableTaskPanel } from './DurableTaskPanel';
import { HalfFinishedPanel } from './HalfFinishedPanel';
import { FAILURE_ORIGIN_WORDS } from '../../store/resilienceSeeds';
import { LessonPanel, SettingsPanel } from './SidePanels';
import { InvariantsPanel } from '../common/InvariantsPanel';
import { ScenarioBar, type PickerGroups } from '../common/ScenarioBar';
import { TieRulePanel } from '../common/TieRulePanel';
import './resilience.css';
import { neutraliseBidi } from '../../charts/format';
import { TimelineSection } from '../common/TimelineSection';


const MECHANISM_NAMES: Record<string, string> = { tasks: 'Durable tasks', breaker: 'Circuit breaker and retries', storm: 'Retry storm across layers' };

function mechanismOf(s: Scenario): string {
  return (s.config as { mechanism: string }).mechanism;
}

/** The picker groups the built-ins by mechanism. */
const PICKER_GROUPS: PickerGroups = { of: mechanismOf, names: MECHANISM_NAMES };

function bootStore(): ResilienceStore {
  const { scenarios, errors } = builtinResilience();
  return storeFromHash(window.location.hash, scenarios, errors);
}

// ───────────── header ─────────────

function Banner() {
  const store = useResilienceStore();
  const error = useR((s) => s.error);
  return <ErrorBanner error={error} onDismiss={() => store.getState().setError(null)} />;
}

// ───────────── playback + timeline ─────────────

function Playback() {
  const store = useResilienceStore();
  const cursorMs = useR((s) => s.cursorMs);
  const playing = useR((s) => s.playing);
  const speed = useR((s) => s.speed);
  const rangeEnd = useR((s) => s.rangeEndMs);
  const endAt = useR((s) => s.trace.endAt);
  return <PlaybackBar cursorMs={cursorMs} rangeEndMs={rangeEnd} endAtMs={endAt} playing={playing} speed={speed} controls={store.getState()} />;
}

function ResilienceTimeline() {
  const store = useResilienceStore();
  const trace = useR((s) => s.trace);
  const cursorMs = useR((s) => s.cursorMs);
  const binding = useTimelineBinding(store, { reorder: false });
  const [everyAttempt, setEveryAttempt] = useState(false);
  const aggregated = trace.initial.mechanism === 'storm' && stormAggregated(trace, everyAttempt ? 'every' : 'auto');
  const manyAttempts = trace.initial.mechanism === 'storm' && stormAggregated(trace, 'auto');
  const view = useMemo(() => resilienceView(trace, cursorMs, everyAttempt ? 'every' : 'auto'), [trace, cursorMs, everyAttempt]);
  const mechanism = trace.initial.mechanism;
  return (
    <>
      {manyAttempts && (
        <label className="toggle storm-detail">
          <input type="checkbox" checked={everyAttempt} onChange={(e) => setEveryAttempt(e.currentTarget.checked)} data-testid="storm-every-attempt" /> Show every attempt as a bar (
          {(finalStateOf(trace) as { attemptOrder?: unknown[] }).attemptOrder?.length ?? 0} attempts; otherwise each layer's count so far)
        </label>
      )}
      <Timeline {...binding} lanes={view.lanes} marks={view.marks} label={`Timeline of ${trace.scenario.title}: ${view.lanes.map((l) => l.label).join(', ')}`} handleHelpId="res-handle-help" />
      <p id="res-handle-help" className="help">
        {mechanism === 'tasks' && (
          <>
            <strong>Read:</strong> the server's <em>task status</em> lane is the truth (blue working, green completed, grey cancelled); the amber <em>cancel</em> row is a cancel that was
            acknowledged and waits for a checkpoint. The client row shows the answer to <code>tasks/cancel</code> (the acknowledgement) apart from the terminal state it later sees by polling; once it sees <em>completed</em> it has the result — inlined in that <code>tasks/get</code> under 2026-07-28, fetched with <code>tasks/result</code> under 2025-11-25 (its own row).{' '}
          </>
        )}
        {mechanism === 'breaker' && (
          <>
            <strong>Read:</strong> the state band (green closed, red open, amber half-open; a narrow segment is labelled C, O or H, or not at all — hover it for its state and times) runs over the attempt dots (● ok, ✕ failed, | rejected by the breaker; hollow =
            a stale result from an earlier generation). A rejection sends nothing; what the retry policy does with it is a setting (retry around breaker only). Below, the window failure rate{' '}
            and, with a budget, its level over time.{' '}
          </>
        )}
        {mechanism === 'storm' && aggregated && (
          <>
            <strong>Read:</strong> with this many attempts each layer shows how many attempts it has <em>started so far</em> (the upstream API: executions), all on one scale, so
            you see each layer multiply the one above; the red shade after the dashed "user cancelled" line is duplicate work nobody is waiting for. The box diagram below has the counts;
            tick the box above for one bar per attempt.{' '}
          </>
        )}
        {mechanism === 'storm' && !aggregated && (
          <>
            <strong>Read:</strong> one bar per attempt in each layer (amber ✕ = timed out and abandoned, red = failed, green = ok) and one per execution at the upstream
            API (green = its result was delivered, amber = finished with nobody waiting: wasted); bars running after the dashed "user cancelled" line are duplicate work.{' '}
          </>
        )}
        <strong>Edit:</strong> drag a scripted event (◆ client, ● server, ■ worker, ▲ downstream) — it snaps to 10 ms, Shift for 1 ms — or focus it (Tab) and use ←/→.
        Ctrl+Z undoes.
      </p>
    </>
  );
}

// ───────────── panels ─────────────

function NowPanel() {
  const trace = useR((s) => s.trace);
  const cursorMs = useR((s) => s.cursorMs);
  const i = useR(selectStepIndex);
  // The last four steps at the playhead's millisecond, read through the trace's accessors (a seekable trace rebuilds only these).
  const steps = useMemo(() => {
    const view = traceView(trace);
    const first = firstStepAtSameMs(view, i);
    const out = [];
    if (first >= 0) for (let j = Math.max(first, i - 3); j <= i; j++) out.push(view.stepAt(j));
    return out;
  }, [trace, i]);
  return (
    <section className="panel now" aria-labelledby="now-h" aria-live="polite">
      <h2 id="now-h">At {formatTime(Math.floor(cursorMs))}</h2>
      {steps.length === 0 ? (
        <p className="muted">Nothing has happened yet. Press ▶ or → to step.</p>
      ) : (
        <ul className="now-steps">
          {steps.map((s) => (
            <li key={s.index}>
              <p className="now-why">{s.why || `${s.entry.label}`}</p>
              {s.rule && <span className="now-rule">rule: {s.rule}</span>}
              {s.ignored.map((g, k) => (
                <p key={k} className="small muted">
                  ignored by {g.by}: {g.what} — {g.reason}
                </p>
              ))}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Stat({ label, value, testId, tone }: { label: string; value: ReactNode; testId: string; tone?: 'ok' | 'bad' | 'warn' }) {
  return (
    <div className="stat">
      <dt>{label}</dt>
      <dd data-testid={testId} className={tone ? `tone-${tone}` : undefined}>
        {value}
      </dd>
    </div>
  );
}

/** A time in ms, or — when there is none. */
const ms = (x: unknown) => (typeof x === 'number' ? `${formatMs(x)} ms` : '—');
const v = (x: unknown) => (x === null || x === undefined ? '—' : typeof x === 'number' ? formatMs(x) : Array.isArray(x) ? x.join(' · ') : String(x));

/**
 * The terminal status the client saw — never a non-terminal one dressed as final: a task the
 * client lost (its tools/call lost, or tasks/get answering "not found") reads as such.
 */
function observedText(req: Record<string, unknown>): string {
  if (req.terminalObservedAtMs !== null && req.terminalObservedAtMs !== undefined) return `${v(req.observed)} at ${v(req.terminalObservedAtMs)} ms`;
  if (typeof req.taskNotFoundAtMs === 'number') return `none — tasks/get answered "not found" at ${formatMs(req.taskNotFoundAtMs)} ms`;
  if (typeof req.callFailedAtMs === 'number') return `none — no task: the call was lost at ${formatMs(req.callFailedAtMs)} ms`;
  if (req.taskId === null && typeof req.resultError === 'string') return `none — no task: ${req.resultError}`;
  return req.observed ? `none yet (last saw ${v(req.observed)})` : 'none yet';
}

/** The outcome rows of tasks whose server gave them a pollIntervalMs of their own (they carry `polls`). */
function pollRows(rows: Record<string, unknown>[]): Record<string, unknown>[] {
  return rows.filter((r) => typeof r.polls === 'number');
}

/** One task's polling in words: how many tasks/get, how far apart, against what its server asked for, and how many came too soon. */
function pollText(r: Record<string, unknown>): string {
  const at = r.pollEveryMs === null ? '' : ` every ${v(r.pollEveryMs)} ms`;
  const first = typeof r.firstPollAtMs === 'number' ? ` from ${v(r.firstPollAtMs)} ms` : '';
  const soon = (r.pollsTooSoon as number) > 0 ? ` — ${v(r.pollsTooSoon)} sooner than it asked` : '';
  return `${v(r.polls)}${at}${first} (its server asks for ${v(r.pollIntervalMs)} ms)${soon}`;
}

function OutcomePanel() {
  const trace = useR((s) => s.trace);
  const now = useR(selectStateAt) as ResilienceState;
  const sum = trace.outcome.summary as unknown as Record<string, unknown>;
  const req = (trace.outcome.requests as unknown as Record<string, unknown>[])[0] ?? {};
  const final = (trace.steps.length ? trace.steps[trace.steps.length - 1].state : trace.initial) as ResilienceState;
  const lostAt = final.mechanism === 'tasks' && final.server.lostTaskId !== null ? final.server.crashedAt : null;
  return (
    <section className="panel outcome" aria-labelledby="out-h">
      <h2 id="out-h">Outcome</h2>
      {now.mechanism === 'tasks' && (
        <dl className="stats">
          <Stat label="Status at the playhead" value={v(now.server.status)} testId="task-status-now" />
          <Stat label="Final status" value={`${v(req.status)} at ${v(req.statusAtMs)} ms`} testId="task-status" tone={req.status === 'completed' ? 'ok' : req.status === 'cancelled' ? 'warn' : undefined} />
          <Stat label="Result kept" value={v(req.result)} testId="task-result" />
          <Stat label="tasks/cancel sent at" value={req.cancelSentAtMs === null ? 'never' : `${v(req.cancelSentAtMs)} ms`} testId="task-cancel-sent" />
          <Stat label="Acknowledgement" value={`${v(req.ack)}${req.ackAtMs !== null ? ` at ${v(req.ackAtMs)} ms` : ''}`} testId="task-ack" />
          <Stat label="Client saw terminal" value={observedText(req)} testId="task-observed" />
          <Stat
            label={now.config.revision === '2025-11-25' ? 'Result fetched (tasks/result)' : 'Result received (in tasks/get)'}
            value={req.resultReceivedAtMs !== null ? (req.resultFetched !== null ? `"${v(req.resultFetched)}" at ${v(req.resultReceivedAtMs)} ms` : `failed: ${v(req.resultError)}`) : req.resultRequestedAtMs !== null ? `requested at ${v(req.resultRequestedAtMs)} ms` : req.observed === 'completed' ? '—' : 'none (not completed)'}
            testId="task-result-fetched"
            tone={req.resultFetched !== null ? 'ok' : req.resultError !== null ? 'bad' : undefined}
          />
          <Stat label="Status history" value={`${v(req.statuses)}${lostAt !== null ? ` · lost in the crash@${formatMs(lostAt)}` : ''}`} testId="task-history" />
          <Stat label="Client knows (at the playhead)" value={taskKnowledge(now).client} testId="task-client-knows" />
          <Stat label="Server has (at the playhead)" value={taskKnowledge(now).server} testId="task-server-has" />
          {pollRows(trace.outcome.requests as unknown as Record<string, unknown>[]).map((r) => (
            <Stat key={String(r.key)} label={`tasks/get for ${v(r.taskId)} (${String(r.key)})`} value={pollText(r)} testId={`task-polls-${String(r.key)}`} tone={(r.pollsTooSoon as number) > 0 ? 'bad' : undefined} />
          ))}
          {(trace.outcome.requests as unknown[]).length > 1 && <Stat label="tasks/get, all tasks" value={v(sum.polls)} testId="task-polls-total" />}
        </dl>
      )}
      {now.mechanism === 'breaker' && (
        <dl className="stats">
          <Stat label="Breaker at the playhead" value={now.mode} testId="breaker-now" tone={now.mode === 'closed' ? 'ok' : now.mode === 'open' ? 'bad' : 'warn'} />
          <Stat label="Opened first at" value={ms(sum.firstOpenAtMs)} testId="breaker-open-at" />
          <Stat label="Wire attempts when it opened" value={v(sum.wireAttemptsAtFirstOpen)} testId="breaker-attempts-at-open" />
          <Stat label="Half-open first at" value={sum.firstHalfOpenAtMs === null ? (sum.firstOpenAtMs === null ? '—' : 'never') : ms(sum.firstHalfOpenAtMs)} testId="breaker-half-open-at" tone={sum.firstHalfOpenAtMs === null && sum.firstOpenAtMs !== null ? 'bad' : undefined} />
          <Stat label="Most probes in one half-open" value={v(sum.maxHalfOpenAdmitted)} testId="breaker-probes" />
          <Stat label="Closed again at" value={ms(sum.closedAgainAtMs)} testId="breaker-closed-at" />
          <Stat label="Calls: ok / failed / rejected" value={`${v(sum.succeeded)} / ${v(sum.failed)} / ${v(sum.rejected)}`} testId="breaker-calls" />
          <Stat label="Wire attempts / retries / denied by budget" value={`${v(sum.wireAttempts)} / ${v(sum.retries)} / ${v(sum.retriesDenied)}`} testId="breaker-retries" />
          <Stat label="Rejections retried" value={now.config.composition === 'breaker-around-retry' ? `${v(sum.rejectionsRetried)} (final before the loop)` : v(sum.rejectionsRetried)} testId="breaker-rejections-retried" />
        </dl>
      )}
      {now.mechanism === 'breaker' && (
        <p className="small" data-testid="retry-classification">
          {(() => {
            const c = classifyRetry({ sideEffect: now.config.operation.sideEffect, idempotencyKey: now.config.operation.idempotencyKey, origin: downstreamOrigin(now.config) });
            return (
              <>
                <strong>Retry classification of a failed attempt:</strong> <span className={c.verdict === 'SAFE' ? 'badge badge-ok' : c.verdict === 'UNSAFE' ? 'badge badge-bad' : 'badge badge-warn'}>{c.verdict}</span>{' '}
                <span data-testid="retry-origin">origin: {c.failureOrigin === null ? 'none of the five' : FAILURE_ORIGIN_WORDS[c.failureOrigin]}</span> — {c.reason}
                {c.retry ? ' — retried.' : ' — not retried.'}
              </>
            );
          })()}
        </p>
      )}
      {now.mechanism === 'storm' && (
        <dl className="stats">
          <Stat label="Upstream attempts by the end" value={v(sum.upstreamAttempts)} testId="storm-upstream-attempts" tone={(sum.upstreamAttempts as number) > 4 ? 'bad' : 'ok'} />
          <Stat label="Attempts per layer by the end" value={v(sum.attemptsPerLayer)} testId="storm-per-layer" />
          <Stat label="Executions by the end (killed by guard)" value={`${v(sum.executions)} (${v(sum.killedByGuard)})`} testId="storm-executions" />
          <Stat label="By the end: work running or started after the cancel" value={v(sum.duplicateWorkAfterCancel)} testId="storm-after-cancel" tone={(sum.duplicateWorkAfterCancel as number) > 0 ? 'bad' : undefined} />
          <Stat label="User's action" value={`${v(req.state)}${req.atMs !== null ? ` at ${v(req.atMs)} ms` : ''}`} testId="storm-action" />
          <Stat label="Last execution ended" value={ms(sum.lastExecutionEndAtMs)} testId="storm-last-end" />
        </dl>
      )}
    </section>
  );
}

// ───────────── page ─────────────

function Page() {
  const store = useResilienceStore();
  const scenario = useR((s) => s.scenario);
  const mechanism = mechanismOf(scenario);
  return (
    <>
      <ScenarioBar groups={PICKER_GROUPS} />
      <Banner />
      <div className="intro">
        <p className="muted small">{MECHANISM_NAMES[mechanism]}</p>
        <h1>{neutraliseBidi(scenario.title)}</h1>
        {scenario.summary && <p className="summary">{scenario.summary}</p>}
      </div>
      <div className="races-grid">
        <div className="races-main">
          <TimelineSection headingId="rtl-h">
            <Playback />
            <ResilienceTimeline />
          </TimelineSection>
          <NowPanel />
          <OutcomePanel />
          {mechanism === 'tasks' && <TaskWirePanel />}
          {mechanism === 'tasks' && <DurableTaskPanel />}
          {mechanism === 'storm' && <HalfFinishedPanel />}
          <AllOrdersPanel lab="resilience" />
          <ChaosPanel lab="resilience" />
          {mechanism === 'storm' && <StormTree />}
          {mechanism === 'breaker' && <TimeoutsPanel />}
          <SeedPanels />
        </div>
        <aside className="races-side" aria-label="Settings, lesson and checks">
          <LessonPanel />
          <SettingsPanel />
          <InvariantsPanel filter={(inv) => inv.description.startsWith(`${mechanism}:`)} describe={(inv) => inv.description.slice(mechanism.length + 2)} />
          <TieRulePanel rule={RESILIENCE_TIE_RULE} />
          <ImportPanel lab="resilience" importText={store.getState().importText} setError={store.getState().setError} exportJson={store.getState().exportJson} />
        </aside>
      </div>
    </>
  );
}

/** The Tasks and resilience lab: one store per lab in this tab, kept while the tab lives. */
export function ResilienceLab() {
  use(linkCodecReady); // the link decoder (a small lazy chunk) before the address is read
  const [store] = useState(() => labStoreFor('resilience', bootStore));
  return (
    <LabPage store={store} className="races resilience">
      <Page />
    </LabPage>
  );
}
