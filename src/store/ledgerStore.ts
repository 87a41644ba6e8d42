import { scenarioForOrder } from '../sim/explore';
import { createLedgerDefinition } from '../sim/ledger/definition';
import { isStep, laneBounds, orderProblem, stepName } from '../sim/ledger/lanes';
import { createLedgerModel, ledgerLaneOf, replayLedger, type LedgerTrace, type OpenDatabase } from '../sim/ledger';
import type { StoreApi } from 'zustand/vanilla';
import type { SqlJsStatic } from 'sql.js';
import { openBytes, wrapSqlJs } from '../db/sqljs';
import type { PracticeCheck } from '../sim/ledger/practice';
import type { Scenario } from '../sim/types';
import { createLabStore, playheadSelectors, storeFromLink, type LabData, type LabError, type LabStore, type LabStoreSpec, type LabStoreState } from './labStore';
import { labTexts } from './labTexts';
import { selectStepIndex } from './labSelectors';
import { runReadOnly, type ConsoleDatabase, type QueryResult } from './ledgerConsole';

export * from './labSelectors';
export { runReadOnly, type ConsoleDatabase, type QueryResult } from './ledgerConsole';
/** Values of the lab the page shows as text. */
export { POLICIES, MAX_CHARGE_CENTS, checkLedgerExpectation, LEDGER_TIE_RULE } from '../sim/ledger';
export { classifyRetry } from '../sim/retry/classify';
export { countInterleavings } from '../sim/explore';
export { INVENTORY_BUG_TEXT, INVENTORY_BUGS, PRACTICE_CHECKS, type InventoryVariant, type PracticeCheck } from '../sim/ledger/practice';
export { laneBounds, laneKindProblem, ledgerStepLanes, orderProblem } from '../sim/ledger/lanes';

/**
 * The ledger lab's store: the one lab store (`createLabStore`) over the ledger definition, which
 * replays on real sql.js databases (loaded before the store is made). Its own rules: a step stops
 * at its connection's neighbours (the `notice` says why), two steps of one connection never swap,
 * and the explorer's orders apply as one undoable edit (`applyOrder`).
 */
export type LedgerError = LabError;
export type LedgerData = LabData<LedgerTrace, null> & { open: OpenDatabase };

/** The ledger's own verbs, beside the shared ones. */
export interface LedgerActions {
  /** Puts the movable steps into `order` (an explorer ordering) on the timeline; an order that breaks a lane is refused. */
  applyOrder(order: readonly string[]): void;
  /** Loads a scenario a link holds; refuses (and keeps the current one) when its lanes run out of order. Returns success. */
  loadLinked(scenario: Scenario): boolean;
}

export type LedgerStoreState = LabStoreState<LedgerTrace, null> & LedgerActions & { open: OpenDatabase };
export type LedgerStore = StoreApi<LedgerStoreState>;

/** The ledger lab's store spec: built-ins, databases from `open`, and the lane rules. */
export function ledgerSpec(open: OpenDatabase, builtins: readonly Scenario[], builtinErrors: readonly string[] = []): LabStoreSpec<LedgerTrace['initial'], LedgerTrace['outcome'], LedgerTrace, null> {
  return {
    definition: createLedgerDefinition(open),
    builtins,
    builtinErrors,
    extra: null,
    constrainMove(scenario, id, atMs) {
      const bounds = laneBounds(scenario, id);
      if (!bounds) return { atMs, notice: null };
      const at = Math.min(Math.max(atMs, bounds.minMs), bounds.maxMs);
      return { atMs: at, notice: at !== atMs ? bounds.notice : null };
    },
    reorderProblem(a, b, direction) {
      if (!isStep(a) || !isStep(b) || ledgerLaneOf(a) !== ledgerLaneOf(b)) return null;
      const [first, second] = direction < 0 ? [b, a] : [a, b];
      return `${stepName(second)} cannot go before ${stepName(first)}: a connection runs its own steps in order. To change who goes first, move the other connection's steps.`;
    },
  };
}

/** Adds the ledger's own verbs and its database opener beside the shared store. */
function withLedgerSlice(store: LabStore<LedgerTrace, null>, open: OpenDatabase, parse: (value: unknown) => { ok: boolean; errors?: string[] }): LedgerStore {
  const get = () => store.getState() as LedgerStoreState;
  const slice: LedgerActions & { open: OpenDatabase } = {
    open,
    applyOrder(order) {
      const s = get();
      const problem = orderProblem(s.scenario, order);
      if (problem) s.setError({ title: "That ordering breaks a connection's own step order; the timeline is kept", errors: [problem] });
      else s.showScenario(scenarioForOrder(s.scenario, order));
    },
    loadLinked(scenario) {
      const s = get();
      const parsed = parse(scenario);
      if (!parsed.ok) {
        s.setError({ title: labTexts('ledger').badLinkKept(s.scenario.title), errors: parsed.errors ?? [] });
        return false;
      }
      const before = s.scenario;
      s.loadScenario(scenario);
      return get().scenario !== before;
    },
  };
  store.setState(slice as unknown as Partial<LabStoreState<LedgerTrace, null>>);
  return store as unknown as LedgerStore;
}

/** Creates a ledger store over `builtins` (validated scenarios), replaying on databases from `open`. */
export function createLedgerStore(options: { open: OpenDatabase; builtins: readonly Scenario[]; initial?: Scenario; error?: LedgerError | null }): LedgerStore {
  const spec = ledgerSpec(options.open, options.builtins);
  return withLedgerSlice(createLabStore(spec, { initial: options.initial, error: options.error }), options.open, spec.definition.parse);
}

/** The ledger store for a page opened at `hash` (see `storeFromLink`). */
export function ledgerStoreFromLink(open: OpenDatabase, hash: string, builtins: readonly Scenario[], builtinErrors: readonly string[] = []): LedgerStore {
  const spec = ledgerSpec(open, builtins, builtinErrors);
  return withLedgerSlice(storeFromLink(spec, hash), open, spec.definition.parse);
}

const playhead = playheadSelectors(createLedgerDefinition(() => {
  throw new Error('ledger playhead selectors never replay');
}));


/** The model state at the playhead. */
export const selectStateAt = (s: LabData<LedgerTrace, unknown>) => playhead.selectStateAt(s);

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

/** A database opener for the practice checks: fresh in-memory sql.js databases, or one opened from file bytes. */
export function practiceOpener(SQL: SqlJsStatic): Parameters<PracticeCheck['run']>[0] {
  return ((bytes?: Uint8Array) => (bytes ? openBytes(SQL, bytes) : wrapSqlJs(new SQL.Database()))) as Parameters<PracticeCheck['run']>[0];
}
