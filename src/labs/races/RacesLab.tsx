import { lazy, Suspense, useState, use, useSyncExternalStore } from 'react';
import { loadRacesBuiltins, RACES_BUILTIN_ERRORS, RACES_FIRST_BUILTIN } from '../../store/racesFirstPaint';
import { linkCodecReady } from '../../store/labLink';
import { labStoreFor } from '../../store/labStores';
import { RACES_TIE_RULE, racesLinkNamesNothing, racesLinkParserReady, racesStoreFromLink, racesStoreThenBuiltins, type RacesStore } from '../../store/racesStore';
import type { BuiltinLoad } from '../../store/builtins';
import { LabPage } from '../common/LabPage';
import { useRaces } from './context';
import { ErrorBanner } from './ErrorBanner';
import { GuideSlot } from './GuideSlot';
import { NowPanel } from './NowPanel';
import { PlaybackBar } from './PlaybackBar';
import { RacesTimeline } from './RacesTimeline';
import { ScenarioBar } from '../common/ScenarioBar';
import { SettingsPanel } from './SettingsPanel';
import { selectScenario } from '../../store/racesStore';
import './races.css';
import { neutraliseBidi } from '../../charts/format';
import { TimelineSection } from '../common/TimelineSection';

/**
 * "All orders" is not part of the first paint: its panel (and the worker it starts) is a lazy chunk
 * fetched once the page is up, so the initial JavaScript stays within its budget.
 */
// The outcome and wire panels sit below the timeline and the "What happened" panel (under the fold at
// 1280×800): a lazy chunk, fetched with the page's first paint, keeps the initial JavaScript in budget.
const OutcomePanel = lazy(() => import('./OutcomePanel').then((m) => ({ default: m.OutcomePanel })));
const WirePanel = lazy(() => import('./WirePanel').then((m) => ({ default: m.WirePanel })));
const AllOrdersPanel = lazy(() => import('../common/AllOrdersPanel').then((m) => ({ default: m.AllOrdersPanel })));
const ChaosPanel = lazy(() => import('../common/ChaosPanel').then((m) => ({ default: m.ChaosPanel })));
/**
 * The invariants, the tie rule and Import / export sit below the settings in the side column, below
 * the fold: lazy chunks too (a file dropped on the page is read by `LabPage` at once).
 */
const InvariantsPanel = lazy(() => import('../common/InvariantsPanel').then((m) => ({ default: m.InvariantsPanel })));
const TieRulePanel = lazy(() => import('../common/TieRulePanel').then((m) => ({ default: m.TieRulePanel })));
const ImportPanel = lazy(() => import('./ImportPanel').then((m) => ({ default: m.ImportPanel })));
/** "The lesson says" reads each expectation against the run: a lazy chunk (with its mismatch texts), so the guided path's button fits the initial budget. */
const LessonPanel = lazy(() => import('./LessonPanel').then((m) => ({ default: m.LessonPanel })));

/**
 * The races store of this tab: made once from the address (a bad link falls back with the error
 * shown), then kept. `all` is every built-in when the address names a scenario (the page waited
 * for them); null on a plain visit, which shows the first built-in at once and gets the rest
 * into the picker when their chunk arrives.
 */
function bootStore(all: BuiltinLoad | null): RacesStore {
  const hash = window.location.hash;
  if (all) return racesStoreFromLink(hash, all.scenarios, all.errors);
  return racesStoreThenBuiltins(hash, [RACES_FIRST_BUILTIN], RACES_BUILTIN_ERRORS, loadRacesBuiltins());
}

function ScenarioIntro() {
  const scenario = useRaces(selectScenario);
  return (
    <div className="intro">
      <h1>{neutraliseBidi(scenario.title)}</h1>
      {scenario.summary && <p className="summary">{scenario.summary}</p>}
    </div>
  );
}

const NARROW = '(max-width: 900px)';
/** Whether the page is one column (≤ 900 px): the guided path then sits above the timeline, not below every panel. */
function useNarrow(): boolean {
  return useSyncExternalStore(
    (cb) => {
      const m = window.matchMedia(NARROW);
      m.addEventListener('change', cb);
      return () => m.removeEventListener('change', cb);
    },
    () => window.matchMedia(NARROW).matches,
  );
}

function RacesPage() {
  const narrow = useNarrow();
  return (
    <>
      <ScenarioBar />
      <ErrorBanner />
      <ScenarioIntro />
      <div className="races-grid">
        <div className="races-main">
          {narrow && <GuideSlot />}
          <TimelineSection headingId="tl-h">
            <PlaybackBar />
            <RacesTimeline />
          </TimelineSection>
          <NowPanel />
          <Suspense fallback={<section className="panel outcome-pending" aria-busy="true" aria-label="Outcome (loading)" />}>
            <OutcomePanel />
            <WirePanel />
          </Suspense>
          <Suspense fallback={null}>
            <AllOrdersPanel lab="races" />
            <ChaosPanel lab="races" />
          </Suspense>
        </div>
        <aside className="races-side" aria-label="Settings, lesson and checks">
          {!narrow && <GuideSlot />}
          <Suspense fallback={<section className="panel lesson-pending" aria-busy="true" aria-label="The lesson says (loading)" />}>
            <LessonPanel />
          </Suspense>
          <SettingsPanel />
          <Suspense fallback={null}>
            <InvariantsPanel />
            <TieRulePanel rule={RACES_TIE_RULE} editable />
            <ImportPanel />
          </Suspense>
        </aside>
      </div>
    </>
  );
}

/** The Races lab: one store per instance, provided to every panel. */
export function RacesLab() {
  use(linkCodecReady); // the link decoder (a small lazy chunk) before the address is read
  // An address naming a scenario waits for every built-in (a lazy chunk: the link may name any of
  // them, or carry a scenario encoded against one); a plain visit paints the first at once.
  const [allReady] = useState(() => (racesLinkNamesNothing(window.location.hash) ? null : loadRacesBuiltins()));
  const all = allReady ? use(allReady) : null;
  // A link carrying a scenario or settings waits for the scenario parser (zod, a lazy chunk); a
  // built-in's link paints at once (its scenario was parsed at build time).
  const [parserReady] = useState(() => racesLinkParserReady(window.location.hash, all?.scenarios ?? [RACES_FIRST_BUILTIN]));
  if (parserReady) use(parserReady);
  const [store] = useState(() => labStoreFor('races', () => bootStore(all)));
  return (
    <LabPage store={store} className="races">
      <RacesPage />
    </LabPage>
  );
}
