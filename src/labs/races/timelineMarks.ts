import type { HandleMark, TimelineMark } from '../../charts/timelineTypes';
import type { RacesTrace } from '../../sim/races';
import { racesStateAt, racesTraceView } from '../../store/racesStore';
import { stepArrows, type StaticArrow } from './marks/arrows';
import { busyMark, busyOverTime } from './marks/busy';
import { scriptHandles, type HandleCache, type HandleDrawing } from './marks/handles';
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
  /** Arrows and points of the steps up to this one: a drawing that takes the steps over copies them with one slice each. */
  arrowEnd: number;
  pointEnd: number;
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
  /** Everything the chart reads of the lanes: the same key keeps the previous `layout` object. */
  lanesKey: string;
  /**
   * How many steps there are of each step base (`source:label`; the number in a step's `id` counts
   * them). Handed on: the next drawing made from this one takes the map over and updates it (this
   * drawing's `counts` is then null, and a later drawing from it counts its shared steps again).
   */
  counts: Map<string, number> | null;
  handleCache: HandleCache;
  /** What the handles were drawn from (the next drawing patches it). */
  handleDrawing: HandleDrawing;
}

const layoutKeyOf = (layout: RacesTimelineLayout) => layout.lanes.map((l) => `${l.id}:${l.rows.map((r) => r.id).join(',')}`).join('|');

/** Everything the chart reads of the lanes (ids, heights, labels), to keep the previous layout object when nothing in it changed. */
const lanesKeyOf = (layout: RacesTimelineLayout) => JSON.stringify(layout.lanes);

/** Whether two lane positions (`{ lane, row, at }`, or null) say the same. */
const samePlace = (a: { lane: string; row: string; at: number } | null, b: { lane: string; row: string; at: number } | null) =>
  a === b || (a !== null && b !== null && a.lane === b.lane && a.row === b.row && a.at === b.at);

/** Whether two static arrows draw the same (every field of the mark, its ends by value). */
function sameArrow(a: StaticArrow, b: StaticArrow): boolean {
  const m = a.mark;
  const n = b.mark;
  return (
    a.sentAt === b.sentAt &&
    a.arrivesAt === b.arrivesAt &&
    m.id === n.id &&
    m.tone === n.tone &&
    m.dashed === n.dashed &&
    m.label === n.label &&
    m.labelLane === n.labelLane &&
    m.title === n.title &&
    samePlace(m.from, n.from) &&
    samePlace(m.to, n.to)
  );
}

/** Whether two static points draw the same (all their fields are plain values). */
function samePoint(a: StaticPoint | null, b: StaticPoint | null): boolean {
  if (a === null || b === null) return a === b;
  return a.id === b.id && a.lane === b.lane && a.row === b.row && a.at === b.at && a.shape === b.shape && a.tone === b.tone && a.hollow === b.hollow && a.struck === b.struck && a.title === b.title;
}

/**
 * The arrows of a rebuilt step, with `old`'s arrow objects wherever they draw the same (and `old`'s
 * list itself when all do), so the chart sees unchanged marks as the same objects.
 */
function keptArrows(fresh: StaticArrow[], old: StaticArrow[] | undefined): StaticArrow[] {
  if (old === undefined) return fresh;
  let all = fresh.length === old.length;
  const out = fresh.map((a, i) => {
    const o = old[i];
    if (o !== undefined && sameArrow(a, o)) return o;
    all = false;
    return a;
  });
  return all ? old : out;
}

/**
 * The static parts of `trace`'s drawing: layout, handles, arrows, points and busy workers. With
 * `prev` (the drawing of the trace this one was forked from, or any earlier one), the steps a fork
 * took over unchanged (the same entry record at the same index, time and request) keep their
 * arrows and points, and unchanged scripted events their handles, so a drag rebuilds only the
 * marks of the steps after the checkpoint it replayed from. Of those, a rebuilt step whose marks
 * come out the same as those of the previous drawing's step with the same stable id (`id`) keeps
 * the previous mark objects too, and an unchanged layout keeps its object (`layout`, `lanes`):
 * a drag that changes one request's marks hands the chart new objects for those marks only.
 */
export function racesStatic(trace: RacesTrace, prev?: RacesStatic): RacesStatic {
  const fresh = racesLayout(trace);
  const layoutKey = layoutKeyOf(fresh);
  const lanesKey = lanesKeyOf(fresh);
  const layout = prev !== undefined && prev.lanesKey === lanesKey ? prev.layout : fresh;
  const view = racesTraceView(trace);
  const reuse = prev !== undefined && prev.layoutKey === layoutKey ? prev.steps : [];
  const { busy, maxBusy } = busyOverTime(trace, layout.compact);
  // The steps taken over: the same entry record at the same index, time and request, from the first on.
  let shared = 0;
  const limit = Math.min(view.stepCount, reuse.length);
  while (shared < limit) {
    const old = reuse[shared];
    if (old.entry !== view.entryOf(shared) || old.at !== view.atOf(shared) || old.key !== view.keyOf(shared)) break;
    shared++;
  }
  const last = shared > 0 ? reuse[shared - 1] : undefined;
  const steps: StepMarks[] = reuse.slice(0, shared);
  const arrows: StaticArrow[] = last ? prev!.arrows.slice(0, last.arrowEnd) : [];
  const points: StaticPoint[] = last ? prev!.points.slice(0, last.pointEnd) : [];
  const seen = occurrencesBefore(prev, reuse, shared);
  let notes: string[] | undefined;
  /** The previous drawing's steps not taken over, by stable id (built on the first rebuilt step). */
  let byId: Map<string, StepMarks> | undefined;
  for (let s = shared; s < view.stepCount; s++) {
    if (byId === undefined) {
      byId = new Map();
      for (let i = shared; i < reuse.length; i++) byId.set(reuse[i].id, reuse[i]);
    }
    const entry = view.entryOf(s);
    const base = `${entry.source}:${entry.label}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const id = `${base}#${n}`;
    const at = view.atOf(s);
    const was = byId.get(id);
    const point = stepPoint(view, s, layout, id, () => (notes ??= view.notes())[s]);
    const step: StepMarks = {
      entry,
      at,
      key: view.keyOf(s),
      id,
      base,
      arrows: keptArrows(stepArrows(at, view.effectsOf(s), layout, id), was?.arrows),
      point: was !== undefined && samePoint(point, was.point) ? was.point : point,
      arrowEnd: 0,
      pointEnd: 0,
    };
    for (const a of step.arrows) arrows.push(a);
    if (step.point) points.push(step.point);
    step.arrowEnd = arrows.length;
    step.pointEnd = points.length;
    steps.push(step);
  }
  const handleCache = prev?.handleCache ?? new WeakMap();
  const handleDrawing = scriptHandles(trace, layout, handleCache, prev ? { drawing: prev.handleDrawing, sharedSteps: shared } : undefined);
  return { layout, handles: handleDrawing.handles, arrows, points, busy, maxBusy, steps, layoutKey, lanesKey, counts: seen, handleCache, handleDrawing };
}

/**
 * Occurrences of each step base in the first `shared` steps of `reuse` (the steps of `prev` a new
 * drawing takes over): `prev`'s totals, taken over from it, less its steps after those; or counted
 * again when `prev`'s were already taken (a drawing made twice from the same one).
 */
function occurrencesBefore(prev: RacesStatic | undefined, reuse: readonly StepMarks[], shared: number): Map<string, number> {
  if (prev === undefined || reuse.length === 0) return new Map();
  const counts = prev.counts;
  if (counts === null) {
    const again = new Map<string, number>();
    for (let s = 0; s < shared; s++) again.set(reuse[s].base, (again.get(reuse[s].base) ?? 0) + 1);
    return again;
  }
  prev.counts = null;
  for (let s = shared; s < reuse.length; s++) {
    const n = counts.get(reuse[s].base)! - 1;
    if (n === 0) counts.delete(reuse[s].base);
    else counts.set(reuse[s].base, n);
  }
  return counts;
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

/** The as-of marks of one static list for one playhead (what the next call with the same playhead reuses). */
interface AsOfList<B> {
  bases: readonly B[];
  marks: TimelineMark[];
}

/**
 * `asOfMark` of each of `bases`, appended to `out`. Where `last` (the previous call, same playhead)
 * had the same base at the same index, its mark is taken without a lookup: a drag that keeps most
 * static marks costs one pass of comparisons.
 */
function asOfList<B extends object>(bases: readonly B[], last: AsOfList<B> | undefined, asOfMark: (base: B) => TimelineMark, out: TimelineMark[]): AsOfList<B> {
  const marks: TimelineMark[] = new Array(bases.length);
  const lastBases = last?.bases;
  for (let i = 0; i < bases.length; i++) {
    const mark = lastBases !== undefined && lastBases[i] === bases[i] ? last!.marks[i] : asOfMark(bases[i]);
    marks[i] = mark;
    out.push(mark);
  }
  return { bases, marks };
}

/**
 * Every mark for the playhead, as a function that remembers its last call (what a page holds
 * between edits): see `racesMarks`. Gives the same marks as `racesMarks`, the same objects included.
 */
export function racesMarksCache(): (st: RacesStatic, trace: RacesTrace, cursorMs: number) => TimelineMark[] {
  let last: { cursorMs: number; arrows: AsOfList<StaticArrow>; points: AsOfList<StaticPoint>; handles: AsOfList<RacesStatic['handles'][number]> } | undefined;
  return (st, trace, cursorMs) => {
    const out: TimelineMark[] = [];
    const state = racesStateAt(trace, cursorMs);
    const { layout } = st;
    state.requests.forEach((r, i) => {
      out.push(...requestMarks(r, cursorMs, trace.endAt, layout, !layout.compact || i === 0));
      if (!layout.compact) out.push(...workMarks(r, cursorMs, layout));
    });
    if (layout.compact) out.push(busyMark(st.busy, st.maxBusy, trace.outcome.requests.length, cursorMs));
    const same = last !== undefined && last.cursorMs === cursorMs ? last : undefined;
    const arrows = asOfList(
      st.arrows,
      same?.arrows,
      (a) => {
        const future = a.sentAt > cursorMs;
        const inFlight = !future && a.arrivesAt !== null && cursorMs < a.arrivesAt;
        const dotAt = inFlight ? cursorMs : null;
        return markAsOf(a, future, dotAt, () => ({ ...a.mark, future, dotAt }));
      },
      out,
    );
    const points = asOfList(
      st.points,
      same?.points,
      (p) => {
        const future = p.at > cursorMs;
        return markAsOf(p, future, null, () => ({ kind: 'point', ...p, future }));
      },
      out,
    );
    const handles = asOfList(
      st.handles,
      same?.handles,
      (h) => {
        const future = h.at > cursorMs;
        return markAsOf(h, future, null, () => ({ ...h, future }));
      },
      out,
    );
    last = { cursorMs, arrows, points, handles };
    return out;
  };
}

/**
 * Every mark for the playhead at `cursorMs`. Static marks (arrows, points, handles) come back as
 * the same objects while their inputs and their side of the playhead stay the same, so the chart
 * redraws only what changed.
 */
export function racesMarks(st: RacesStatic, trace: RacesTrace, cursorMs: number): TimelineMark[] {
  return racesMarksCache()(st, trace, cursorMs);
}
