import { memo } from 'react';
import { AXIS_H, GUTTER, rowCenterY, type Layout } from '../layout';
import type { LinearScale } from '../scale';

/** Width of one character of a row label (px): 11 px monospace (`.tl-row-label`) advances about 0.6 em. */
const ROW_LABEL_CHAR_PX = 6.7;
/** The room left of the plot for a row label (px): from the lane's left edge to the label's right end. */
const ROW_LABEL_ROOM_PX = GUTTER - 14;

/**
 * SVG attributes that fit a row label into the gutter: none when it fits as set, else a
 * `textLength` of the room with glyphs and spacing narrowed — so "result (tasks/get)" is drawn whole
 * instead of losing its first letter past the chart's left edge (walkthrough, resilience T2).
 */
export function rowLabelFit(label: string): { textLength?: number; lengthAdjust?: 'spacingAndGlyphs' } {
  return label.length * ROW_LABEL_CHAR_PX <= ROW_LABEL_ROOM_PX ? {} : { textLength: ROW_LABEL_ROOM_PX, lengthAdjust: 'spacingAndGlyphs' };
}

/** Lane backgrounds (the pan surface: `.tl-lane-bg`), lane names and row names (rows under 14 px have none). */
export const LanesLayer = memo(function LanesLayer({ layout, width }: { layout: Layout; width: number }) {
  return (
    <g className="tl-lanes">
      {layout.lanes.map((lane, i) => (
        <g key={lane.id} className={`tl-lane${i % 2 ? ' is-odd' : ''}`}>
          <rect className="tl-lane-bg" x={0} y={lane.y} width={width} height={lane.h} />
          <text className="tl-lane-label" x={10} y={lane.y + 14}>
            {lane.label}
          </text>
          {lane.rows.map((row) =>
            row.label && row.h >= 14 ? (
              <text key={row.id} className="tl-row-label" x={GUTTER - 10} y={rowCenterY(row) + 4} textAnchor="end" {...rowLabelFit(row.label)}>
                {row.label}
              </text>
            ) : null,
          )}
        </g>
      ))}
    </g>
  );
});

/** Vertical grid lines at the axis `ticks` (ms), from the axis down to `bottom` (px). */
export function GridLayer({ ticks, x, bottom }: { ticks: readonly number[]; x: LinearScale; bottom: number }) {
  return (
    <g className="tl-grid" aria-hidden="true">
      {ticks.map((t) => (
        <line key={t} x1={x(t)} x2={x(t)} y1={AXIS_H} y2={bottom} />
      ))}
    </g>
  );
}
