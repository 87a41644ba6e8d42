import type { StoreApi } from 'zustand/vanilla';
import type { ReplayResult } from '../sim/replay';
import type { LabDefinition, LabPageDefinition } from '../sim/lab';
import type { Json, Scenario, ScriptedEvent } from '../sim/types';
import type { History } from './history';
import type { LinkOptions } from './labLink';
import type { LabError } from './labTexts';
import type { PlaybackActions } from './playback';

/** The shapes of the one lab store (`createLabStore` in `labStore.ts`): its data, its verbs, and the spec a lab gives it. */

/**
 * What undo/redo restores. `step` names the change made from this snapshot (what undoing back to
 * it undoes, e.g. "switch to B · Complete then cancel", "move cancel to 700 ms"); the scenario bar's
 * Undo/Redo buttons show it. Switching scenario is one undoable step like any edit, in every lab.
 */
export interface LabSnapshot<X> {
  scenario: Scenario;
  original: Scenario;
  extra: X;
  step: string;
}

/** The data every lab store holds. `T` is the lab's trace type, `X` its extra slice. */
export interface LabData<T, X> {
  lab: LabDefinition['id'];
  builtins: readonly Scenario[];
  scenario: Scenario;
  /** The lesson's version of this scenario (Reset restores it; lesson rows apply to it). */
  original: Scenario;
  trace: T;
  /** Distinct step times of the trace, ascending (←/→ step to them). */
  stepTimes: readonly number[];
  /** End of the scrubbable / drawn time range (ms). */
  rangeEndMs: number;
  /** Playhead, virtual ms (fractional while playing). */
  cursorMs: number;
  playing: boolean;
  /** Virtual ms per real second. */
  speed: number;
  selectedEventId: string | null;
  error: LabError | null;
  /** Why the last edit was held back (e.g. a ledger step stopped at its lane neighbour), or null. */
  notice: string | null;
  /** The title of the scenario the last import (file, paste, drop) loaded, until the next edit, load or undo; null otherwise. */
  imported: string | null;
  /**
   * Every scenario imported (file, paste, drop) since the page opened, oldest first, as it was
   * imported — each (id, title) once, a later import replacing the earlier one. The picker lists
   * them under "Imported", so picking a built-in loses no import (walkthrough). Not part of undo.
   */
  importedScenarios: readonly Scenario[];
  history: History<LabSnapshot<X>>;
  /** A pointer drag is in progress (one undo point for the whole gesture). */
  dragging: boolean;
  /** Increments when a different scenario is loaded (views reset zoom on it). */
  loadCount: number;
  /** The last coalescible edit (keyboard nudges), to merge repeats into one undo step. */
  lastNudge: { id: string; atMs: number } | null;
  extra: X;
}

/** The verbs every lab store offers. */
export interface LabActions<X> extends PlaybackActions {
  loadBuiltin(id: string): void;
  /** Loads entry `index` of `importedScenarios` again, as imported (undoable); an index not listed is refused with an error. */
  loadImported(index: number): void;
  /** Loads `scenario` (undoable). `keepView` keeps playhead, speed and selection (a link to the same scenario). */
  loadScenario(scenario: Scenario, options?: { original?: Scenario; cursorMs?: number | null; keepView?: boolean; step?: string }): void;
  /** Loads scenario JSON text (a file or a paste; `source` names it in the error title). False when refused; the scenario is kept. */
  importText(text: string, source?: string): boolean;
  /** Follows an address opened in the tab (pasted, Back/Forward): loads it, or keeps the scenario and says why. */
  followLink(hash: string): void;
  /** The address that reproduces the scenario (and the paused playhead where the lab carries it). */
  address(): string;
  /** Deep-merges `patch` into the config; an invalid result is refused with every field named. */
  setConfig(patch: Record<string, Json>): void;
  moveEvent(id: string, atMs: number): void;
  /** Keyboard move by `deltaMs`; repeated nudges of one event within a second make one undo step. */
  nudgeEvent(id: string, deltaMs: number, nowMs?: number): void;
  /** Moves an event among the scripted events at the same ms (the tie rule: list order). */
  reorderEvent(id: string, direction: -1 | 1): void;
  beginDrag(): void;
  endDrag(): void;
  /** Shows the original with the overrides of its expectation `index` (the lesson's buggy or fixed row); undoable. */
  applyExpectation(index: number): void;
  /** Shows the original with `overrides` applied to its config; undoable. */
  applyOverrides(overrides: Record<string, Json> | undefined): void;
  /** Replaces the scenario as an undoable edit (an explorer's counterexample); `cursorMs` moves the playhead. */
  showScenario(scenario: Scenario, cursorMs?: number): void;
  /** Sets part of the lab's extra slice (undoable); the spec's `checkExtra` may refuse it. */
  setExtra(patch: Partial<X>): void;
  play(): void;
  pause(): void;
  select(id: string | null): void;
  exportJson(): { filename: string; text: string };
  reset(): void;
  undo(): void;
  redo(): void;
  setError(error: LabError | null): void;
  clearError(): void;
}

export type LabStoreState<T = ReplayResult<unknown, unknown>, X = null> = LabData<T, X> & LabActions<X>;
export type LabStore<T = ReplayResult<unknown, unknown>, X = null> = StoreApi<LabStoreState<T, X>>;

/** What the store adds to a lab's definition: its built-ins, link form and the few lab-specific rules. */
export interface LabStoreSpec<S, O, T extends ReplayResult<S, O>, X> {
  definition: LabPageDefinition<S, O, T>;
  builtins: readonly Scenario[];
  /** Problems of invalid built-in files (shown when nothing else is). */
  builtinErrors?: readonly string[];
  link?: LinkOptions;
  /** End of the drawn range; default: the last step or event plus a margin (`timeRangeEnd`). */
  rangeEnd?(scenario: Scenario, trace: T): number;
  /** Where playing stops and End jumps; default: the last step (the range end when there is none). */
  playEnd?(data: LabData<T, X>): number;
  /** Holds a move back (ledger: a step cannot pass its own connection's steps): the time it may go to, and why. */
  constrainMove?(scenario: Scenario, id: string, atMs: number): { atMs: number; notice: string | null };
  /** Why two same-millisecond events may not swap (ledger: one connection's steps), or null. */
  reorderProblem?(a: ScriptedEvent, b: ScriptedEvent, direction: -1 | 1): string | null;
  extra?: X;
  /** Validates a patch of the extra slice: the new value, or the error to show. */
  checkExtra?(current: X, patch: Partial<X>): { ok: true; value: X } | { ok: false; error: LabError };
}

/** How a store starts: a scenario (from a link), or the first built-in. */
export interface LabStoreStart {
  initial?: Scenario;
  original?: Scenario;
  cursorMs?: number | null;
  error?: LabError | null;
}

