import { AXIS_H, CHAR_W, HANDLE_R, rowBox, rowCenterY, type Layout } from './layout';
import type { LinearScale } from './scale';
import type { ArrowMark, HandleMark, MarkerMark, StepsMark, Tone } from './timelineTypes';

/**
 * Where the timeline's text goes (pure functions of marks, scale and layout; px): handle labels and
 * same-millisecond stacks, arrow labels, marker labels (flipped off a handle's label, merged at the
 * plot's edges) and step-series labels; span end labels are in `spanLabels.ts` (re-exported here).
 */

export { placeSpanLabel, spanLabelObstacles, type SpanLabel, type SpanLabelObstacles } from './spanLabels';

/**
 * `text` shortened to at most `maxW` px (at CHAR_W per character): middle words give way to "…"
 * first, keeping the first and last words; failing that, the end is cut. '' when nothing fits.
 */
export function fitLabel(text: string, maxW: number): string {
  const maxChars = Math.floor(maxW / CHAR_W);
  if (text.length <= maxChars) return text;
  const words = text.split(' ');
  for (let drop = 1; drop <= words.length - 2; drop++) {
    const head = Math.ceil((words.length - drop) / 2);
    const t = [...words.slice(0, head), '…', ...words.slice(head + drop)].join(' ');
    if (t.length <= maxChars) return t;
  }
  return maxChars >= 4 ? `${text.slice(0, maxChars - 1)}…` : '';
}

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

/**
 * Places handles row by row: labels are shown when there is room before the next handle's label in
 * the same row; handles within 3 px form a cluster labelled "<group> ×n" (or "n events"); a label
 * that would pass the plot's right edge ends at its handle instead. Handles at the same millisecond
 * in one row are stacked (`stackOffsets`), in tie order, so every one of them can be grabbed.
 * Returns one entry per handle, in the input order.
 */
export function placeHandles(handles: readonly HandleMark[], x: LinearScale, plotRight: number, layout?: Layout): PlacedHandle[] {
  const byRow = new Map<string, { mark: HandleMark; x: number }[]>();
  for (const mark of handles) {
    const k = `${mark.lane}/${mark.row}`;
    const list = byRow.get(k) ?? [];
    list.push({ mark, x: x(mark.at) });
    byRow.set(k, list);
  }
  const placed = new Map<string, PlacedHandle>();
  for (const list of byRow.values()) {
    const dy = stackDy(list.map((h) => h.mark), layout);
    list.sort((a, b) => a.x - b.x);
    // Clusters of handles within 3 px of each other.
    const clusters: { mark: HandleMark; x: number }[][] = [];
    for (const h of list) {
      const last = clusters[clusters.length - 1];
      if (last && h.x - last[0].x <= 3) last.push(h);
      else clusters.push([h]);
    }
    let labelEnd = -Infinity;
    clusters.forEach((cluster) => {
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
      const labelDy = Math.min(...cluster.map((h) => dy.get(h.mark.id) ?? 0));
      cluster.forEach((h, i) => {
        const isTop = i === cluster.length - 1;
        const own = dy.get(h.mark.id) ?? 0;
        placed.set(h.mark.id, {
          mark: h.mark,
          x: h.x,
          dy: own,
          labelDy,
          label: show && isTop ? text : null,
          flip,
          // A handle of its own, or one in a stack (its own place to show its number).
          tieOrder: (cluster.length === 1 || dy.has(h.mark.id)) && h.mark.tieOrder ? h.mark.tieOrder : null,
        });
      });
    });
  }
  return handles.map((m) => placed.get(m.id) as PlacedHandle);
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

/** An arrow's label placed in its label lane: centre x, baseline y (px). */
export interface ArrowLabel {
  key: string;
  x: number;
  y: number;
  text: string;
  tone: Tone;
  future: boolean;
}

/**
 * Arrow labels in their `labelLane`'s rows, greedily left to right: identical labels at (almost) the
 * same place merge into "label ×n"; each label goes into the first row where it clears the previous
 * one, at the x where the arrow crosses that row's middle; arrows not in view there are skipped.
 */
export function placeArrowLabels(arrows: readonly ArrowMark[], x: LinearScale, layout: Layout, plotLeft: number, plotRight: number): ArrowLabel[] {
  // Group identical labels at (almost) the same place: "notifications/cancelled ×50".
  const groups = new Map<string, { arrow: ArrowMark; count: number; cx: number }>();
  for (const a of arrows) {
    if (!a.label || !a.labelLane) continue;
    const toAt = a.to ? a.to.at : a.from.at;
    const cx = (x(a.from.at) + x(toAt)) / 2;
    const k = `${a.labelLane}/${a.label}/${Math.round(cx / 4)}`;
    const g = groups.get(k);
    if (g) g.count++;
    else groups.set(k, { arrow: a, count: 1, cx });
  }
  const out: ArrowLabel[] = [];
  const items = [...groups.values()].sort((a, b) => a.cx - b.cx);
  const rowEnds = new Map<string, number[]>();
  for (const g of items) {
    const lane = g.arrow.labelLane as string;
    const boxes = layout.laneRows.get(lane);
    if (!boxes || boxes.length === 0) continue;
    const text = g.count > 1 ? `${g.arrow.label} ×${g.count}` : (g.arrow.label as string);
    const w = Math.ceil(text.length * 6.5) + 10; // 11px monospace is ~6.3 px a character
    const ends = rowEnds.get(lane) ?? boxes.map(() => -Infinity);
    rowEnds.set(lane, ends);
    for (let r = 0; r < boxes.length; r++) {
      const yMid = boxes[r].y + boxes[r].h / 2;
      // x where the arrow crosses this row's middle.
      const a = g.arrow;
      let cx = g.cx;
      if (a.to) {
        const fy = rowCenterY(rowBox(layout, a.from.lane, a.from.row));
        const ty = rowCenterY(rowBox(layout, a.to.lane, a.to.row));
        const t = ty === fy ? 0.5 : (yMid - fy) / (ty - fy);
        cx = x(a.from.at) + (x(a.to.at) - x(a.from.at)) * Math.min(Math.max(t, 0), 1);
      }
      if (cx < plotLeft - 2 || cx > plotRight + 2) continue; // arrow not in view here
      cx = Math.min(Math.max(cx, plotLeft + w / 2), plotRight - w / 2);
      if (cx - w / 2 >= ends[r]) {
        ends[r] = cx + w / 2;
        out.push({ key: `${a.id}`, x: cx, y: yMid + 4, text, tone: a.tone, future: !!a.future });
        break;
      }
    }
  }
  return out;
}

/** A marker ready to draw (px); `offscale` is the edge an off-screen marker is drawn at. */
export interface PlacedMarker {
  key: string;
  x: number;
  y: number;
  h: number;
  tone: Tone;
  dashed: boolean;
  future: boolean;
  label: string | null;
  anchor: 'start' | 'end';
  labelAt: 'top' | 'bottom';
  offscale: 'left' | 'right' | null;
  title?: string;
}

/**
 * Markers in view at their time; a `labelUntil` label is the full label, its `shortLabel` or none,
 * whichever fits; a top label that would cover a handle's label in its row goes to the other side
 * of the line when that side is clear. Off-scale markers of one row and edge merge into one label
 * ("a · b →"), drawn as a chevron at the plot's edge.
 */
export function placeMarkers(markers: readonly MarkerMark[], x: LinearScale, layout: Layout, plotLeft: number, plotRight: number, handles: readonly PlacedHandle[]): PlacedMarker[] {
  const [vis0, vis1] = x.domain();
  const out: PlacedMarker[] = [];
  const edge = new Map<string, { key: string; labels: string[]; m: MarkerMark; side: 'left' | 'right' }>();
  const boxOf = (m: MarkerMark) => layout.rows.get(`${m.lane}/${m.row}`) ?? { y: AXIS_H, h: 20 };
  for (const m of markers) {
    const b = boxOf(m);
    const side = m.at > vis1 ? 'right' : m.at < vis0 ? 'left' : null;
    if (side !== null) {
      const k = `${m.lane}/${m.row}/${side}`;
      const e = edge.get(k);
      if (e) e.labels.push(m.label ?? '');
      else edge.set(k, { key: m.id, labels: [m.label ?? ''], m, side });
      continue;
    }
    const mx = x(m.at);
    let anchor = m.anchor ?? 'start';
    const labelAt = m.labelAt ?? 'top';
    const base = { key: m.id, x: mx, y: b.y, h: b.h, tone: m.tone, dashed: !!m.dashed, future: !!m.future, labelAt, offscale: null, title: m.title } as const;
    if (m.labelUntil !== undefined) {
      // A label bounded by the next segment: the full label, the abbreviation, or none, never overlapping.
      const room = Math.min(x(m.labelUntil), plotRight + 12) - mx - 4 - 3;
      const label = [m.label, m.shortLabel].find((l) => l !== undefined && l.length * CHAR_W <= room) ?? null;
      out.push({ ...base, label, anchor: 'start' });
      continue;
    }
    if (m.label && labelAt === 'top') anchor = clearSide(m, mx, anchor, handles, plotLeft, plotRight);
    let inPlot = m.label ? fitInPlot(m.label, mx, anchor, plotLeft, plotRight) : { label: null, anchor };
    if (m.label && inPlot.label !== null) {
      // Clear of the marker labels already placed at its height (e.g. idle beside max): the other side, else none.
      const taken = rowLabelExtents(out, [], layout, labelAt, b);
      const clear = (p: { label: string | null; anchor: 'start' | 'end' }) => {
        const [l, r] = labelExtent(mx, p.anchor, p.label ?? '');
        return taken.every(([tl, tr]) => r + 3 <= tl || l >= tr + 3);
      };
      if (!clear(inPlot)) {
        const other = fitInPlot(m.label, mx, inPlot.anchor === 'start' ? 'end' : 'start', plotLeft, plotRight);
        inPlot = other.label !== null && clear(other) ? other : { label: null, anchor: inPlot.anchor };
      }
    }
    out.push({ ...base, ...inPlot, title: inPlot.label !== m.label && m.label ? `${m.label}${m.title ? ` — ${m.title}` : ''}` : m.title });
  }
  for (const e of edge.values()) {
    const b = boxOf(e.m);
    const text = e.labels.filter(Boolean).join(' · ');
    const labelAt = e.m.labelAt ?? 'top';
    // The merged label runs from the edge inwards until the first label drawn at its height in the row (or the plot's other edge).
    const taken = rowLabelExtents(out, handles, layout, labelAt, b);
    const room =
      e.side === 'right'
        ? plotRight - 4 - Math.max(plotLeft, ...taken.filter(([, r]) => r <= plotRight - 4).map(([, r]) => r + 3))
        : Math.min(plotRight + 12, ...taken.filter(([l]) => l >= plotLeft + 4).map(([l]) => l - 3)) - plotLeft - 4;
    const arrowed = (t: string) => (e.side === 'right' ? `${t} →` : `← ${t}`);
    const shown = text ? (arrowed(text).length * CHAR_W <= room ? text : fitLabel(text, room - 2 * CHAR_W)) : '';
    out.push({
      key: `edge-${e.key}`,
      x: e.side === 'right' ? plotRight : plotLeft,
      y: b.y,
      h: b.h,
      tone: e.m.tone,
      dashed: false,
      future: false,
      label: shown ? arrowed(shown) : null,
      anchor: e.side === 'right' ? 'end' : 'start',
      labelAt,
      offscale: e.side,
      title: `${text} (outside the visible range)`,
    });
  }
  return out;
}

/**
 * A marker label kept inside the plot: on `anchor`'s side of the line when it fits between the
 * plot's edges, else on the other side when it fits there, else shortened (`fitLabel`) on the
 * roomier side (null when nothing fits; the caller keeps the whole label in the tooltip).
 */
function fitInPlot(label: string, mx: number, anchor: 'start' | 'end', plotLeft: number, plotRight: number): { label: string | null; anchor: 'start' | 'end' } {
  const w = label.length * CHAR_W;
  const room = (a: 'start' | 'end') => (a === 'start' ? plotRight + 12 - (mx + 4) : mx - 4 - plotLeft);
  if (room(anchor) >= w) return { label, anchor };
  const other = anchor === 'start' ? 'end' : 'start';
  if (room(other) >= w) return { label, anchor: other };
  const side = room(other) > room(anchor) ? other : anchor;
  return { label: fitLabel(label, room(side)) || null, anchor: side };
}

/** Extent [left, right] (px) of a marker label at line `mx` on `anchor`'s side. */
const labelExtent = (mx: number, anchor: 'start' | 'end', label: string): [number, number] => {
  const w = label.length * CHAR_W;
  return anchor === 'start' ? [mx + 4, mx + 4 + w] : [mx - 4 - w, mx - 4];
};

/** Baseline (px) of a marker label at the top or bottom of its row box. */
const markerBaseline = (b: { y: number; h: number }, labelAt: 'top' | 'bottom') => (labelAt === 'top' ? b.y + 9 : b.y + b.h - 3);

/**
 * Horizontal extents [left, right] (px) of the labels already placed at the height of a marker
 * label at the top or bottom (`labelAt`) of row box `b`: handle labels and in-view marker labels whose 11 px text boxes
 * overlap it vertically.
 */
function rowLabelExtents(placed: readonly PlacedMarker[], handles: readonly PlacedHandle[], layout: Layout, labelAt: 'top' | 'bottom', b: { y: number; h: number }): [number, number][] {
  const base = markerBaseline(b, labelAt);
  const near = (baseline: number) => Math.abs(baseline - base) < 11;
  const out: [number, number][] = [];
  for (const h of handles) {
    if (h.label === null) continue;
    const cy = rowCenterY(rowBox(layout, h.mark.lane, h.mark.row));
    if (!near(cy + h.labelDy - HANDLE_R - 4)) continue;
    const hw = h.label.length * CHAR_W;
    const left = h.flip ? h.x + HANDLE_R - hw : h.x - HANDLE_R + 1;
    out.push([left, left + hw]);
  }
  for (const p of placed) {
    if (p.label === null || p.offscale !== null || !near(markerBaseline(p, p.labelAt))) continue;
    out.push(labelExtent(p.x, p.anchor, p.label));
  }
  return out;
}

/** `anchor`, or the other side of the line when `anchor` would cover a handle label of the row and the other side is clear. */
function clearSide(m: MarkerMark, mx: number, anchor: 'start' | 'end', handles: readonly PlacedHandle[], plotLeft: number, plotRight: number): 'start' | 'end' {
  const w = (m.label as string).length * CHAR_W;
  const extent = (a: 'start' | 'end') => (a === 'start' ? [mx + 4, mx + 4 + w] : [mx - 4 - w, mx - 4]);
  const taken = handles
    .filter((h) => h.label !== null && h.mark.lane === m.lane && h.mark.row === m.row)
    .map((h) => {
      const hw = (h.label as string).length * CHAR_W;
      const left = h.flip ? h.x + HANDLE_R - hw : h.x - HANDLE_R + 1;
      return [left, left + hw];
    });
  const clear = (a: 'start' | 'end') => {
    const [l, r] = extent(a);
    return l >= plotLeft && r <= plotRight + 12 && taken.every(([tl, tr]) => r + 3 <= tl || l >= tr + 3);
  };
  const other = anchor === 'start' ? 'end' : 'start';
  return !clear(anchor) && clear(other) ? other : anchor;
}

/**
 * x (px) of a step series' label: just after the `until` line, but with room for the whole label
 * before the plot's right edge (at least 120 px; bold 11 px type is wider than CHAR_W), never left of the plot.
 */
export function stepsLabelX(m: StepsMark, x: LinearScale, plotLeft: number): number {
  const label = m.label ?? '';
  return Math.max(plotLeft + 4, Math.min(x(m.until) + 6, x(x.domain()[1]) - Math.max(120, Math.ceil(label.length * (CHAR_W + 0.6)) + 6)));
}
