import { memo } from 'react';
import { placeSpanLabel, type SpanLabelObstacles } from '../labels';
import { rowBox, rowCenterY, type Layout } from '../layout';
import type { LinearScale } from '../scale';
import type { SpanMark, Tone } from '../timelineTypes';
import { Chunked } from './Chunked';
import { toneClass } from './tone';

interface SpanViewProps {
  x1: number;
  x2: number;
  y: number;
  rowBottom: number;
  thickness: number;
  tone: Tone;
  open: boolean;
  future: boolean;
  endCap: NonNullable<SpanMark['endCap']>;
  endLabel: string | null;
  endLabelAnchor: 'start' | 'end';
  /** The label's shift from its usual place (px), and whether it sits on the row's centre line (`placeSpanLabel`). */
  endLabelDx: number;
  endLabelAtCentre: boolean;
  /** The whole end label when `endLabel` is shortened to fit (shown as its tooltip). */
  endLabelFull?: string;
  title?: string;
  gradientId: string;
}

const SpanView = memo(function SpanView(p: SpanViewProps) {
  const w = Math.max(p.x2 - p.x1, 1);
  const fade = 46;
  return (
    <g className={`tl-span ${toneClass(p.tone)}${p.future ? ' is-future' : ''}`}>
      {p.title && <title>{p.title}</title>}
      <rect className="tl-span-bar" x={p.x1} y={p.y - p.thickness / 2} width={w} height={p.thickness} rx={Math.min(3, p.thickness / 2)} />
      {p.open && (
        <g className="tl-span-open">
          <rect x={p.x2} y={p.y - p.thickness / 2} width={fade} height={p.thickness} fill={`url(#${p.gradientId})`} />
          {p.thickness >= 4 && <path d={`M${p.x2 + fade - 2},${p.y - 5}L${p.x2 + fade + 6},${p.y}L${p.x2 + fade - 2},${p.y + 5}`} />}
        </g>
      )}
      {!p.open && p.endCap === 'x' && <path className="tl-span-cap" d={`M${p.x2 - 5},${p.y - 5}L${p.x2 + 5},${p.y + 5}M${p.x2 - 5},${p.y + 5}L${p.x2 + 5},${p.y - 5}`} />}
      {!p.open && p.endCap === 'dot' && <circle className="tl-span-dot" cx={p.x2} cy={p.y} r={4.5} />}
      {!p.open && p.endCap === 'bar' && <path className="tl-span-cap" d={`M${p.x2},${p.y - 7}V${p.y + 7}`} />}
      {p.endLabel !== null && (
        <text className="tl-span-label" x={(p.endLabelAnchor === 'start' ? p.x2 + 6 : p.x2 - 6) + p.endLabelDx} y={p.endLabelAtCentre ? p.y + 4 : p.rowBottom - 3} textAnchor={p.endLabelAnchor}>
          {p.endLabelFull !== undefined && <title>{p.endLabelFull}</title>}
          {p.endLabel}
        </text>
      )}
    </g>
  );
});

/** Spans: bars from `at` to `to` (open-ended with a fading arrow), an end cap and an end label at the row's bottom (`placeSpanLabel`). */
export function SpanLayer({ spans, x, layout, plotLeft, plotRight, uid, obstacles }: { spans: readonly SpanMark[]; x: LinearScale; layout: Layout; plotLeft: number; plotRight: number; uid: string; obstacles?: ReadonlyMap<string, SpanLabelObstacles> }) {
  return (
    <g className="tl-spans">
      <Chunked
        items={spans}
        deps={[x, layout, plotLeft, plotRight, uid, obstacles]}
        render={(m) => {
        const x2 = x(m.to);
        const b = rowBox(layout, m.lane, m.row);
        const label = placeSpanLabel(m, x2, b.h, plotLeft, plotRight, obstacles?.get(`${m.lane}/${m.row}`));
        return (
          <SpanView
            key={m.id}
            x1={x(m.at)}
            x2={x2}
            y={rowCenterY(b)}
            rowBottom={b.y + b.h}
            thickness={m.thickness ?? 6}
            tone={m.tone}
            open={!!m.open}
            future={!!m.future}
            endCap={m.endCap ?? 'none'}
            endLabel={label.text}
            endLabelAnchor={label.anchor}
            endLabelFull={label.full}
            endLabelDx={label.dx ?? 0}
            endLabelAtCentre={label.atCentre === true}
            title={m.title}
            gradientId={`${uid}-fade-${m.tone}`}
          />
        );
        }}
      />
    </g>
  );
}
