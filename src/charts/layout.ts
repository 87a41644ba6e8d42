import { neutraliseBidi } from './format';
import type { ArrowMark, BandMark, HandleMark, MarkerMark, PointMark, SpanMark, StepsMark, TimelineLane, TimelineMark } from './timelineTypes';

/**
 * Geometry of the timeline (no React, no DOM): the fixed measures, the vertical layout of lanes and
 * rows, the zoom window's bounds, and the split of marks by kind. Label placement is `labels.ts`.
 */

/** Width of the left gutter holding lane and row names, px. */
export const GUTTER = 118;
export const RIGHT_PAD = 16;
/** Height of the axis strip (the scrub area) above the lanes, px. */
export const AXIS_H = 30;
/** Room under the lanes for the playhead's time, px. */
export const BOTTOM_H = 22;
export const LANE_PAD = 5;
/** Radius of a handle's glyph, px. */
export const HANDLE_R = 7;
/** Estimated width of one label character (11 px type), px. */
export const CHAR_W = 6.3;

/** A row's top and height, px. */
export interface RowBox {
  y: number;
  h: number;
}

/** Lanes stacked top to bottom below the axis: each lane's box, its rows' boxes, and the chart's height (px). */
export interface Layout {
  lanes: { id: string; label: string; y: number; h: number; rows: { id: string; label?: string; y: number; h: number }[] }[];
  /** Keyed `lane/row`. */
  rows: Map<string, RowBox>;
  laneRows: Map<string, RowBox[]>;
  /** The same boxes by lane, then row (what `rowBox` reads: no key string per lookup). */
  byLane: Map<string, Map<string, RowBox>>;
  height: number;
}

/** Stacks `lanes` below the axis, `LANE_PAD` above and below each lane's rows. */
export function computeLayout(lanes: readonly TimelineLane[]): Layout {
  let y = AXIS_H;
  const rows = new Map<string, RowBox>();
  const laneRows = new Map<string, RowBox[]>();
  const byLane = new Map<string, Map<string, RowBox>>();
  const out: Layout['lanes'] = [];
  for (const lane of lanes) {
    const laneY = y;
    y += LANE_PAD;
    const laneOut: Layout['lanes'][number] = { id: lane.id, label: neutraliseBidi(lane.label), y: laneY, h: 0, rows: [] };
    const boxes: RowBox[] = [];
    const own = byLane.get(lane.id) ?? new Map<string, RowBox>();
    byLane.set(lane.id, own);
    for (const row of lane.rows) {
      const box = { y, h: row.height };
      rows.set(`${lane.id}/${row.id}`, box);
      own.set(row.id, box);
      boxes.push(box);
      laneOut.rows.push({ id: row.id, label: row.label === undefined ? undefined : neutraliseBidi(row.label), y, h: row.height });
      y += row.height;
    }
    y += LANE_PAD;
    laneOut.h = y - laneY;
    laneRows.set(lane.id, boxes);
    out.push(laneOut);
  }
  return { lanes: out, rows, laneRows, byLane, height: y + BOTTOM_H };
}

/**
 * Whether lanes `a` and `b` would lay out the same (the same ids, labels, heights and label lanes,
 * in order): a lab that builds its lanes anew for every trace (each drag move) then keeps the
 * chart's `Layout` object, so every layer that depends on it keeps its drawing.
 */
export function sameLanes(a: readonly TimelineLane[], b: readonly TimelineLane[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) {
    const la = a[i];
    const lb = b[i];
    if (la.id !== lb.id || la.label !== lb.label || !!la.labelLane !== !!lb.labelLane || la.rows.length !== lb.rows.length) return false;
    for (let r = 0; r < la.rows.length; r++) {
      const ra = la.rows[r];
      const rb = lb.rows[r];
      if (ra.id !== rb.id || ra.height !== rb.height || ra.label !== rb.label) return false;
    }
  }
  return true;
}

/** `computeLayout` of each lanes list it is given, or the last layout while the lanes are the same (`sameLanes`). */
export function layoutCache(): (lanes: readonly TimelineLane[]) => Layout {
  let last: { lanes: readonly TimelineLane[]; layout: Layout } | null = null;
  return (lanes) => {
    if (last === null || !sameLanes(last.lanes, lanes)) last = { lanes, layout: computeLayout(lanes) };
    return last.layout;
  };
}

/** The box of `lane/row`; an unknown row falls back to the lane's first row, an unknown lane to a 20 px box under the axis. */
export function rowBox(layout: Layout, lane: string, row: string): RowBox {
  return layout.byLane.get(lane)?.get(row) ?? layout.laneRows.get(lane)?.[0] ?? { y: AXIS_H, h: 20 };
}

/** The y (px) marks of a row are centred on: the middle, or a little lower in rows of 30 px and more (room for a label above). */
export function rowCenterY(box: RowBox): number {
  return box.y + (box.h >= 30 ? box.h * 0.55 : box.h / 2);
}

/** Keeps a view window inside [d0, d1] (shifting, then shrinking if needed). */
export function clampView(view: readonly [number, number], d0: number, d1: number): readonly [number, number] {
  let [a, b] = view;
  const span = Math.min(b - a, d1 - d0);
  if (a < d0) [a, b] = [d0, d0 + span];
  if (b > d1) [a, b] = [d1 - span, d1];
  return [a, b];
}

/** 1, 2 or 5 times a power of ten nearest above `v` (at least 1): a keyboard page step, ms. */
export function niceStep(v: number): number {
  if (v <= 1) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  const m = v / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/** Marks by kind, each list in the given order (later marks draw on top). */
export interface MarksByKind {
  bands: BandMark[];
  spans: SpanMark[];
  markers: MarkerMark[];
  arrows: ArrowMark[];
  points: PointMark[];
  handles: HandleMark[];
  steps: StepsMark[];
}

const TEXT_FIELDS = ['label', 'title', 'ariaLabel', 'endLabel', 'shortLabel', 'group'] as const;
/** Marks already cleaned (marks are not mutated once drawn; a lab that keeps a mark object across renders pays once). */
const cleaned = new WeakMap<TimelineMark, TimelineMark>();

/**
 * `mark` with its displayed text neutralised (`neutraliseBidi`): labels, tooltips and accessible
 * names. The same object when nothing changes, so memoised views keep their inputs.
 */
export function cleanMarkText<M extends TimelineMark>(mark: M): M {
  const known = cleaned.get(mark);
  if (known !== undefined) return known as M;
  let out: M | null = null;
  for (const f of TEXT_FIELDS) {
    const v = (mark as unknown as Record<string, unknown>)[f];
    if (typeof v !== 'string') continue;
    const clean = neutraliseBidi(v);
    if (clean !== v) {
      out ??= { ...mark };
      (out as unknown as Record<string, unknown>)[f] = clean;
    }
  }
  cleaned.set(mark, out ?? mark);
  return out ?? mark;
}

/** The list of `MarksByKind` each mark kind goes to. */
const BUCKET: Record<TimelineMark['kind'], keyof MarksByKind> = { band: 'bands', span: 'spans', marker: 'markers', arrow: 'arrows', point: 'points', handle: 'handles', steps: 'steps' };

/** Each mark's cleaned self and list, read once (marks of many shapes make `mark.kind` a slow read when done for thousands per render). */
const sorted = new WeakMap<TimelineMark, { mark: TimelineMark; bucket: keyof MarksByKind }>();

/** `raw`'s cleaned self and list (looked up once per mark object). */
function sortedOf(raw: TimelineMark): { mark: TimelineMark; bucket: keyof MarksByKind } {
  let e = sorted.get(raw);
  if (e === undefined) {
    const mark = cleanMarkText(raw);
    sorted.set(raw, (e = { mark, bucket: BUCKET[mark.kind] }));
  }
  return e;
}

const emptyMarksByKind = (): MarksByKind => ({ bands: [], spans: [], markers: [], arrows: [], points: [], handles: [], steps: [] });

/** Splits `marks` by kind, their text neutralised. */
export function splitMarks(marks: readonly TimelineMark[]): MarksByKind {
  const out = emptyMarksByKind();
  for (const raw of marks) {
    const e = sortedOf(raw);
    (out[e.bucket] as TimelineMark[]).push(e.mark);
  }
  return out;
}

/**
 * `splitMarks`, remembering its last call (what the timeline holds between renders): a mark that is
 * the same object at the same index as last time takes its entry from there without a lookup (a
 * drag move keeps most of thousands of marks), and a list whose marks are all the same as last
 * time, in the same order, comes back as the same array, so what is placed from it (handles,
 * arrow labels, obstacles) is not placed again. The same answer as `splitMarks` every time.
 */
export function marksSplitter(): (marks: readonly TimelineMark[]) => MarksByKind {
  let last: { marks: readonly TimelineMark[]; entries: { mark: TimelineMark; bucket: keyof MarksByKind }[]; out: MarksByKind } | null = null;
  return (marks) => {
    if (last !== null && last.marks === marks) return last.out;
    const out = emptyMarksByKind();
    const entries: { mark: TimelineMark; bucket: keyof MarksByKind }[] = new Array(marks.length);
    const prevMarks = last?.marks ?? [];
    const prevEntries = last?.entries ?? [];
    for (let i = 0; i < marks.length; i++) {
      const raw = marks[i];
      const e = i < prevMarks.length && prevMarks[i] === raw ? prevEntries[i] : sortedOf(raw);
      entries[i] = e;
      (out[e.bucket] as TimelineMark[]).push(e.mark);
    }
    if (last !== null) {
      const prev = last.out as unknown as Record<string, TimelineMark[]>;
      const next = out as unknown as Record<string, TimelineMark[]>;
      for (const key of Object.keys(next)) {
        const a = prev[key];
        const b = next[key];
        if (a.length === b.length && a.every((m, i) => m === b[i])) next[key] = a;
      }
    }
    last = { marks, entries, out };
    return out;
  };
}

/** Whether time `t` lies in the window [v0, v1] widened by 2% on each side (marks just outside are still drawn). */
export function inView(t: number, v0: number, v1: number): boolean {
  return t >= v0 - (v1 - v0) * 0.02 && t <= v1 + (v1 - v0) * 0.02;
}
