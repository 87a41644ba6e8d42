import { drag } from 'd3-drag';
import { select } from 'd3-selection';
import type { Behaviour, TimeView } from './types';

/** Read at every scrub event: the view, and the times the playhead sticks to (sorted, ms). */
export interface ScrubState extends TimeView {
  snapTimes?: readonly number[];
}

/**
 * The time (ms) the playhead goes to for pointer x `px` (container px): `px` clamped to the plot and
 * inverted through the scale, rounded to a whole ms; a snap time within 6 px wins (the nearest);
 * the result is kept inside [max(0, domain start), domain end].
 */
export function scrubMs(px: number, s: ScrubState): number {
  const clamped = Math.min(Math.max(px, s.plotLeft), s.plotRight);
  let ms = Math.round(s.x.invert(clamped));
  if (s.snapTimes && s.snapTimes.length > 0) {
    let best: number | null = null;
    for (const t of s.snapTimes) {
      const d = Math.abs(s.x(t) - clamped);
      if (d <= 6 && (best === null || d < Math.abs(s.x(best) - clamped))) best = t;
    }
    if (best !== null) ms = best;
  }
  const [a, b] = s.domain;
  return Math.min(Math.max(ms, Math.max(0, a)), b);
}

/** Scrubbing: a d3-drag on the axis strip; a press and every move seek to `scrubMs` of the pointer. `seekAt` does the same for a click elsewhere. */
export interface ScrubInstance extends Behaviour<{ strip: Element; container: Element }> {
  seekAt(px: number): void;
}

/** Creates the scrub behaviour: `onSeek(ms)` is called for each press or move on the strip. */
export function XYScrub({ getState, onSeek }: { getState(): ScrubState; onSeek(ms: number): void }): ScrubInstance {
  let strip: Element | null = null;
  const seekAt = (px: number) => onSeek(scrubMs(px, getState()));
  const detach = () => {
    if (strip) select(strip).on('.drag', null);
    strip = null;
  };
  return {
    seekAt,
    update({ strip: next, container }) {
      if (next === strip) return;
      detach();
      strip = next;
      const behavior = drag<Element, unknown>()
        .container(() => container as SVGSVGElement)
        .on('start', (event: { x: number }) => seekAt(event.x))
        .on('drag', (event: { x: number }) => seekAt(event.x));
      select(next).call(behavior);
    },
    destroy: detach,
  };
}
