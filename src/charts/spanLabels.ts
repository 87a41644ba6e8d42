import { CHAR_W, HANDLE_R, rowBox, rowCenterY, type Layout } from './layout';
import type { LinearScale } from './scale';
import type { ArrowMark, SpanMark } from './timelineTypes';
import { fitLabel, type PlacedHandle } from './labels';

/**
 * Where a span's end label goes (pure functions of marks, scale and layout; px): after the bar's
 * end, shortened on narrow screens, moved clear of arrows and handle labels (`labels.ts` places the
 * other text of the timeline).
 */

/** A span's end label: the text shown (null: none), its side of the bar's end, and the whole label when shortened. */
export interface SpanLabel {
  text: string | null;
  anchor: 'start' | 'end';
  full?: string;
  /** Shift (px) from the usual place (6 px past the bar's end), to clear an arrow or a label (absent: none). */
  dx?: number;
  /** Drawn on the row's centre line beside the bar's end instead of at the row's bottom (absent: at the bottom). */
  atCentre?: true;
}

/**
 * What span end labels must keep clear of in one row: x extents [left, right] (px) of the marks
 * crossing the row's bottom strip (where the label goes: arrows passing through, the next row's
 * handle labels) and its centre line (the fallback place: handle glyphs, arrows).
 */
export interface SpanLabelObstacles {
  bottom: [number, number][];
  centre: [number, number][];
}

/** The 11 px text strip (px, top and bottom) of a label whose baseline is `baseline`. */
const textStrip = (baseline: number): [number, number] => [baseline - 9, baseline + 2];

/**
 * Obstacles (`SpanLabelObstacles`) per row key `lane/row`, for the rows of `spans` that have an end
 * label: arrows (as drawn, centre to centre) and placed handles with their labels. Walkthrough
 * (races I6, ledger C at 390 px): an arrow hid a label's first letter; the next row's handle labels
 * sat on "executed charge-002".
 */
export function spanLabelObstacles(spans: readonly SpanMark[], arrows: readonly ArrowMark[], handles: readonly PlacedHandle[], x: LinearScale, layout: Layout): Map<string, SpanLabelObstacles> {
  const out = new Map<string, SpanLabelObstacles>();
  const strips: { key: string; bottom: [number, number]; centre: [number, number] }[] = [];
  for (const m of spans) {
    const key = `${m.lane}/${m.row}`;
    if (!m.endLabel || out.has(key)) continue;
    const b = rowBox(layout, m.lane, m.row);
    out.set(key, { bottom: [], centre: [] });
    strips.push({ key, bottom: textStrip(b.y + b.h - 3), centre: textStrip(rowCenterY(b) + 4) });
  }
  if (strips.length === 0) return out;
  const overlaps = (a: [number, number], top: number, bottom: number) => bottom > a[0] && top < a[1];
  const add = (top: number, bottom: number, left: number, right: number) => {
    for (const s of strips) {
      const o = out.get(s.key) as SpanLabelObstacles;
      if (overlaps(s.bottom, top, bottom)) o.bottom.push([left, right]);
      if (overlaps(s.centre, top, bottom)) o.centre.push([left, right]);
    }
  };
  for (const a of arrows) {
    if (!a.to) continue;
    const x1 = x(a.from.at);
    const x2 = x(a.to.at);
    const y1 = rowCenterY(rowBox(layout, a.from.lane, a.from.row));
    const y2 = rowCenterY(rowBox(layout, a.to.lane, a.to.row));
    if (y1 === y2) continue; // along a row: not across a label strip
    for (const s of strips) {
      for (const [strip, list] of [[s.bottom, 'bottom'], [s.centre, 'centre']] as const) {
        const lo = Math.max(Math.min(y1, y2), strip[0]);
        const hi = Math.min(Math.max(y1, y2), strip[1]);
        if (hi <= lo) continue;
        const at = (y: number) => x1 + ((x2 - x1) * (y - y1)) / (y2 - y1);
        (out.get(s.key) as SpanLabelObstacles)[list].push([Math.min(at(lo), at(hi)) - 1, Math.max(at(lo), at(hi)) + 1]);
      }
    }
  }
  for (const h of handles) {
    const cy = rowCenterY(rowBox(layout, h.mark.lane, h.mark.row));
    // The glyph (a diamond or a dot): its middle half across its height (its tips are thinner than a letter's gap).
    add(cy + h.dy - HANDLE_R, cy + h.dy + HANDLE_R, h.x - HANDLE_R / 2, h.x + HANDLE_R / 2);
    if (h.label === null) continue;
    const w = h.label.length * CHAR_W;
    const left = h.flip ? h.x + HANDLE_R - w : h.x - HANDLE_R + 1;
    const [top, bottom] = textStrip(cy + h.labelDy - HANDLE_R - 4);
    add(top, bottom, left, left + w);
  }
  return out;
}

/** Whether [l, r] (px) keeps 2 px clear of every obstacle extent. */
const clearOf = (obstacles: readonly [number, number][], l: number, r: number) => obstacles.every(([ol, or]) => r + 2 <= ol || l >= or + 2);

/**
 * The end label of span `m` ending at `x2` in a row of height `rowH` (labels need 26 px): after the
 * bar's end when it fits before the plot's right edge, else before it; with room on neither side (a
 * narrow screen) it is shortened on the roomier side (`fitLabel`), the whole label kept as tooltip.
 * With `obstacles` (`spanLabelObstacles`), a label that would sit under an arrow or on another
 * label moves a little right past it (at most 3 characters), else to the row's centre line just
 * after the bar's end when that is clear, else stays as placed.
 */
export function placeSpanLabel(m: SpanMark, x2: number, rowH: number, plotLeft: number, plotRight: number, obstacles?: SpanLabelObstacles): SpanLabel {
  const room = plotRight - x2;
  const endLabel = m.endLabel && rowH >= 26 ? m.endLabel : null;
  const labelW = (endLabel?.length ?? 0) * CHAR_W;
  const fitsRight = room > labelW + 10;
  const roomLeft = x2 - 6 - plotLeft - 2;
  const squeezed = endLabel !== null && !fitsRight && roomLeft < labelW;
  const anchor = fitsRight || (squeezed && room - 10 > roomLeft) ? 'start' : 'end';
  const shown = squeezed ? fitLabel(endLabel, anchor === 'start' ? room - 10 : roomLeft) : endLabel;
  const placed: SpanLabel = { text: shown || null, anchor, full: shown !== endLabel && endLabel !== null ? endLabel : undefined };
  if (!obstacles || placed.text === null || endLabel === null) return placed;
  const w = placed.text.length * CHAR_W;
  const left = anchor === 'start' ? x2 + 6 : x2 - 6 - w;
  if (clearOf(obstacles.bottom, left, left + w)) return placed;
  // A little to the right, past what covers it (an arrow through its first letters).
  const limit = plotRight + 12;
  for (const [, or] of obstacles.bottom.filter(([ol, or]) => or + 2 > left && ol < left + w).sort((a, b) => a[1] - b[1])) {
    const l = or + 3;
    if (l - left > 3 * CHAR_W || l + w > limit) break;
    if (clearOf(obstacles.bottom, l, l + w)) return { ...placed, dx: l - left };
  }
  // Beside the bar's end on the row's centre line, the whole label when it fits.
  const centreLeft = x2 + HANDLE_R + 3;
  const centreW = endLabel.length * CHAR_W;
  if (centreLeft + centreW <= limit && clearOf(obstacles.centre, centreLeft, centreLeft + centreW)) return { text: endLabel, anchor: 'start', dx: centreLeft - (x2 + 6), atCentre: true };
  return placed;
}
