import { useEffect, useMemo, useState } from 'react';
import { Timeline } from '../../charts/Timeline';
import { bootLedgerDatabase } from '../../store/ledgerBoot';
import type { LedgerDbWorkerPort } from '../../store/ledgerDbHost';
import { builtinLedger } from '../../store/builtinLedger';
import { linkCodecReady } from '../../store/labLink';
import { labStoreFor } from '../../store/labStores';
import { LEDGER_TIE_RULE, ledgerStoreFromLink, POLICIES } from '../../store/ledgerStore';
import { LedgerContext, useLedger, useLedgerContext, type LedgerLabContext } from './context';
import { ErrorBanner } from '../common/ErrorBanner';
import { ImportPanel } from '../common/ImportPanel';
import { ScenarioBar as KitScenarioBar } from '../common/ScenarioBar';
import { TieRulePanel } from '../common/TieRulePanel';
import { LabPage } from '../common/LabPage';
import { AllOrdersPanel, AllOrdersUnavailable } from '../common/AllOrdersPanel';
import { ChaosPanel } from '../common/ChaosPanel';
import { PlaybackBar } from '../common/PlaybackBar';
import { useTimelineBinding } from '../common/useTimelineBinding';
import { ExplorerPanel } from './ExplorerPanel';
import { ledgerLanes, ledgerMarks } from './marks';
import { MyLedgerPanel } from './MyLedgerPanel';
import { ReplicaPanel } from './ReplicaPanel';
import { ClassificationPanel, ConnectionsPanel, ConsolePanel, LessonPanel, NowPanel, OutcomePanel, PracticePanel, TablesPanel, WirePanel } from './panels';
import './ledger.css';
import { neutraliseBidi } from '../../charts/format';
import { ChoiceSelect } from '../common/ChoiceSelect';

const POLICY_LABEL: Record<string, string> = {
  naive: 'naive check-then-act (autocommit statements)',
  deferred: 'deferred BEGIN … COMMIT',
  immediate: 'BEGIN IMMEDIATE … COMMIT',
  claim: 'single statement: INSERT … ON CONFLICT … RETURNING',
};

/** How the kit's All orders differs from the ledger's explorer above it (walkthrough: two "All orders" panels, the difference unsaid). */
const ALL_ORDERS_SCOPE = 'Under the current policy only (the panel above compares every policy over every interleaving): pick the events whose order you want to vary.';

/** Why a scenario of client calls (C–H) has no All orders: it interleaves connection steps only. */
const ALL_ORDERS_NEEDS_STEPS =
  "Not available for this scenario: All orders interleaves two connections' steps (begin, read, execute, write, commit), and this one scripts client calls and retries instead — open A or B to explore every interleaving.";

function ScenarioBar() {
  const { store } = useLedgerContext();
  const scenario = useLedger((s) => s.scenario);
  const config = scenario.config as { policy: string; busy: string; dedupe: string; clientKey: string };
  const hasSteps = scenario.events.some((e) => e.actor === 'db');
  const hasCalls = scenario.events.some((e) => e.actor === 'client');
  const a = store.getState;
  return (
    <KitScenarioBar>
      {hasSteps && (
        <>
          <label className="field-inline">
            <span>Policy</span>
            <ChoiceSelect<string> data-testid="policy" choices={POLICIES} labels={POLICY_LABEL} value={config.policy} onChange={(policy) => a().setConfig({ policy })} />
          </label>
          <label className="field-inline">
            <span>Lock taken</span>
            <select data-testid="busy" value={config.busy} onChange={(e) => a().setConfig({ busy: e.currentTarget.value })}>
              <option value="wait">wait (busy_timeout)</option>
              <option value="error">fail with SQLITE_BUSY</option>
            </select>
          </label>
        </>
      )}
      {hasCalls && (
        <>
          <label className="field-inline">
            <span>Server</span>
            <select data-testid="dedupe" value={config.dedupe} onChange={(e) => a().setConfig({ dedupe: e.currentTarget.value })}>
              <option value="key">deduplicates by key</option>
              <option value="none">ignores keys (bug)</option>
            </select>
          </label>
          <label className="field-inline">
            <span>Client retries with</span>
            <select data-testid="client-key" value={config.clientKey} onChange={(e) => a().setConfig({ clientKey: e.currentTarget.value })}>
              <option value="stable">the same key</option>
              <option value="per-attempt">a new key each time (bug)</option>
            </select>
          </label>
        </>
      )}
    </KitScenarioBar>
  );
}

function LedgerErrorBanner() {
  const { store } = useLedgerContext();
  const error = useLedger((s) => s.error);
  return <ErrorBanner error={error} onDismiss={() => store.getState().setError(null)} />;
}

function LedgerPlayback() {
  const { store } = useLedgerContext();
  const cursorMs = useLedger((s) => s.cursorMs);
  const rangeEndMs = useLedger((s) => s.rangeEndMs);
  const endAtMs = useLedger((s) => s.trace.endAt);
  const playing = useLedger((s) => s.playing);
  const speed = useLedger((s) => s.speed);
  const controls = useMemo(() => {
    const a = store.getState;
    return {
      toStart: () => a().toStart(),
      stepBack: () => a().stepBack(),
      stepForward: () => a().stepForward(),
      toEnd: () => a().toEnd(),
      seek: (ms: number) => a().seek(ms),
      togglePlay: () => a().togglePlay(),
      setSpeed: (v: number) => a().setSpeed(v),
    };
  }, [store]);
  return <PlaybackBar cursorMs={cursorMs} rangeEndMs={rangeEndMs} endAtMs={endAtMs} playing={playing} speed={speed} controls={controls} />;
}

function LedgerTimeline() {
  const { store } = useLedgerContext();
  const trace = useLedger((s) => s.trace);
  const binding = useTimelineBinding(store);
  const { cursorMs } = binding;
  const laneNotice = useLedger((s) => s.notice);
  const hasSteps = trace.scenario.events.some((e) => e.actor === 'db');
  const lanes = useMemo(() => ledgerLanes(trace), [trace]);
  const marks = useMemo(() => ledgerMarks(trace, cursorMs), [trace, cursorMs]);
  return (
    <>
      <Timeline {...binding} lanes={lanes} marks={marks} label={`Timeline of ${trace.scenario.title}`} handleHelpId="ledger-handle-help" />
      <p className="small lane-notice" role="status" data-testid="lane-notice">
        {laneNotice}
      </p>
      <p id="ledger-handle-help" className="help">
        <strong>Read:</strong>{' '}
        {hasSteps
          ? "each connection lane shows its five steps (●); the purple bar is its open transaction, the orange band time spent waiting for SQLite's write lock; struck-through steps did nothing. "
          : 'each client row is one call (◆): its bar runs to the reply, labelled with what the server did; a red dashed line is a client timeout that fired. '}
        The bottom lane counts executions — above 1 for one operation means it ran twice.{' '}
        <strong>Edit:</strong> drag a step or call (snaps to 10 ms; Shift for 1 ms), or focus it with Tab and use ←/→{hasSteps ? " — a step stops at its own connection's neighbours, since a connection runs its steps in order" : ''}; Alt+←/→ changes its order among events at the same millisecond (the small number). Ctrl+Z undoes.
      </p>
    </>
  );
}

function Intro() {
  const scenario = useLedger((s) => s.scenario);
  return (
    <div className="intro">
      <h1>{neutraliseBidi(scenario.title)}</h1>
      {scenario.summary && <p className="summary">{scenario.summary}</p>}
      <p className="small muted">
        Runs on a real SQLite database (sql.js, in this page). sql.js is one in-process database: the lab enforces the lock rules of two separate
        connections to a database in WAL mode (one writer at a time, uncommitted writes invisible to the other connection, SQLITE_BUSY where SQLite
        would return it; a reader never blocks a writer, so a reader that then tries to write after the other's commit gets SQLITE_BUSY_SNAPSHOT).
        In the default rollback-journal mode an open read would instead block the writer's commit.
      </p>
    </div>
  );
}

/** Import (paste, Open file…, drop) and export of ledger scenario JSON: the shared panel bound to the ledger store. */
function LedgerImportPanel() {
  const { store } = useLedgerContext();
  const s = store.getState();
  return <ImportPanel lab="ledger" importText={s.importText} setError={s.setError} exportJson={s.exportJson} />;
}

function LedgerPage() {
  const hasSteps = useLedger((s) => s.scenario.events.some((e) => e.actor === 'db'));
  const scenarioId = useLedger((s) => s.scenario.id);
  return (
    <div data-testid="ledger-lab">
      <ScenarioBar />
      <LedgerErrorBanner />
      <Intro />
      <div className="races-grid">
        <div className="races-main">
          <section className="panel timeline-panel" aria-labelledby="ledger-tl-h">
            <h2 id="ledger-tl-h" className="visually-hidden">
              Timeline
            </h2>
            <LedgerPlayback />
            <LedgerTimeline />
          </section>
          <NowPanel />
          <TablesPanel />
          <WirePanel />
          {hasSteps && <ExplorerPanel key={scenarioId} />}
          {hasSteps ? <AllOrdersPanel lab="ledger" scope={ALL_ORDERS_SCOPE} /> : <AllOrdersUnavailable lab="ledger" why={ALL_ORDERS_NEEDS_STEPS} />}
          <ChaosPanel lab="ledger" />
          <ConsolePanel />
          <MyLedgerPanel />
          <ReplicaPanel />
          <PracticePanel />
        </div>
        <aside className="races-side" aria-label="Outcome, connections, retry classification and import">
          <OutcomePanel />
          <LessonPanel />
          {hasSteps && <ConnectionsPanel />}
          <ClassificationPanel />
          <TieRulePanel rule={LEDGER_TIE_RULE} editable />
          <LedgerImportPanel />
        </aside>
      </div>
    </div>
  );
}

/** Loads sql.js (only when this lab opens), then builds the lab's stores — once per tab: a later visit finds them kept. */
let booting: Promise<LedgerLabContext> | null = null;
function boot(): Promise<LedgerLabContext> {
  booting ??= Promise.all([bootLedgerDatabase(() => new Worker(new URL('./ledgerDb.worker.ts', import.meta.url), { type: 'module' }) as unknown as LedgerDbWorkerPort), linkCodecReady]).then(
    ([{ SQL, open, db }]) => {
      const store = labStoreFor('ledger', () => {
        const { scenarios, errors } = builtinLedger();
        return ledgerStoreFromLink(open, window.location.hash, scenarios, errors);
      });
      return { store, db, SQL };
    },
    (err: unknown) => {
      booting = null; // a retry may succeed (e.g. back online)
      throw err;
    },
  );
  return booting;
}

/** The Ledger lab page. */
export function LedgerLab() {
  const [ctx, setCtx] = useState<LedgerLabContext | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    boot().then(
      (c) => live && setCtx(c),
      (err: Error) => live && setFailure(err.message),
    );
    return () => {
      live = false;
    };
  }, []);
  if (failure) {
    return (
      <div className="panel" role="alert">
        <h1>The ledger lab could not start</h1>
        <p>SQLite (sql.js) did not load: {failure}</p>
      </div>
    );
  }
  if (!ctx) {
    return (
      <p className="muted" role="status" data-testid="ledger-loading">
        Loading SQLite (sql.js)…
      </p>
    );
  }
  return (
    <LedgerContext.Provider value={ctx}>
      <LabPage store={ctx.store} className="races ledger">
        <LedgerPage />
      </LabPage>
    </LedgerContext.Provider>
  );
}
