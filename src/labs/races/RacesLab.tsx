import { useEffect, useState } from 'react';
import { builtinRaces } from '../../store/builtinRaces';
import { createRacesStore, type RacesStore } from '../../store/racesStore';
import { decodeRacesHash, encodeRacesHash } from '../../store/url';
import { RacesStoreContext, useRaces, useRacesStore } from './context';
import { ErrorBanner } from './ErrorBanner';
import { ImportPanel } from './ImportPanel';
import { usePageFileDrop } from '../common/ImportPanel';
import { usePlaybackKeys, usePlayLoop } from '../common/usePlaybackKeys';
import { InvariantsPanel } from './InvariantsPanel';
import { LessonPanel } from './LessonPanel';
import { NowPanel } from './NowPanel';
import { OutcomePanel } from './OutcomePanel';
import { PlaybackBar } from './PlaybackBar';
import { RacesTimeline } from './RacesTimeline';
import { ScenarioBar } from './ScenarioBar';
import { SettingsPanel } from './SettingsPanel';
import { TieRulePanel } from './TieRulePanel';
import { WirePanel } from './WirePanel';
import { selectPlaying, selectScenario } from '../../store/racesStore';
import './races.css';

/** Builds the lab's store from the address bar: a valid link wins, a bad one falls back with the error shown. */
function bootStore(): RacesStore {
  const { scenarios, errors } = builtinRaces();
  const decoded = decodeRacesHash(window.location.hash, scenarios);
  const builtinError = errors.length ? { title: 'Some built-in scenario files are invalid and were skipped', errors } : null;
  if (decoded.ok) {
    const warning = decoded.warnings.length ? { title: 'Part of the link was ignored; the scenario is shown', errors: decoded.warnings } : null;
    return createRacesStore({ builtins: scenarios, initial: decoded.scenario, original: decoded.original, cursorMs: decoded.cursorMs, error: builtinError ?? warning });
  }
  return createRacesStore({ builtins: scenarios, error: { title: 'The link does not hold a valid scenario; showing the first lesson instead', errors: decoded.errors } });
}

/** Keeps the URL in step with the scenario (and the playhead when paused), and follows links the user opens. */
function useUrlSync(store: RacesStore) {
  useEffect(() => {
    let lastWritten = window.location.hash;
    let timer: number | undefined;
    let lastWriteAt = -Infinity;
    let interval = 60;
    const write = () => {
      timer = undefined;
      // A write still pending when the learner opened another lab must not take the address back.
      const current = window.location.hash;
      if (current !== '' && current !== '#' && current !== '#/' && !current.startsWith('#/races')) return;
      const start = performance.now();
      const s = store.getState();
      const hash = encodeRacesHash(s.scenario, s.builtins, s.playing ? null : Math.floor(s.cursorMs));
      if (hash !== window.location.hash) history.replaceState(history.state, '', hash);
      lastWritten = hash;
      lastWriteAt = performance.now();
      // Adaptive throttle: small scenarios update the address almost at once; a big one (whose
      // encoding costs milliseconds) at most every 300 ms. Never more than ~16 writes a second,
      // under the browsers' limit on replaceState calls.
      interval = Math.min(300, Math.max(60, 20 * (lastWriteAt - start)));
    };
    const schedule = () => {
      if (timer !== undefined) return;
      const wait = interval - (performance.now() - lastWriteAt);
      if (wait <= 0 && !store.getState().dragging) write();
      else timer = window.setTimeout(write, Math.max(wait, 30));
    };
    const unsub = store.subscribe((s, prev) => {
      const scenarioChanged = s.scenario !== prev.scenario;
      const cursorChanged = s.cursorMs !== prev.cursorMs || s.playing !== prev.playing;
      const dragEnded = prev.dragging && !s.dragging;
      if (scenarioChanged || dragEnded || (cursorChanged && !s.playing)) schedule();
    });
    const onHashChange = () => {
      const hash = window.location.hash;
      if (hash === lastWritten || !hash.startsWith('#/races')) return;
      lastWritten = hash;
      const s = store.getState();
      const decoded = decodeRacesHash(hash, s.builtins);
      if (!decoded.ok) {
        // Put the current scenario back in the address, so a reload cannot lose it to the bad link.
        const current = encodeRacesHash(s.scenario, s.builtins, s.playing ? null : Math.floor(s.cursorMs));
        history.replaceState(history.state, '', current);
        lastWritten = current;
        s.setError({ title: 'The link does not hold a valid scenario; the previous scenario is kept (and back in the address)', errors: decoded.errors });
        return;
      }
      s.loadScenario(decoded.scenario, { original: decoded.original, cursorMs: decoded.cursorMs, keepView: decoded.scenario.id === s.scenario.id });
      if (decoded.warnings.length) s.setError({ title: 'Part of the link was ignored; the scenario is shown', errors: decoded.warnings });
    };
    // A reload right after an edit must not lose it.
    const flush = () => {
      if (timer !== undefined) {
        window.clearTimeout(timer);
        write();
      }
    };
    window.addEventListener('hashchange', onHashChange);
    window.addEventListener('pagehide', flush);
    return () => {
      unsub();
      window.removeEventListener('hashchange', onHashChange);
      window.removeEventListener('pagehide', flush);
      if (timer !== undefined) window.clearTimeout(timer);
    };
  }, [store]);
}

/** A stable "is the store still playing?" reader per store, for the shared play loop. */
const playingReaders = new WeakMap<RacesStore, () => boolean>();
function isPlaying(store: RacesStore): () => boolean {
  let read = playingReaders.get(store);
  if (!read) {
    read = () => store.getState().playing;
    playingReaders.set(store, read);
  }
  return read;
}

function ScenarioIntro() {
  const scenario = useRaces(selectScenario);
  return (
    <div className="intro">
      <h1>{scenario.title}</h1>
      {scenario.summary && <p className="summary">{scenario.summary}</p>}
    </div>
  );
}

function RacesPage() {
  const store = useRacesStore();
  useUrlSync(store);
  const playing = useRaces(selectPlaying);
  usePlayLoop(playing, store.getState().tick, isPlaying(store));
  usePlaybackKeys(store.getState);
  usePageFileDrop(store.getState().importText, store.getState().setError);
  return (
    <div className="races">
      <ScenarioBar />
      <ErrorBanner />
      <ScenarioIntro />
      <div className="races-grid">
        <div className="races-main">
          <section id="timeline-panel" className="panel timeline-panel" aria-labelledby="tl-h">
            <h2 id="tl-h" className="visually-hidden">
              Timeline
            </h2>
            <PlaybackBar />
            <RacesTimeline />
          </section>
          <NowPanel />
          <OutcomePanel />
          <WirePanel />
        </div>
        <aside className="races-side" aria-label="Settings, lesson and checks">
          <LessonPanel />
          <SettingsPanel />
          <InvariantsPanel />
          <TieRulePanel />
          <ImportPanel />
        </aside>
      </div>
    </div>
  );
}

/** The Races lab: one store per instance, provided to every panel. */
export function RacesLab() {
  const [store] = useState(bootStore);
  return (
    <RacesStoreContext.Provider value={store}>
      <RacesPage />
    </RacesStoreContext.Provider>
  );
}
