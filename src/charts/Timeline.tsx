import { useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { XYHandleDrag, type HandleDragState } from './behaviours/handleDrag';
import { XYKeyboard, type KeyboardState } from './behaviours/keyboard';
import { XYPanZoom, type PanZoomState, type ViewWindow } from './behaviours/panZoom';
import { XYScrub, type ScrubState } from './behaviours/scrub';
import { neutraliseBidi } from './format';
import { tickCount, useAxis, useBehaviour, useElementWidth } from './hooks';
import { arrowLabelPlacer, handlePlacer, placeMarkers, spanLabelObstacles } from './labels';
import { AXIS_H, BOTTOM_H, clampView, GUTTER, layoutCache, marksSplitter, RIGHT_PAD } from './layout';
import { ArrowLabelLayer, ArrowLayer } from './marks/ArrowMarks';
import { BandLayer } from './marks/BandMarks';
import { TimelineDefs } from './marks/Defs';
import { HandleLabelLayer, HandleLayer } from './marks/HandleMarks';
import { HoverTitle } from './marks/HoverTitle';
import { GridLayer, LanesLayer } from './marks/Lanes';
import { MarkerLayer } from './marks/MarkerMarks';
import { Playhead } from './marks/Playhead';
import { PointLayer } from './marks/PointMarks';
import { SpanLayer } from './marks/SpanMarks';
import { StepsLayer } from './marks/StepsMarks';
import { linearScale } from './scale';
import type { TimelineProps } from './timelineTypes';
import './timeline.css';

export type { TimelineProps } from './timelineTypes';

/**
 * A generic time-lane chart: lanes of rows on a linear time scale (ms), with draggable handles,
 * points, spans (open-ended when their outcome is not known yet), arrows between lanes, vertical
 * markers, background bands and step series, plus a playhead. This component only wires the parts:
 * the layout (`layout.ts`, `labels.ts`), one layer per mark kind (`marks/`), and four framework-free
 * behaviours (`behaviours/`: handle drag and scrub over d3-drag, pan/zoom of a view window, keyboard)
 * that read the latest props through `getState` and report through callbacks.
 *
 * Handles are focusable sliders: ←/→ move by `snapMs` (Shift: `fineSnapMs`), PageUp/PageDown by a
 * tenth of the visible range, Alt+←/→ or [ ] reorder among same-time handles.
 */
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
  // The domain while a handle is dragged (it only widens then), so the scale does not shift under the pointer.
  const [frozenDomain, setFrozenDomain] = useState<readonly [number, number] | null>(null);

  // The same Layout object while the lanes lay out the same (labs rebuild their lanes per trace).
  const layoutOf = useMemo(() => layoutCache(), []);
  const layout = useMemo(() => layoutOf(lanes), [layoutOf, lanes]);
  const plotLeft = GUTTER;
  const plotRight = width - RIGHT_PAD;
  const activeDomain = frozenDomain ?? domain;
  const view = viewState !== null && viewState.key === resetKey ? clampView(viewState.view, activeDomain[0], activeDomain[1]) : null;
  const v0 = view ? view[0] : activeDomain[0];
  const v1 = view ? view[1] : activeDomain[1];
  const x = useMemo(() => linearScale([v0, v1], [plotLeft, plotRight]), [v0, v1, plotLeft, plotRight]);
  const ticks = useMemo(() => x.ticks(tickCount(plotRight - plotLeft)), [x, plotLeft, plotRight]);
  useAxis(axisRef, x, plotRight - plotLeft);

  // Latest values for the behaviours (whose listeners outlive a render).
  type Live = HandleDragState & ScrubState & PanZoomState & KeyboardState & { props: TimelineProps };
  const live = useRef<Live | null>(null);
  useLayoutEffect(() => {
    live.current = { props, x, plotLeft, plotRight, domain: activeDomain, snapMs: props.snapMs ?? 10, fineSnapMs: props.fineSnapMs ?? 1, snapTimes: props.snapTimes, cursorMs: props.cursorMs, visible: x.domain() };
  });
  const state = () => live.current as Live;
  const setView = (v: ViewWindow) => setViewState(v === null ? null : { key: state().props.resetKey, view: v });

  const scrub = useBehaviour(
    () => XYScrub({ getState: state, onSeek: (ms) => state().props.onSeek(ms) }),
    () => (scrubRef.current && svgRef.current ? { strip: scrubRef.current, container: svgRef.current } : null),
  );
  const panZoom = useBehaviour(
    () => XYPanZoom({ getState: state, onView: setView, onClick: (px) => scrub.current?.seekAt(px) }),
    () => (svgRef.current ? { svg: svgRef.current } : null),
  );
  useBehaviour(
    () =>
      XYHandleDrag({
        getState: state,
        onChange: (c) => {
          const p = state().props;
          if (c.type === 'select') p.onHandleSelect?.(c.id);
          else if (c.type === 'start') {
            setFrozenDomain(c.domain);
            p.onHandleDragStart?.(c.id);
          } else if (c.type === 'widen') {
            live.current!.domain = c.domain;
            setFrozenDomain(c.domain);
          } else if (c.type === 'move') p.onHandleMove?.(c.id, c.ms);
          else {
            p.onHandleDragEnd?.(c.id);
            setFrozenDomain(null);
          }
        },
      }),
    () => (handlesRef.current && svgRef.current ? { layer: handlesRef.current, container: svgRef.current } : null),
  );
  useBehaviour(
    () =>
      XYKeyboard({
        getState: state,
        onMove: (m) => (m.type === 'nudge' ? state().props.onHandleNudge?.(m.id, m.deltaMs) : state().props.onHandleReorder?.(m.id, m.direction)),
        onFocus: (id) => state().props.onHandleSelect?.(id),
      }),
    () => (handlesRef.current ? { layer: handlesRef.current } : null),
  );

  // ───── place marks ─────
  // A splitter and placers that remember their last answer: a drag move re-places only what it changed.
  const split = useMemo(() => marksSplitter(), []);
  const { bands, spans, markers, arrows, points, handles, steps } = useMemo(() => split(marks), [split, marks]);
  const placeHandles = useMemo(() => handlePlacer(), []);
  const placeArrowLabels = useMemo(() => arrowLabelPlacer(), []);
  const handleViews = useMemo(() => placeHandles(handles, x, plotRight, layout), [placeHandles, handles, x, plotRight, layout]);
  const arrowLabels = useMemo(() => placeArrowLabels(arrows, x, layout, plotLeft, plotRight), [placeArrowLabels, arrows, x, layout, plotLeft, plotRight]);
  const spanObstacles = useMemo(() => spanLabelObstacles(spans, arrows, handleViews, x, layout), [spans, arrows, handleViews, x, layout]);
  const markerViews = useMemo(() => placeMarkers(markers, x, layout, plotLeft, plotRight, handleViews), [markers, x, layout, plotLeft, plotRight, handleViews]);

  const height = layout.height;
  const lanesBottom = height - BOTTOM_H;
  const clip = `url(#${uid}-plot)`;
  const zoomed = view !== null;

  return (
    <div className="tl" ref={wrapRef}>
      <div className="tl-tools" role="group" aria-label="Timeline zoom">
        <button type="button" onClick={() => panZoom.current?.zoomBy(2, null)} aria-label="Zoom in">
          +
        </button>
        <button type="button" onClick={() => panZoom.current?.zoomBy(0.5, null)} aria-label="Zoom out" disabled={!zoomed}>
          −
        </button>
        <button type="button" onClick={() => panZoom.current?.fit()} disabled={!zoomed}>
          Fit
        </button>
        <span className="tl-hint">Ctrl + wheel zooms · drag the background to pan · drag the ruler to scrub</span>
      </div>
      <svg ref={svgRef} className="tl-svg" width={width} height={height} role="group" aria-label={neutraliseBidi(label)}>
        <TimelineDefs uid={uid} plotLeft={plotLeft} plotRight={plotRight} height={height} />
        <LanesLayer layout={layout} width={width} />
        <GridLayer ticks={ticks} x={x} bottom={lanesBottom} />

        {/* axis + scrub strip */}
        <g ref={scrubRef} className="tl-scrub" data-scrub="1" aria-hidden="true">
          <rect x={plotLeft - 6} y={0} width={plotRight - plotLeft + 12} height={AXIS_H} />
        </g>
        <g ref={axisRef} className="tl-axis" transform={`translate(0,${AXIS_H - 1})`} aria-hidden="true" pointerEvents="none" />
        <text className="tl-axis-unit" x={GUTTER - 10} y={AXIS_H - 12} textAnchor="end" aria-hidden="true">
          time (ms)
        </text>

        <g clipPath={clip}>
          <BandLayer bands={bands} x={x} layout={layout} />
          <StepsLayer steps={steps} x={x} layout={layout} plotLeft={plotLeft} uid={uid} />
          <SpanLayer spans={spans} x={x} layout={layout} plotLeft={plotLeft} plotRight={plotRight} uid={uid} obstacles={spanObstacles} />
          <MarkerLayer markers={markerViews} />
          <ArrowLayer arrows={arrows} x={x} layout={layout} />
          <ArrowLabelLayer labels={arrowLabels} />
          <PointLayer points={points} x={x} layout={layout} />
          <HoverTitle svgRef={svgRef} points={points} arrows={arrows} x={x} layout={layout} />
        </g>

        {/* playhead (under the handles so they stay grabbable) */}
        <Playhead cursorMs={cursorMs} cursorX={x(cursorMs)} plotLeft={plotLeft} plotRight={plotRight} bottom={lanesBottom} />
        <HandleLabelLayer handles={handleViews} layout={layout} clip={clip} />
        {/* aria-valuemax from the domain as frozen while dragging: a move that shifts the range's end does not rewrite every handle */}
        <HandleLayer ref={handlesRef} handles={handleViews} layout={layout} clip={clip} maxMs={Math.max(activeDomain[1], 1)} selectedId={selectedId} helpId={handleHelpId} />
      </svg>
    </div>
  );
}
