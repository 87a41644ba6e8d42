import { LaneQueue, compareEntries } from './queue';
import { entryKind, inQueueOrder, scriptedEntry, wireEffectAt } from './coreEntries';
export { entryKind, scriptedEntries, stepEntry, wireEffectAt } from './coreEntries';
import { SeededRandom } from './rng';
import type { Actor, Ignored, Json, ModelTieRule, QueueEntry, Scenario, ScriptedEvent, Violation, WireEffect } from './types';

/**
 * The checkpointed core (issue 10): models mutate per-entity records in place, and the engine
 * remembers cheaply. One loop serves three recorders:
 *  - 'effects' (fast path): wire effects, invariant results and the outcome only; no notes, no
 *    ignored items, no per-step records;
 *  - 'seekable': per-step metadata (entry, effects range, ignored, violations, rule) plus a full
 *    checkpoint (model view + engine state) every K steps; states and notes are rebuilt on demand
 *    from the nearest checkpoint (see `trace.ts`);
 *  - 'steps': the historic full trace, each step holding a frozen view of the state.
 * Determinism as in the old engine loop (frozen in `oracle/engine.ts`): the only randomness is the scenario's seeded mulberry32,
 * time is virtual integer ms, and entries leave the queue by `(at, rank, seq)` (`compareEntries`).
 */

/** Shared empty list (never mutated). */
export const NONE: never[] = [];
Object.freeze(NONE);

/** What a core model receives while applying one entry. Like `ApplyContext`, plus detail flags. */
export interface CoreContext<T> {
  /** Current virtual time (ms). Read-only for models. */
  now: number;
  /** The scenario's seeded generator (deterministic). */
  random(): number;
  /** Schedule a timer at absolute `at` (integer ms ≥ now) with tie `rank`; returns its handle. */
  schedule(at: number, rank: number, actor: Actor, label: string, payload: T): number;
  /** Cancel a timer by handle; unknown or fired handles are ignored. */
  cancel(handle: number): void;
  /** Emit a wire effect (its `at` is the current time). */
  emit(effect: Omit<WireEffect, 'type' | 'at'>): void;
  /**
   * `emit` of an effect without headers or `malformed`, its fields as arguments (no object in
   * between): for hot paths. The effect has no `headers`/`malformed` keys at all (two fewer slots
   * in every kept effect; the JSON is the same, as undefined fields vanish there).
   */
  emitWire(from: WireEffect['from'], transport: WireEffect['transport'], message: Json | undefined, http: string | undefined, arrivesAt: number | undefined, requestKey: string | undefined): void;
  /** True when ignored items are kept (seekable, steps): models may skip building them otherwise. */
  readonly keepsIgnored: boolean;
  /** True when notes are built (steps mode, or a note asked for by a view). */
  readonly keepsNotes: boolean;
  /** Record an ignored event; pass a function to build it only when kept (called at once). */
  ignore(item: Ignored | (() => Ignored)): void;
  /** Set the step's note (last call wins) and rule; a function is called at once, only when notes are kept. */
  why(text: string | (() => string), rule?: string): void;
}

/**
 * An invariant over one entity. It declares the entity kind it `reads`; after a step the engine
 * runs it only on the entities of that kind the step touched (`CoreModel.touched`), and only
 * after entries whose kind is in `afterKinds` when that is given. Returns null when it holds.
 */
export interface EntityInvariant<S> {
  name: string;
  description: string;
  reads: string;
  afterKinds?: readonly string[];
  check(entity: never, state: S, at: number, entryKind: string): string | null;
}

/**
 * A model for the checkpointed core. `S` is the mutable state the hot loop changes in place; `V`
 * its immutable view (what traces, checkpoints and `stateAt` hand out). Rules as in `Model`:
 * the model reads nothing but its arguments; the engine owns time, the queue and the rng.
 */
export interface CoreModel<C, S, V, O, T> extends ModelTieRule {
  init(config: C, ctx: CoreContext<T>): S;
  applyScripted(state: S, event: ScriptedEvent, ctx: CoreContext<T>): void;
  applyTimer(state: S, payload: T, ctx: CoreContext<T>): void;
  /** Ids of the entities of `kind` the last step touched (changed or inspected). */
  touched(state: S, kind: string): readonly string[];
  /** The entity of `kind` with `id`, or undefined. */
  entity(state: S, kind: string, id: string): unknown;
  invariants: EntityInvariant<S>[];
  /**
   * Optional pre-check: true only when no invariant reading `kind` can fail on `entity` after a step
   * at `at` (ms) — a conservative shortcut (false means "run them"), so the engine skips the
   * individual checks for entities in a plainly healthy state. Proven by a test to never say true
   * where a check would fail (races: `racesInvariantsSurelyHold`).
   */
  surelyHolds?(kind: string, entity: never, at: number): boolean;
  /**
   * Optional pre-check of a whole step: true only when `surelyHolds` would clear every entity the
   * step touched, of every kind the invariants read (say the step touched one entity the model
   * holds at hand), so the engine skips the per-entity pass after a step at `at` (ms). False means
   * "take that pass" (races: `racesTouchedSurelyHold`).
   */
  touchedSurelyHold?(state: S, at: number): boolean;
  /** An immutable (frozen) view of `state`, sharing unchanged parts with earlier views. */
  view(state: S): V;
  /** A fresh mutable state equal to `view` (the view is not changed). */
  thaw(view: V): S;
  outcome(state: S, endAt: number): O;
}

/** Which recorder a run feeds. */
export type CoreMode = 'effects' | 'seekable' | 'steps';

/** First violation of an invariant. */
export interface FirstViolation {
  step: number;
  at: number;
  message: string;
}

/** The engine's whole state before step `step` (and the model's view), enough to resume. */
export interface Checkpoint<V> {
  step: number;
  now: number;
  seq: number;
  nextHandle: number;
  rngState: number;
  cursor: number;
  queue: LaneQueue<unknown>;
  view: V;
  effects: number;
  lastAt: number;
  firstViolation: [string, FirstViolation][];
}

/** Per invariant list: the entity kinds read and each invariant's kind index (computed once per model). */
const LAYOUTS = new WeakMap<readonly unknown[], { kinds: string[]; kindOf: number[] }>();

/**
 * One run of the core over one scenario. Create it with `CoreRun.start` or `CoreRun.resume`, then
 * call `step()` until it returns false. Public fields are read by the recorders in `trace.ts`.
 */
export class CoreRun<C, S, V, O, T> implements CoreContext<T> {
  now = 0;
  seq: number;
  nextHandle = 0;
  cursor = 0;
  stepCount = 0;
  lastAt = 0;
  state!: S;
  queue: LaneQueue<unknown>;
  readonly rng: SeededRandom;
  readonly effects: WireEffect[];
  readonly firstViolation = new Map<string, FirstViolation>();
  keepsIgnored: boolean;
  keepsNotes: boolean;
  /** The current step's items (reset by `step`). */
  stepIgnored: Ignored[] = NONE;
  stepWhy = '';
  stepRule: string | undefined = undefined;
  stepViolations: Violation[] = NONE;
  /** The current step's queue entry (a timer's, or a scripted one from `scripted`), and its scripted event's index (-1: a timer). */
  private stepQueued: QueueEntry | undefined = undefined;
  private stepScripted = -1;
  /** Streaming runs (`startStreaming`): the scenario's events, run in list order without an entry each. */
  private events: readonly ScriptedEvent[] | undefined = undefined;
  /** The entity kinds the invariants read, each invariant's index into it, and reused entity lists. */
  private readonly kinds: string[];
  private readonly kindOf: number[];
  private readonly entities: unknown[][];
  private readonly entityCounts: number[];

  private constructor(
    readonly model: CoreModel<C, S, V, O, T>,
    readonly scripted: readonly QueueEntry[],
    seed: number,
    seq: number,
    queue: LaneQueue<unknown>,
    effects: WireEffect[],
    mode: CoreMode,
  ) {
    this.rng = new SeededRandom(seed);
    this.seq = seq;
    this.queue = queue;
    this.effects = effects;
    this.keepsIgnored = mode !== 'effects';
    this.keepsNotes = mode === 'steps';
    let layout = LAYOUTS.get(model.invariants);
    if (layout === undefined) {
      const kinds = [...new Set(model.invariants.map((inv) => inv.reads))];
      layout = { kinds, kindOf: model.invariants.map((inv) => kinds.indexOf(inv.reads)) };
      LAYOUTS.set(model.invariants, layout);
    }
    this.kinds = layout.kinds;
    this.kindOf = layout.kindOf;
    this.entities = this.kinds.map(() => []);
    this.entityCounts = this.kinds.map(() => 0);
  }

  /** A run at time 0 after `model.init`. */
  static start<C, S, V, O, T>(model: CoreModel<C, S, V, O, T>, scenario: Scenario, scripted: readonly QueueEntry[], mode: CoreMode): CoreRun<C, S, V, O, T> {
    const run = new CoreRun(model, scripted, scenario.seed, scenario.events.length, new LaneQueue(), [], mode);
    run.state = model.init(scenario.config as C, run);
    return run;
  }

  /**
   * A run at time 0 like `start`, whose scripted entries are built one at a time as the run
   * reaches them (each is garbage after its step: none is kept for the whole run), or undefined
   * when the scenario's events are not in queue order (`start` with `scriptedEntries` then).
   */
  static startStreaming<C, S, V, O, T>(model: CoreModel<C, S, V, O, T>, scenario: Scenario, mode: CoreMode): CoreRun<C, S, V, O, T> | undefined {
    if (!inQueueOrder(scenario.events, model.scriptedRank)) return undefined;
    const run = CoreRun.start(model, scenario, NONE, mode);
    run.events = scenario.events;
    return run;
  }

  /** The entry of scripted event `i` (in a streaming run, built now), or undefined past the last. */
  private scriptedAt(i: number): QueueEntry | undefined {
    const events = this.events;
    if (events === undefined) return i < this.scripted.length ? this.scripted[i] : undefined;
    return i < events.length ? scriptedEntry(events[i], i, this.model.scriptedRank(events[i])) : undefined;
  }

  /** The current step's entry (a streaming run builds a scripted one on demand; none is kept). */
  get stepEntry(): QueueEntry | undefined {
    return this.stepScripted >= 0 && this.events !== undefined ? this.scriptedAt(this.stepScripted) : this.stepQueued;
  }

  /** The kind of the current step's entry (`entryKind`), '' before the first step. */
  get stepKind(): string {
    const entry = this.stepEntry;
    return entry === undefined ? '' : entryKind(entry);
  }

  /** A run resumed from `cp` (copied, so the checkpoint stays valid). `effects` is the list to append to. */
  static resume<C, S, V, O, T>(model: CoreModel<C, S, V, O, T>, scripted: readonly QueueEntry[], cp: Checkpoint<V>, effects: WireEffect[], mode: CoreMode): CoreRun<C, S, V, O, T> {
    const run = new CoreRun(model, scripted, 0, cp.seq, cp.queue.clone(), effects, mode);
    run.rng.state = cp.rngState;
    run.now = cp.now;
    run.nextHandle = cp.nextHandle;
    run.cursor = cp.cursor;
    run.stepCount = cp.step;
    run.lastAt = cp.lastAt;
    for (const [k, v] of cp.firstViolation) run.firstViolation.set(k, v);
    run.state = model.thaw(cp.view);
    return run;
  }

  /** The engine state now, with the model's view (O(pending timers + entities)). */
  checkpoint(): Checkpoint<V> {
    return {
      step: this.stepCount,
      now: this.now,
      seq: this.seq,
      nextHandle: this.nextHandle,
      rngState: this.rng.state,
      cursor: this.cursor,
      queue: this.queue.clone(),
      view: this.model.view(this.state),
      effects: this.effects.length,
      lastAt: this.lastAt,
      firstViolation: [...this.firstViolation],
    };
  }

  random(): number {
    return this.rng.next();
  }

  schedule(at: number, rank: number, actor: Actor, label: string, payload: T): number {
    if (!Number.isInteger(at) || at < this.now) {
      throw new Error(`model ${this.model.lab} scheduled "${label}" at ${at} ms, before now (${this.now} ms) or not an integer`);
    }
    const handle = this.nextHandle++;
    this.queue.push({ at, rank, seq: this.seq++, source: 'timer', payload, label, actor, handle }, this.now);
    return handle;
  }

  cancel(handle: number): void {
    this.queue.cancel(handle);
  }

  emit(effect: Omit<WireEffect, 'type' | 'at'>): void {
    this.effects.push(wireEffectAt(this.now, effect));
  }

  emitWire(from: WireEffect['from'], transport: WireEffect['transport'], message: Json | undefined, http: string | undefined, arrivesAt: number | undefined, requestKey: string | undefined): void {
    this.effects.push({ type: 'wire', at: this.now, from, transport, message, http, arrivesAt, requestKey });
  }

  ignore(item: Ignored | (() => Ignored)): void {
    if (!this.keepsIgnored) return;
    if (this.stepIgnored === NONE) this.stepIgnored = [];
    this.stepIgnored.push(typeof item === 'function' ? item() : item);
  }

  why(text: string | (() => string), rule?: string): void {
    this.stepRule = rule;
    if (this.keepsNotes) this.stepWhy = typeof text === 'function' ? text() : text;
  }

  /** The next entry without consuming it, or undefined at the end. */
  peek(): QueueEntry | undefined {
    const timer = this.queue.peek();
    const script = this.scriptedAt(this.cursor);
    if (script !== undefined && (timer === undefined || compareEntries(script, timer) < 0)) return script;
    return timer;
  }

  /**
   * Applies the next entry and checks the invariants on what it touched; false at the end. The next
   * scripted event is compared with the next timer by `compareEntries`' rule, spelled out on its
   * fields, so a streaming run builds no entry for it.
   */
  step(): boolean {
    const timer = this.queue.peek();
    const events = this.events;
    const i = this.cursor;
    let entry: QueueEntry | undefined;
    let event: ScriptedEvent | undefined;
    if (events !== undefined) {
      if (i < events.length) {
        const ev = events[i];
        if (timer === undefined || ev.at < timer.at || (ev.at === timer.at && (this.model.scriptedRank(ev) - timer.rank || i - timer.seq) < 0)) event = ev;
      }
    } else if (i < this.scripted.length && (timer === undefined || compareEntries(this.scripted[i], timer) < 0)) {
      entry = this.scripted[i];
      event = entry.payload as ScriptedEvent;
    }
    if (event !== undefined) this.cursor = i + 1;
    else if (timer !== undefined) entry = this.queue.pop() as QueueEntry;
    else return false;
    this.stepScripted = event !== undefined ? i : -1;
    this.stepQueued = entry;
    // An entry's time is its own (the explorer's slot entries carry the slot's); a streaming event's is its `at`.
    const at = entry !== undefined ? entry.at : (event as ScriptedEvent).at;
    this.now = at;
    this.stepIgnored = NONE;
    this.stepWhy = '';
    this.stepRule = undefined;
    this.stepViolations = NONE;
    const { model, state } = this;
    if (event !== undefined) model.applyScripted(state, event, this);
    else model.applyTimer(state, (entry as QueueEntry).payload as T, this);
    // The kind is read only when the invariants run (a timer payload's `kind` is a load over many shapes).
    if (model.touchedSurelyHold === undefined || !model.touchedSurelyHold(state, at)) this.checkTouched(state, at, event !== undefined ? event.kind : entryKind(entry as QueueEntry));
    this.lastAt = at;
    this.stepCount++;
    return true;
  }

  /**
   * The invariants after a step at `at` of entry kind `kind`: resolve each touched entity once
   * per kind, then run each invariant over the entities of the kind it reads (in the model's
   * order; first problem per invariant). Entities the model's `surelyHolds` pre-check clears are
   * skipped (no check could fail on them).
   */
  private checkTouched(state: S, at: number, kind: string): void {
    const model = this.model;
    const kinds = this.kinds;
    const counts = this.entityCounts;
    const surelyHolds = model.surelyHolds;
    let any = 0;
    for (let k = 0; k < kinds.length; k++) {
      const ids = model.touched(state, kinds[k]);
      const ents = this.entities[k];
      let n = 0;
      for (let j = 0; j < ids.length; j++) {
        const entity = model.entity(state, kinds[k], ids[j]);
        if (entity !== undefined && (surelyHolds === undefined || !surelyHolds(kinds[k], entity as never, at))) ents[n++] = entity;
      }
      counts[k] = n;
      any += n;
    }
    const invariants = any === 0 ? NONE : model.invariants;
    for (let i = 0; i < invariants.length; i++) {
      const kindIndex = this.kindOf[i];
      const n = counts[kindIndex];
      if (n === 0) continue;
      const ents = this.entities[kindIndex];
      const inv = invariants[i] as EntityInvariant<S>;
      if (inv.afterKinds !== undefined && !inv.afterKinds.includes(kind)) continue;
      for (let j = 0; j < n; j++) {
        const message = inv.check(ents[j] as never, state, at, kind);
        if (message === null) continue;
        if (this.stepViolations === NONE) this.stepViolations = [];
        this.stepViolations.push({ invariant: inv.name, message });
        if (!this.firstViolation.has(inv.name)) this.firstViolation.set(inv.name, { step: this.stepCount, at, message });
        break;
      }
    }
  }

  /** Every invariant's result so far, in the model's order. */
  invariantResults(): { name: string; description: string; firstViolation: FirstViolation | null }[] {
    return this.model.invariants.map((inv) => ({ name: inv.name, description: inv.description, firstViolation: this.firstViolation.get(inv.name) ?? null }));
  }
}

export { asCoreContext, oneStepMethods } from './coreOneStep';

/** True when two scripted entries would run identically (same time, rank, seq and event payload). */
export function sameScripted(a: QueueEntry, b: QueueEntry): boolean {
  if (a.at !== b.at || a.rank !== b.rank || a.seq !== b.seq) return false;
  return a.payload === b.payload || JSON.stringify(a.payload as Json) === JSON.stringify(b.payload as Json);
}
