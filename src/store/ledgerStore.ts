import { createStore, type StoreApi } from 'zustand/vanilla';
import { mergeConfig, stepIndexAt } from '../sim/engine';
import { scenarioForOrder } from '../sim/explore';
import { LAB_SCHEMAS, parseScenario, parseScenarioText } from '../sim/labs';
import { createLedgerModel, ledgerLengthProblem, replayLedger, type LedgerModel, type LedgerTrace, type OpenDatabase, type SqlDatabase } from '../sim/ledger';
import type { Json, Scenario } from '../sim/types';
import { emptyHistory, record, redo as redoHistory, undo as undoHistory, type History } from './history';
import { nextStepTime, prevStepTime, timeRangeEnd } from './playback';

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
  cursorMs: number;
  selectedEventId: string | null;
  error: LedgerError | null;
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
      set({ ...derived, history, error: null, ...extra, cursorMs: clamp(extra.cursorMs ?? s.cursorMs, derived.rangeEndMs) });
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
      cursorMs: initial.rangeEndMs,
      selectedEventId: null,
      error: options.error ?? null,
      history: emptyHistory(),
      dragging: false,
      loadCount: 0,

      loadBuiltin(id) {
        const b = get().builtins.find((x) => x.id === id);
        if (!b) return set({ error: { title: 'Unknown scenario', errors: [`scenario id: no built-in scenario is called ${JSON.stringify(id)}`] } });
        const s = get();
        const derived = derive(b, open, model);
        set({ ...derived, original: b, history: record(s.history, s.scenario), error: null, selectedEventId: null, cursorMs: derived.rangeEndMs, loadCount: s.loadCount + 1 });
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
        const at = Math.max(0, Math.round(atMs));
        if (!s.scenario.events.some((e) => e.id === id && e.at !== at)) return;
        change({ ...s.scenario, events: s.scenario.events.map((e) => (e.id === id ? { ...e, at } : e)) }, { selectedEventId: id });
      },
      nudgeEvent(id, deltaMs) {
        const e = get().scenario.events.find((x) => x.id === id);
        if (e) get().moveEvent(id, e.at + deltaMs);
      },
      applyOrder(order) {
        change(scenarioForOrder(get().scenario, order));
      },
      beginDrag() {
        const s = get();
        if (!s.dragging) set({ dragging: true, history: record(s.history, s.scenario) });
      },
      endDrag() {
        set({ dragging: false });
      },
      seek(ms) {
        set({ cursorMs: clamp(ms, get().rangeEndMs) });
      },
      stepForward() {
        const s = get();
        const t = nextStepTime(s.stepTimes, s.cursorMs);
        if (t !== null) set({ cursorMs: t });
      },
      stepBack() {
        const s = get();
        const t = prevStepTime(s.stepTimes, s.cursorMs);
        set({ cursorMs: t ?? 0 });
      },
      toStart() {
        set({ cursorMs: 0 });
      },
      toEnd() {
        set({ cursorMs: get().rangeEndMs });
      },
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
        set({ ...derived, history: u.history, error: null, cursorMs: clamp(s.cursorMs, derived.rangeEndMs) });
      },
      redo() {
        const s = get();
        const r = redoHistory(s.history, s.scenario);
        if (!r) return;
        const derived = derive(r.value, open, model);
        set({ ...derived, history: r.history, error: null, cursorMs: clamp(s.cursorMs, derived.rangeEndMs) });
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
        const next = events.slice();
        [next[i], next[j]] = [next[j], next[i]];
        change({ ...s.scenario, events: next }, { selectedEventId: id });
      },
      importText(text, source) {
        const raw = parseScenarioText(text, 'ledger', LAB_SCHEMAS.ledger);
        const tooLong = raw.ok ? ledgerLengthProblem(raw.scenario.events) : null;
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
        set({ ...derived, original: parsed.scenario, history: record(s.history, s.scenario), error: null, selectedEventId: null, cursorMs: derived.rangeEndMs, loadCount: s.loadCount + 1 });
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

/**
 * Result of a read-only query: column names and rows, or the SQLite error text.
 * Writes fail with SQLite's own "attempt to write a readonly database" (`PRAGMA query_only`).
 */
export type QueryResult = { ok: true; columns: string[]; rows: Json[][] } | { ok: false; error: string };

/** A database that can run arbitrary SQL text with results (sql.js `exec`). */
export interface ConsoleDatabase extends SqlDatabase {
  raw: { exec(sql: string): { columns: string[]; values: unknown[][] }[] };
}

/** Runs `sql` read-only on `db`; at most `maxRows` rows are returned. Never throws. */
export function runReadOnly(db: ConsoleDatabase, sql: string, maxRows = 200): QueryResult {
  if (sql.trim() === '') return { ok: false, error: 'type a query, e.g. SELECT * FROM charges' };
  try {
    db.exec('PRAGMA query_only = ON');
    try {
      const results = db.raw.exec(sql);
      const last = results[results.length - 1];
      if (!last) return { ok: true, columns: [], rows: [] };
      return { ok: true, columns: last.columns, rows: last.values.slice(0, maxRows).map((r) => r.map((v) => (v instanceof Uint8Array ? `<${v.length} bytes>` : (v as Json)))) };
    } finally {
      db.exec('PRAGMA query_only = OFF');
    }
  } catch (err) {
    return { ok: false, error: (err as Error).message };
  }
}

/** Rebuilds the scenario's database as it is at the playhead (replay up to that step) and queries it read-only. */
export function queryAtPlayhead(s: LedgerData, sql: string): QueryResult {
  const model = createLedgerModel(s.open);
  const steps = selectStepIndex(s) + 1;
  replayLedger(s.scenario, s.open, { model, maxSteps: Math.max(steps, 0), keep: 'effects' });
  const db = model.database() as ConsoleDatabase | null;
  if (!db) return { ok: false, error: 'no database' };
  try {
    return runReadOnly(db, sql);
  } finally {
    (db as ConsoleDatabase & { close?: () => void }).close?.();
  }
}
