import { replay, stepIndexAt, type ReplayOptions, type ReplayResult } from './engine';
import type { ExpectationMismatch } from './expectation';
import { explore, type ExploreResult } from './explore';
import type { OrdersResult } from './orders';
import type { LabId } from './labIds';
import { parseScenario, type LabSchemas, type ParseResult } from './scenario';
import type { Expectation, Model, Scenario, ScriptedEvent } from './types';

/**
 * The lab contract: everything the floors above `src/sim` (store, CLI, pages) need to know about a
 * lab, in one value per lab id. A lab's store slice (`src/store`), CLI report (`src/cli`) and page
 * (`src/labs`) are registered by the same id; nothing above `src/sim` branches on the lab with an
 * `if` chain. Pure: no wall clock, no DOM, no React (the layers of DESIGN.md).
 *
 * `S` is the model state, `O` the outcome, `T` the trace type `replay` returns.
 */
export interface LabDefinition<S = unknown, O = unknown, T extends ReplayResult<S, O> = ReplayResult<S, O>> {
  id: LabId;
  /** Display name (`Races`). */
  title: string;
  /** The lab's config and event schemas (the JSON Schema generator reads them). */
  schemas: LabSchemas;
  /** Tie ranks, lowest first, each with why (the same-millisecond rule panel shows them). */
  tieRule: Model<unknown, S, O>['tieRule'];
  /** Names and descriptions of the invariants checked after every step. */
  invariants: readonly { name: string; description: string }[];
  /**
   * Validates a JSON value as a scenario of this lab: the schema, then the lab's own limits (size
   * caps, lane order). Never throws; every problem is `field.path: what is wrong — what to do`.
   */
  parse(value: unknown): ParseResult;
  /**
   * Optional: why the page refuses a valid scenario (too many events to draw, nothing to show), as
   * one problem line, or null. The CLI does not apply it (it replays 100k-event files).
   */
  pageProblem?(scenario: Scenario): string | null;
  /** Replays a validated scenario. Deterministic; throws `Error` only for model bugs. */
  replay(scenario: Scenario, options?: ReplayOptions): T;
  /** The model state with the playhead at `atMs` (after every step at or before it). */
  stateAt(trace: T, atMs: number): S;
  /** The outcome with the playhead at `atMs`. */
  outcomeAt(trace: T, atMs: number): O;
  /** Checks a trace against one of the lesson's `expect[]` rows; empty = met. */
  checkExpectation(trace: T, expectation: Expectation): ExpectationMismatch[];
  /** Optional: every order of some events at once (today the ledger's two connection lanes). */
  explore?: LabExplorer<O>;
}

/** The explorer capability of a lab ("All orders"; every lab has one — see `labOrders.ts`). */
export interface LabExplorer<O> {
  /** The events that move by default (ids), and the lane of each (a lane keeps its own order). */
  movable(scenario: Scenario): string[];
  laneOf(event: ScriptedEvent): string;
  /** Names an outcome class (terminal state per call); orders with the same name form one group. */
  classify(outcome: O): string;
  /** Optional: the lab's natural set for "All orders" (≤ 8 ids), e.g. the cancel vs completion of one call. */
  natural?(scenario: Scenario): string[];
  /**
   * Optional: every order of `events` on the lab's own fast path (labs on the checkpointed core);
   * without it `exploreLabOrders` replays each order through `replay`. Throws as `exploreOrders`.
   */
  orders?(scenario: Scenario, events: readonly string[], hooks: { onProgress?(done: number, total: number): void; shouldStop?(): boolean }): OrdersResult<O>;
}

/**
 * Every order of the lab's movable events at once (see `src/sim/explore.ts`): replays each
 * ordering effects-only through the definition and groups the outcomes by `explore.classify`.
 * `movable` overrides the lab's default set. Throws `Error` when the lab has no explorer, or for an unknown id.
 */
export function exploreLab<S, O, T extends ReplayResult<S, O>>(
  definition: LabDefinition<S, O, T>,
  scenario: Scenario,
  hooks: { onProgress?(done: number, total: number): void; shouldStop?(): boolean } = {},
  movable?: readonly string[],
): ExploreResult<O> {
  const ex = definition.explore;
  if (!ex) throw new Error(`exploreLab: the ${definition.id} lab has no explorer yet`);
  return explore<O>({ scenario, movable: movable ?? ex.movable(scenario), laneOf: ex.laneOf, run: (x) => definition.replay(x, { keep: 'effects' }).outcome, classify: ex.classify }, hooks);
}

/** `stateAt` for any trace that keeps its steps: the state after the last step at or before `atMs`. */
export function stateAtStep<S>(trace: ReplayResult<S, unknown>, atMs: number): S {
  const i = stepIndexAt(trace.steps, atMs);
  return i < 0 ? trace.initial : trace.steps[i].state;
}

/** A `parse` from schemas plus optional lab limits (each returns one problem line or null). */
export function parserFor(lab: LabId, schemas: LabSchemas, ...limits: ((scenario: Scenario) => string | null)[]): (value: unknown) => ParseResult {
  return (value) => {
    const parsed = parseScenario(value, lab, schemas);
    if (!parsed.ok) return parsed;
    for (const limit of limits) {
      const problem = limit(parsed.scenario);
      if (problem) return { ok: false, errors: [problem] };
    }
    return parsed;
  };
}

/**
 * Why a scenario with no scripted events cannot be shown as a lesson: nothing happens, so every
 * outcome would read "none". The one refusal every lab gives (the store and CLI call it).
 */
export function zeroEventProblem(scenario: Scenario): string | null {
  return scenario.events.length === 0 ? 'events: is empty, so nothing happens and there is no outcome to show — add at least one event (see the built-in scenarios for examples)' : null;
}

/**
 * A definition of any lab, for registries keyed by lab id (the CLI, the schema generator): the
 * state, outcome and trace types differ per lab and are recovered by the lab's own modules.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyLabDefinition = LabDefinition<any, any, any>;

/**
 * A definition for a lab run by one pure model: tie rule, invariants, `parse` (schema plus
 * `limits`), `replay` and `stateAt` come from the model; the lab gives its id, title, schemas,
 * `outcomeAt`, its expectation checker and what its page refuses.
 */
export function modelLab<C, S, O, Tm>(
  model: Model<C, S, O, Tm>,
  parts: Pick<LabDefinition<S, O>, 'id' | 'title' | 'schemas' | 'outcomeAt' | 'checkExpectation' | 'pageProblem' | 'explore'> & { limits?: ((scenario: Scenario) => string | null)[] },
): LabDefinition<S, O> {
  const { limits = [], ...rest } = parts;
  return {
    ...rest,
    tieRule: model.tieRule,
    invariants: model.invariants.map(({ name, description }) => ({ name, description })),
    parse: parserFor(parts.id, parts.schemas, ...limits),
    replay: (scenario, options) => replay(model, scenario, options),
    stateAt: stateAtStep,
  };
}
