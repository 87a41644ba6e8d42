import { formatMs } from '../../../charts/format';
import type { HandleMark, Tone } from '../../../charts/timelineTypes';
import type { LabTraceView } from '../../../sim/lab';
import type { RacesState, RacesTrace } from '../../../sim/races';
import type { ScriptedEvent } from '../../../sim/types';
import { racesTraceView } from '../../../store/racesStore';
import type { RacesTimelineLayout } from './layout';

/** Handle marks: one draggable handle per scripted event, with its tie order at a shared millisecond. */

const EVENT_STYLE: Record<string, { tone: Tone; shape: HandleMark['shape'] }> = {
  start: { tone: 'client', shape: 'diamond' },
  cancel: { tone: 'bad', shape: 'square' },
  disconnect: { tone: 'warn', shape: 'square' },
  inject: { tone: 'warn', shape: 'triangle' },
  progress: { tone: 'server', shape: 'circle' },
  keepalive: { tone: 'muted', shape: 'circle' },
  complete: { tone: 'ok', shape: 'circle' },
  error: { tone: 'bad', shape: 'circle' },
  'server-cancel': { tone: 'warn', shape: 'square' },
};

type StaticHandle = Omit<HandleMark, 'future'>;

/** What a handle was drawn from, so an unchanged event keeps its handle object across edits. */
interface HandleInputs {
  row: string;
  reasons: string;
  tieOrder: number | undefined;
  tieCount: number;
  handle: StaticHandle;
}

/** Handles of the last trace drawn, keyed by scripted event object (an edit keeps the objects of the events it did not change). */
export type HandleCache = WeakMap<ScriptedEvent, HandleInputs>;

/**
 * What one call of `scriptHandles` drew from, so the next call (the trace of an edit) can patch
 * it. By event index: the step each ran in (-1: none), its place among the events at its
 * millisecond (0-based, list order) and how many there are; then the handles and the layout.
 */
export interface HandleDrawing {
  events: readonly ScriptedEvent[];
  stepOf: Int32Array;
  tieIndex: Int32Array;
  tieCount: Int32Array;
  handles: StaticHandle[];
  layout: RacesTimelineLayout;
  /** Event index by id (built when a patch first needs it; the drawings patched from this one have the same ids in the same order). */
  indexOf?: Map<string, number>;
}

/** More changed events than this: the handles are drawn from scratch (patching would save nothing). */
const PATCH_MAX_CHANGED = 8;

/** The tie order shown for the `index`-th (0-based) of `count` events at one millisecond (none alone or past 8). */
const tieOrderOf = (index: number, count: number) => (count > 1 && count <= 8 ? index + 1 : undefined);

/** The handle of `ev` (ran in step `step`, or not at all), from `cache` when its inputs are unchanged (and recorded there). */
function handleOf(ev: ScriptedEvent, step: number, tieOrder: number | undefined, tieCount: number, view: LabTraceView<RacesState>, layout: RacesTimelineLayout, cache: HandleCache): StaticHandle {
  const key = step >= 0 ? view.keyOf(step) : null;
  const lane = ev.actor === 'server' || ev.actor === 'worker' ? 'server' : 'client';
  const row = layout.rowFor(lane, key, 'event');
  const stepIgnored = step >= 0 ? view.ignoredOf(step) : [];
  const reasons = stepIgnored.map((i) => `ignored by the ${i.by}: ${i.reason}`).join('; ');
  const known = cache.get(ev);
  if (known && known.row === row && known.reasons === reasons && known.tieOrder === tieOrder && known.tieCount === tieCount) return known.handle;
  const style = EVENT_STYLE[ev.kind] ?? { tone: 'neutral' as Tone, shape: 'circle' as const };
  const title = `${ev.id} — ${ev.actor} ${ev.kind} at ${formatMs(ev.at)} ms${tieOrder ? ` (${tieOrder} of ${tieCount} at this ms)` : ''}${reasons ? `. ${reasons}` : ''}. Drag, or focus and use the arrow keys.`;
  const handle: StaticHandle = {
    kind: 'handle' as const,
    id: ev.id,
    lane,
    row,
    at: ev.at,
    tone: style.tone,
    shape: style.shape,
    label: ev.label ?? ev.id,
    group: ev.kind,
    ariaLabel: `${ev.id} at ${ev.at} ms`,
    testId: `handle-${ev.id}`,
    ignored: stepIgnored.length > 0,
    tieOrder,
    title,
  };
  cache.set(ev, { row, reasons, tieOrder, tieCount, handle });
  return handle;
}

/** Every handle from scratch: the step of each event and the events at each millisecond (list order decides who goes first). */
function drawAll(trace: RacesTrace, view: LabTraceView<RacesState>, layout: RacesTimelineLayout, cache: HandleCache): HandleDrawing {
  const events = trace.scenario.events;
  const stepOfEvent = new Map<string, number>();
  for (let i = 0; i < view.stepCount; i++) {
    const entry = view.entryOf(i);
    if (entry.source === 'script') stepOfEvent.set(entry.label, i);
  }
  const byMs = new Map<number, ScriptedEvent[]>();
  for (const ev of events) {
    const list = byMs.get(ev.at);
    if (list) list.push(ev);
    else byMs.set(ev.at, [ev]);
  }
  const stepOf = new Int32Array(events.length);
  const tieIndex = new Int32Array(events.length);
  const tieCount = new Int32Array(events.length);
  const handles = events.map((ev, i) => {
    const step = stepOfEvent.get(ev.id) ?? -1;
    const same = byMs.get(ev.at) ?? [];
    stepOf[i] = step;
    tieIndex[i] = same.indexOf(ev);
    tieCount[i] = same.length;
    return handleOf(ev, step, tieOrderOf(tieIndex[i], tieCount[i]), tieCount[i], view, layout, cache);
  });
  return { events, stepOf, tieIndex, tieCount, handles, layout };
}

/**
 * `prev`'s handles patched for `trace`, whose first `sharedSteps` steps are `prev`'s (a fork's
 * prefix): only the events that changed, that ran (before or now) after the shared steps, or that
 * share a millisecond with a changed event's old or new time are drawn again. Null when patching
 * does not apply (another layout or event list, a reorder, many changes): draw from scratch.
 */
function patch(trace: RacesTrace, view: LabTraceView<RacesState>, layout: RacesTimelineLayout, cache: HandleCache, prev: HandleDrawing, sharedSteps: number): HandleDrawing | null {
  const events = trace.scenario.events;
  if (prev.layout !== layout || prev.events.length !== events.length) return null;
  const times = new Set<number>();
  const dirty = new Set<number>();
  for (let i = 0; i < events.length; i++) {
    const was = prev.events[i];
    if (events[i] === was) continue;
    if (events[i].id !== was.id || dirty.size >= PATCH_MAX_CHANGED) return null;
    dirty.add(i);
    times.add(was.at).add(events[i].at);
  }
  const stepOf = prev.stepOf.slice();
  for (let i = 0; i < stepOf.length; i++) {
    if (stepOf[i] >= sharedSteps) {
      stepOf[i] = -1;
      dirty.add(i);
    }
  }
  let indexOf = prev.indexOf;
  for (let s = sharedSteps; s < view.stepCount; s++) {
    const entry = view.entryOf(s);
    if (entry.source !== 'script') continue;
    indexOf ??= new Map(events.map((e, i) => [e.id, i]));
    const i = indexOf.get(entry.label);
    if (i === undefined) continue;
    stepOf[i] = s;
    dirty.add(i);
  }
  // The events at each changed time, in list order (their tie order may have changed).
  const atTime = new Map<number, ScriptedEvent[]>();
  for (const t of times) atTime.set(t, []);
  if (times.size > 0) {
    for (let i = 0; i < events.length; i++) {
      const list = atTime.get(events[i].at);
      if (list) {
        list.push(events[i]);
        dirty.add(i);
      }
    }
  }
  const handles = prev.handles.slice();
  const tieIndex = prev.tieIndex.slice();
  const tieCount = prev.tieCount.slice();
  for (const i of dirty) {
    const ev = events[i];
    // An event at an unchanged time keeps its tie place (no event joined or left that millisecond).
    const same = atTime.get(ev.at);
    if (same) {
      tieIndex[i] = same.indexOf(ev);
      tieCount[i] = same.length;
    }
    handles[i] = handleOf(ev, stepOf[i], tieOrderOf(tieIndex[i], tieCount[i]), tieCount[i], view, layout, cache);
  }
  return { events, stepOf, tieIndex, tieCount, handles, layout, indexOf };
}

/**
 * The scripted events of `trace` as handles (not yet split into past / future by the playhead).
 * With `cache` (from an earlier call), an event whose inputs are unchanged (same event object,
 * row, ignored reasons and tie order) gets its earlier handle object back, and the cache is updated.
 * With `prev` (the drawing of a trace whose first `sharedSteps` steps this one shares, e.g. the
 * trace a drag forked), only what can have changed is looked at again (`patch`); the handles are
 * the same as drawn from scratch either way.
 */
export function scriptHandles(trace: RacesTrace, layout: RacesTimelineLayout, cache: HandleCache = new WeakMap(), prev?: { drawing: HandleDrawing; sharedSteps: number }): HandleDrawing {
  const view = racesTraceView(trace);
  return (prev && patch(trace, view, layout, cache, prev.drawing, prev.sharedSteps)) ?? drawAll(trace, view, layout, cache);
}
