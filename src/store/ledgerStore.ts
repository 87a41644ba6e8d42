import { createStore, type StoreApi } from 'zustand/vanilla';
import { mergeConfig, stepIndexAt } from '../sim/engine';
import { scenarioForOrder } from '../sim/explore';
import { isStep, laneBounds, laneKindProblem, orderProblem, stepName } from '../sim/ledger/lanes';
import { LAB_SCHEMAS, parseAnyScenarioText, parseScenario, parseScenarioText } from '../sim/labs';
import { createLedgerModel, ledgerLaneOf, ledgerLengthProblem, replayLedger, type LedgerModel, type LedgerTrace, type OpenDatabase } from '../sim/ledger';
import type { Json, Scenario } from '../sim/types';
import { emptyHistory, record, redo as redoHistory, undo as undoHistory, type History } from './history';
import { playbackActions, suggestedSpeed, timeRangeEnd } from './playback';
import { runReadOnly, type ConsoleDatabase, type QueryResult } from './ledgerConsole';

export { runReadOnly, type ConsoleDatabase, type QueryResult } from './ledgerConsole';
export { laneBounds, laneKindProblem, ledgerStepLanes, orderProblem } from '../sim/ledger/lanes';

/**
 * The ledger lab's scenario store (zustand vanilla): the scenario is the source of truth, the
 * trace is replayed on fresh sql.js databases on every change (synchronously: sql.js is loaded
 * before the store is made). Undo/redo covers scenario edits and settings.
 */
export interface LedgerError {
  title: string;
  errors: string[];
}

export interface LedgerData {
  open: OpenDatabase;
  builtins: readonly Scenario[];
  scenario: Scenario;
  original: Scenario;
  trace: LedgerTrace;
  stepTimes: readonly number[];
  rangeEndMs: number;
  /** Playhead, virtual ms (fractional while playing). */
  cursorMs: number;
  playing: boolean;
  /** Play speed, virtual ms per real second. */
  speed: number;
  selectedEventId: string | null;
  error: LedgerError | null;
  /**
   * Why the last edit was held back (a connection's step stopped at its own lane's neighbour, or
   * a refused reorder), in words; null after an edit that went through unchanged.
   */
  laneNotice: string | null;
  history: History<Scenario>;
  dragging: boolean;
  loadCount: number;
}

export interface LedgerActions {
  loadBuiltin(id: string): void;
  /** Loads `scenario` (e.g. a counterexample of the explorer) as an undoable edit of the current one. */
  showScenario(scenario: Scenario, cursorMs?: number): void;
  setConfig(patch: Record<string, Json>): void;
  moveEvent(id: string, atMs: number): void;
  nudgeEvent(id: string, deltaMs: number): void;
  /** Puts the movable events into `order` (the explorer's ordering) on the timeline. */
  applyOrder(order: readonly string[]): void;
  beginDrag(): void;
  endDrag(): void;
  seek(ms: number): void;
  /** Plays from the playhead (from 0 when it is at the end) or pauses. */
  togglePlay(): void;
  /** Advances the playhead by `realMs` of wall time at the current speed; stops at the last step. */
  tick(realMs: number): void;
  setSpeed(speed: number): void;
  stepForward(): void;
  stepBack(): void;
  toStart(): void;
  toEnd(): void;
  select(id: string | null): void;
  reset(): void;
  undo(): void;
  redo(): void;
  setError(error: LedgerError | null): void;
  /** Moves an event one place earlier/later among events at the same millisecond (the tie order). */
  reorderEvent(id: string, direction: -1 | 1): void;
  /** Loads a scenario file's text; on any problem keeps the current scenario and lists every error. Returns success. */
  importText(text: string, source: string): boolean;
  /** The current scenario as a JSON file. */
  exportJson(): { filename: string; text: string };
  /**
   * Shows a scenario decoded from the address (a pasted link, Back/Forward) as an undoable load: a
   * built-in keeps its lesson version for Reset. On a lane-order or model problem keeps the current
   * scenario and sets `error`. Returns success.
   */
  loadLinked(scenario: Scenario): boolean;
}

export type LedgerStoreState = LedgerData & LedgerActions;
export type LedgerStore = StoreApi<LedgerStoreState>;

function derive(scenario: Scenario, open: OpenDatabase, model: LedgerModel): Pick<LedgerData, 'scenario' | 'trace' | 'stepTimes' | 'rangeEndMs'> {
  // One model instance per store: each replay reuses (empties) the same database.
  const trace = replayLedger(scenario, open, { model });
  const stepTimes: number[] = [];
  for (const step of trace.steps) if (stepTimes[stepTimes.length - 1] !== step.at) stepTimes.push(step.at);
  let last = trace.endAt;
  for (const e of scenario.events) last = Math.max(last, e.at);
  return { scenario, trace, stepTimes, rangeEndMs: timeRangeEnd(last) };
}

/** Where playing stops: the last step (or the end of the range when nothing happens). */
const playEnd = (s: LedgerData) => (s.trace.endAt > 0 ? s.trace.endAt : s.rangeEndMs);

const clamp = (ms: number, end: number) => Math.min(Math.max(0, Math.round(ms)), end);

/** Creates a ledger store over `builtins` (validated scenarios), replaying on databases from `open`. */
export function createLedgerStore(options: { open: OpenDatabase; builtins: readonly Scenario[]; initial?: Scenario; error?: LedgerError | null }): LedgerStore {
  const { open, builtins } = options;
  const first = options.initial ?? builtins[0];
  if (!first) throw new Error('createLedgerStore: no scenario to show');
  const model = createLedgerModel(open);
  return createStore<LedgerStoreState>()((set, get) => {
    const change = (scenario: Scenario, extra: Partial<LedgerData> = {}) => {
      const s = get();
      let derived: ReturnType<typeof derive>;
      try {
        derived = derive(scenario, open, model);
      } catch (err) {
        set({ error: { title: 'The simulation could not run this scenario; the previous one is kept', errors: [`(model): ${(err as Error).message}`] } });
        return;
      }
      const history = s.dragging ? s.history : record(s.history, s.scenario);
      set({ ...derived, history, error: null, laneNotice: null, ...extra, cursorMs: clamp(extra.cursorMs ?? s.cursorMs, derived.rangeEndMs) });
    };
    const validated = (scenario: Scenario): Scenario | null => {
      const parsed = parseScenario(scenario, 'ledger', LAB_SCHEMAS.ledger);
      if (!parsed.ok) {
        set({ error: { title: 'That change is not valid; the previous scenario is kept', errors: parsed.errors } });
        return null;
      }
      return parsed.scenario;
    };
    const initial = derive(first, open, model);
    return {
      open,
      builtins,
      ...initial,
      original: builtins.find((b) => b.id === first.id) ?? first,
      cursorMs: 0,
      playing: false,
      speed: suggestedSpeed(initial.trace.endAt),
      selectedEventId: null,
      error: options.error ?? null,
      laneNotice: null,
      history: emptyHistory(),
      dragging: false,
      loadCount: 0,

      loadBuiltin(id) {
        const b = get().builtins.find((x) => x.id === id);
        if (!b) return set({ error: { title: 'Unknown scenario', errors: [`scenario id: no built-in scenario is called ${JSON.stringify(id)}`] } });
        const s = get();
        const derived = derive(b, open, model);
        set({ ...derived, original: b, history: record(s.history, s.scenario), error: null, laneNotice: null, selectedEventId: null, cursorMs: 0, loadCount: s.loadCount + 1 });
      },
      showScenario(scenario, cursorMs) {
        change(scenario, cursorMs === undefined ? {} : { cursorMs });
      },
      setConfig(patch) {
        const s = get();
        const next = validated({ ...s.scenario, config: mergeConfig(s.scenario.config as Record<string, Json>, patch) });
        if (next) change(next);
      },
      moveEvent(id, atMs) {
        const s = get();
        const wanted = Math.max(0, Math.round(atMs));
        const bounds = laneBounds(s.scenario, id);
        const at = bounds ? Math.min(Math.max(wanted, bounds.minMs), bounds.maxMs) : wanted;
        const laneNotice = bounds && at !== wanted ? bounds.notice : null;
        if (!s.scenario.events.some((e) => e.id === id && e.at !== at)) {
          if (laneNotice !== s.laneNotice) set({ laneNotice });
          return;
        }
        change({ ...s.scenario, events: s.scenario.events.map((e) => (e.id === id ? { ...e, at } : e)) }, { selectedEventId: id, laneNotice });
      },
      nudgeEvent(id, deltaMs) {
        const e = get().scenario.events.find((x) => x.id === id);
        if (e) get().moveEvent(id, e.at + deltaMs);
      },
      applyOrder(order) {
        const s = get();
        const problem = orderProblem(s.scenario, order);
        if (problem) return set({ error: { title: 'That ordering breaks a connection\'s own step order; the timeline is kept', errors: [problem] } });
        change(scenarioForOrder(s.scenario, order));
      },
      beginDrag() {
        const s = get();
        if (!s.dragging) set({ dragging: true, history: record(s.history, s.scenario) });
      },
      endDrag() {
        set({ dragging: false });
      },
      ...playbackActions(get, set, playEnd),
      select(id) {
        set({ selectedEventId: id });
      },
      reset() {
        change(get().original);
      },
      undo() {
        const s = get();
        const u = undoHistory(s.history, s.scenario);
        if (!u) return;
        const derived = derive(u.value, open, model);
        set({ ...derived, history: u.history, error: null, laneNotice: null, cursorMs: clamp(s.cursorMs, derived.rangeEndMs) });
      },
      redo() {
        const s = get();
        const r = redoHistory(s.history, s.scenario);
        if (!r) return;
        const derived = derive(r.value, open, model);
        set({ ...derived, history: r.history, error: null, laneNotice: null, cursorMs: clamp(s.cursorMs, derived.rangeEndMs) });
      },
      setError(error) {
        set({ error });
      },
      reorderEvent(id, direction) {
        const s = get();
        const events = s.scenario.events;
        const i = events.findIndex((e) => e.id === id);
        if (i < 0) return;
        // The neighbour in file order among events at the same millisecond.
        let j = i + direction;
        while (j >= 0 && j < events.length && events[j].at !== events[i].at) j += direction;
        if (j < 0 || j >= events.length) return;
        if (isStep(events[i]) && isStep(events[j]) && ledgerLaneOf(events[i]) === ledgerLaneOf(events[j])) {
          const [first, second] = direction < 0 ? [events[j], events[i]] : [events[i], events[j]];
          return set({
            laneNotice: `${stepName(second)} cannot go before ${stepName(first)}: a connection runs its own steps in order. To change who goes first, move the other connection's steps.`,
          });
        }
        const next = events.slice();
        [next[i], next[j]] = [next[j], next[i]];
        change({ ...s.scenario, events: next }, { selectedEventId: id });
      },
      importText(text, source) {
        const other = parseAnyScenarioText(text).lab;
        if (other !== undefined && other !== 'ledger') {
          // Another lab's scenario: say where it belongs rather than list field errors.
          const name = `${other.charAt(0).toUpperCase()}${other.slice(1)}`;
          set({ error: { title: `${source} is not a ledger scenario; the previous scenario is kept`, errors: [`lab: this file is a "${other}" scenario; open it in the ${name} lab (#/${other})`] } });
          return false;
        }
        const raw = parseScenarioText(text, 'ledger', LAB_SCHEMAS.ledger);
        const tooLong = raw.ok ? (ledgerLengthProblem(raw.scenario.events) ?? laneKindProblem(raw.scenario)) : null;
        const parsed = tooLong ? { ok: false as const, errors: [tooLong] } : raw;
        if (!parsed.ok) {
          set({ error: { title: `${source} is not a valid ledger scenario; the previous scenario is kept`, errors: parsed.errors } });
          return false;
        }
        const s = get();
        let derived: ReturnType<typeof derive>;
        try {
          derived = derive(parsed.scenario, open, model);
        } catch (err) {
          set({ error: { title: `${source} could not be replayed; the previous scenario is kept`, errors: [`(model): ${(err as Error).message}`] } });
          return false;
        }
        set({ ...derived, original: parsed.scenario, history: record(s.history, s.scenario), error: null, laneNotice: null, selectedEventId: null, cursorMs: 0, loadCount: s.loadCount + 1 });
        return true;
      },
      loadLinked(scenario) {
        const problem = laneKindProblem(scenario);
        if (problem) {
          set({ error: { title: 'The link does not hold a valid ledger scenario; the previous scenario is kept (and back in the address)', errors: [problem] } });
          return false;
        }
        const s = get();
        let derived: ReturnType<typeof derive>;
        try {
          derived = derive(scenario, open, model);
        } catch (err) {
          set({ error: { title: 'The link could not be replayed; the previous scenario is kept (and back in the address)', errors: [`(model): ${(err as Error).message}`] } });
          return false;
        }
        const original = s.builtins.find((b) => b.id === scenario.id) ?? scenario;
        set({ ...derived, original, history: record(s.history, s.scenario), error: null, laneNotice: null, selectedEventId: null, cursorMs: 0, loadCount: s.loadCount + 1 });
        return true;
      },
      exportJson() {
        const { scenario } = get();
        return { filename: `${scenario.id}.json`, text: JSON.stringify(scenario, null, 2) + '\n' };
      },
    };
  });
}

/** Index of the last step at or before the playhead (-1 before the first). */
export function selectStepIndex(s: LedgerData): number {
  return stepIndexAt(s.trace.steps, s.cursorMs);
}

/** The model state at the playhead. */
export function selectStateAt(s: LedgerData) {
  const i = selectStepIndex(s);
  return i < 0 ? s.trace.initial : s.trace.steps[i].state;
}

/** The scenario's database replayed up to the playhead (a fresh one; the caller closes it). */
function databaseAtPlayhead(s: LedgerData): ConsoleDatabase & { export?: () => Uint8Array; close?: () => void } {
  const model = createLedgerModel(s.open);
  const steps = selectStepIndex(s) + 1;
  replayLedger(s.scenario, s.open, { model, maxSteps: Math.max(steps, 0), keep: 'effects' });
  const db = model.database();
  if (!db) throw new Error('databaseAtPlayhead: the replay opened no database');
  return db as ConsoleDatabase;
}

/**
 * The scenario's database as it is at the playhead (replayed up to that step), as SQLite file
 * bytes for the console's worker (see `ledgerConsole.ts`). Throws `Error` if the opener's
 * databases cannot export (sql.js ones can).
 */
export function bytesAtPlayhead(s: LedgerData): Uint8Array {
  const db = databaseAtPlayhead(s);
  try {
    if (!db.export) throw new Error('bytesAtPlayhead: the database opener does not export file bytes');
    return db.export();
  } finally {
    db.close?.();
  }
}

/** Rebuilds the scenario's database as it is at the playhead and queries it read-only, on this thread (tests; the page uses the console worker). */
export function queryAtPlayhead(s: LedgerData, sql: string): QueryResult {
  const db = databaseAtPlayhead(s);
  try {
    return runReadOnly(db, sql);
  } finally {
    db.close?.();
  }
}
