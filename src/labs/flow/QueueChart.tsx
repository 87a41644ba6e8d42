import { useMemo } from 'react';
import { scaleLinear } from 'd3-scale';
import type { FlowTrace } from '../../sim/flow';
import type { FlowSeries } from './flowMarks';

/**
 * Queue depth of the SSE buffer over virtual time against its capacity, with drops, coalesces,
 * refetches, disconnects and final responses marked (one glyph per 3 px at most, so a trace of
 * thousands of events stays light). SVG; the numbers are also in the counters beside it.
 */
const W = 900;
const H = 210;
const M = { top: 26, right: 18, bottom: 28, left: 52 };

type MarkKind = 'drop' | 'coalesce' | 'refetch' | 'final' | 'disconnect';
const MARK_TEXT: Record<MarkKind, string> = { drop: 'dropped', coalesce: 'coalesced', refetch: 'refetch', final: 'final delivered', disconnect: 'stream dropped' };

export function QueueChart({ trace, series, cursorMs, endMs }: { trace: FlowTrace; series: FlowSeries; cursorMs: number; endMs: number }) {
  const cap = (trace.scenario.config as { capacityEvents: number }).capacityEvents;
  const yMax = Math.max(cap, series.maxDepth, series.maxHeld, 1) * 1.08;
  const x = useMemo(() => scaleLinear().domain([0, endMs]).range([M.left, W - M.right]), [endMs]);
  const y = useMemo(() => scaleLinear().domain([0, yMax]).range([H - M.bottom, M.top]).nice(), [yMax]);

  const path = useMemo(() => stepPath(series.depth, x, y, endMs), [series.depth, x, y, endMs]);
  const heldPath = useMemo(() => (series.maxHeld > 0 ? stepPath(series.held, x, y, endMs) : null), [series, x, y, endMs]);
  const marks = useMemo(() => {
    const out: { kind: MarkKind; px: number; at: number }[] = [];
    const lastPx: Partial<Record<MarkKind, number>> = {};
    let prev = trace.initial;
    const add = (kind: MarkKind, at: number) => {
      const px = x(at);
      if (lastPx[kind] !== undefined && px - (lastPx[kind] as number) < 3) return;
      lastPx[kind] = px;
      out.push({ kind, px, at });
    };
    for (const step of trace.steps) {
      const s = step.state;
      if (s.buffer.coalesced > prev.buffer.coalesced) add('coalesce', step.at);
      if (s.buffer.droppedOldest + s.buffer.discarded + s.buffer.finalsRefused > prev.buffer.droppedOldest + prev.buffer.discarded + prev.buffer.finalsRefused) add('drop', step.at);
      if (s.refetched > prev.refetched || s.resyncs > prev.resyncs) add('refetch', step.at);
      if (s.delivered.finals > prev.delivered.finals) add('final', step.at);
      if (s.disconnects > prev.disconnects) add('disconnect', step.at);
      prev = s;
    }
    return out;
  }, [trace, x]);
  const ticksX = x.ticks(8);
  const ticksY = y.ticks(4);
  const counts = marks.reduce<Record<string, number>>((acc, m) => ((acc[m.kind] = (acc[m.kind] ?? 0) + 1), acc), {});
  const label = `Queue depth over time: peak ${series.maxDepth} events against a capacity of ${cap}${series.maxHeld ? `; the proxy held up to ${series.maxHeld}` : ''}. Marks: ${Object.entries(counts).map(([k, n]) => `${MARK_TEXT[k as MarkKind]} ×${n}`).join(', ') || 'none'}.`;
  const rowY: Record<MarkKind, number> = { drop: M.top - 14, coalesce: M.top - 14, refetch: M.top - 6, final: M.top - 6, disconnect: M.top - 14 };

  return (
    <figure className="flow-figure">
      <svg viewBox={`0 0 ${W} ${H}`} className="flow-queue" role="img" aria-label={label} data-testid="queue-chart">
        {ticksY.map((t) => (
          <g key={`y${t}`}>
            <line className="flow-gridline" x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} />
            <text className="flow-tick" x={M.left - 6} y={y(t) + 4} textAnchor="end">{t}</text>
          </g>
        ))}
        {ticksX.map((t) => (
          <text key={`x${t}`} className="flow-tick" x={x(t)} y={H - 8} textAnchor="middle">{t >= 1000 ? `${t / 1000} s` : `${t} ms`}</text>
        ))}
        <path d={path} className="flow-depth" />
        {heldPath && <path d={heldPath} className="flow-held" />}
        <line className="flow-cap" x1={M.left} x2={W - M.right} y1={y(cap)} y2={y(cap)} />
        <text className="flow-cap-label" x={W - M.right - 4} y={y(cap) - 5} textAnchor="end">capacity {cap}</text>
        {marks.map((m, i) => (
          <Glyph key={i} kind={m.kind} x={m.px} y={rowY[m.kind]} />
        ))}
        <line className="flow-playhead" x1={x(cursorMs)} x2={x(cursorMs)} y1={M.top - 18} y2={H - M.bottom} />
      </svg>
      <figcaption className="flow-legend">
        <span><i className="sw sw-depth" /> buffer depth</span>
        {heldPath && <span><i className="sw sw-held" /> held by the proxy</span>}
        <span><i className="sw sw-cap" /> capacity</span>
        {(Object.keys(MARK_TEXT) as MarkKind[]).map((k) => (
          <span key={k}>
            <svg width="12" height="12" aria-hidden="true"><Glyph kind={k} x={6} y={6} /></svg> {MARK_TEXT[k]} {counts[k] ? `(${counts[k]}${counts[k] >= 100 ? '+ marks' : ''})` : ''}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

function Glyph({ kind, x, y }: { kind: MarkKind; x: number; y: number }) {
  switch (kind) {
    case 'drop':
      return <path className="g-drop" d={`M${x - 3},${y - 3}L${x + 3},${y + 3}M${x + 3},${y - 3}L${x - 3},${y + 3}`} />;
    case 'coalesce':
      return <circle className="g-coalesce" cx={x} cy={y} r={2.5} />;
    case 'refetch':
      return <path className="g-refetch" d={`M${x},${y - 4}L${x + 4},${y}L${x},${y + 4}L${x - 4},${y}Z`} />;
    case 'final':
      return <rect className="g-final" x={x - 3.5} y={y - 3.5} width={7} height={7} />;
    case 'disconnect':
      return <path className="g-disconnect" d={`M${x},${y - 5}L${x},${y + 5}`} />;
  }
}

function stepPath(points: readonly (readonly [number, number])[], x: (v: number) => number, y: (v: number) => number, endMs: number): string {
  let d = '';
  let prevY = y(0);
  for (let i = 0; i < points.length; i++) {
    const [t, v] = points[i];
    const px = x(Math.min(t, endMs)).toFixed(1);
    d += i === 0 ? `M${px},${y(v).toFixed(1)}` : `H${px}V${y(v).toFixed(1)}`;
    prevY = y(v);
  }
  void prevY;
  return `${d}H${x(endMs).toFixed(1)}`;
}
