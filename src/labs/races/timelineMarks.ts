import type { HandleMark, TimelineMark } from '../../charts/timelineTypes';
import type { RacesTrace } from '../../sim/races';
import { racesStateAt, racesTraceView } from '../../store/racesStore';
import { stepArrows, type StaticArrow } from './marks/arrows';
import { busyMark, busyOverTime } from './marks/busy';
import { scriptHandles, type HandleCache } from './marks/handles';
import { racesLayout, type RacesTimelineLayout } from './marks/layout';
import { stepPoint, type StaticPoint } from './marks/points';
import { requestMarks } from './marks/requests';
import { workMarks } from './marks/work';

/**
 * Maps a races trace onto the generic timeline, one file per mark kind under `./marks/`: the layout
 * (lanes client, wire, server, worker; one row per request, or thin stacked rows past
 * COMPACT_AFTER requests), scripted events as handles, wire effects as arrows from sender to
 * receiver, model timers as points, the request bar with its deadlines as of the playhead, the
 * server's work per request, and (compact) how many workers are busy.
 */

export { COMPACT_AFTER, racesLayout, requestLabel, type RacesTimelineLayout } from './marks/layout';
export { effectLabel } from './marks/arrows';
export { stateTone } from './marks/requests';

/** The marks of one step, kept so the next trace (a fork of this one) can take over those of its shared steps. */
interface StepMarks {
  /** The step's entry record: a fork shares the entry objects of the steps it took over. */
  entry: object;
  at: number;
  key: string | null;
  /**
   * A key that stays stable across edits (entry label + occurrence, not step index), so React
   * updates marks in place: `script:e1#1`, `timer:idle r1#2`, …
   */
  id: string;
  /** `entry.source:entry.label`, the base of `id`. */
  base: string;
  arrows: StaticArrow[];
  point: StaticPoint | null;
}

/** The parts of the drawing that depend on the trace only (computed once per trace). */
export interface RacesStatic {
  layout: RacesTimelineLayout;
  handles: Omit<HandleMark, 'future'>[];
  arrows: StaticArrow[];
  points: StaticPoint[];
  /** Compact mode: [time, busy workers]. */
  busy: [number, number][];
  maxBusy: number;
  /** Per step, what the next `racesStatic(…, this)` may take over. */
  steps: StepMarks[];
  /** The lanes' and rows' ids: marks of shared steps are taken over only under the same layout. */
  layoutKey: string;
  handleCache: HandleCache;
}

const layoutKeyOf = (layout: RacesTimelineLayout) => layout.lanes.map((l) => `${l.id}:${l.rows.map((r) => r.id).join(',')}`).join('|');

/**
 * The static parts of `trace`'s drawing: layout, handles, arrows, points and busy workers. With
 * `prev` (the drawing of the trace this one was forked from, or any earlier one), the steps a fork
 * took over unchanged (the same entry record at the same index, time and request) keep their
 * arrows and points, and unchanged scripted events their handles, so a drag rebuilds only the
 * marks of the steps after the checkpoint it replayed from.
 */
export function racesStatic(trace: RacesTrace, prev?: RacesStatic): RacesStatic {
  const layout = racesLayout(trace);
  const layoutKey = layoutKeyOf(layout);
  const view = racesTraceView(trace);
  const reuse = prev !== undefined && prev.layoutKey === layoutKey ? prev.steps : [];
  const { busy, maxBusy } = busyOverTime(trace, layout.compact);
  const seen = new Map<string, number>();
  const steps: StepMarks[] = new Array(view.stepCount);
  const arrows: StaticArrow[] = [];
  const points: StaticPoint[] = [];
  let notes: string[] | undefined;
  let shared = true;
  for (let s = 0; s < view.stepCount; s++) {
    const entry = view.entryOf(s);
    const old = reuse[s];
    shared &&= old !== undefined && old.entry === entry && old.at === view.atOf(s) && old.key === view.keyOf(s);
    let step: StepMarks;
    if (shared) {
      step = old;
      seen.set(step.base, (seen.get(step.base) ?? 0) + 1);
    } else {
      const base = `${entry.source}:${entry.label}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      const id = `${base}#${n}`;
      const at = view.atOf(s);
      step = { entry, at, key: view.keyOf(s), id, base, arrows: stepArrows(at, view.effectsOf(s), layout, id), point: stepPoint(view, s, layout, id, () => (notes ??= view.notes())[s]) };
    }
    steps[s] = step;
    for (const a of step.arrows) arrows.push(a);
    if (step.point) points.push(step.point);
  }
  const handleCache = prev?.handleCache ?? new WeakMap();
  return { layout, handles: scriptHandles(trace, layout, handleCache), arrows, points, busy, maxBusy, steps, layoutKey, handleCache };
}

/** `racesStatic` of each trace it is given, each computed from the one before (what a page holds between edits). */
export function racesStaticCache(): (trace: RacesTrace) => RacesStatic {
  let last: { trace: RacesTrace; st: RacesStatic } | undefined;
  return (trace) => {
    if (last?.trace !== trace) last = { trace, st: racesStatic(trace, last?.st) };
    return last.st;
  };
}

/** The same mark object for the same inputs: a static mark as of the playhead (past or future, in-flight dot). */
const asOf = new WeakMap<object, { future: boolean; dotAt: number | null; mark: TimelineMark }>();
function markAsOf<M extends object>(base: M, future: boolean, dotAt: number | null, make: () => TimelineMark): TimelineMark {
  const known = asOf.get(base);
  if (known && known.future === future && known.dotAt === dotAt) return known.mark;
  const mark = make();
  asOf.set(base, { future, dotAt, mark });
  return mark;
}

/**
 * Every mark for the playhead at `cursorMs`. Static marks (arrows, points, handles) come back as
 * the same objects while their inputs and their side of the playhead stay the same, so the chart
 * redraws only what changed.
 */
export function racesMarks(st: RacesStatic, trace: RacesTrace, cursorMs: number): TimelineMark[] {
  const out: TimelineMark[] = [];
  const state = racesStateAt(trace, cursorMs);
  const { layout } = st;
  state.requests.forEach((r, i) => {
    out.push(...requestMarks(r, cursorMs, trace.endAt, layout, !layout.compact || i === 0));
    if (!layout.compact) out.push(...workMarks(r, cursorMs, layout));
  });
  if (layout.compact) out.push(busyMark(st.busy, st.maxBusy, trace.outcome.requests.length, cursorMs));
  for (const a of st.arrows) {
    const future = a.sentAt > cursorMs;
    const inFlight = !future && a.arrivesAt !== null && cursorMs < a.arrivesAt;
    const dotAt = inFlight ? cursorMs : null;
    out.push(markAsOf(a, future, dotAt, () => ({ ...a.mark, future, dotAt })));
  }
  for (const p of st.points) {
    const future = p.at > cursorMs;
    out.push(markAsOf(p, future, null, () => ({ kind: 'point', ...p, future })));
  }
  for (const h of st.handles) {
    const future = h.at > cursorMs;
    out.push(markAsOf(h, future, null, () => ({ ...h, future })));
  }
  return out;
}
