import { AXIS_H, CHAR_W, HANDLE_R, rowBox, rowCenterY, type Layout } from './layout';
import type { LinearScale } from './scale';
import type { ArrowMark, MarkerMark, StepsMark, Tone } from './timelineTypes';

/**
 * Where the timeline's text goes (pure functions of marks, scale and layout; px): handle labels and
 * same-millisecond stacks, arrow labels, marker labels (flipped off a handle's label, merged at the
 * plot's edges) and step-series labels; span end labels are in `spanLabels.ts` (re-exported here).
 */

export { placeSpanLabel, spanLabelObstacles, type SpanLabel, type SpanLabelObstacles } from './spanLabels';
export { handlePlacer, placeHandles, STACK_MIN_GAP, stackOffsets, type PlacedHandle } from './handlePlacement';
import type { PlacedHandle } from './handlePlacement';

/** A label's words, a number with its thousands groups and unit ("2 430 ms", `formatMs` style) counting as one. */
const WORDS = /(?:-?\d{1,3}(?: \d{3})+|-?\d+)(?:\.\d+)?(?: (?:ms|s|%))?(?= |$)|\S+/g;

/**
 * `text` shortened to at most `maxW` px (at CHAR_W per character): middle words give way to "…"
 * first, keeping the first and last words (a number with its unit is one word: "cancelled · 2 430 ms"
 * never becomes "cancelled … ms"); a label ending in a number then keeps it after its first word,
 * whole or cut ("cancelled 2 430 ms", "cancel… 2 430 ms"); failing that, the end is cut. '' when nothing fits.
 */
export function fitLabel(text: string, maxW: number): string {
  const maxChars = Math.floor(maxW / CHAR_W);
  if (text.length <= maxChars) return text;
  const words = text.match(WORDS) ?? [];
  for (let drop = 1; drop <= words.length - 2; drop++) {
    const head = Math.ceil((words.length - drop) / 2);
    const t = [...words.slice(0, head), '…', ...words.slice(head + drop)].join(' ');
    if (t.length <= maxChars) return t;
  }
  // A label ending in a number keeps the number: the first word and the number, else the first word cut.
  const first = words[0] ?? '';
  const last = words[words.length - 1] ?? '';
  if (words.length >= 2 && /^-?\d/.test(last)) {
    if (first.length + 1 + last.length <= maxChars) return `${first} ${last}`;
    const head = maxChars - last.length - 2;
    if (head >= 3) return `${first.slice(0, head)}… ${last}`;
  }
  return maxChars >= 4 ? `${text.slice(0, maxChars - 1)}…` : '';
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

/** What an arrow's label placement reads of its arrow, for one scale and layout: its group key, its middle x and where it crosses each label row (px, filled on demand). */
interface ArrowLabelGeometry {
  key: string;
  cx: number;
  cross: number[];
}

/** `ArrowLabelGeometry` of arrow `a` (null: no label to place). */
function arrowLabelGeometry(a: ArrowMark, x: LinearScale): ArrowLabelGeometry | null {
  if (!a.label || !a.labelLane) return null;
  const toAt = a.to ? a.to.at : a.from.at;
  const cx = (x(a.from.at) + x(toAt)) / 2;
  return { key: `${a.labelLane}/${a.label}/${Math.round(cx / 4)}`, cx, cross: [] };
}

/** x (px) where arrow `a` crosses the middle of label row `r` (box `box`); its middle x when it has no target. */
function crossX(a: ArrowMark, g: ArrowLabelGeometry, r: number, box: { y: number; h: number }, x: LinearScale, layout: Layout): number {
  const known = g.cross[r];
  if (known !== undefined) return known;
  let cx = g.cx;
  if (a.to) {
    const yMid = box.y + box.h / 2;
    const fy = rowCenterY(rowBox(layout, a.from.lane, a.from.row));
    const ty = rowCenterY(rowBox(layout, a.to.lane, a.to.row));
    const t = ty === fy ? 0.5 : (yMid - fy) / (ty - fy);
    cx = x(a.from.at) + (x(a.to.at) - x(a.from.at)) * Math.min(Math.max(t, 0), 1);
  }
  g.cross[r] = cx;
  return cx;
}

/**
 * Arrow labels in their `labelLane`'s rows, greedily left to right: identical labels at (almost) the
 * same place merge into "label ×n"; each label goes into the first row where it clears the previous
 * one, at the x where the arrow crosses that row's middle; arrows not in view there are skipped.
 * `geometryOf` (default: computed afresh) gives the `ArrowLabelGeometry` for `x` and `layout` of
 * each arrow (and its index in `arrows`).
 */
export function placeArrowLabels(arrows: readonly ArrowMark[], x: LinearScale, layout: Layout, plotLeft: number, plotRight: number, geometryOf: (a: ArrowMark, i: number) => ArrowLabelGeometry | null = (a) => arrowLabelGeometry(a, x)): ArrowLabel[] {
  // Group identical labels at (almost) the same place: "notifications/cancelled ×50".
  const groups = new Map<string, { arrow: ArrowMark; geometry: ArrowLabelGeometry; count: number }>();
  for (let i = 0; i < arrows.length; i++) {
    const a = arrows[i];
    const geometry = geometryOf(a, i);
    if (geometry === null) continue;
    const g = groups.get(geometry.key);
    if (g) g.count++;
    else groups.set(geometry.key, { arrow: a, geometry, count: 1 });
  }
  const out: ArrowLabel[] = [];
  const items = [...groups.values()].sort((a, b) => a.geometry.cx - b.geometry.cx);
  const rowEnds = new Map<string, number[]>();
  for (const g of items) {
    const a = g.arrow;
    const lane = a.labelLane as string;
    const boxes = layout.laneRows.get(lane);
    if (!boxes || boxes.length === 0) continue;
    const text = g.count > 1 ? `${a.label} ×${g.count}` : (a.label as string);
    const w = Math.ceil(text.length * 6.5) + 10; // 11px monospace is ~6.3 px a character
    const ends = rowEnds.get(lane) ?? boxes.map(() => -Infinity);
    rowEnds.set(lane, ends);
    for (let r = 0; r < boxes.length; r++) {
      // x where the arrow crosses this row's middle.
      let cx = crossX(a, g.geometry, r, boxes[r], x, layout);
      if (cx < plotLeft - 2 || cx > plotRight + 2) continue; // arrow not in view here
      cx = Math.min(Math.max(cx, plotLeft + w / 2), plotRight - w / 2);
      if (cx - w / 2 >= ends[r]) {
        ends[r] = cx + w / 2;
        out.push({ key: `${a.id}`, x: cx, y: boxes[r].y + boxes[r].h / 2 + 4, text, tone: a.tone, future: !!a.future });
        break;
      }
    }
  }
  return out;
}

/**
 * `placeArrowLabels`, remembering what it computed: each arrow's geometry is kept (by arrow
 * object) while the scale and layout stay the same — an arrow that is the same object at the same
 * index as in the last call takes it from there without a lookup (a drag move keeps most of
 * thousands of arrows) — and the last answer comes back as it was when the arrows are the same
 * objects in the same order. The same answer as `placeArrowLabels` every time.
 */
export function arrowLabelPlacer(): (arrows: readonly ArrowMark[], x: LinearScale, layout: Layout, plotLeft: number, plotRight: number) => ArrowLabel[] {
  let geometry: { x: LinearScale; layout: Layout; of: WeakMap<ArrowMark, ArrowLabelGeometry | null> } | null = null;
  let last: { arrows: readonly ArrowMark[]; geometries: (ArrowLabelGeometry | null)[]; x: LinearScale; layout: Layout; plotLeft: number; plotRight: number; out: ArrowLabel[] } | null = null;
  const same = (a: readonly ArrowMark[], b: readonly ArrowMark[]) => a.length === b.length && a.every((m, i) => m === b[i]);
  return (arrows, x, layout, plotLeft, plotRight) => {
    if (last !== null && last.x === x && last.layout === layout && last.plotLeft === plotLeft && last.plotRight === plotRight && same(last.arrows, arrows)) return last.out;
    const kept = geometry !== null && geometry.x === x && geometry.layout === layout && last !== null ? last : null;
    if (kept === null) geometry = { x, layout, of: new WeakMap() };
    const of = geometry!.of;
    const geometries: (ArrowLabelGeometry | null)[] = new Array(arrows.length);
    const out = placeArrowLabels(arrows, x, layout, plotLeft, plotRight, (a, i) => {
      let g: ArrowLabelGeometry | null | undefined = kept !== null && i < kept.arrows.length && kept.arrows[i] === a ? kept.geometries[i] : of.get(a);
      if (g === undefined) of.set(a, (g = arrowLabelGeometry(a, x)));
      geometries[i] = g;
      return g;
    });
    last = { arrows, geometries, x, layout, plotLeft, plotRight, out };
    return out;
  };
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
