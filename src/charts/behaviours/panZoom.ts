import { clampView } from '../layout';
import type { Behaviour, TimeView } from './types';

/** Read at every zoom or pan event: the view and the playhead (ms), the default centre of a button zoom. */
export interface PanZoomState extends TimeView {
  cursorMs: number;
}

/** A view window [from, to] (ms) inside the domain, or null: show the whole domain. */
export type ViewWindow = readonly [number, number] | null;

/**
 * The window after zooming by `factor` (> 1 in, < 1 out) around pixel `centerPx` (container px; null:
 * the playhead, clamped to the plot), keeping the time under the centre in place. At least 5 ms is
 * shown; a window as wide as the domain (or wider) is null (fit).
 */
export function zoomWindow(s: PanZoomState, factor: number, centerPx: number | null): ViewWindow {
  const [a, b] = s.x.domain();
  const [da, db] = s.domain;
  const c = s.x.invert(centerPx ?? Math.min(Math.max(s.x(s.cursorMs), s.plotLeft), s.plotRight));
  const span = Math.max((b - a) / factor, 5);
  if (span >= db - da) return null;
  const ratio = (c - a) / (b - a);
  return clampView([c - span * ratio, c - span * ratio + span], da, db);
}

/**
 * The window `start` (ms) panned by a pointer move of `dx` px (dragging right shows earlier times),
 * kept inside the domain; undefined when `start` already shows everything (nothing to pan).
 */
export function panWindow(s: TimeView, start: readonly [number, number], dx: number): ViewWindow | undefined {
  const [a, b] = start;
  const [da, db] = s.domain;
  if (b - a >= db - da) return undefined;
  const shift = (-dx / Math.max(s.plotRight - s.plotLeft, 1)) * (b - a);
  return clampView([a + shift, b + shift], da, db);
}

/** Zoom and pan of the view window; the pointer steps are exposed for tests (ids are pointer ids, x is clientX). */
export interface PanZoomInstance extends Behaviour<{ svg: Element }> {
  zoomBy(factor: number, centerPx: number | null): void;
  fit(): void;
  pointerDown(pointerId: number, clientX: number): void;
  pointerMove(pointerId: number, clientX: number): void;
  /** Ends a press; a press that did not move (4 px) is a click: `onClick(clientX)`. */
  pointerUp(pointerId: number, clientX: number): void;
  cancel(): void;
}

/**
 * Creates zoom (buttons via `zoomBy`/`fit`, Ctrl/⌘ + wheel around the pointer: a factor of
 * 2^(−deltaY/250)) and pan (drag a lane's background, `.tl-lane-bg`, after 4 px) of the view window.
 * `onView` receives each new window; `onClick(px)` a background press that did not pan (px relative
 * to the svg's left edge). Kept local rather than d3-zoom: the window is one-dimensional and the
 * plain wheel must keep scrolling the page.
 */
export function XYPanZoom({ getState, onView, onClick }: { getState(): PanZoomState; onView(view: ViewWindow): void; onClick(px: number): void }): PanZoomInstance {
  let svg: Element | null = null;
  let pan: { id: number; startX: number; view: readonly [number, number]; moved: boolean } | null = null;

  const zoomBy = (factor: number, centerPx: number | null) => onView(zoomWindow(getState(), factor, centerPx));
  const left = () => svg?.getBoundingClientRect().left ?? 0;
  const inst: PanZoomInstance = {
    zoomBy,
    fit: () => onView(null),
    pointerDown(id, clientX) {
      pan = { id, startX: clientX, view: getState().x.domain(), moved: false };
    },
    pointerMove(id, clientX) {
      if (!pan || pan.id !== id) return;
      const dx = clientX - pan.startX;
      if (!pan.moved && Math.abs(dx) < 4) return;
      pan.moved = true;
      const next = panWindow(getState(), pan.view, dx);
      if (next !== undefined) onView(next);
    },
    pointerUp(id, clientX) {
      const p = pan;
      pan = null;
      if (!p || p.id !== id || p.moved) return;
      onClick(clientX - left());
    },
    cancel() {
      pan = null;
    },
    update({ svg: next }) {
      if (next === svg) return;
      detach();
      svg = next;
      next.addEventListener('wheel', onWheel as EventListener, { passive: false });
      next.addEventListener('pointerdown', onDown as EventListener);
      next.addEventListener('pointermove', onMove as EventListener);
      next.addEventListener('pointerup', onUp as EventListener);
      next.addEventListener('pointercancel', onCancel);
    },
    destroy() {
      detach();
      pan = null;
    },
  };

  function onWheel(e: WheelEvent) {
    if (!(e.ctrlKey || e.metaKey)) return;
    e.preventDefault();
    zoomBy(Math.pow(2, -e.deltaY / 250), e.clientX - left());
  }
  function onDown(e: PointerEvent) {
    const bg = (e.target as Element | null)?.closest?.('.tl-lane-bg');
    if (!bg || e.button !== 0) return;
    (bg as Element & { setPointerCapture?(id: number): void }).setPointerCapture?.(e.pointerId);
    inst.pointerDown(e.pointerId, e.clientX);
  }
  const onMove = (e: PointerEvent) => inst.pointerMove(e.pointerId, e.clientX);
  const onUp = (e: PointerEvent) => inst.pointerUp(e.pointerId, e.clientX);
  const onCancel = () => inst.cancel();
  function detach() {
    if (!svg) return;
    svg.removeEventListener('wheel', onWheel as EventListener);
    svg.removeEventListener('pointerdown', onDown as EventListener);
    svg.removeEventListener('pointermove', onMove as EventListener);
    svg.removeEventListener('pointerup', onUp as EventListener);
    svg.removeEventListener('pointercancel', onCancel);
    svg = null;
  }
  return inst;
}
