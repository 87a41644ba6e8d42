import { isLabTrace, labTraceView, type LabTraceView } from '../sim/lab';
import type { ReplayResult } from '../sim/replay';
import type { Step } from '../sim/types';

/**
 * Whole-trace readings for views that draw every step (queue depth over time, breaker rate, the
 * marks of flushes and timeouts), without building the trace's historic `steps` and without
 * re-reading what a drag did not change. The store registers each fork with the trace it came
 * from (`rememberFork`); `stepRecords` then reuses the base's records of the steps before the
 * fork's checkpoint and reads states only from there on (issue 10 item 4: a drag re-reads from the
 * last checkpoint before the moved event, never the whole scenario).
 */

const forkBase = new WeakMap<object, object>();

/**
 * Records that `forked` was forked from `base` (called by the store on every edit of a seekable
 * trace). One level only: `base`'s own link to the trace it came from is dropped, so the newest
 * trace keeps its base alive but not the whole chain of a long drag (every trace of a 1,000-move
 * drag, each with its per-step arrays, stayed reachable from the last one). A reading of `base`
 * made after this one starts from scratch, which no view does (`base` is no longer the store's).
 */
export function rememberFork(forked: object, base: object): void {
  if (forked === base) return;
  forkBase.delete(base);
  forkBase.set(forked, base);
}

/** What one step looks like to `stepRecords`' callback: its index, time, entry kind and source, rule, state. */
export interface StepReading<S> {
  index: number;
  at: number;
  kind: string;
  source: Step<S>['entry']['source'];
  label: string;
  rule: string | undefined;
  ignored: boolean;
  state: S;
}

const records = new WeakMap<object, Map<string, unknown[]>>();

/** The store's trace read through the accessors (`LabTraceView`), whichever kind it is. */
export const traceView = <S>(trace: ReplayResult<S, unknown>): LabTraceView<S> => labTraceView(trace);

/** The state after the last step (the initial state when nothing happened). */
export function finalStateOf<S>(trace: ReplayResult<S, unknown>): S {
  const view = traceView(trace);
  return view.stepCount > 0 ? view.stateAt(view.stepCount - 1) : view.initial;
}

/**
 * `record(reading)` of every step of `trace`, in order, cached per (trace, `id`). For a fork the
 * store registered, the records of the steps before its checkpoint are the base's (the same steps
 * by construction of `fork`) and only the rest are read. `record` must depend on nothing but its
 * reading (same `id` → same function). O(steps read × state view).
 */
export function stepRecords<S, R>(trace: ReplayResult<S, unknown>, id: string, record: (reading: StepReading<S>) => R): R[] {
  let byId = records.get(trace);
  const hit = byId?.get(id);
  if (hit) return hit as R[];
  const view = traceView(trace);
  let out: R[] = [];
  if (isLabTrace(trace)) {
    const reused = (trace as { reusedSteps?: number }).reusedSteps ?? 0;
    const base = forkBase.get(trace);
    const prior = base ? (records.get(base)?.get(id) as R[] | undefined) : undefined;
    if (prior && reused > 0) out = prior.slice(0, reused);
  }
  for (let i = out.length; i < view.stepCount; i++) {
    const entry = view.entryOf(i);
    out.push(record({ index: i, at: view.atOf(i), kind: entry.kind, source: entry.source, label: entry.label, rule: view.ruleOf(i), ignored: view.ignoredOf(i).length > 0, state: view.stateAt(i) }));
  }
  if (!byId) records.set(trace, (byId = new Map()));
  byId.set(id, out);
  return out;
}

const effectEnds = new WeakMap<object, Int32Array>();

/**
 * For each step `i` of `view`, how many wire effects steps 0…`i` sent (`effectsOf`), cached per
 * trace. For a fork the store registered, the counts of the steps before its checkpoint are the
 * base's (when it has them) and only the rest are counted: O(steps not reused).
 */
export function stepEffectEnds<S>(view: LabTraceView<S>): Int32Array {
  const hit = effectEnds.get(view);
  if (hit) return hit;
  const out = new Int32Array(view.stepCount);
  let from = 0;
  if (isLabTrace(view)) {
    const reused = Math.min((view as { reusedSteps?: number }).reusedSteps ?? 0, view.stepCount);
    const base = forkBase.get(view);
    const prior = base ? effectEnds.get(base) : undefined;
    if (prior && reused > 0 && prior.length >= reused) {
      out.set(prior.subarray(0, reused));
      from = reused;
    }
  }
  let n = from > 0 ? out[from - 1] : 0;
  for (let i = from; i < view.stepCount; i++) out[i] = n += view.effectsOf(i).length;
  effectEnds.set(view, out);
  return out;
}
