import { memo } from 'react';
import type { ArrowLabel } from '../labels';
import { inView, rowBox, rowCenterY, type Layout } from '../layout';
import type { LinearScale } from '../scale';
import type { ArrowMark, Tone } from '../timelineTypes';
import { Chunked } from './Chunked';
import { toneClass } from './tone';

/** An arrow's ends and in-flight dot (px); `lost`: it never arrives (ends in a cross). */
export interface ArrowGeometry {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  lost: boolean;
  dotX: number | null;
  dotY: number | null;
}

/**
 * Where arrow `m` is drawn, or null when neither end is in view and it does not cross the view.
 * An arrow that never arrives stops 10 px on, in the middle of its label lane.
 */
export function arrowGeometry(m: ArrowMark, x: LinearScale, layout: Layout): ArrowGeometry | null {
  const [v0, v1] = x.domain();
  if (!inView(m.from.at, v0, v1) && !(m.to && inView(m.to.at, v0, v1)) && !(m.to && m.from.at < v0 && m.to.at > v1)) return null;
  const x1 = x(m.from.at);
  const y1 = rowCenterY(rowBox(layout, m.from.lane, m.from.row));
  let x2: number;
  let y2: number;
  if (m.to) {
    x2 = x(m.to.at);
    y2 = rowCenterY(rowBox(layout, m.to.lane, m.to.row));
  } else {
    const boxes = layout.laneRows.get(m.labelLane ?? '') ?? [];
    const mid = boxes.length ? boxes[0].y + (boxes[boxes.length - 1].y + boxes[boxes.length - 1].h - boxes[0].y) / 2 : y1 + 20;
    x2 = x1 + 10;
    y2 = mid;
  }
  let dotX: number | null = null;
  let dotY: number | null = null;
  if (m.dotAt != null && m.to && m.to.at > m.from.at) {
    const t = (m.dotAt - m.from.at) / (m.to.at - m.from.at);
    if (t > 0 && t < 1) {
      dotX = x1 + (x2 - x1) * t;
      dotY = y1 + (y2 - y1) * t;
    }
  }
  return { x1, y1, x2, y2, lost: !m.to, dotX, dotY };
}

interface ArrowViewProps extends ArrowGeometry {
  tone: Tone;
  dashed: boolean;
  future: boolean;
  title?: string;
  markerId: string;
}

const ArrowView = memo(function ArrowView(p: ArrowViewProps) {
  // Shorten the line so the head does not overlap the target glyph.
  const dx = p.x2 - p.x1;
  const dy = p.y2 - p.y1;
  const len = Math.hypot(dx, dy) || 1;
  const cut = p.lost ? 0 : Math.min(7, len / 3);
  const ex = p.x2 - (dx / len) * cut;
  const ey = p.y2 - (dy / len) * cut;
  return (
    <g className={`tl-arrow ${toneClass(p.tone)}${p.future ? ' is-future' : ''}${p.dashed ? ' is-dashed' : ''}`}>
      {p.title && <title>{p.title}</title>}
      <line className="tl-arrow-hit" x1={p.x1} y1={p.y1} x2={ex} y2={ey} />
      <line className="tl-arrow-line" x1={p.x1} y1={p.y1} x2={ex} y2={ey} markerEnd={p.lost ? undefined : `url(#${p.markerId})`} />
      {p.lost && <path className="tl-arrow-lost" d={`M${p.x2 - 5},${p.y2 - 5}L${p.x2 + 5},${p.y2 + 5}M${p.x2 - 5},${p.y2 + 5}L${p.x2 + 5},${p.y2 - 5}`} />}
      {p.dotX !== null && p.dotY !== null && <circle className="tl-arrow-dot" cx={p.dotX} cy={p.dotY} r={4} />}
    </g>
  );
});

/** Arrows (messages between lanes) that touch the view; arrowheads are the per-tone markers in the chart's defs. */
export function ArrowLayer({ arrows, x, layout, uid }: { arrows: readonly ArrowMark[]; x: LinearScale; layout: Layout; uid: string }) {
  return (
    <g className="tl-arrows">
      <Chunked
        items={arrows}
        deps={[x, layout, uid]}
        render={(m) => {
          const g = arrowGeometry(m, x, layout);
          return g === null ? null : <ArrowView key={m.id} {...g} tone={m.tone} dashed={!!m.dashed} future={!!m.future} title={m.title} markerId={`${uid}-head-${m.tone}`} />;
        }}
      />
    </g>
  );
}

/** Arrow labels placed by `placeArrowLabels` (decorative: the arrows' titles carry the text for assistive technology). */
export function ArrowLabelLayer({ labels }: { labels: readonly ArrowLabel[] }) {
  return (
    <g className="tl-arrow-labels" aria-hidden="true">
      <Chunked
        items={labels}
        deps={[]}
        render={(l) => (
          <text key={l.key} className={`tl-arrow-label ${toneClass(l.tone)}${l.future ? ' is-future' : ''}`} x={l.x} y={l.y} textAnchor="middle">
            {l.text}
          </text>
        )}
      />
    </g>
  );
}
