import type { ArrowLabel } from '../labels';
import { inView, rowBox, rowCenterY, type Layout } from '../layout';
import type { LinearScale } from '../scale';
import type { ArrowMark, Tone } from '../timelineTypes';
import { Chunked, PathBatchLayer, px } from './Chunked';
import { dotPath } from './PointMarks';
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

interface ArrowStyle {
  tone: Tone;
  dashed: boolean;
  future: boolean;
}

/** Scale of the chart's arrowhead marker in user space: markerWidth 7 over a viewBox 10 wide, in units of the line's 1.6 px stroke. */
const HEAD_SCALE = 0.7 * 1.6;

/**
 * The path data of arrow `g`: its line (shortened so the head does not overlap the target glyph),
 * its head (the `<marker>` triangle of Defs, M0,0 L10,5 L0,10 with its tip's reference at 8,5,
 * placed and turned as `orient="auto"` would), the cross of a lost message and the in-flight dot.
 */
export function arrowParts(g: ArrowGeometry, add: (part: 'line' | 'head' | 'lost' | 'dot', d: string) => void): void {
  const dx = g.x2 - g.x1;
  const dy = g.y2 - g.y1;
  const len = Math.hypot(dx, dy) || 1;
  const cut = g.lost ? 0 : Math.min(7, len / 3);
  const ex = g.x2 - (dx / len) * cut;
  const ey = g.y2 - (dy / len) * cut;
  add('line', `M${px(g.x1)},${px(g.y1)}L${px(ex)},${px(ey)}`);
  if (!g.lost) {
    const ux = dx === 0 && dy === 0 ? 1 : dx / len;
    const uy = dx === 0 && dy === 0 ? 0 : dy / len;
    // A marker point (mx, my) lands at end + u·(mx − 8)·s + n·(my − 5)·s, n = u turned a quarter.
    const at = (mx: number, my: number) => `${px(ex + (ux * (mx - 8) - uy * (my - 5)) * HEAD_SCALE)},${px(ey + (uy * (mx - 8) + ux * (my - 5)) * HEAD_SCALE)}`;
    add('head', `M${at(0, 0)}L${at(10, 5)}L${at(0, 10)}Z`);
  }
  if (g.lost) add('lost', `M${px(g.x2 - 5)},${px(g.y2 - 5)}L${px(g.x2 + 5)},${px(g.y2 + 5)}M${px(g.x2 - 5)},${px(g.y2 + 5)}L${px(g.x2 + 5)},${px(g.y2 - 5)}`);
  if (g.dotX !== null && g.dotY !== null) add('dot', dotPath(g.dotX, g.dotY, 4));
}

const PART_CLASS = { line: 'tl-arrow-line', head: 'tl-arrow-head', lost: 'tl-arrow-lost', dot: 'tl-arrow-dot' } as const;

/**
 * Arrows (messages between lanes) that touch the view. Each chunk of arrows is drawn as one `<g>`
 * per style (tone, dashed, future) holding one `<path>` per part (lines, heads, crosses, dots),
 * positions in the path data: a few elements per 64 arrows instead of four or five per arrow.
 * Their titles are offered by the chart's hover tooltip (`HoverTitle`).
 */
export function ArrowLayer({ arrows, x, layout }: { arrows: readonly ArrowMark[]; x: LinearScale; layout: Layout }) {
  return (
    <PathBatchLayer<ArrowMark, ArrowStyle>
      className="tl-arrows"
      items={arrows}
      deps={[x, layout]}
      partClass={PART_CLASS}
      add={(m, groups) => {
        const g = arrowGeometry(m, x, layout);
        if (g === null) return;
        const style = { tone: m.tone, dashed: !!m.dashed, future: !!m.future };
        const key = `${style.tone}|${style.dashed}|${style.future}`;
        arrowParts(g, (part, d) => groups.add(key, style, part, d));
      }}
      groupClass={(style) => `tl-arrow ${toneClass(style.tone)}${style.future ? ' is-future' : ''}${style.dashed ? ' is-dashed' : ''}`}
    />
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
