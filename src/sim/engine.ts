import { EventQueue, compareEntries } from './queue';
import { mulberry32 } from './rng';
import { replayCore } from './trace';
import { wireEffectAt, type CoreModel } from './core';
import type { ApplyContext, Model, QueueEntry, Scenario, ScriptedEvent, Step, Trace, WireEffect, Ignored, Json } from './types';

/** Shared empty list for steps without effects, ignored events or violations (never mutated). */
const NONE: never[] = [];
Object.freeze(NONE);

/** Options of `replay`. */
export interface ReplayOptions {
  /**
   * What the trace keeps. 'steps' (default): every step with its state, effects, ignored events,
   * why note and violations. 'effects': no per-step history — only the wire effects (each with its
   * time), the invariant results and the outcome; why notes are never built. Same semantics,
   * for long headless runs.
   */
  keep?: 'steps' | 'effects';
  /** Stop after this many steps (guards runaway timers); the trace is then marked truncated. Default 2,000,000. */
  maxSteps?: number;
}

/** A trace plus whether the step limit cut it short. */
export type ReplayResult<S, O> = Trace<S, O> & {
  truncated: boolean;
  /** Number of steps processed (equals steps.length when keep is 'steps'). */
  stepCount: number;
  /** Every wire effect in order (both keep modes). */
  effects: WireEffect[];
};

/**
 * Replays `scenario` through `model` and returns the full trace.
 *
 * Scripted events and model timers share one queue ordered by `(at, rank, seq)` (see
 * `compareEntries`). After every step each invariant is checked; the first violation of each is
 * also summarised in `trace.invariants`. The scenario must already be validated (see
 * `parseScenario`); `replay` throws `Error` only for model bugs (a timer scheduled in the past).
 *
 * Deterministic: the only randomness is `mulberry32(scenario.seed)`.
 *
 * A model that carries a checkpointed `core` (see `core.ts`; the races model does) runs on that
 * core instead: same trace and outcome, `keep: 'effects'` being its fast path. For a seekable
 * trace use `SeekableTrace.replay(model.core, scenario)` (`trace.ts`).
 */
export function replay<C, S, O, T>(
  model: Model<C, S, O, T> & { core?: CoreModel<C, unknown, S, O, T> },
  scenario: Scenario,
  options: ReplayOptions = {},
): ReplayResult<S, O> {
  if (model.core !== undefined) return replayCore(model.core, scenario, options);
  const maxSteps = options.maxSteps ?? 2_000_000;
  const queue = new EventQueue<ScriptedEvent | T>();
  const random = mulberry32(scenario.seed);
  let seq = 0;
  let nextHandle = 0;
  let now = 0;
  let effects: WireEffect[] = [];
  let ignored: Ignored[] = [];
  let why: string | (() => string) = '';
  const keepSteps = (options.keep ?? 'steps') === 'steps';
  const allEffects: WireEffect[] = [];
  let rule: string | undefined;

  const ctx: ApplyContext<T> = {
    get now() {
      return now;
    },
    random,
    schedule(at, rank, actor, label, payload) {
      if (!Number.isInteger(at) || at < now) {
        throw new Error(`model ${model.lab} scheduled "${label}" at ${at} ms, before now (${now} ms) or not an integer`);
      }
      const handle = nextHandle++;
      queue.push({ at, rank, seq: seq++, source: 'timer', payload, label, actor, handle });
      return handle;
    },
    cancel(handle) {
      queue.cancel(handle);
    },
    emit(effect) {
      // One fixed shape for every effect (absent fields are undefined and vanish in JSON).
      const e = wireEffectAt(now, effect);
      effects.push(e);
      allEffects.push(e);
    },
    ignore(item) {
      ignored.push(item);
    },
    why(text, ruleId) {
      why = text;
      rule = ruleId;
    },
  };

  // Scripted events are known up front: sort them once and merge them with the timer heap,
  // so the heap only ever holds the model's (few) pending timers.
  const scripted: QueueEntry<ScriptedEvent | T>[] = scenario.events.map((event) => ({
    at: event.at,
    rank: model.scriptedRank(event),
    seq: seq++,
    source: 'script' as const,
    payload: event,
    label: event.id,
    actor: event.actor,
    handle: -1,
  }));
  scripted.sort(compareEntries);
  let nextScripted = 0;
  const nextEntry = (): QueueEntry<ScriptedEvent | T> | undefined => {
    const timer = queue.peek();
    const script = nextScripted < scripted.length ? scripted[nextScripted] : undefined;
    if (script !== undefined && (timer === undefined || compareEntries(script, timer) < 0)) {
      nextScripted++;
      return script;
    }
    return timer === undefined ? undefined : queue.pop();
  };

  const initial = model.init(scenario.config as C, ctx);
  const invariants = model.invariants;
  let state = initial;
  const steps: Step<S>[] = [];
  const firstViolation = new Map<string, { step: number; at: number; message: string }>();
  let truncated = false;

  let stepCount = 0;
  let last: Step<S> | undefined;
  for (let entry = nextEntry(); entry !== undefined; entry = nextEntry()) {
    if (stepCount >= maxSteps) {
      truncated = true;
      break;
    }
    now = entry.at;
    if (effects.length > 0) effects = [];
    if (ignored.length > 0) ignored = [];
    why = '';
    rule = undefined;
    let kind: string;
    if (entry.source === 'script') {
      const event = entry.payload as ScriptedEvent;
      kind = event.kind;
      state = model.applyScripted(state, event, ctx);
    } else {
      kind = timerKind(entry as QueueEntry<T>);
      state = model.applyTimer(state, entry.payload as T, ctx);
    }
    const step: Step<S> = {
      index: stepCount,
      at: now,
      entry: { at: entry.at, rank: entry.rank, seq: entry.seq, source: entry.source, label: entry.label, actor: entry.actor, handle: entry.handle, kind },
      state,
      effects: effects.length === 0 ? NONE : effects,
      ignored: ignored.length === 0 ? NONE : ignored,
      why: keepSteps ? resolveWhy(why as string | (() => string)) : '',
      rule,
      violations: NONE,
    };
    for (let i = 0; i < invariants.length; i++) {
      const inv = invariants[i];
      const message = inv.check(state, step);
      if (message !== null) {
        if (step.violations === NONE) step.violations = [];
        step.violations.push({ invariant: inv.name, message });
        if (!firstViolation.has(inv.name)) firstViolation.set(inv.name, { step: step.index, at: now, message });
      }
    }
    if (keepSteps) steps.push(step);
    else if (effects.length > 0) effects = [];
    last = step;
    stepCount++;
  }

  const endAt = last ? last.at : 0;
  return {
    scenario,
    initial,
    steps,
    outcome: model.outcome(state, endAt),
    stepCount,
    effects: allEffects,
    invariants: model.invariants.map((inv) => ({
      name: inv.name,
      description: inv.description,
      firstViolation: firstViolation.get(inv.name) ?? null,
    })),
    endAt,
    truncated,
  };
}

function resolveWhy(why: string | (() => string)): string {
  return typeof why === 'function' ? why() : why;
}

function timerKind<T>(entry: QueueEntry<T>): string {
  const payload = entry.payload as unknown;
  if (payload !== null && typeof payload === 'object' && 'kind' in payload && typeof (payload as { kind: unknown }).kind === 'string') {
    return (payload as { kind: string }).kind;
  }
  return 'timer';
}

/**
 * Index of the last step whose time is ≤ `atMs`, or -1 when the playhead is before the first step.
 * Binary search over the trace's (time-sorted) steps.
 */
export function stepIndexAt<S>(steps: readonly Step<S>[], atMs: number): number {
  let lo = 0;
  let hi = steps.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (steps[mid].at <= atMs) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Deep-merges plain objects (`overrides` wins); arrays and scalars are replaced, not merged.
 * Returns a new object; inputs are not mutated. Used to apply an expectation's config overrides.
 */
export function mergeConfig<T extends Record<string, Json>>(base: T, overrides: Record<string, Json> | undefined): T {
  if (!overrides) return base;
  const out: Record<string, Json> = { ...base };
  for (const [key, value] of Object.entries(overrides)) {
    const prev = out[key];
    if (isPlainObject(prev) && isPlainObject(value)) out[key] = mergeConfig(prev, value);
    else out[key] = value;
  }
  return out as T;
}

function isPlainObject(v: Json | undefined): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
