import { inView, rowBox, rowCenterY, type Layout } from '../layout';
import type { LinearScale } from '../scale';
import type { PointMark, Tone } from '../timelineTypes';
import { PathBatchLayer, px } from './Chunked';
import { toneClass } from './tone';

interface PointStyle {
  tone: Tone;
  hollow: boolean;
  future: boolean;
}

/** A dot of radius `r` centred on x,y as path data (two arcs). */
export const dotPath = (x: number, y: number, r: number): string => `M${px(x + r)},${px(y)}a${r},${r} 0 1 0 ${-2 * r},0a${r},${r} 0 1 0 ${2 * r},0Z`;

/** The path data of point `m`'s glyph and strike at x,y (the shapes of a dot r 3.5, a 10 px cross, a 12 px tick, a strike across). */
function pointParts(m: PointMark, x: number, y: number, add: (part: 'dot' | 'x' | 'strike', d: string) => void): void {
  if (m.shape === 'dot') add('dot', dotPath(x, y, 3.5));
  else if (m.shape === 'x') add('x', `M${px(x - 5)},${px(y - 5)}L${px(x + 5)},${px(y + 5)}M${px(x - 5)},${px(y + 5)}L${px(x + 5)},${px(y - 5)}`);
  else add('x', `M${px(x)},${px(y - 6)}V${px(y + 6)}`);
  if (m.struck) add('strike', `M${px(x - 6)},${px(y + 5)}L${px(x + 6)},${px(y - 5)}`);
}

const PART_CLASS = { dot: 'tl-point-dot', x: 'tl-point-x', strike: 'tl-strike' } as const;

/**
 * Points (timers, arrivals) in view: a dot, cross or tick on their row's centre line. Each chunk of
 * points is drawn as one `<g>` per style (tone, hollow, future) holding one `<path>` per part (dots,
 * crosses and ticks, strikes), positions in the path data: a few elements per 64 points instead of
 * four or five per point. Their text is offered by the chart's hover tooltip (`HoverTitle`).
 */
export function PointLayer({ points, x, layout }: { points: readonly PointMark[]; x: LinearScale; layout: Layout }) {
  const [v0, v1] = x.domain();
  return (
    <PathBatchLayer<PointMark, PointStyle>
      className="tl-points"
      items={points}
      deps={[x, layout]}
      partClass={PART_CLASS}
      add={(m, groups) => {
        if (!inView(m.at, v0, v1)) return;
        const style = { tone: m.tone, hollow: !!m.hollow, future: !!m.future };
        const key = `${style.tone}|${style.hollow}|${style.future}`;
        pointParts(m, x(m.at), rowCenterY(rowBox(layout, m.lane, m.row)), (part, d) => groups.add(key, style, part, d));
      }}
      groupClass={(style) => `tl-point ${toneClass(style.tone)}${style.hollow ? ' is-hollow' : ''}${style.future ? ' is-future' : ''}`}
    />
  );
}
