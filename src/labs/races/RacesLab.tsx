import { useEffect, useState } from 'react';
import { builtinRaces } from '../../store/builtinRaces';
import { createRacesStore, type RacesStore } from '../../store/racesStore';
import { decodeRacesHash, encodeRacesHash } from '../../store/url';
import { RacesStoreContext, useRaces, useRacesStore } from './context';
import { ErrorBanner } from './ErrorBanner';
import { importFile, ImportPanel } from './ImportPanel';
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

/** Advances the playhead with requestAnimationFrame while playing. */
function usePlayLoop(store: RacesStore) {
  const playing = useRaces(selectPlaying);
  useEffect(() => {
    if (!playing) return;
    let raf = 0;
    let last = performance.now();
    const frame = (now: number) => {
      const dt = Math.min(now - last, 100);
      last = now;
      store.getState().tick(dt);
      if (store.getState().playing) raf = requestAnimationFrame(frame);
    };
    raf = requestAnimationFrame(frame);
    return () => cancelAnimationFrame(raf);
  }, [playing, store]);
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  const tag = el.tagName.toLowerCase();
  return tag === 'input' || tag === 'textarea' || tag === 'select' || el.isContentEditable;
}

/** Space play/pause, ←/→ step, Home/End, Ctrl+Z / Ctrl+Shift+Z (not while typing). */
function useKeyboard(store: RacesStore) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || isTyping(e.target)) return;
      const s = store.getState();
      const mod = e.ctrlKey || e.metaKey;
      if (mod && (e.key === 'z' || e.key === 'Z')) {
        if (e.shiftKey) s.redo();
        else s.undo();
        e.preventDefault();
        return;
      }
      if (mod && (e.key === 'y' || e.key === 'Y')) {
        s.redo();
        e.preventDefault();
        return;
      }
      if (mod || e.altKey) return;
      const onButton = (e.target as HTMLElement | null)?.closest?.('button, a, summary, [role="slider"]');
      switch (e.key) {
        case ' ':
          if (onButton) return;
          s.togglePlay();
          break;
        case 'ArrowRight':
          s.stepForward();
          break;
        case 'ArrowLeft':
          s.stepBack();
          break;
        case 'Home':
          s.toStart();
          break;
        case 'End':
          s.toEnd();
          break;
        default:
          return;
      }
      e.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store]);
}

/** A scenario file dropped anywhere on the page is imported. */
function useFileDrop(store: RacesStore) {
  useEffect(() => {
    const over = (e: DragEvent) => {
      if (e.dataTransfer?.types.includes('Files')) e.preventDefault();
    };
    const drop = (e: DragEvent) => {
      const file = e.dataTransfer?.files[0];
      if (!file) return;
      e.preventDefault();
      const s = store.getState();
      void importFile(file, s.importText, s.setError);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('drop', drop);
    };
  }, [store]);
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
  usePlayLoop(store);
  useKeyboard(store);
  useFileDrop(store);
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
