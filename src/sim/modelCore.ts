import { NONE, type CoreContext, type CoreModel, type EntityInvariant } from './core';
import type { Model, ScriptedEvent, Step } from './types';

/**
 * A one-step `Model` (immutable states: each apply returns the next state) on the checkpointed
 * core (`core.ts`), so every replay runs through the one core loop — its queue, tie rule, step and
 * effect recording and invariant hook — whatever shape the model has. The core's mutable state is
 * a box holding the model's current (immutable) state; the box's view is that state itself, so a
 * full trace holds exactly the states the model returned.
 *
 * Invariants: the box is the one entity of kind `state`, touched by every step, so each of the
 * model's invariants runs after every step, in the model's order, as the old engine ran them. A
 * historic invariant's `step` argument carries the step's time, entry kind and state; its index
 * and the entry's rank, seq and handle are -1, and its effects, ignored items, note and
 * violations are empty (no lab's invariant reads them).
 *
 * Checkpoints: `thaw(view)` boxes the view again, which is a complete restore only when the
 * model's state is the whole truth. A model that keeps part of it elsewhere (the ledger: rows in
 * SQLite) passes `thaw: 'refuse'`, and then `thaw` throws `Error` (use the fast path or the full
 * trace, not a seekable trace), or restores the rest itself before resuming (the ledger's trie).
 */
export interface ModelBox<S> {
  state: S;
  /** The step the historic invariants see, built once per step on first use (see `checkedStep`). */
  checked: Step<S> | undefined;
}

/** Options of `coreOfModel`. */
export interface ModelCoreOptions {
  /** 'refuse': `thaw` throws (the state is not the whole truth; see `coreOfModel`). Default 'box'. */
  thaw?: 'box' | 'refuse';
}

const STATE_IDS: readonly string[] = Object.freeze(['state']);
const CORES = new WeakMap<object, CoreModel<never, never, never, never, never>>();


/** The step a historic invariant sees (see `coreOfModel`). */
function checkedStep<S>(box: ModelBox<S>, at: number, kind: string): Step<S> {
  return (box.checked ??= {
    index: -1,
    at,
    entry: { at, rank: -1, seq: -1, source: 'timer', label: '', actor: 'server', handle: -1, kind },
    state: box.state,
    effects: NONE,
    ignored: NONE,
    why: '',
    violations: NONE,
  });
}

/**
 * The core model of a one-step `model` (see `ModelBox`). With the default options it is made once
 * per model object (cached), so the core's per-model layout is computed once. Pure; throws
 * nothing itself.
 */
export function coreOfModel<C, S, O, T>(model: Model<C, S, O, T>, options: ModelCoreOptions = {}): CoreModel<C, ModelBox<S>, S, O, T> {
  const refuse = options.thaw === 'refuse';
  const cached = refuse ? undefined : (CORES.get(model) as CoreModel<C, ModelBox<S>, S, O, T> | undefined);
  if (cached !== undefined) return cached;
  const invariants: EntityInvariant<ModelBox<S>>[] = model.invariants.map((inv) => ({
    name: inv.name,
    description: inv.description,
    reads: 'state',
    check: (box: never, _s: ModelBox<S>, at: number, kind: string) => inv.check((box as ModelBox<S>).state, checkedStep(box as ModelBox<S>, at, kind)),
  }));
  const core: CoreModel<C, ModelBox<S>, S, O, T> = {
    lab: model.lab,
    tieRule: model.tieRule,
    scriptedRank: (event) => model.scriptedRank(event),
    init: (config, ctx) => ({ state: model.init(config, ctx), checked: undefined }),
    applyScripted(box: ModelBox<S>, event: ScriptedEvent, ctx: CoreContext<T>) {
      box.state = model.applyScripted(box.state, event, ctx);
      box.checked = undefined;
    },
    applyTimer(box: ModelBox<S>, payload: T, ctx: CoreContext<T>) {
      box.state = model.applyTimer(box.state, payload, ctx);
      box.checked = undefined;
    },
    touched: () => STATE_IDS,
    entity: (box, _kind, _id) => box,
    invariants,
    view: (box) => box.state,
    thaw(view) {
      if (refuse) throw new Error(`model ${model.lab}: part of its state lives outside the model (e.g. in a database), so a checkpoint cannot restore it: replay with keep 'steps' or 'effects' instead of a seekable trace`);
      return { state: view, checked: undefined };
    },
    outcome: (box, endAt) => model.outcome(box.state, endAt),
  };
  if (!refuse) CORES.set(model, core as never);
  return core;
}
