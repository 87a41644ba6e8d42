import { memo } from 'react';
import { rowBox, type Layout } from '../layout';
import type { LinearScale } from '../scale';
import type { BandMark, Tone } from '../timelineTypes';
import { Chunked } from './Chunked';
import { toneClass } from './tone';

const BandView = memo(function BandView(p: { x1: number; x2: number; y: number; h: number; tone: Tone; title?: string }) {
  return (
    <rect className={`tl-band ${toneClass(p.tone)}`} x={p.x1} y={p.y} width={Math.max(0, p.x2 - p.x1)} height={p.h}>
      {p.title && <title>{p.title}</title>}
    </rect>
  );
});

/** Background bands (state bands, idle windows): a light rect over [at, to] of their row, 3 px in from its edges. */
export function BandLayer({ bands, x, layout }: { bands: readonly BandMark[]; x: LinearScale; layout: Layout }) {
  return (
    <g className="tl-bands">
      <Chunked
        items={bands}
        deps={[x, layout]}
        render={(m) => {
          const b = rowBox(layout, m.lane, m.row);
          return <BandView key={m.id} x1={x(m.at)} x2={x(m.to)} y={b.y + 3} h={b.h - 6} tone={m.tone} title={m.title} />;
        }}
      />
    </g>
  );
}
