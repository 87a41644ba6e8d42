import { memo, useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { axisTop } from 'd3-axis';
import { drag } from 'd3-drag';
import { select } from 'd3-selection';
import { formatMs, formatTime } from './format';
import { linearScale, type LinearScale } from './scale';
import type {
  ArrowMark,
  BandMark,
  HandleMark,
  MarkerMark,
  PointMark,
  SpanMark,
  StepsMark,
  TimelineLane,
  TimelineMark,
  Tone,
} from './timelineTypes';
import './timeline.css';

/**
 * A generic time-lane chart: lanes of rows on a linear time scale (ms), with draggable handles,
 * points, spans (open-ended when their outcome is not known yet), arrows between lanes, vertical
 * markers, background bands and step series, plus a playhead. d3 supplies the axis (d3-axis), tick
 * placement (d3-array) and dragging of handles and the playhead (d3-drag); the scale is `scale.ts`
 * and zoom/pan a small horizontal view window (both kept local: d3-scale and d3-zoom would add
 * ~15 KB gzip of interpolation and transition code a numeric time axis never uses).
 * React renders the marks, each a memoised component with primitive props, so a drag only
 * re-renders the marks that changed.
 *
 * Handles are focusable sliders: ←/→ move by `snapMs` (Shift: `fineSnapMs`), PageUp/PageDown by a
 * tenth of the visible range, Alt+←/→ or [ ] reorder among same-time handles.
 */

export interface TimelineProps {
  lanes: readonly TimelineLane[];
  marks: readonly TimelineMark[];
  /** Time range shown when not zoomed, ms. */
  domain: readonly [number, number];
  cursorMs: number;
  /** Accessible name of the chart. */
  label: string;
  onSeek(ms: number): void;
  /** A handle is being dragged to `ms` (called on every pointer move; the first call starts the gesture). */
  onHandleMove?(id: string, ms: number): void;
  onHandleDragStart?(id: string): void;
  onHandleDragEnd?(id: string): void;
  /** Keyboard nudge by `deltaMs`. */
  onHandleNudge?(id: string, deltaMs: number): void;
  /** Keyboard reorder among same-time handles. */
  onHandleReorder?(id: string, direction: -1 | 1): void;
  onHandleSelect?(id: string): void;
  selectedId?: string | null;
  /** Pointer drags snap to this many ms (default 10); holding Shift or Alt snaps to `fineSnapMs` (default 1). */
  snapMs?: number;
  fineSnapMs?: number;
  /** Times the playhead sticks to when scrubbed near them (sorted). */
  snapTimes?: readonly number[];
  /** Changing this resets zoom (e.g. a different scenario). */
  resetKey?: string | number;
  /** Id of an element describing the keyboard controls of handles. */
  handleHelpId?: string;
}

const GUTTER = 118;
const RIGHT_PAD = 16;
const AXIS_H = 30;
const BOTTOM_H = 22;
const LANE_PAD = 5;
const HANDLE_R = 7;
const CHAR_W = 6.3;

interface RowBox {
  y: number;
  h: number;
}

interface Layout {
  lanes: { id: string; label: string; y: number; h: number; rows: { id: string; label?: string; y: number; h: number }[] }[];
  rows: Map<string, RowBox>;
  laneRows: Map<string, RowBox[]>;
  height: number;
}

function computeLayout(lanes: readonly TimelineLane[]): Layout {
  let y = AXIS_H;
  const rows = new Map<string, RowBox>();
  const laneRows = new Map<string, RowBox[]>();
  const out: Layout['lanes'] = [];
  for (const lane of lanes) {
    const laneY = y;
    y += LANE_PAD;
    const laneOut: Layout['lanes'][number] = { id: lane.id, label: lane.label, y: laneY, h: 0, rows: [] };
    const boxes: RowBox[] = [];
    for (const row of lane.rows) {
      const box = { y, h: row.height };
      rows.set(`${lane.id}/${row.id}`, box);
      boxes.push(box);
      laneOut.rows.push({ id: row.id, label: row.label, y, h: row.height });
      y += row.height;
    }
    y += LANE_PAD;
    laneOut.h = y - laneY;
    laneRows.set(lane.id, boxes);
    out.push(laneOut);
  }
  return { lanes: out, rows, laneRows, height: y + BOTTOM_H };
}

function useElementWidth(ref: React.RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(900);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(320, Math.floor(el.getBoundingClientRect().width)));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}

type NativeMouse = globalThis.MouseEvent;

const TONES: readonly Tone[] = ['neutral', 'client', 'server', 'wire', 'worker', 'ok', 'bad', 'warn', 'info', 'muted'];

const toneClass = (tone: Tone) => `tl-tone-${tone}`;

// ───────────────────────────── mark views (memoised, primitive props) ─────────────────────────────

interface HandleViewProps {
  id: string;
  x: number;
  y: number;
  at: number;
  maxMs: number;
  shape: HandleMark['shape'];
  tone: Tone;
  ariaLabel: string;
  testId?: string;
  title?: string;
  ignored: boolean;
  selected: boolean;
  future: boolean;
  helpId?: string;
  onKeyDown(e: KeyboardEvent<SVGGElement>): void;
  onFocus(e: React.FocusEvent<SVGGElement>): void;
}

function shapePath(shape: HandleMark['shape'], r: number): string {
  switch (shape) {
    case 'diamond':
      return `M0,${-r}L${r},0L0,${r}L${-r},0Z`;
    case 'square':
      return `M${-r * 0.8},${-r * 0.8}H${r * 0.8}V${r * 0.8}H${-r * 0.8}Z`;
    case 'triangle':
      return `M0,${-r}L${r},${r * 0.8}H${-r}Z`;
    case 'circle':
    default:
      return `M${r},0A${r},${r} 0 1 1 ${-r},0A${r},${r} 0 1 1 ${r},0Z`;
  }
}

const HandleView = memo(function HandleView(p: HandleViewProps) {
  return (
    <g
      className={`tl-handle ${toneClass(p.tone)}${p.ignored ? ' is-ignored' : ''}${p.selected ? ' is-selected' : ''}${p.future ? ' is-future' : ''}`}
      transform={`translate(${p.x},${p.y})`}
      data-handle={p.id}
      data-at={p.at}
      data-testid={p.testId}
      tabIndex={0}
      role="slider"
      aria-label={p.ariaLabel}
      aria-valuemin={0}
      aria-valuemax={p.maxMs}
      aria-valuenow={p.at}
      aria-valuetext={formatTime(p.at)}
      aria-describedby={p.helpId}
      onKeyDown={p.onKeyDown}
      onFocus={p.onFocus}
    >
      <title>{p.title ?? p.ariaLabel}</title>
      <circle className="tl-handle-hit" r={HANDLE_R + 5} />
      <circle className="tl-handle-ring" r={HANDLE_R + 4} />
      <path className="tl-handle-shape" d={shapePath(p.shape, HANDLE_R)} />
      {p.ignored && <line className="tl-strike" x1={-HANDLE_R - 2} y1={HANDLE_R + 2} x2={HANDLE_R + 2} y2={-HANDLE_R - 2} />}
    </g>
  );
});

/** A handle's text (outside the focusable element, so the handle's box is centred on its shape). */
const HandleLabelView = memo(function HandleLabelView(p: { x: number; y: number; label: string | null; flip: boolean; ignored: boolean; future: boolean; tieOrder: number | null }) {
  return (
    <g transform={`translate(${p.x},${p.y})`} className={p.future ? 'is-future' : undefined}>
      {p.tieOrder !== null && (
        <text className="tl-tie" x={-HANDLE_R - 3} y={-HANDLE_R + 1} textAnchor="end">
          {p.tieOrder}
        </text>
      )}
      {p.label !== null && (
        <text className={`tl-handle-label${p.ignored ? ' is-struck' : ''}`} x={p.flip ? HANDLE_R : -HANDLE_R + 1} y={-HANDLE_R - 4} textAnchor={p.flip ? 'end' : 'start'}>
          {p.label}
        </text>
      )}
    </g>
  );
});

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
        <text className="tl-span-label" x={p.endLabelAnchor === 'start' ? p.x2 + 6 : p.x2 - 6} y={p.rowBottom - 3} textAnchor={p.endLabelAnchor}>
          {p.endLabelFull !== undefined && <title>{p.endLabelFull}</title>}
          {p.endLabel}
        </text>
      )}
    </g>
  );
});

interface ArrowViewProps {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
  lost: boolean;
  tone: Tone;
  dashed: boolean;
  future: boolean;
  dotX: number | null;
  dotY: number | null;
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

interface MarkerViewProps {
  x: number;
  y: number;
  h: number;
  tone: Tone;
  dashed: boolean;
  future: boolean;
  label: string | null;
  anchor: 'start' | 'end';
  labelAt: 'top' | 'bottom';
  offscale: 'left' | 'right' | null;
  title?: string;
}

const MarkerView = memo(function MarkerView(p: MarkerViewProps) {
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

const BandView = memo(function BandView(p: { x1: number; x2: number; y: number; h: number; tone: Tone; title?: string }) {
  return (
    <rect className={`tl-band ${toneClass(p.tone)}`} x={p.x1} y={p.y} width={Math.max(0, p.x2 - p.x1)} height={p.h}>
      {p.title && <title>{p.title}</title>}
    </rect>
  );
});

// ───────────────────────────── the chart ─────────────────────────────

interface Live {
  props: TimelineProps;
  x: LinearScale;
  plotLeft: number;
  plotRight: number;
  domain: readonly [number, number];
}

export function Timeline(props: TimelineProps) {
  const { lanes, marks, domain, cursorMs, selectedId, resetKey, label, handleHelpId } = props;
  const uid = useId().replace(/:/g, '');
  const wrapRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const axisRef = useRef<SVGGElement>(null);
  const handlesRef = useRef<SVGGElement>(null);
  const scrubRef = useRef<SVGGElement>(null);
  const width = useElementWidth(wrapRef);
  // Zoomed view window [from, to] in ms, tagged with the resetKey it belongs to (a new key shows all).
  const [viewState, setViewState] = useState<{ key: TimelineProps['resetKey']; view: readonly [number, number] } | null>(null);
  const [frozenDomain, setFrozenDomain] = useState<readonly [number, number] | null>(null);

  const layout = useMemo(() => computeLayout(lanes), [lanes]);
  const height = layout.height;
  const plotLeft = GUTTER;
  const plotRight = width - RIGHT_PAD;
  const activeDomain = frozenDomain ?? domain;
  const d0 = activeDomain[0];
  const d1 = activeDomain[1];

  const view = viewState !== null && viewState.key === resetKey ? clampView(viewState.view, d0, d1) : null;
  const v0 = view ? view[0] : d0;
  const v1 = view ? view[1] : d1;
  const zoomed = view !== null;

  const x = useMemo(() => linearScale([v0, v1], [plotLeft, plotRight]), [v0, v1, plotLeft, plotRight]);

  const visible = x.domain() as [number, number];

  // Latest values for d3 callbacks (which outlive a render).
  const live = useRef<Live | null>(null);
  useLayoutEffect(() => {
    live.current = { props, x, plotLeft, plotRight, domain: activeDomain };
  });

  // Axis.
  useLayoutEffect(() => {
    const g = axisRef.current;
    if (!g) return;
    const count = Math.max(2, Math.floor((plotRight - plotLeft) / 96));
    select(g)
      .call(axisTop<number>(x).ticks(count).tickFormat((v) => formatMs(Number(v))).tickSizeOuter(0))
      .call((sel) => sel.selectAll('text').attr('class', 'tl-axis-text'));
  }, [x, plotLeft, plotRight]);

  const ticks = useMemo(() => x.ticks(Math.max(2, Math.floor((plotRight - plotLeft) / 96))), [x, plotLeft, plotRight]);

  // Zoom (buttons, Ctrl/⌘ + wheel) and pan (drag the background) of the view window.
  const zoomAround = useCallback(
    (factor: number, centerPx: number | null) => {
      const l = live.current;
      if (!l) return;
      const [a, b] = l.x.domain();
      const [da, db] = l.domain;
      const c = l.x.invert(centerPx ?? Math.min(Math.max(l.x(l.props.cursorMs), l.plotLeft), l.plotRight));
      const span = Math.max((b - a) / factor, 5);
      if (span >= db - da) {
        setViewState(null);
        return;
      }
      const ratio = (c - a) / (b - a);
      setViewState({ key: l.props.resetKey, view: clampView([c - span * ratio, c - span * ratio + span], da, db) });
    },
    [],
  );
  const zoomFit = useCallback(() => setViewState(null), []);

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const onWheel = (e: WheelEvent) => {
      if (!(e.ctrlKey || e.metaKey)) return;
      e.preventDefault();
      const rect = svg.getBoundingClientRect();
      zoomAround(Math.pow(2, -e.deltaY / 250), e.clientX - rect.left);
    };
    svg.addEventListener('wheel', onWheel, { passive: false });
    return () => svg.removeEventListener('wheel', onWheel);
  }, [zoomAround]);

  const pan = useRef<{ id: number; startX: number; view: readonly [number, number]; moved: boolean } | null>(null);
  const onBgPointerDown = useCallback((e: React.PointerEvent<SVGRectElement>) => {
    const l = live.current;
    if (!l || e.button !== 0) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    pan.current = { id: e.pointerId, startX: e.clientX, view: l.x.domain() as [number, number], moved: false };
  }, []);
  const onBgPointerMove = useCallback((e: React.PointerEvent<SVGRectElement>) => {
    const p = pan.current;
    const l = live.current;
    if (!p || !l || p.id !== e.pointerId) return;
    const dx = e.clientX - p.startX;
    if (!p.moved && Math.abs(dx) < 4) return;
    p.moved = true;
    const [a, b] = p.view;
    const [da, db] = l.domain;
    if (b - a >= db - da) return; // nothing to pan when everything is shown
    const shift = (-dx / Math.max(l.plotRight - l.plotLeft, 1)) * (b - a);
    setViewState({ key: l.props.resetKey, view: clampView([a + shift, b + shift], da, db) });
  }, []);

  // Dragging handles (one delegated d3-drag on the handles layer).
  useEffect(() => {
    const layer = handlesRef.current;
    const svg = svgRef.current;
    if (!layer || !svg) return;
    let active: { id: string; startAt: number; started: boolean; last: number; limitMs: number } | null = null;
    const behavior = drag<SVGGElement, unknown>()
      .container(() => svg)
      .filter((event: NativeMouse) => !event.button && !!(event.target as Element | null)?.closest?.('[data-handle]'))
      .subject((event: { sourceEvent: Event; x: number; y: number }) => {
        const el = (event.sourceEvent.target as Element).closest('[data-handle]') as SVGGElement | null;
        if (!el) return null;
        const at = Number(el.dataset.at);
        const l = live.current;
        return { id: el.dataset.handle ?? '', at, x: l ? l.x(at) : event.x, y: event.y };
      })
      .clickDistance(3)
      .on('start', (event: { subject: { id: string; at: number } }) => {
        // A drag may take an event past the end of the view, but at most to twice the shown range
        // (the view widens with it up to there): it can never run away while the pointer rests
        // beyond the edge.
        const shownEnd = live.current ? live.current.domain[1] : event.subject.at;
        active = { id: event.subject.id, startAt: event.subject.at, started: false, last: event.subject.at, limitMs: Math.max(shownEnd * 2, event.subject.at) };
        live.current?.props.onHandleSelect?.(event.subject.id);
      })
      .on('drag', (event: { x: number; sourceEvent: NativeMouse }) => {
        const l = live.current;
        if (!active || !l) return;
        const fine = event.sourceEvent?.shiftKey || event.sourceEvent?.altKey;
        const step = fine ? (l.props.fineSnapMs ?? 1) : (l.props.snapMs ?? 10);
        // Past the right edge the pointer counts as at the edge; the view widens (below) to let the
        // event go further, up to `limitMs`.
        const raw = l.x.invert(Math.min(Math.max(event.x, l.plotLeft), l.plotRight));
        const ms = Math.min(Math.max(0, Math.round(raw / step) * step), active.limitMs);
        if (!active.started) {
          if (ms === active.startAt) return;
          active.started = true;
          setFrozenDomain(l.domain);
          l.props.onHandleDragStart?.(active.id);
        }
        // Near or past the end of the shown range, widen it (the domain stays frozen otherwise).
        const [da, db] = l.domain;
        if (ms > da + (db - da) * 0.97 && db < active.limitMs) {
          const wider: readonly [number, number] = [da, Math.min(active.limitMs, Math.ceil(ms + (db - da) * 0.08))];
          l.domain = wider;
          setFrozenDomain(wider);
        }
        if (ms !== active.last) {
          active.last = ms;
          l.props.onHandleMove?.(active.id, ms);
        }
      })
      .on('end', () => {
        if (active?.started) {
          live.current?.props.onHandleDragEnd?.(active.id);
          setFrozenDomain(null);
        }
        active = null;
      });
    select(layer).call(behavior);
    return () => {
      select(layer).on('.drag', null);
    };
  }, []);

  // Scrubbing the playhead along the axis strip.
  const seekAtX = useCallback((px: number) => {
    const l = live.current;
    if (!l) return;
    const clamped = Math.min(Math.max(px, l.plotLeft), l.plotRight);
    let ms = Math.round(l.x.invert(clamped));
    const snaps = l.props.snapTimes;
    if (snaps && snaps.length > 0) {
      let best: number | null = null;
      for (const t of snaps) {
        const d = Math.abs(l.x(t) - clamped);
        if (d <= 6 && (best === null || d < Math.abs(l.x(best) - clamped))) best = t;
      }
      if (best !== null) ms = best;
    }
    const [a, b] = l.domain;
    l.props.onSeek(Math.min(Math.max(ms, Math.max(0, a)), b));
  }, []);

  useEffect(() => {
    const strip = scrubRef.current;
    const svg = svgRef.current;
    if (!strip || !svg) return;
    const behavior = drag<SVGGElement, unknown>()
      .container(() => svg)
      .on('start', (event: { x: number }) => seekAtX(event.x))
      .on('drag', (event: { x: number }) => seekAtX(event.x));
    select(strip).call(behavior);
    return () => {
      select(strip).on('.drag', null);
    };
  }, [seekAtX]);

  const onBgPointerUp = useCallback(
    (e: React.PointerEvent<SVGRectElement>) => {
      const p = pan.current;
      pan.current = null;
      if (!p || p.id !== e.pointerId || p.moved) return;
      const svg = svgRef.current;
      if (!svg) return;
      seekAtX(e.clientX - svg.getBoundingClientRect().left);
    },
    [seekAtX],
  );

  // Keyboard on handles.
  const onHandleKeyDown = useCallback((e: KeyboardEvent<SVGGElement>) => {
    const l = live.current;
    const id = e.currentTarget.dataset.handle;
    if (!l || !id) return;
    const p = l.props;
    const step = e.shiftKey ? (p.fineSnapMs ?? 1) : (p.snapMs ?? 10);
    const [v0, v1] = l.x.domain();
    const page = Math.max(step, niceStep((v1 - v0) / 10));
    let handled = true;
    if ((e.altKey && (e.key === 'ArrowLeft' || e.key === 'ArrowUp')) || e.key === '[') p.onHandleReorder?.(id, -1);
    else if ((e.altKey && (e.key === 'ArrowRight' || e.key === 'ArrowDown')) || e.key === ']') p.onHandleReorder?.(id, 1);
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowDown') p.onHandleNudge?.(id, -step);
    else if (e.key === 'ArrowRight' || e.key === 'ArrowUp') p.onHandleNudge?.(id, step);
    else if (e.key === 'PageDown') p.onHandleNudge?.(id, -page);
    else if (e.key === 'PageUp') p.onHandleNudge?.(id, page);
    else handled = false;
    if (handled) {
      e.preventDefault();
      e.stopPropagation();
    }
  }, []);

  const onHandleFocus = useCallback((e: React.FocusEvent<SVGGElement>) => {
    const id = e.currentTarget.dataset.handle;
    if (id) live.current?.props.onHandleSelect?.(id);
  }, []);

  // ───── place marks ─────
  const rowBox = (lane: string, row: string): RowBox => layout.rows.get(`${lane}/${row}`) ?? layout.laneRows.get(lane)?.[0] ?? { y: AXIS_H, h: 20 };
  const cy = (lane: string, row: string) => {
    const b = rowBox(lane, row);
    return b.y + (b.h >= 30 ? b.h * 0.55 : b.h / 2);
  };
  const [vis0, vis1] = visible;
  const inView = (t: number) => t >= vis0 - (vis1 - vis0) * 0.02 && t <= vis1 + (vis1 - vis0) * 0.02;

  const { bands, spans, markers, arrows, points, handles, steps } = useMemo(() => splitMarks(marks), [marks]);

  // Handle labels: shown when there is room before the next handle in the same row; clusters get a count.
  const handleViews = useMemo(() => placeHandles(handles, x, plotRight), [handles, x, plotRight]);
  const arrowLabels = useMemo(() => placeArrowLabels(arrows, x, layout, plotLeft, plotRight), [arrows, x, layout, plotLeft, plotRight]);

  // Off-scale markers in the same row/edge are merged into one label.
  const markerViews = useMemo(() => {
    const out: (MarkerViewProps & { key: string })[] = [];
    const edge = new Map<string, { key: string; labels: string[]; m: MarkerMark; side: 'left' | 'right' }>();
    for (const m of markers) {
      const b = layout.rows.get(`${m.lane}/${m.row}`) ?? { y: AXIS_H, h: 20 };
      const side = m.at > vis1 ? 'right' : m.at < vis0 ? 'left' : null;
      if (side === null) {
        const mx = x(m.at);
        let anchor = m.anchor ?? 'start';
        const labelAt = m.labelAt ?? 'top';
        if (m.labelUntil !== undefined) {
          // A label bounded by the next segment: the full label, the abbreviation, or none, never overlapping.
          const room = Math.min(x(m.labelUntil), plotRight + 12) - mx - 4 - 3;
          const label = [m.label, m.shortLabel].find((l) => l !== undefined && l.length * CHAR_W <= room) ?? null;
          out.push({ key: m.id, x: mx, y: b.y, h: b.h, tone: m.tone, dashed: !!m.dashed, future: !!m.future, label, anchor: 'start', labelAt, offscale: null, title: m.title });
          continue;
        }
        // A top label that would cover a handle's label in its row goes to the other side of the line, if that side is clear.
        if (m.label && labelAt === 'top') {
          const w = m.label.length * CHAR_W;
          const extent = (a: 'start' | 'end') => (a === 'start' ? [mx + 4, mx + 4 + w] : [mx - 4 - w, mx - 4]);
          const taken = handleViews.filter((h) => h.label !== null && h.mark.lane === m.lane && h.mark.row === m.row).map((h) => {
            const hw = (h.label as string).length * CHAR_W;
            const left = h.flip ? h.x + HANDLE_R - hw : h.x - HANDLE_R + 1;
            return [left, left + hw];
          });
          const clear = (a: 'start' | 'end') => {
            const [l, r] = extent(a);
            return l >= plotLeft && r <= plotRight + 12 && taken.every(([tl, tr]) => r + 3 <= tl || l >= tr + 3);
          };
          const other = anchor === 'start' ? 'end' : 'start';
          if (!clear(anchor) && clear(other)) anchor = other;
        }
        out.push({ key: m.id, x: mx, y: b.y, h: b.h, tone: m.tone, dashed: !!m.dashed, future: !!m.future, label: m.label ?? null, anchor, labelAt, offscale: null, title: m.title });
      } else {
        const k = `${m.lane}/${m.row}/${side}`;
        const e = edge.get(k);
        if (e) e.labels.push(m.label ?? '');
        else edge.set(k, { key: m.id, labels: [m.label ?? ''], m, side });
      }
    }
    for (const e of edge.values()) {
      const b = layout.rows.get(`${e.m.lane}/${e.m.row}`) ?? { y: AXIS_H, h: 20 };
      const ex = e.side === 'right' ? plotRight : plotLeft;
      const text = e.labels.filter(Boolean).join(' · ');
      out.push({
        key: `edge-${e.key}`,
        x: ex,
        y: b.y,
        h: b.h,
        tone: e.m.tone,
        dashed: false,
        future: false,
        label: text ? (e.side === 'right' ? `${text} →` : `← ${text}`) : null,
        anchor: e.side === 'right' ? 'end' : 'start',
        labelAt: e.m.labelAt ?? 'top',
        offscale: e.side,
        title: `${text} (outside the visible range)`,
      });
    }
    return out;
  }, [markers, layout, x, vis0, vis1, plotLeft, plotRight, handleViews]);

  const cursorX = x(cursorMs);
  const cursorVisible = cursorX >= plotLeft - 0.5 && cursorX <= plotRight + 0.5;
  const lanesBottom = height - BOTTOM_H;
  const maxMs = Math.max(domain[1], 1);

  return (
    <div className="tl" ref={wrapRef}>
      <div className="tl-tools" role="group" aria-label="Timeline zoom">
        <button type="button" onClick={() => zoomAround(2, null)} aria-label="Zoom in">
          +
        </button>
        <button type="button" onClick={() => zoomAround(0.5, null)} aria-label="Zoom out" disabled={!zoomed}>
          −
        </button>
        <button type="button" onClick={zoomFit} disabled={!zoomed}>
          Fit
        </button>
        <span className="tl-hint">Ctrl + wheel zooms · drag the background to pan · drag the ruler to scrub</span>
      </div>
      <svg ref={svgRef} className="tl-svg" width={width} height={height} role="group" aria-label={label}>
        <defs>
          <clipPath id={`${uid}-plot`}>
            <rect x={plotLeft - 8} y={0} width={plotRight - plotLeft + 16} height={height} />
          </clipPath>
          {TONES.map((t) => (
            <linearGradient key={t} id={`${uid}-fade-${t}`} x1="0" x2="1" y1="0" y2="0">
              <stop offset="0" style={{ stopColor: `var(--tone-${t})`, stopOpacity: 0.9 }} />
              <stop offset="1" style={{ stopColor: `var(--tone-${t})`, stopOpacity: 0 }} />
            </linearGradient>
          ))}
          {TONES.map((t) => (
            <marker key={t} id={`${uid}-head-${t}`} className={`tl-head ${toneClass(t)}`} viewBox="0 0 10 10" refX="8" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
              <path d="M0,0L10,5L0,10Z" />
            </marker>
          ))}
        </defs>

        {/* lanes */}
        <g className="tl-lanes">
          {layout.lanes.map((lane, i) => (
            <g key={lane.id} className={`tl-lane${i % 2 ? ' is-odd' : ''}`}>
              <rect className="tl-lane-bg" x={0} y={lane.y} width={width} height={lane.h} onPointerDown={onBgPointerDown} onPointerMove={onBgPointerMove} onPointerUp={onBgPointerUp} onPointerCancel={() => (pan.current = null)} />
              <text className="tl-lane-label" x={10} y={lane.y + 14}>
                {lane.label}
              </text>
              {lane.rows.map((row) =>
                row.label && row.h >= 14 ? (
                  <text key={row.id} className="tl-row-label" x={GUTTER - 10} y={row.y + (row.h >= 30 ? row.h * 0.55 : row.h / 2) + 4} textAnchor="end">
                    {row.label}
                  </text>
                ) : null,
              )}
            </g>
          ))}
        </g>

        {/* grid */}
        <g className="tl-grid" aria-hidden="true">
          {ticks.map((t) => (
            <line key={t} x1={x(t)} x2={x(t)} y1={AXIS_H} y2={lanesBottom} />
          ))}
        </g>

        {/* axis + scrub strip */}
        <g ref={scrubRef} className="tl-scrub" data-scrub="1" aria-hidden="true">
          <rect x={plotLeft - 6} y={0} width={plotRight - plotLeft + 12} height={AXIS_H} />
        </g>
        <g ref={axisRef} className="tl-axis" transform={`translate(0,${AXIS_H - 1})`} aria-hidden="true" pointerEvents="none" />
        <text className="tl-axis-unit" x={GUTTER - 10} y={AXIS_H - 12} textAnchor="end" aria-hidden="true">
          time (ms)
        </text>

        <g clipPath={`url(#${uid}-plot)`}>
          <g className="tl-bands">
            {bands.map((m) => (
              <BandView key={m.id} x1={x(m.at)} x2={x(m.to)} y={rowBox(m.lane, m.row).y + 3} h={rowBox(m.lane, m.row).h - 6} tone={m.tone} title={m.title} />
            ))}
          </g>
          <g className="tl-steps">
            {steps.map((m) => (
              <StepsView key={m.id} mark={m} x={x} box={rowBox(m.lane, m.row)} clipId={`${uid}-until-${m.id}`} plotLeft={plotLeft} />
            ))}
          </g>
          <g className="tl-spans">
            {spans.map((m) => {
              const x1 = x(m.at);
              const x2 = x(m.to);
              const b = rowBox(m.lane, m.row);
              const room = plotRight - x2;
              const endLabel = m.endLabel && b.h >= 26 ? m.endLabel : null;
              const labelW = (endLabel?.length ?? 0) * CHAR_W;
              const fitsRight = room > labelW + 10;
              const roomLeft = x2 - 6 - plotLeft - 2;
              // Room on neither side (a narrow screen): shorten the label on the roomier side (middle words
              // first, the whole label as its tooltip) rather than let the plot's edge clip it.
              const squeezed = endLabel !== null && !fitsRight && roomLeft < labelW;
              const anchor = fitsRight || (squeezed && room - 10 > roomLeft) ? 'start' : 'end';
              const shown = squeezed ? fitLabel(endLabel, anchor === 'start' ? room - 10 : roomLeft) : endLabel;
              return (
                <SpanView
                  key={m.id}
                  x1={x1}
                  x2={x2}
                  y={cy(m.lane, m.row)}
                  rowBottom={b.y + b.h}
                  thickness={m.thickness ?? 6}
                  tone={m.tone}
                  open={!!m.open}
                  future={!!m.future}
                  endCap={m.endCap ?? 'none'}
                  endLabel={shown || null}
                  endLabelAnchor={anchor}
                  endLabelFull={shown !== endLabel && endLabel !== null ? endLabel : undefined}
                  title={m.title}
                  gradientId={`${uid}-fade-${m.tone}`}
                />
              );
            })}
          </g>
          <g className="tl-markers">
            {markerViews.map(({ key, ...v }) => (
              <MarkerView key={key} {...v} />
            ))}
          </g>
          <g className="tl-arrows">
            {arrows.map((m) => {
              if (!inView(m.from.at) && !(m.to && inView(m.to.at)) && !(m.to && m.from.at < vis0 && m.to.at > vis1)) return null;
              const x1 = x(m.from.at);
              const y1 = cy(m.from.lane, m.from.row);
              let x2: number;
              let y2: number;
              if (m.to) {
                x2 = x(m.to.at);
                y2 = cy(m.to.lane, m.to.row);
              } else {
                // Never arrives: stop in the middle of the label lane.
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
              return (
                <ArrowView
                  key={m.id}
                  x1={x1}
                  y1={y1}
                  x2={x2}
                  y2={y2}
                  lost={!m.to}
                  tone={m.tone}
                  dashed={!!m.dashed}
                  future={!!m.future}
                  dotX={dotX}
                  dotY={dotY}
                  title={m.title}
                  markerId={`${uid}-head-${m.tone}`}
                />
              );
            })}
          </g>
          <g className="tl-arrow-labels" aria-hidden="true">
            {arrowLabels.map((l) => (
              <text key={l.key} className={`tl-arrow-label ${toneClass(l.tone)}${l.future ? ' is-future' : ''}`} x={l.x} y={l.y} textAnchor="middle">
                {l.text}
              </text>
            ))}
          </g>
          <g className="tl-points">
            {points.map((m) =>
              inView(m.at) ? (
                <PointView key={m.id} x={x(m.at)} y={cy(m.lane, m.row)} shape={m.shape} tone={m.tone} hollow={!!m.hollow} struck={!!m.struck} future={!!m.future} title={m.title} />
              ) : null,
            )}
          </g>
        </g>

        {/* playhead (under the handles so they stay grabbable) */}
        {cursorVisible && (
          <g className="tl-playhead" aria-hidden="true" pointerEvents="none">
            <line x1={cursorX} x2={cursorX} y1={AXIS_H - 8} y2={lanesBottom} />
            <path d={`M${cursorX - 6},${AXIS_H - 14}H${cursorX + 6}V${AXIS_H - 7}L${cursorX},${AXIS_H - 1}L${cursorX - 6},${AXIS_H - 7}Z`} />
            <text x={Math.min(Math.max(cursorX, plotLeft + 30), plotRight - 30)} y={lanesBottom + 15} textAnchor="middle">
              {formatTime(Math.floor(cursorMs))}
            </text>
          </g>
        )}

        <g className="tl-handle-labels" aria-hidden="true" pointerEvents="none" clipPath={`url(#${uid}-plot)`}>
          {handleViews.map((h) =>
            h.label !== null || h.tieOrder !== null ? (
              <HandleLabelView key={h.mark.id} x={h.x} y={cy(h.mark.lane, h.mark.row)} label={h.label} flip={h.flip} ignored={!!h.mark.ignored} future={!!h.mark.future} tieOrder={h.tieOrder} />
            ) : null,
          )}
        </g>
        <g ref={handlesRef} className="tl-handles" clipPath={`url(#${uid}-plot)`}>
          {handleViews.map((h) => (
            <HandleView
              key={h.mark.id}
              id={h.mark.id}
              x={h.x}
              y={cy(h.mark.lane, h.mark.row)}
              at={h.mark.at}
              maxMs={maxMs}
              shape={h.mark.shape}
              tone={h.mark.tone}
              ariaLabel={h.mark.ariaLabel}
              testId={h.mark.testId}
              title={h.mark.title}
              ignored={!!h.mark.ignored}
              selected={selectedId === h.mark.id}
              future={!!h.mark.future}
              helpId={handleHelpId}
              onKeyDown={onHandleKeyDown}
              onFocus={onHandleFocus}
            />
          ))}
        </g>
      </svg>
    </div>
  );
}

function StepsView({ mark, x, box, clipId, plotLeft }: { mark: StepsMark; x: LinearScale; box: RowBox; clipId: string; plotLeft: number }) {
  const base = box.y + box.h - 2;
  const top = box.y + 4;
  const yOf = (v: number) => base - (mark.max > 0 ? (v / mark.max) * (base - top) : 0);
  let d = '';
  const pts = mark.points;
  if (pts.length > 0) {
    d = `M${x(pts[0][0])},${base}`;
    for (let i = 0; i < pts.length; i++) {
      const [t, v] = pts[i];
      const xt = x(t);
      d += `L${xt},${i === 0 ? base : yOf(pts[i - 1][1])}L${xt},${yOf(v)}`;
    }
    const last = pts[pts.length - 1];
    const endX = x(x.domain()[1]);
    d += `L${Math.max(endX, x(last[0]))},${yOf(last[1])}L${Math.max(endX, x(last[0]))},${base}Z`;
  }
  const untilX = x(mark.until);
  return (
    <g className={`tl-stepsmark ${toneClass(mark.tone)}`}>
      {mark.title && <title>{mark.title}</title>}
      <clipPath id={clipId}>
        <rect x={plotLeft - 10} y={box.y} width={Math.max(0, untilX - plotLeft + 10)} height={box.h} />
      </clipPath>
      <path className="tl-steps-future" d={d} />
      <path className="tl-steps-past" d={d} clipPath={`url(#${clipId})`} />
      {mark.label && (
        // Room for the whole label before the plot's right edge (at least the 120 px kept before; bold 11 px is wider than CHAR_W).
        <text className="tl-steps-label" x={Math.max(plotLeft + 4, Math.min(untilX + 6, x(x.domain()[1]) - Math.max(120, Math.ceil(mark.label.length * (CHAR_W + 0.6)) + 6)))} y={top + 9}>
          {mark.label}
        </text>
      )}
    </g>
  );
}

/** Keeps a view window inside [d0, d1] (shifting, then shrinking if needed). */
function clampView(view: readonly [number, number], d0: number, d1: number): readonly [number, number] {
  let [a, b] = view;
  const span = Math.min(b - a, d1 - d0);
  if (a < d0) [a, b] = [d0, d0 + span];
  if (b > d1) [a, b] = [d1 - span, d1];
  return [a, b];
}

function splitMarks(marks: readonly TimelineMark[]) {
  const out = {
    bands: [] as BandMark[],
    spans: [] as SpanMark[],
    markers: [] as MarkerMark[],
    arrows: [] as ArrowMark[],
    points: [] as PointMark[],
    handles: [] as HandleMark[],
    steps: [] as StepsMark[],
  };
  for (const m of marks) {
    if (m.kind === 'band') out.bands.push(m);
    else if (m.kind === 'span') out.spans.push(m);
    else if (m.kind === 'marker') out.markers.push(m);
    else if (m.kind === 'arrow') out.arrows.push(m);
    else if (m.kind === 'point') out.points.push(m);
    else if (m.kind === 'handle') out.handles.push(m);
    else out.steps.push(m);
  }
  return out;
}

function niceStep(v: number): number {
  if (v <= 1) return 1;
  const p = Math.pow(10, Math.floor(Math.log10(v)));
  const m = v / p;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/**
 * `text` shortened to at most `maxW` px (at CHAR_W per character): middle words give way to "…"
 * first, keeping the first and last words; failing that, the end is cut. '' when nothing fits.
 */
function fitLabel(text: string, maxW: number): string {
  const maxChars = Math.floor(maxW / CHAR_W);
  if (text.length <= maxChars) return text;
  const words = text.split(' ');
  for (let drop = 1; drop <= words.length - 2; drop++) {
    const head = Math.ceil((words.length - drop) / 2);
    const t = [...words.slice(0, head), '…', ...words.slice(head + drop)].join(' ');
    if (t.length <= maxChars) return t;
  }
  return maxChars >= 4 ? `${text.slice(0, maxChars - 1)}…` : '';
}

interface PlacedHandle {
  mark: HandleMark;
  x: number;
  label: string | null;
  flip: boolean;
  tieOrder: number | null;
}

function placeHandles(handles: readonly HandleMark[], x: LinearScale, plotRight: number): PlacedHandle[] {
  const byRow = new Map<string, { mark: HandleMark; x: number }[]>();
  for (const mark of handles) {
    const k = `${mark.lane}/${mark.row}`;
    const list = byRow.get(k) ?? [];
    list.push({ mark, x: x(mark.at) });
    byRow.set(k, list);
  }
  const placed = new Map<string, PlacedHandle>();
  for (const list of byRow.values()) {
    list.sort((a, b) => a.x - b.x);
    // Clusters of handles within 3 px of each other.
    const clusters: { mark: HandleMark; x: number }[][] = [];
    for (const h of list) {
      const last = clusters[clusters.length - 1];
      if (last && h.x - last[0].x <= 3) last.push(h);
      else clusters.push([h]);
    }
    let labelEnd = -Infinity;
    clusters.forEach((cluster) => {
      const first = cluster[0];
      const groups = new Set(cluster.map((h) => h.mark.group ?? h.mark.label ?? ''));
      const text = cluster.length === 1 ? (first.mark.label ?? null) : groups.size === 1 ? `${[...groups][0]} ×${cluster.length}` : `${cluster.length} events`;
      const labelX = first.x - HANDLE_R + 1;
      const w = (text?.length ?? 0) * CHAR_W;
      // Near the right edge the label ends at the handle instead of starting there.
      const flip = labelX + w > plotRight + 12;
      const left = flip ? first.x + HANDLE_R - w : labelX;
      const show = text !== null && text !== '' && left >= labelEnd + 6;
      if (show) labelEnd = left + w;
      cluster.forEach((h, i) => {
        const isTop = i === cluster.length - 1;
        placed.set(h.mark.id, {
          mark: h.mark,
          x: h.x,
          label: show && isTop ? text : null,
          flip,
          tieOrder: cluster.length === 1 && h.mark.tieOrder ? h.mark.tieOrder : null,
        });
      });
    });
  }
  return handles.map((m) => placed.get(m.id) as PlacedHandle);
}

interface ArrowLabel {
  key: string;
  x: number;
  y: number;
  text: string;
  tone: Tone;
  future: boolean;
}

function placeArrowLabels(arrows: readonly ArrowMark[], x: LinearScale, layout: Layout, plotLeft: number, plotRight: number): ArrowLabel[] {
  // Group identical labels at (almost) the same place: "notifications/cancelled ×50".
  const groups = new Map<string, { arrow: ArrowMark; count: number; cx: number }>();
  for (const a of arrows) {
    if (!a.label || !a.labelLane) continue;
    const toAt = a.to ? a.to.at : a.from.at;
    const cx = (x(a.from.at) + x(toAt)) / 2;
    const k = `${a.labelLane}/${a.label}/${Math.round(cx / 4)}`;
    const g = groups.get(k);
    if (g) g.count++;
    else groups.set(k, { arrow: a, count: 1, cx });
  }
  const out: ArrowLabel[] = [];
  const items = [...groups.values()].sort((a, b) => a.cx - b.cx);
  const rowEnds = new Map<string, number[]>();
  for (const g of items) {
    const lane = g.arrow.labelLane as string;
    const boxes = layout.laneRows.get(lane);
    if (!boxes || boxes.length === 0) continue;
    const text = g.count > 1 ? `${g.arrow.label} ×${g.count}` : (g.arrow.label as string);
    const w = Math.ceil(text.length * 6.5) + 10; // 11px monospace is ~6.3 px a character
    const ends = rowEnds.get(lane) ?? boxes.map(() => -Infinity);
    rowEnds.set(lane, ends);
    for (let r = 0; r < boxes.length; r++) {
      const yMid = boxes[r].y + boxes[r].h / 2;
      // x where the arrow crosses this row's middle.
      const a = g.arrow;
      let cx = g.cx;
      if (a.to) {
        const { y: fy } = rowCenter(layout, a.from.lane, a.from.row);
        const { y: ty } = rowCenter(layout, a.to.lane, a.to.row);
        const t = ty === fy ? 0.5 : (yMid - fy) / (ty - fy);
        cx = x(a.from.at) + (x(a.to.at) - x(a.from.at)) * Math.min(Math.max(t, 0), 1);
      }
      if (cx < plotLeft - 2 || cx > plotRight + 2) continue; // arrow not in view here
      cx = Math.min(Math.max(cx, plotLeft + w / 2), plotRight - w / 2);
      if (cx - w / 2 >= ends[r]) {
        ends[r] = cx + w / 2;
        out.push({ key: `${a.id}`, x: cx, y: yMid + 4, text, tone: a.tone, future: !!a.future });
        break;
      }
    }
  }
  return out;
}

function rowCenter(layout: Layout, lane: string, row: string): { y: number } {
  const b = layout.rows.get(`${lane}/${row}`) ?? layout.laneRows.get(lane)?.[0] ?? { y: AXIS_H, h: 20 };
  return { y: b.y + (b.h >= 30 ? b.h * 0.55 : b.h / 2) };
}
