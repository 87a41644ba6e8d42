import { drag } from 'd3-drag';
import { select } from 'd3-selection';
import { handleOf, type Behaviour, type TimeView } from './types';

/** Read at every pointer event: the view, and the snap steps (ms) for plain and fine (Shift or Alt) drags. */
export interface HandleDragState extends TimeView {
  snapMs: number;
  fineSnapMs: number;
}

/**
 * What a handle drag reports, in order: `select` on pointer down; `start` once the handle first
 * moves to another time (with the domain to freeze while dragging); `widen` when the drag nears the
 * domain's end and it grows; `move` with each new time (ms, snapped); `end` on release after a start.
 */
export type HandleDragChange =
  | { type: 'select'; id: string }
  | { type: 'start'; id: string; domain: readonly [number, number] }
  | { type: 'widen'; domain: readonly [number, number] }
  | { type: 'move'; id: string; ms: number }
  | { type: 'end'; id: string };

/** The gesture steps, driven by d3-drag (pointer x in the container's px) or directly (tests). */
export interface HandleDragInstance extends Behaviour<{ layer: Element; container: Element }> {
  start(id: string, at: number): void;
  move(pointerX: number, fine: boolean): void;
  end(): void;
}

/**
 * Dragging handles along time: one delegated d3-drag on the handles layer, picking the
 * `[data-handle]` element under the pointer (its `data-at` is the start time). The pointer's x is
 * clamped to the plot, inverted through the scale and snapped (`snapMs`, or `fineSnapMs` with Shift
 * or Alt), never below 0 ms. A drag may take an event past the end of the view, but at most to twice
 * the shown range (the domain widens with it up to there), so it never runs away while the pointer
 * rests beyond the edge. A press that never changes the time selects without starting a drag.
 */
export function XYHandleDrag({ getState, onChange }: { getState(): HandleDragState; onChange(change: HandleDragChange): void }): HandleDragInstance {
  let active: { id: string; startAt: number; started: boolean; last: number; limitMs: number; domain: readonly [number, number] } | null = null;
  let layer: Element | null = null;

  const start = (id: string, at: number) => {
    const s = getState();
    active = { id, startAt: at, started: false, last: at, limitMs: Math.max(s.domain[1] * 2, at), domain: s.domain };
    onChange({ type: 'select', id });
  };

  const move = (pointerX: number, fine: boolean) => {
    if (!active) return;
    const s = getState();
    const step = fine ? s.fineSnapMs : s.snapMs;
    // Past the right edge the pointer counts as at the edge; the domain widens (below) to let the event go further.
    const raw = s.x.invert(Math.min(Math.max(pointerX, s.plotLeft), s.plotRight));
    const ms = Math.min(Math.max(0, Math.round(raw / step) * step), active.limitMs);
    if (!active.started) {
      if (ms === active.startAt) return;
      active.started = true;
      active.domain = s.domain;
      onChange({ type: 'start', id: active.id, domain: active.domain });
    }
    // Near or past the end of the shown range, widen it (the domain stays frozen otherwise).
    const [da, db] = active.domain;
    if (ms > da + (db - da) * 0.97 && db < active.limitMs) {
      active.domain = [da, Math.min(active.limitMs, Math.ceil(ms + (db - da) * 0.08))];
      onChange({ type: 'widen', domain: active.domain });
    }
    if (ms !== active.last) {
      active.last = ms;
      onChange({ type: 'move', id: active.id, ms });
    }
  };

  const end = () => {
    if (active?.started) onChange({ type: 'end', id: active.id });
    active = null;
  };

  const detach = () => {
    if (layer) select(layer).on('.drag', null);
    layer = null;
  };

  return {
    start,
    move,
    end,
    update({ layer: next, container }) {
      if (next === layer) return;
      detach();
      layer = next;
      const behavior = drag<Element, unknown>()
        .container(() => container as SVGSVGElement)
        .filter((event: MouseEvent) => !event.button && handleOf(event.target) !== null)
        .subject((event: { sourceEvent: Event; x: number; y: number }) => {
          const el = handleOf(event.sourceEvent.target);
          if (!el) return null;
          const at = Number(el.getAttribute('data-at'));
          return { id: el.getAttribute('data-handle') ?? '', at, x: getState().x(at), y: event.y };
        })
        .clickDistance(3)
        .on('start', (event: { subject: { id: string; at: number } }) => start(event.subject.id, event.subject.at))
        .on('drag', (event: { x: number; sourceEvent: MouseEvent }) => move(event.x, !!(event.sourceEvent?.shiftKey || event.sourceEvent?.altKey)))
        .on('end', end);
      select(next).call(behavior);
    },
    destroy() {
      detach();
      active = null;
    },
  };
}
