import { createStore, type StoreApi } from 'zustand/vanilla';
import { mergeConfig } from '../sim/engine';
import { parseScenario, parseScenarioText } from '../sim/scenario';
import { RACES_SCHEMAS, racesLengthProblem } from '../sim/races/schema';
import { replayRaces, withOverrides, type RacesConfig, type RacesTrace } from '../sim/races';
import type { Json, Scenario, ScriptedEvent } from '../sim/types';
import { emptyHistory, record, redo as redoHistory, undo as undoHistory, type History } from './history';
import { playbackActions, suggestedSpeed, timeRangeEnd, type PlaybackActions } from './playback';
import { stableStringify } from './stableJson';

/**
 * The races lab store: one per lab instance (zustand vanilla `createStore`), used from React with
 * `useStore(store, selector)`. The scenario is the only source of truth; the trace is derived from
 * it with `replayRaces` on every change (well under a millisecond at lesson sizes).
 */

/** What undo/redo restores: the scenario and the lesson original that Reset returns to. */
export interface RacesSnapshot {
  scenario: Scenario;
  original: Scenario;
}

export interface RacesError {
  /** One line summarising what was rejected, e.g. "The imported file is not a valid scenario". */
  title: string;
  /** Each problem as "field: what is wrong". */
  errors: string[];
}

export interface RacesData {
  builtins: readonly Scenario[];
  scenario: Scenario;
  /** The lesson's version of this scenario (Reset restores it). */
  original: Scenario;
  trace: RacesTrace;
  /** Distinct step times of the trace, ascending (for stepping). */
  stepTimes: readonly number[];
  /** End of the scrubbable / drawn time range (ms). */
  rangeEndMs: number;
  /** Playhead, virtual ms (may be fractional while playing). */
  cursorMs: number;
  playing: boolean;
  /** Virtual ms per real second. */
  speed: number;
  selectedEventId: string | null;
  error: RacesError | null;
  history: History<RacesSnapshot>;
  /** A pointer drag is in progress (one undo point for the whole gesture). */
  dragging: boolean;
  /** Increments when a different scenario is loaded (views reset zoom on it). */
  loadCount: number;
  /** The last coalescible edit (keyboard nudges), to merge repeats into one undo step. */
  lastNudge: { id: string; atMs: number } | null;
}

export interface RacesActions extends PlaybackActions {
  loadBuiltin(id: string): void;
  loadScenario(scenario: Scenario, options?: { original?: Scenario; cursorMs?: number | null; keepView?: boolean }): void;
  setConfig(patch: Record<string, Json>): void;
  moveEvent(id: string, atMs: number): void;
  /** Keyboard move by `deltaMs`; repeated nudges of one event within a second make one undo step. */
  nudgeEvent(id: string, deltaMs: number, nowMs?: number): void;
  /** Moves an event among the scripted events at the same ms (the tie rule: list order). */
  reorderEvent(id: string, direction: -1 | 1): void;
  beginDrag(): void;
  endDrag(): void;
  applyExpectation(index: number): void;
  play(): void;
  pause(): void;
  select(id: string | null): void;
  importText(text: string, source?: string): boolean;
  exportJson(): { filename: string; text: string };
  reset(): void;
  undo(): void;
  redo(): void;
  setError(error: RacesError | null): void;
}

export type RacesStoreState = RacesData & RacesActions;
export type RacesStore = StoreApi<RacesStoreState>;

function derive(scenario: Scenario): Pick<RacesData, 'scenario' | 'trace' | 'stepTimes' | 'rangeEndMs'> {
  const trace = replayRaces(scenario);
  const stepTimes: number[] = [];
  for (const step of trace.steps) if (stepTimes.length === 0 || stepTimes[stepTimes.length - 1] !== step.at) stepTimes.push(step.at);
  let last = trace.endAt;
  for (const e of scenario.events) last = Math.max(last, e.at);
  return { scenario, trace, stepTimes, rangeEndMs: timeRangeEnd(last) };
}

/** Options of `createRacesStore`. */
export interface CreateRacesStoreOptions {
  builtins: readonly Scenario[];
  /** First scenario shown; defaults to the first built-in. */
  initial?: Scenario;
  original?: Scenario;
  cursorMs?: number | null;
  error?: RacesError | null;
}

export function createRacesStore(options: CreateRacesStoreOptions): RacesStore {
  const { builtins } = options;
  const first = options.initial ?? builtins[0];
  if (!first) throw new Error('createRacesStore: no scenario to show');

  return createStore<RacesStoreState>()((set, get) => {
    /** Replaces the scenario (recording an undo point unless a drag already did). */
    const change = (scenario: Scenario, extra: Partial<RacesData> = {}, coalesce = false) => {
      const s = get();
      let derived: ReturnType<typeof derive>;
      try {
        derived = derive(scenario);
      } catch (err) {
        set({ error: { title: 'The simulation could not run this scenario', errors: [`(model): ${(err as Error).message}`] } });
        return;
      }
      const history = s.dragging || coalesce ? s.history : record(s.history, { scenario: s.scenario, original: s.original });
      set({ ...derived, history, error: null, lastNudge: null, ...extra, cursorMs: clampCursor(extra.cursorMs ?? s.cursorMs, derived.rangeEndMs) });
    };

    const restore = (snap: RacesSnapshot, history: History<RacesSnapshot>) => {
      const derived = derive(snap.scenario);
      const s = get();
      const idChanged = s.scenario.id !== snap.scenario.id;
      set({
        ...derived,
        original: snap.original,
        history,
        error: null,
        dragging: false,
        cursorMs: clampCursor(s.cursorMs, derived.rangeEndMs),
        selectedEventId: snap.scenario.events.some((e) => e.id === s.selectedEventId) ? s.selectedEventId : null,
        loadCount: idChanged ? s.loadCount + 1 : s.loadCount,
      });
    };

    const initialDerived = derive(first);
    return {
      builtins,
      ...initialDerived,
      original: options.original ?? builtins.find((b) => b.id === first.id) ?? first,
      cursorMs: clampCursor(options.cursorMs ?? 0, initialDerived.rangeEndMs),
      playing: false,
      speed: suggestedSpeed(initialDerived.trace.endAt),
      selectedEventId: null,
      error: options.error ?? null,
      history: emptyHistory(),
      dragging: false,
      loadCount: 0,
      lastNudge: null,

      loadBuiltin(id) {
        const builtin = get().builtins.find((b) => b.id === id);
        if (!builtin) {
          set({ error: { title: 'Unknown scenario', errors: [`scenario id: no built-in scenario is called ${JSON.stringify(id)}`] } });
          return;
        }
        get().loadScenario(builtin, { original: builtin });
      },

      loadScenario(scenario, opts = {}) {
        const s = get();
        const original = opts.original ?? s.builtins.find((b) => b.id === scenario.id) ?? scenario;
        const derived = derive(scenario);
        const sameId = s.scenario.id === scenario.id;
        const keepView = opts.keepView ?? false;
        set({
          ...derived,
          original,
          history: record(s.history, { scenario: s.scenario, original: s.original }),
          error: null,
          playing: false,
          dragging: false,
          selectedEventId: keepView ? s.selectedEventId : null,
          cursorMs: clampCursor(opts.cursorMs ?? (keepView ? s.cursorMs : 0), derived.rangeEndMs),
          speed: keepView || sameId ? s.speed : suggestedSpeed(derived.trace.endAt),
          loadCount: sameId && keepView ? s.loadCount : s.loadCount + 1,
        });
      },

      setConfig(patch) {
        const s = get();
        const config = mergeConfig(s.scenario.config as Record<string, Json>, patch);
        const parsed = parseScenario({ ...s.scenario, config }, 'races', RACES_SCHEMAS);
        if (!parsed.ok) {
          set({ error: { title: 'That setting is not valid; the previous settings are kept', errors: parsed.errors } });
          return;
        }
        change(parsed.scenario);
      },

      moveEvent(id, atMs) {
        const s = get();
        const at = Math.min(Math.max(Math.round(atMs), 0), 1_000_000_000);
        const index = s.scenario.events.findIndex((e) => e.id === id);
        if (index < 0 || s.scenario.events[index].at === at) return;
        const events = s.scenario.events.slice();
        events[index] = { ...events[index], at };
        change({ ...s.scenario, events }, { selectedEventId: id });
      },

      nudgeEvent(id, deltaMs, nowMs = Date.now()) {
        const s = get();
        const ev = s.scenario.events.find((e) => e.id === id);
        if (!ev) return;
        const at = Math.min(Math.max(Math.round(ev.at + deltaMs), 0), 1_000_000_000);
        if (at === ev.at) return;
        const repeat = s.lastNudge !== null && s.lastNudge.id === id && nowMs - s.lastNudge.atMs < 1000;
        const events = s.scenario.events.map((e) => (e.id === id ? { ...e, at } : e));
        change({ ...s.scenario, events }, { selectedEventId: id, lastNudge: { id, atMs: nowMs } }, repeat);
      },

      reorderEvent(id, direction) {
        const s = get();
        const events = s.scenario.events;
        const index = events.findIndex((e) => e.id === id);
        if (index < 0) return;
        const at = events[index].at;
        // Neighbours at the same ms, in list order; swap with the previous/next one.
        const same = events.map((e, i) => [e, i] as const).filter(([e]) => e.at === at).map(([, i]) => i);
        const pos = same.indexOf(index);
        const target = same[pos + direction];
        if (target === undefined) return;
        const next: ScriptedEvent[] = events.slice();
        next[index] = events[target];
        next[target] = events[index];
        change({ ...s.scenario, events: next }, { selectedEventId: id });
      },

      beginDrag() {
        const s = get();
        if (s.dragging) return;
        set({ dragging: true, history: record(s.history, { scenario: s.scenario, original: s.original }) });
      },

      endDrag() {
        set({ dragging: false });
      },

      applyExpectation(index) {
        const s = get();
        const expectation = s.original.expect?.[index] ?? s.scenario.expect?.[index];
        if (!expectation) return;
        const base = withOverrides(s.original, expectation.overrides);
        const parsed = parseScenario(base, 'races', RACES_SCHEMAS);
        if (!parsed.ok) {
          set({ error: { title: 'These overrides do not make a valid scenario', errors: parsed.errors } });
          return;
        }
        change(parsed.scenario);
      },

      ...playbackActions(get, set, playEnd),
      play() {
        if (!get().playing) get().togglePlay();
      },
      pause() {
        if (get().playing) get().togglePlay();
      },
      select(id) {
        set({ selectedEventId: id });
      },

      importText(text, source = 'The imported scenario') {
        const where = /^The pasted/.test(source) ? '(pasted text)' : '(file)';
        const raw = text.trim() === '' ? { ok: false as const, errors: [`${where}: is empty; expected a races scenario as JSON`] } : parseScenarioText(text, 'races', RACES_SCHEMAS, where);
        const tooLong = raw.ok ? racesLengthProblem(raw.scenario.events) : null;
        const parsed = tooLong ? { ok: false as const, errors: [tooLong] } : raw;
        if (!parsed.ok) {
          set({ error: { title: `${source} is not valid; the previous scenario is kept`, errors: parsed.errors } });
          return false;
        }
        try {
          get().loadScenario(parsed.scenario);
        } catch (err) {
          set({ error: { title: 'The simulation could not run this scenario', errors: [`(model): ${(err as Error).message}`] } });
          return false;
        }
        return true;
      },

      exportJson() {
        const s = get();
        return { filename: `${s.scenario.id}.json`, text: JSON.stringify(s.scenario, null, 2) + '\n' };
      },

      reset() {
        const s = get();
        if (!selectIsModified(s)) return;
        change(s.original, { selectedEventId: null });
      },

      undo() {
        const s = get();
        const r = undoHistory(s.history, { scenario: s.scenario, original: s.original });
        if (r) restore(r.value, r.history);
      },
      redo() {
        const s = get();
        const r = redoHistory(s.history, { scenario: s.scenario, original: s.original });
        if (r) restore(r.value, r.history);
      },
      setError(error) {
        set({ error });
      },
    };
  });
}

function clampCursor(ms: number, endMs: number): number {
  if (!Number.isFinite(ms)) return 0;
  return Math.min(Math.max(ms, 0), endMs);
}

/** Where playing stops: the last step (or the end of the range when the trace is empty). */
function playEnd(s: RacesData): number {
  return s.trace.steps.length > 0 ? s.trace.endAt : s.rangeEndMs;
}

// ───────────── named selectors ─────────────

export const selectScenario = (s: RacesStoreState) => s.scenario;
export const selectConfig = (s: RacesStoreState) => s.scenario.config as unknown as RacesConfig;
export const selectTrace = (s: RacesStoreState) => s.trace;
export const selectCursor = (s: RacesStoreState) => s.cursorMs;
export const selectPlaying = (s: RacesStoreState) => s.playing;
export const selectSpeed = (s: RacesStoreState) => s.speed;
export const selectError = (s: RacesStoreState) => s.error;
export const selectSelectedEventId = (s: RacesStoreState) => s.selectedEventId;
export const selectRangeEnd = (s: RacesStoreState) => s.rangeEndMs;
export const selectCanUndo = (s: RacesStoreState) => s.history.past.length > 0;
export const selectCanRedo = (s: RacesStoreState) => s.history.future.length > 0;
const canonical = new WeakMap<object, string>();
function canonicalText(value: object): string {
  let text = canonical.get(value);
  if (text === undefined) {
    text = stableStringify(value);
    canonical.set(value, text);
  }
  return text;
}

/**
 * Deep equality of two scenarios, fast for edits: events shared by reference are equal without
 * looking inside, so after a drag only the moved event is compared as text.
 */
export function scenarioEquals(a: Scenario, b: Scenario): boolean {
  if (a === b) return true;
  const { events: ea, config: ca, ...ra } = a;
  const { events: eb, config: cb, ...rb } = b;
  if (ea.length !== eb.length) return false;
  if (ca !== cb && canonicalText(ca as object) !== canonicalText(cb as object)) return false;
  if (stableStringify(ra) !== stableStringify(rb)) return false;
  for (let i = 0; i < ea.length; i++) if (ea[i] !== eb[i] && canonicalText(ea[i]) !== canonicalText(eb[i])) return false;
  return true;
}

/** Whether the scenario differs from the lesson's original. */
export const selectIsModified = (s: RacesStoreState) => !scenarioEquals(s.scenario, s.original);
export const selectBuiltins = (s: RacesStoreState) => s.builtins;
export const selectOriginal = (s: RacesStoreState) => s.original;
export const selectLoadCount = (s: RacesStoreState) => s.loadCount;
