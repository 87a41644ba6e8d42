import { EventQueue } from './queue';
import { mulberry32 } from './rng';
import type { ApplyContext, Model, QueueEntry, Scenario, ScriptedEvent, Step, Trace, WireEffect, Ignored, Json } from './types';

/** Options of `replay`. */
export interface ReplayOptions {
  /** Stop after this many steps (guards runaway timers); the trace is then marked truncated. Default 2,000,000. */
  maxSteps?: number;
}

/** A trace plus whether the step limit cut it short. */
export type ReplayResult<S, O> = Trace<S, O> & { truncated: boolean };

/**
 * Replays `scenario` through `model` and returns the full trace.
 *
 * Scripted events and model timers share one queue ordered by `(at, rank, seq)` (see
 * `compareEntries`). After every step each invariant is checked; the first violation of each is
 * also summarised in `trace.invariants`. The scenario must already be validated (see
 * `parseScenario`); `replay` throws `Error` only for model bugs (a timer scheduled in the past).
 *
 * Deterministic: the only randomness is `mulberry32(scenario.seed)`.
 */
export function replay<C, S, O, T>(
  model: Model<C, S, O, T>,
  scenario: Scenario,
  options: ReplayOptions = {},
): ReplayResult<S, O> {
  const maxSteps = options.maxSteps ?? 2_000_000;
  const queue = new EventQueue<ScriptedEvent | T>();
  const random = mulberry32(scenario.seed);
  let seq = 0;
  let nextHandle = 0;
  let now = 0;
  let effects: WireEffect[] = [];
  let ignored: Ignored[] = [];
  let why = '';
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
      effects.push({ type: 'wire', ...effect });
    },
    ignore(item) {
      ignored.push(item);
    },
    why(text, ruleId) {
      why = text;
      rule = ruleId;
    },
  };

  for (const event of scenario.events) {
    queue.push({
      at: event.at,
      rank: model.scriptedRank(event),
      seq: seq++,
      source: 'script',
      payload: event,
      label: event.id,
      actor: event.actor,
      handle: -1,
    });
  }

  const initial = model.init(scenario.config as C, ctx);
  let state = initial;
  const steps: Step<S>[] = [];
  const firstViolation = new Map<string, { step: number; at: number; message: string }>();
  let truncated = false;

  for (let entry = queue.pop(); entry !== undefined; entry = queue.pop()) {
    if (steps.length >= maxSteps) {
      truncated = true;
      break;
    }
    now = entry.at;
    effects = [];
    ignored = [];
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
    const { payload: _payload, ...entryMeta } = entry;
    void _payload;
    const step: Step<S> = {
      index: steps.length,
      at: now,
      entry: { ...entryMeta, kind },
      state,
      effects,
      ignored,
      why,
      rule,
      violations: [],
    };
    for (const inv of model.invariants) {
      const message = inv.check(state, step);
      if (message !== null) {
        step.violations.push({ invariant: inv.name, message });
        if (!firstViolation.has(inv.name)) firstViolation.set(inv.name, { step: step.index, at: now, message });
      }
    }
    steps.push(step);
  }

  const endAt = steps.length > 0 ? steps[steps.length - 1].at : 0;
  return {
    scenario,
    initial,
    steps,
    outcome: model.outcome(state, endAt),
    invariants: model.invariants.map((inv) => ({
      name: inv.name,
      description: inv.description,
      firstViolation: firstViolation.get(inv.name) ?? null,
    })),
    endAt,
    truncated,
  };
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
