import { createStore, type StoreApi } from 'zustand/vanilla';
import { mergeConfig } from '../sim/engine';
import { LAB_SCHEMAS, parseScenario, parseScenarioText } from '../sim/labs';
import { isLabId, labName } from '../sim/labIds';
import { checkExpectation, replayResilience, withOverrides, type ResilienceTrace } from '../sim/resilience';
import type { Json, Scenario } from '../sim/types';
import { emptyHistory, record, redo as redoHistory, undo as undoHistory, type History } from './history';
import { playbackActions, suggestedSpeed, timeRangeEnd, type PlaybackActions } from './playback';
import { scenarioEquals } from './racesStore';
import { decodeResilienceHash } from './resilienceUrl';

/**
 * The resilience lab store (zustand vanilla): the scenario is the only source of truth; the trace
 * is derived from it with `replayResilience` on every change. Undo/redo cover scenario edits,
 * setting changes and loads. Bad input (a setting, an import) keeps the previous scenario and
 * shows every problem as "field: what is wrong".
 */

const LAB = 'resilience';

export interface ResilienceError {
  title: string;
  errors: string[];
}

interface Snapshot {
  scenario: Scenario;
  original: Scenario;
}

export interface ResilienceData {
  builtins: readonly Scenario[];
  scenario: Scenario;
  original: Scenario;
  trace: ResilienceTrace;
  stepTimes: readonly number[];
  rangeEndMs: number;
  cursorMs: number;
  playing: boolean;
  speed: number;
  selectedEventId: string | null;
  error: ResilienceError | null;
  history: History<Snapshot>;
  dragging: boolean;
  loadCount: number;
}

export interface ResilienceActions extends PlaybackActions {
  loadBuiltin(id: string): void;
  loadScenario(scenario: Scenario, original?: Scenario): void;
  /** Deep-merges `patch` into the config; an invalid result is rejected with the errors shown. */
  setConfig(patch: Record<string, Json>): void;
  moveEvent(id: string, atMs: number): void;
  nudgeEvent(id: string, deltaMs: number): void;
  beginDrag(): void;
  endDrag(): void;
  /** Applies the overrides of the original's expectation `index` (the lesson's buggy or fixed variant). */
  applyExpectation(index: number): void;
  select(id: string | null): void;
  /** Loads scenario JSON text (`source` names it in the error title). False when refused; the error says why and the scenario is kept. */
  importText(text: string, source?: string): boolean;
  /**
   * Follows an address the user opened (`hashchange`): loads the scenario it names, or keeps the
   * current one and shows `badLinkError`. Addresses of other pages and `#/resilience` alone change nothing.
   */
  followLink(hash: string): void;
  exportJson(): { filename: string; text: string };
  reset(): void;
  undo(): void;
  redo(): void;
  setError(error: ResilienceError | null): void;
}

export type ResilienceStoreState = ResilienceData & ResilienceActions;
export type ResilienceStore = StoreApi<ResilienceStoreState>;

function derive(scenario: Scenario): Pick<ResilienceData, 'scenario' | 'trace' | 'stepTimes' | 'rangeEndMs'> {
  const trace = replayResilience(scenario);
  const stepTimes: number[] = [];
  for (const step of trace.steps) if (stepTimes.length === 0 || stepTimes[stepTimes.length - 1] !== step.at) stepTimes.push(step.at);
  let last = trace.endAt;
  for (const e of scenario.events) last = Math.max(last, e.at);
  return { scenario, trace, stepTimes, rangeEndMs: timeRangeEnd(last) };
}

function clamp(ms: number, end: number): number {
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), end) : 0;
}

/**
 * The error a bad link raises (never a silent fallback): what was wrong with the link, and which
 * scenario the page shows instead — `kept` when the page keeps what it already showed.
 */
export function badLinkError(errors: string[], shown: Scenario, kept: boolean): ResilienceError {
  return { title: `The link does not hold a valid resilience scenario; ${kept ? 'still showing' : 'showing'} "${shown.title}" instead`, errors };
}

/**
 * The one-line problem for scenario text whose `lab` field names another lab, e.g.
 * `lab: this file is a "races" scenario; open it in the Races lab (#/races)`; null otherwise
 * (including text that is not JSON: the schema check reports that).
 */
export function otherLabProblem(text: string): string | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const lab = value !== null && typeof value === 'object' ? (value as { lab?: unknown }).lab : undefined;
  return isLabId(lab) && lab !== LAB ? `lab: this file is a "${lab}" scenario; open it in the ${labName(lab)} lab (#/${lab})` : null;
}

/**
 * The built-in that a link's path names (`#/resilience/<id>?…`), or undefined. A link whose
 * parameters are bad but whose path names a built-in still shows that built-in (the parameters are
 * ignored, and said so), rather than another scenario.
 */
export function builtinNamedBy(hash: string, builtins: readonly Scenario[]): Scenario | undefined {
  const m = /^#\/resilience\/([^?&#/]+)/.exec(hash);
  if (!m) return undefined;
  let id: string;
  try {
    id = decodeURIComponent(m[1]);
  } catch {
    return undefined;
  }
  return builtins.find((b) => b.id === id);
}

/** The error for a link naming built-in `shown` whose other parts were bad and are ignored. */
export function ignoredLinkPartsError(errors: string[], shown: Scenario): ResilienceError {
  return { title: `Parts of the link are not valid and were ignored; showing the built-in "${shown.title}" it names`, errors: errors.map((e) => `${e} (ignored)`) };
}

/**
 * A store for the page opened at address `hash` (`#/resilience/<id>`, `#/resilience?scenario=…`):
 * the linked scenario, or — for a bad link — the first built-in with `badLinkError` in the banner.
 * `builtinErrors` (invalid built-in files) are shown when the link itself is fine.
 */
export function storeFromHash(hash: string, builtins: readonly Scenario[], builtinErrors: string[] = []): ResilienceStore {
  const builtinError = builtinErrors.length ? { title: 'Some built-in scenario files are invalid and were skipped', errors: builtinErrors } : null;
  const d = decodeResilienceHash(hash, builtins);
  if (d.ok === true) return createResilienceStore({ builtins, initial: d.scenario, original: d.original, error: builtinError });
  if (d.ok === false) {
    const named = builtinNamedBy(hash, builtins);
    if (named) return createResilienceStore({ builtins, initial: named, original: named, error: ignoredLinkPartsError(d.errors, named) });
    return createResilienceStore({ builtins, error: badLinkError(d.errors, builtins[0], false) });
  }
  return createResilienceStore({ builtins, error: builtinError });
}

/** Creates one store for one lab page. `builtins` must hold at least one scenario. */
export function createResilienceStore(options: { builtins: readonly Scenario[]; initialId?: string | null; initial?: Scenario; original?: Scenario | null; error?: ResilienceError | null }): ResilienceStore {
  const { builtins } = options;
  const first = options.initial ?? builtins.find((b) => b.id === options.initialId) ?? builtins[0];
  if (!first) throw new Error('createResilienceStore: no scenario to show');
  const unknownId = options.initialId && !builtins.some((b) => b.id === options.initialId) ? badLinkError([`scenario id: no built-in scenario is called ${JSON.stringify(options.initialId)}`], first, false) : null;

  return createStore<ResilienceStoreState>()((set, get) => {
    const change = (scenario: Scenario, extra: Partial<ResilienceData> = {}) => {
      const s = get();
      let derived: ReturnType<typeof derive>;
      try {
        derived = derive(scenario);
      } catch (err) {
        set({ error: { title: 'The simulation could not run this scenario', errors: [`(model): ${(err as Error).message}`] } });
        return;
      }
      const history = s.dragging ? s.history : record(s.history, { scenario: s.scenario, original: s.original });
      set({ ...derived, history, error: null, ...extra, cursorMs: clamp(extra.cursorMs ?? s.cursorMs, derived.rangeEndMs) });
    };
    const restore = (snap: Snapshot, history: History<Snapshot>) => {
      const derived = derive(snap.scenario);
      const s = get();
      set({ ...derived, original: snap.original, history, error: null, dragging: false, cursorMs: clamp(s.cursorMs, derived.rangeEndMs), loadCount: s.scenario.id !== snap.scenario.id ? s.loadCount + 1 : s.loadCount });
    };
    const validated = (scenario: Scenario, title: string): Scenario | null => {
      const parsed = parseScenario(scenario, LAB, LAB_SCHEMAS[LAB]);
      if (!parsed.ok) {
        set({ error: { title, errors: parsed.errors } });
        return null;
      }
      return parsed.scenario;
    };
    const initial = derive(first);
    return {
      builtins,
      ...initial,
      original: options.original ?? builtins.find((b) => b.id === first.id) ?? first,
      cursorMs: 0,
      playing: false,
      speed: suggestedSpeed(initial.trace.endAt),
      selectedEventId: null,
      error: options.error ?? unknownId,
      history: emptyHistory(),
      dragging: false,
      loadCount: 0,

      loadBuiltin(id) {
        const b = get().builtins.find((x) => x.id === id);
        if (!b) set({ error: { title: 'Unknown scenario', errors: [`scenario id: no built-in scenario is called ${JSON.stringify(id)}`] } });
        else get().loadScenario(b, b);
      },
      loadScenario(scenario, original) {
        const s = get();
        const derived = derive(scenario);
        set({
          ...derived,
          original: original ?? s.builtins.find((b) => b.id === scenario.id) ?? scenario,
          history: record(s.history, { scenario: s.scenario, original: s.original }),
          error: null,
          playing: false,
          dragging: false,
          selectedEventId: null,
          cursorMs: 0,
          speed: suggestedSpeed(derived.trace.endAt),
          loadCount: s.loadCount + 1,
        });
      },
      setConfig(patch) {
        const s = get();
        const next = validated({ ...s.scenario, config: mergeConfig(s.scenario.config as Record<string, Json>, patch) }, 'That setting is not valid; the previous settings are kept');
        if (next) change(next);
      },
      moveEvent(id, atMs) {
        const s = get();
        const at = Math.min(Math.max(Math.round(atMs), 0), 1_000_000_000);
        const i = s.scenario.events.findIndex((e) => e.id === id);
        if (i < 0 || s.scenario.events[i].at === at) return;
        const events = s.scenario.events.slice();
        events[i] = { ...events[i], at };
        change({ ...s.scenario, events }, { selectedEventId: id });
      },
      nudgeEvent(id, deltaMs) {
        const ev = get().scenario.events.find((e) => e.id === id);
        if (ev) get().moveEvent(id, ev.at + deltaMs);
      },
      beginDrag() {
        const s = get();
        if (!s.dragging) set({ dragging: true, history: record(s.history, { scenario: s.scenario, original: s.original }) });
      },
      endDrag() {
        set({ dragging: false });
      },
      applyExpectation(index) {
        const s = get();
        const e = s.original.expect?.[index];
        if (!e) return;
        const next = validated(withOverrides(s.original, e.overrides), 'These overrides do not make a valid scenario');
        if (next) change(next);
      },
      ...playbackActions(get, set, (st) => st.trace.endAt),
      select(id) {
        set({ selectedEventId: id });
      },
      importText(text, source = 'The imported scenario') {
        const other = otherLabProblem(text);
        const where = /^The pasted/.test(source) ? '(pasted text)' : '(file)';
        const parsed = other ? { ok: false as const, errors: [other] } : text.trim() === '' ? { ok: false as const, errors: [`${where}: is empty; expected a resilience scenario as JSON`] } : parseScenarioText(text, LAB, LAB_SCHEMAS[LAB], where);
        if (!parsed.ok) {
          set({ error: { title: other ? `${source} is not a resilience scenario; the previous scenario is kept` : `${source} is not valid; the previous scenario is kept`, errors: parsed.errors } });
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
      followLink(hash) {
        const s = get();
        const d = decodeResilienceHash(hash, s.builtins);
        const named = d.ok === false ? builtinNamedBy(hash, s.builtins) : undefined;
        if (d.ok === false && named) {
          if (!scenarioEquals(s.scenario, named)) s.loadScenario(named, named);
          set({ error: ignoredLinkPartsError(d.errors, named) });
        } else if (d.ok === false) set({ error: badLinkError(d.errors, s.scenario, true) });
        else if (d.ok === true) s.loadScenario(d.scenario, d.original ?? undefined);
      },
      exportJson() {
        const s = get();
        return { filename: `${s.scenario.id}.json`, text: JSON.stringify(s.scenario, null, 2) + '\n' };
      },
      reset() {
        const s = get();
        if (!scenarioEquals(s.scenario, s.original)) change(s.original);
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

/** Whether the current trace meets the original's expectation `index` (the lesson's tick). */
export function expectationMet(s: ResilienceData, index: number): boolean {
  const e = s.original.expect?.[index];
  if (!e) return false;
  const { overrides: _o, ...rest } = e;
  void _o;
  return checkExpectation(s.trace, rest).length === 0;
}
