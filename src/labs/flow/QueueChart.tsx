import { useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { scaleLinear } from 'd3-scale';
import type { FlowTrace } from '../../sim/flow';
import { flowStepRecords, type FlowSeries } from './flowMarks';
import { finalStateOf } from '../../store/flowStore';

/**
 * Queue depth of the SSE buffer over virtual time against its capacity; under the plot, a strip
 * with one labelled row per kind of event that happened (drops, coalesces, refetches, disconnects,
 * final responses), each with its true count, so no mark can be read as a depth. Marks are thinned
 * to one glyph per 3 px per row, so a trace of thousands of events stays light. The depth at the
 * playhead is printed beside a dot on the line, so a depth of 0 is seen, not mistaken for the axis.
 * SVG; the numbers are also in the counters beside it.
 */
/** The drawing's widest and narrowest width (px): it is drawn at the width it is shown, 1:1, so its 11 px text stays 11 px on a phone. */
const MAX_W = 900;
const MIN_W = 320;

/** The width (px) the chart is shown at, clamped to MIN_W..MAX_W (MAX_W before the first layout). */
function useShownWidth(): [number, RefObject<SVGSVGElement | null>] {
  const ref = useRef<SVGSVGElement | null>(null);
  const [width, setWidth] = useState(MAX_W);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const shown = el.parentElement?.clientWidth ?? MAX_W;
      if (shown > 0) setWidth(Math.round(Math.min(MAX_W, Math.max(MIN_W, shown))));
    };
    measure();
    const ro = new ResizeObserver(measure);
    if (el.parentElement) ro.observe(el.parentElement);
    return () => ro.disconnect();
  }, []);
  return [width, ref];
}
const M = { top: 24, right: 18, left: 100 };
/** Bottom of the depth plot (its 0 line); x ticks under it, then the event strip. */
const PLOT_BOTTOM = 170;
const STRIP_TOP = PLOT_BOTTOM + 42;
const ROW_H = 15;

type MarkKind = 'drop' | 'coalesce' | 'refetch' | 'final' | 'disconnect';
const MARK_TEXT: Record<MarkKind, string> = { drop: 'dropped', coalesce: 'coalesced', refetch: 'refetch', final: 'final delivered', disconnect: 'stream dropped' };
/** Strip rows, top to bottom. */
const ROW_ORDER: MarkKind[] = ['coalesce', 'drop', 'disconnect', 'refetch', 'final'];
const ROW_TEXT: Record<MarkKind, string> = { drop: 'dropped', coalesce: 'coalesced', refetch: 'refetches', final: 'finals', disconnect: 'disconnects' };

/** True totals of each event kind over the whole trace (from its last state), not the thinned glyphs. */
function totals(trace: FlowTrace): Record<MarkKind, number> {
  const s = finalStateOf(trace);
  return {
    coalesce: s.buffer.coalesced,
    drop: s.buffer.droppedOldest + s.buffer.discarded + s.buffer.finalsRefused,
    refetch: s.refetched + s.resyncs,
    final: s.delivered.finals,
    disconnect: s.disconnects,
  };
}

export function QueueChart({ trace, series, cursorMs, endMs }: { trace: FlowTrace; series: FlowSeries; cursorMs: number; endMs: number }) {
  const cap = (trace.scenario.config as { capacityEvents: number }).capacityEvents;
  const yMax = Math.max(cap, series.maxDepth, series.maxHeld, 1) * 1.08;
  const [W, svgRef] = useShownWidth();
  const x = useMemo(() => scaleLinear().domain([0, endMs]).range([M.left, W - M.right]), [endMs, W]);
  const y = useMemo(() => scaleLinear().domain([0, yMax]).range([PLOT_BOTTOM, M.top]).nice(), [yMax]);

  const path = useMemo(() => stepPath(series.depth, x, y, endMs), [series.depth, x, y, endMs]);
  const heldPath = useMemo(() => (series.maxHeld > 0 ? stepPath(series.held, x, y, endMs) : null), [series, x, y, endMs]);
  const marks = useMemo(() => {
    const out: { kind: MarkKind; px: number; at: number }[] = [];
    const lastPx: Partial<Record<MarkKind, number>> = {};
    const i = trace.initial;
    let prev = { coalesced: i.buffer.coalesced, dropped: i.buffer.droppedOldest + i.buffer.discarded + i.buffer.finalsRefused, refetched: i.refetched, resyncs: i.resyncs, finals: i.delivered.finals, disconnects: i.disconnects };
    const add = (kind: MarkKind, at: number) => {
      const px = x(at);
      if (lastPx[kind] !== undefined && px - (lastPx[kind] as number) < 3) return;
      lastPx[kind] = px;
      out.push({ kind, px, at });
    };
    for (const s of flowStepRecords(trace)) {
      if (s.coalesced > prev.coalesced) add('coalesce', s.at);
      if (s.dropped > prev.dropped) add('drop', s.at);
      if (s.refetched > prev.refetched || s.resyncs > prev.resyncs) add('refetch', s.at);
      if (s.finals > prev.finals) add('final', s.at);
      if (s.disconnects > prev.disconnects) add('disconnect', s.at);
      prev = s;
    }
    return out;
  }, [trace, x]);
  const counts = useMemo(() => totals(trace), [trace]);
  const rows = ROW_ORDER.filter((k) => counts[k] > 0);
  const rowY = (k: MarkKind) => STRIP_TOP + rows.indexOf(k) * ROW_H + ROW_H / 2;
  const H = STRIP_TOP + Math.max(1, rows.length) * ROW_H + 6;
  const depthNow = depthAt(series.depth, cursorMs);
  const ticksX = x.ticks(Math.max(3, Math.min(8, Math.round(W / 110))));
  const ticksY = y.ticks(4);
  const fmt = (n: number) => n.toLocaleString('en-US');
  const label = `Queue depth over time: peak ${series.maxDepth} events against a capacity of ${cap}; ${depthNow} at the playhead${series.maxHeld ? `; the proxy held up to ${series.maxHeld}` : ''}. Events: ${rows.map((k) => `${MARK_TEXT[k]} ${fmt(counts[k])}`).join(', ') || 'none'}.`;
  const nowX = x(Math.min(cursorMs, endMs));
  const nowY = y(depthNow);

  return (
    <figure className="flow-figure">
      <svg ref={svgRef} viewBox={`0 0 ${W} ${H}`} className="flow-queue" role="img" aria-label={label} data-testid="queue-chart">
        <text className="flow-tick flow-axis-name" x={M.left - 8} y={M.top - 12} textAnchor="end">events queued</text>
        {ticksY.map((t) => (
          <g key={`y${t}`}>
            <line className="flow-gridline" x1={M.left} x2={W - M.right} y1={y(t)} y2={y(t)} />
            <text className="flow-tick" x={M.left - 6} y={y(t) + 4} textAnchor="end">{t}</text>
          </g>
        ))}
        {ticksX.map((t) => (
          <text key={`x${t}`} className="flow-tick" x={x(t)} y={PLOT_BOTTOM + 16} textAnchor="middle">{t >= 1000 ? `${t / 1000} s` : `${t} ms`}</text>
        ))}
        <line className="flow-cap" x1={M.left} x2={W - M.right} y1={y(cap)} y2={y(cap)} />
        <text className="flow-cap-label" x={W - M.right - 4} y={y(cap) - 5} textAnchor="end">capacity {cap}</text>
        {heldPath && <path d={heldPath} className="flow-held" />}
        <path d={path} className="flow-depth" data-testid="queue-depth-line" />
        <line className="flow-strip-rule" x1={M.left} x2={W - M.right} y1={STRIP_TOP - 2} y2={STRIP_TOP - 2} />
        <text className="flow-tick flow-axis-name" x={M.left - 8} y={STRIP_TOP - 6} textAnchor="end">events (count)</text>
        {rows.length === 0 && (
          <text className="flow-tick" x={M.left} y={STRIP_TOP + ROW_H / 2 + 4}>no drops, coalesces, refetches, disconnects or finals in this run</text>
        )}
        {rows.map((k) => (
          <text key={k} className="flow-row-label" x={M.left - 8} y={rowY(k) + 4} textAnchor="end" data-testid={`queue-row-${k}`}>
            {ROW_TEXT[k]} {fmt(counts[k])}
          </text>
        ))}
        {marks.map((m, i) => (
          <Glyph key={i} kind={m.kind} x={m.px} y={rowY(m.kind)} />
        ))}
        <line className="flow-playhead" x1={nowX} x2={nowX} y1={M.top - 4} y2={H - 4} />
        <circle className="flow-depth-now" cx={nowX} cy={nowY} r={4} />
        <text className="flow-depth-now-label" x={nowX > W - M.right - 90 ? nowX - 8 : nowX + 8} y={nowY - 6} textAnchor={nowX > W - M.right - 90 ? 'end' : 'start'} data-testid="queue-depth-now">
          depth {fmt(depthNow)}
        </text>
      </svg>
      <figcaption className="flow-legend">
        <span><i className="sw sw-depth" /> buffer depth (events queued)</span>
        {heldPath && <span><i className="sw sw-held" /> held by the proxy</span>}
        <span><i className="sw sw-cap" /> capacity</span>
        <span>strip below the plot: one row per kind of event, with its count (not a depth)</span>
        {(Object.keys(MARK_TEXT) as MarkKind[]).filter((k) => counts[k] > 0).map((k) => (
          <span key={k}>
            <svg width="12" height="12" aria-hidden="true"><Glyph kind={k} x={6} y={6} /></svg> {MARK_TEXT[k]}
          </span>
        ))}
      </figcaption>
    </figure>
  );
}

/** The step series' value at `atMs` (the last point at or before it; 0 before the first). */
function depthAt(points: readonly (readonly [number, number])[], atMs: number): number {
  let v = 0;
  for (const [t, d] of points) {
    if (t > atMs) break;
    v = d;
  }
  return v;
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
