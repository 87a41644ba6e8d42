import { replay, stepIndexAt, type ReplayOptions, type ReplayResult } from './replay';
import type { ExpectationMismatch } from './expectation';
import { explore, type ExploreResult } from './explore';
import type { OrdersResult } from './orders';
import type { LabId } from './labIds';
import type { LabSchemas, ParseResult } from './scenario';
import type { Expectation, Ignored, Json, Model, Scenario, ScriptedEvent, Step, Violation, WireEffect } from './types';
import type { FaultKind, Faulted } from './chaos/faults';

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
  /**
   * Optional: replays keeping a seekable trace (checkpoints, no per-step states; see `LabTrace`),
   * which the store keeps instead of `replay`'s and forks on every edit (a drag replays from the
   * last checkpoint before the moved event, not the whole scenario). The result is also a `T`
   * (its `steps` are built on first read, for code not yet moved to the accessors). Without it the
   * store keeps `replay(scenario)` as before.
   */
  seekable?(scenario: Scenario): T & LabTrace<S, O>;
  /** Optional: the lab's part of the chaos swarm (`src/sim/chaos`); a lab without it has no Chaos panel runs. */
  chaos?: LabChaos;
  /** Optional: what the review report (`src/report`) reads off a run of this lab. */
  review?: LabReview;
  /**
   * Optional: how the lab's share links carry a scenario (`src/store/labLink.ts`): `configParams`
   * writes a built-in's changed config as query parameters, `playhead` adds `t=<ms>`,
   * `valueAliases` maps a parameter's short value in a link to its config value
   * (`client.profile=sdk-v2` → `typescript-sdk-v2`).
   */
  link?: { configParams?: boolean; playhead?: boolean; valueAliases?: Readonly<Record<string, Readonly<Record<string, string>>>> };
}

/**
 * A lab's part of the chaos swarm: the faults that mean something to it, drawn from one seeded
 * generator and applied to the scenario's events and config (the model is not touched, so a faulted
 * scenario is an ordinary scenario); its liveness checks; the config fields that choose its policy.
 */
export interface LabChaos {
  /** The fault kinds the lab applies (the page and the docs list them). */
  faultKinds: readonly FaultKind[];
  /** Draws the faults from `random` (consumed in a fixed order) and applies them. Pure. */
  faults(scenario: Scenario, random: () => number): Faulted;
  /**
   * "Something good eventually happens" checks on the outcome at the end of the trace; reported
   * apart, never failing a seed (a forged cancel nobody settles is not a broken policy).
   */
  liveness: readonly { name: string; description: string; fails(outcome: unknown): boolean }[];
  /**
   * The config fields that choose the policy, as one JSON string: two expectations with the same
   * signature are the same policy (`src/sim/chaos/policies.ts` classifies the built-ins with it).
   */
  policySignature(scenario: Scenario): string;
}

/**
 * What the review report reads off one run of a lab: `infer` notes the review inputs the run shows
 * (`note('transport.kind', value)`: the first note of a field wins; the report walks the runs newest
 * first). Pure; never throws.
 */
export interface LabReview {
  infer(scenario: Scenario, note: (field: `${string}.${string}`, value: Json) => void): void;
}

/**
 * Read access to a replayed trace without per-step states (issue 10 item 4), implemented by the
 * checkpointed core's `SeekableTrace` (`trace.ts`). Step indices run 0…stepCount-1 (-1: before the
 * first step); times are virtual ms. States and notes are rebuilt from the nearest checkpoint
 * (fewer than K steps re-run); the other per-step accessors are O(1). Immutable from the outside.
 */
export interface LabTraceView<S> {
  readonly scenario: Scenario;
  /** The state after `init`, before any step. */
  readonly initial: S;
  readonly stepCount: number;
  /** Time of the last step (ms). */
  readonly endAt: number;
  /** Every wire effect in order. */
  readonly effects: WireEffect[];
  /** Time of step `i` (ms). */
  atOf(i: number): number;
  /** Index of the last step at or before `atMs`, or -1. */
  indexAt(atMs: number): number;
  /** The state after step `i` (-1: the initial state). RangeError outside the trace. */
  stateAt(i: number): S;
  /** The state with the playhead at `atMs`. */
  stateAtMs(atMs: number): S;
  effectsOf(i: number): WireEffect[];
  ignoredOf(i: number): Ignored[];
  violationsOf(i: number): Violation[];
  ruleOf(i: number): string | undefined;
  /** The entry record of step `i` (what ran: script or timer, label, actor, kind). */
  entryOf(i: number): Step<S>['entry'];
  /** The first entity the step touched of the lab's key kind (races: the request key), or null. */
  keyOf(i: number): string | null;
  /** The note ("why") of step `i`, built on demand. */
  noteOf(i: number): string;
  /** Every step's note, in one pass (cached): for views that show them all. */
  notes(): string[];
  /** Step `i` in the historic `Step` shape (its note and state built now). */
  stepAt(i: number): Step<S>;
}

/** A seekable trace: the read accessors plus the outcome at a step and fork-on-edit. */
export interface LabTrace<S, O> extends LabTraceView<S> {
  /** The outcome after the last step. */
  readonly outcome: O;
  readonly truncated: boolean;
  readonly invariants: { name: string; description: string; firstViolation: { step: number; at: number; message: string } | null }[];
  /** The outcome after step `i` (-1: before any step). */
  outcomeAt(i: number): O;
  /** The trace of `edited`, resumed from the last checkpoint before the first time the edit changes. */
  fork(edited: Scenario): LabTrace<S, O>;
}

const views = new WeakMap<object, LabTraceView<unknown>>();

/**
 * The read accessors over any trace: a seekable trace as it is, a trace that keeps its `steps`
 * through an adapter (made once per trace). `keyOf` names a step's key entity for the adapter
 * (the seekable trace records its own). Views read a trace through this, whichever kind the store holds.
 */
export function labTraceView<S>(trace: ReplayResult<S, unknown>, keyOf: (step: Step<S>) => string | null = () => null): LabTraceView<S> {
  if (isLabTrace<S, unknown>(trace)) return trace;
  const known = views.get(trace) as LabTraceView<S> | undefined;
  if (known) return known;
  const steps = trace.steps;
  const at = (i: number) => {
    if (!Number.isInteger(i) || i < 0 || i >= steps.length) throw new RangeError(`step ${i} is outside 0…${steps.length - 1}`);
    return steps[i];
  };
  const view: LabTraceView<S> = {
    scenario: trace.scenario,
    initial: trace.initial,
    stepCount: steps.length,
    endAt: trace.endAt,
    effects: trace.effects,
    atOf: (i) => at(i).at,
    indexAt: (atMs) => stepIndexAt(steps, atMs),
    stateAt: (i) => (i === -1 ? trace.initial : at(i).state),
    stateAtMs: (atMs) => stateAtStep(trace, atMs),
    effectsOf: (i) => at(i).effects,
    ignoredOf: (i) => at(i).ignored,
    violationsOf: (i) => at(i).violations,
    ruleOf: (i) => at(i).rule,
    entryOf: (i) => at(i).entry,
    keyOf: (i) => keyOf(at(i)),
    noteOf: (i) => at(i).why,
    notes: () => steps.map((s) => s.why),
    stepAt: at,
  };
  views.set(trace, view as LabTraceView<unknown>);
  return view;
}

/** Whether `trace` offers the `LabTrace` accessors (a seekable trace) rather than only `steps`. */
export function isLabTrace<S, O>(trace: unknown): trace is LabTrace<S, O> {
  const t = trace as Partial<LabTrace<S, O>> | null;
  return t !== null && typeof t === 'object' && typeof t.fork === 'function' && typeof t.stateAtMs === 'function' && typeof t.atOf === 'function';
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
  orders?(scenario: Scenario, events: readonly string[], hooks: { onProgress?(done: number, total: number): void; shouldStop?(): boolean; prune?: boolean }): OrdersResult<O>;
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

/**
 * `stateAt` for any trace that keeps its steps: the state after the last step at or before `atMs`.
 * A seekable trace (`isLabTrace`) answers from its checkpoints instead of building its steps.
 */
export function stateAtStep<S>(trace: ReplayResult<S, unknown>, atMs: number): S {
  if (isLabTrace<S, unknown>(trace)) return trace.stateAtMs(atMs);
  const i = stepIndexAt(trace.steps, atMs);
  return i < 0 ? trace.initial : trace.steps[i].state;
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
 * A lab definition as a page's store uses it: every part but the schemas, so a page can show and
 * replay its built-ins before it loads the schema library. `parserReady()` is null while `parse`
 * can run now, or a promise that settles once it can (the store waits for it before parsing).
 */
export type LabPageDefinition<S = unknown, O = unknown, T extends ReplayResult<S, O> = ReplayResult<S, O>> = Omit<LabDefinition<S, O, T>, 'schemas'> & {
  parserReady?(): Promise<void> | null;
};

/**
 * The parts of a model-run definition that need no schema (tie rule, invariants, `replay`,
 * `stateAt`, plus the lab's own `parts`); `modelLab` (`./modelLab`) adds the schemas and `parse`.
 */
export function modelLabCore<C, S, O, Tm>(
  model: Model<C, S, O, Tm>,
  parts: Pick<LabDefinition<S, O>, 'id' | 'title' | 'outcomeAt' | 'checkExpectation' | 'pageProblem' | 'explore'>,
): Omit<LabDefinition<S, O>, 'schemas' | 'parse'> {
  return {
    ...parts,
    tieRule: model.tieRule,
    invariants: model.invariants.map(({ name, description }) => ({ name, description })),
    replay: (scenario, options) => replay(model, scenario, options),
    stateAt: stateAtStep,
  };
}
