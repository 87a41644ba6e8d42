import { CHAR_W, HANDLE_R, rowBox, rowCenterY, type Layout } from './layout';
import type { LinearScale } from './scale';
import type { HandleMark } from './timelineTypes';

/**
 * Where handles go (pure functions of marks, scale and layout; px): same-millisecond stacks,
 * clusters and their labels, row by row; `handlePlacer` does the same again for a changed list,
 * placing only the rows that changed (a drag move).
 */

/** A handle placed: its x, its vertical offset from the row's centre (`dy`, px), and its label if shown. */
export interface PlacedHandle {
  mark: HandleMark;
  x: number;
  /** Offset of the glyph from the row's centre line: non-zero when handles share a millisecond in one row (a stack). */
  dy: number;
  /** Offset of the cluster's label (the top of its stack). */
  labelDy: number;
  label: string | null;
  flip: boolean;
  tieOrder: number | null;
}

/** The least vertical distance between the centres of two stacked handles, px: each keeps a strip this wide of its own to grab. */
export const STACK_MIN_GAP = 6;

/**
 * Vertical offsets (px, centred on 0) for `n` handles stacked at one millisecond in a row of height
 * `rowH`: 2·HANDLE_R + 2 apart when the row has room, closer in a low row, but at least
 * STACK_MIN_GAP, so each glyph keeps a strip of its own to grab (the next one's hit circle,
 * HANDLE_R + 5, does not cover it). Null when the stack does not fit in the row that way (e.g. fifty
 * same-time events): those stay on the centre line as one cluster, as before.
 */
export function stackOffsets(n: number, rowH: number): number[] | null {
  if (n <= 1) return [0];
  const gap = Math.min(2 * HANDLE_R + 2, (rowH - 2 * HANDLE_R) / (n - 1));
  if (gap < STACK_MIN_GAP) return null;
  return Array.from({ length: n }, (_, i) => i * gap - ((n - 1) * gap) / 2);
}

/** A handle with its x (px) and its index in the list given to `placeHandles`. */
interface RowItem {
  mark: HandleMark;
  x: number;
  index: number;
}

/** The row key of a handle (`lane/row`): handles are placed row by row. */
const rowKeyOf = (m: HandleMark) => `${m.lane}/${m.row}`;

/**
 * Places the handles of one row (`list`, in input order) and writes each one's `PlacedHandle` at
 * its index in `out`: labels are shown when there is room before the next handle's label; handles
 * within 3 px form a cluster labelled "<group> ×n" (or "n events"); a label that would pass the
 * plot's right edge ends at its handle instead; same-millisecond handles are stacked (`stackDy`).
 */
function placeRow(list: RowItem[], plotRight: number, layout: Layout | undefined, out: PlacedHandle[]): void {
  const dy = stackDy(list.map((h) => h.mark), layout);
  list.sort((a, b) => a.x - b.x || a.index - b.index);
  // Clusters of handles within 3 px of each other.
  const clusters: RowItem[][] = [];
  for (const h of list) {
    const last = clusters[clusters.length - 1];
    if (last && h.x - last[0].x <= 3) last.push(h);
    else clusters.push([h]);
  }
  let labelEnd = -Infinity;
  for (const cluster of clusters) {
    const first = cluster[0];
    const groups = new Set(cluster.map((h) => h.mark.group ?? h.mark.label ?? ''));
    const text = cluster.length === 1 ? (first.mark.label ?? null) : groups.size === 1 ? `${[...groups][0]} ×${cluster.length}` : `${cluster.length} events`;
    const labelX = first.x - HANDLE_R + 1;
    const w = (text?.length ?? 0) * CHAR_W;
    // Near the right edge the label ends at the handle instead of starting there.
    const flip = labelX + w > plotRight + 12;
    const left = flip ? first.x + HANDLE_R - w : labelX;
    const show = text !== null && text !== '' && left >= labelEnd + 6;
    if (show) labelEnd = left + w;
    let labelDy = Infinity;
    for (const h of cluster) labelDy = Math.min(labelDy, dy.get(h.mark.id) ?? 0);
    cluster.forEach((h, i) => {
      const isTop = i === cluster.length - 1;
      out[h.index] = {
        mark: h.mark,
        x: h.x,
        dy: dy.get(h.mark.id) ?? 0,
        labelDy,
        label: show && isTop ? text : null,
        flip,
        // A handle of its own, or one in a stack (its own place to show its number).
        tieOrder: (cluster.length === 1 || dy.has(h.mark.id)) && h.mark.tieOrder ? h.mark.tieOrder : null,
      };
    });
  }
}

/**
 * Places handles row by row (`placeRow`: labels shown when there is room before the next
 * handle's label in the same row; handles within 3 px form a cluster labelled "<group> ×n" (or "n
 * events"); a label that would pass the plot's right edge ends at its handle instead). Handles at
 * the same millisecond in one row are stacked (`stackOffsets`), in tie order, so every one of them
 * can be grabbed. Returns one entry per handle, in the input order.
 */
export function placeHandles(handles: readonly HandleMark[], x: LinearScale, plotRight: number, layout?: Layout): PlacedHandle[] {
  const byRow = new Map<string, RowItem[]>();
  handles.forEach((mark, index) => {
    const k = rowKeyOf(mark);
    const list = byRow.get(k);
    const item = { mark, x: x(mark.at), index };
    if (list) list.push(item);
    else byRow.set(k, [item]);
  });
  const out: PlacedHandle[] = new Array(handles.length);
  for (const list of byRow.values()) placeRow(list, plotRight, layout, out);
  return out;
}

/**
 * `placeHandles`, remembering its last answer: a call with the same scale, plot edge and layout
 * whose handles differ from the last call's at a few places only (compared by identity, index by
 * index: a drag move changes the moved event's handle and its neighbours') places only the rows
 * those handles left or joined, and keeps the other rows' `PlacedHandle` objects (so the layers'
 * chunks compare them by identity). Anything else (another length, scale, plot edge or layout, or
 * more than a quarter of the handles changed) places all of them again. The answer is the same as
 * `placeHandles`' every time; the same array comes back when nothing changed.
 */
export function handlePlacer(): (handles: readonly HandleMark[], x: LinearScale, plotRight: number, layout?: Layout) => PlacedHandle[] {
  let last: { handles: readonly HandleMark[]; x: LinearScale; plotRight: number; layout: Layout | undefined; out: PlacedHandle[]; rows: Map<string, number[]>; keys: string[] } | null = null;
  const full = (handles: readonly HandleMark[], x: LinearScale, plotRight: number, layout: Layout | undefined) => {
    const keys = handles.map(rowKeyOf);
    const rows = new Map<string, number[]>();
    keys.forEach((k, i) => {
      const list = rows.get(k);
      if (list) list.push(i);
      else rows.set(k, [i]);
    });
    const out: PlacedHandle[] = new Array(handles.length);
    for (const list of rows.values()) placeRow(list.map((index) => ({ mark: handles[index], x: x(handles[index].at), index })), plotRight, layout, out);
    last = { handles, x, plotRight, layout, out, rows, keys };
    return out;
  };
  return (handles, x, plotRight, layout) => {
    const prev = last;
    if (prev === null || prev.x !== x || prev.plotRight !== plotRight || prev.layout !== layout || prev.handles.length !== handles.length) return full(handles, x, plotRight, layout);
    const changed: number[] = [];
    for (let i = 0; i < handles.length; i++) if (handles[i] !== prev.handles[i]) changed.push(i);
    if (changed.length === 0) {
      last = { ...prev, handles };
      return prev.out;
    }
    if (changed.length * 4 > handles.length) return full(handles, x, plotRight, layout);
    const dirty = new Set<string>();
    const keys = prev.keys.slice();
    const rows = new Map(prev.rows);
    for (const i of changed) {
      const was = keys[i];
      const now = rowKeyOf(handles[i]);
      dirty.add(was).add(now);
      if (was === now) continue;
      keys[i] = now;
      rows.set(was, (rows.get(was) ?? []).filter((j) => j !== i));
      const into = [...(rows.get(now) ?? []), i].sort((a, b) => a - b);
      rows.set(now, into);
    }
    const out = prev.out.slice();
    for (const k of dirty) {
      const list = rows.get(k) ?? [];
      if (list.length === 0) rows.delete(k);
      else placeRow(list.map((index) => ({ mark: handles[index], x: x(handles[index].at), index })), plotRight, layout, out);
    }
    last = { handles, x, plotRight, layout, out, rows, keys };
    return out;
  };
}

/**
 * Offsets of the handles of one row that share a millisecond with another and fit as a stack
 * (keyed by id; absent: not stacked), in tie order from the top, shifted to stay inside the row.
 */
function stackDy(row: readonly HandleMark[], layout: Layout | undefined): Map<string, number> {
  const byMs = new Map<number, HandleMark[]>();
  for (const m of row) {
    const list = byMs.get(m.at);
    if (list) list.push(m);
    else byMs.set(m.at, [m]);
  }
  const out = new Map<string, number>();
  for (const stack of byMs.values()) {
    if (stack.length < 2) continue;
    const box = layout ? rowBox(layout, stack[0].lane, stack[0].row) : { y: 0, h: 20 };
    const offsets = stackOffsets(stack.length, box.h);
    if (offsets === null) continue;
    const cy = rowCenterY(box);
    const top = cy + offsets[0] - HANDLE_R;
    const bottom = cy + offsets[offsets.length - 1] + HANDLE_R;
    const shift = top < box.y ? box.y - top : bottom > box.y + box.h ? box.y + box.h - bottom : 0;
    const ordered = stack.map((m, i) => ({ m, i })).sort((a, b) => (a.m.tieOrder ?? Infinity) - (b.m.tieOrder ?? Infinity) || a.i - b.i);
    ordered.forEach(({ m }, i) => out.set(m.id, offsets[i] + shift));
  }
  return out;
}
