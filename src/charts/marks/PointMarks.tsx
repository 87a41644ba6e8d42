import { memo } from 'react';
import { inView, rowBox, rowCenterY, type Layout } from '../layout';
import type { LinearScale } from '../scale';
import type { PointMark, Tone } from '../timelineTypes';
import { Chunked } from './Chunked';
import { toneClass } from './tone';

interface PointViewProps {
  x: number;
  y: number;
  shape: PointMark['shape'];
  tone: Tone;
  hollow: boolean;
  struck: boolean;
  future: boolean;
  title?: string;
}

const PointView = memo(function PointView(p: PointViewProps) {
  const cls = `tl-point ${toneClass(p.tone)}${p.hollow ? ' is-hollow' : ''}${p.future ? ' is-future' : ''}`;
  return (
    <g className={cls} transform={`translate(${p.x},${p.y})`}>
      {p.title && <title>{p.title}</title>}
      <circle className="tl-point-hit" r={6} />
      {p.shape === 'dot' && <circle r={3.5} />}
      {p.shape === 'x' && <path className="tl-point-x" d="M-5,-5L5,5M-5,5L5,-5" />}
      {p.shape === 'tick' && <path className="tl-point-x" d="M0,-6V6" />}
      {p.struck && <line className="tl-strike" x1={-6} y1={5} x2={6} y2={-5} />}
    </g>
  );
});

/** Points (timers, arrivals) in view: a dot, cross or tick on their row's centre line. */
export function PointLayer({ points, x, layout }: { points: readonly PointMark[]; x: LinearScale; layout: Layout }) {
  const [v0, v1] = x.domain();
  return (
    <g className="tl-points">
      <Chunked
        items={points}
        deps={[x, layout]}
        render={(m) =>
          inView(m.at, v0, v1) ? (
            <PointView key={m.id} x={x(m.at)} y={rowCenterY(rowBox(layout, m.lane, m.row))} shape={m.shape} tone={m.tone} hollow={!!m.hollow} struck={!!m.struck} future={!!m.future} title={m.title} />
          ) : null
        }
      />
    </g>
  );
}
