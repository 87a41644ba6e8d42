import { memo } from 'react';
import type { PlacedMarker } from '../labels';
import { Chunked } from './Chunked';
import { toneClass } from './tone';

const MarkerView = memo(function MarkerView(p: Omit<PlacedMarker, 'key'>) {
  const ty = p.labelAt === 'top' ? p.y + 9 : p.y + p.h - 3;
  return (
    <g className={`tl-marker ${toneClass(p.tone)}${p.dashed ? ' is-dashed' : ''}${p.future ? ' is-future' : ''}`}>
      {p.title && <title>{p.title}</title>}
      {p.offscale === null ? (
        <line x1={p.x} x2={p.x} y1={p.y} y2={p.y + p.h} />
      ) : (
        <path
          className="tl-marker-edge"
          d={p.offscale === 'right' ? `M${p.x - 7},${p.y + p.h / 2 - 6}L${p.x},${p.y + p.h / 2}L${p.x - 7},${p.y + p.h / 2 + 6}` : `M${p.x + 7},${p.y + p.h / 2 - 6}L${p.x},${p.y + p.h / 2}L${p.x + 7},${p.y + p.h / 2 + 6}`}
        />
      )}
      {p.label !== null && (
        <text className="tl-marker-label" x={p.anchor === 'start' ? p.x + 4 : p.x - 4} y={ty} textAnchor={p.anchor}>
          {p.label}
        </text>
      )}
    </g>
  );
});

/** Vertical markers (deadlines, state changes) placed by `placeMarkers`; off-scale ones as a chevron at the edge. */
export function MarkerLayer({ markers }: { markers: readonly PlacedMarker[] }) {
  return (
    <g className="tl-markers">
      <Chunked
        items={markers}
        deps={[]}
        render={({ key, ...v }) => <MarkerView key={key} {...v} />}
      />
    </g>
  );
}
