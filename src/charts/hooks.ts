import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { axisTop } from 'd3-axis';
import { select } from 'd3-selection';
import { formatMs } from './format';
import type { LinearScale } from './scale';
import type { Behaviour } from './behaviours/types';

/** Width (px, at least 320; 900 before the first measure, e.g. when rendered on a server) of `ref`'s element, following resizes. */
export function useElementWidth(ref: RefObject<HTMLElement | null>): number {
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

/** Number of axis ticks for a plot `plotW` px wide: one per 96 px, at least 2. */
export const tickCount = (plotW: number) => Math.max(2, Math.floor(plotW / 96));

/** Draws the time axis (d3-axis, labels `formatMs`) into `ref`'s group whenever the scale changes. */
export function useAxis(ref: RefObject<SVGGElement | null>, x: LinearScale, plotW: number): void {
  useLayoutEffect(() => {
    const g = ref.current;
    if (!g) return;
    select(g)
      .call(axisTop<number>(x).ticks(tickCount(plotW)).tickFormat((v) => formatMs(Number(v))).tickSizeOuter(0))
      .call((sel) => sel.selectAll('text').attr('class', 'tl-axis-text'))
      .call((sel) => sel.selectAll<SVGGElement, number>('.tick text').attr('text-anchor', (v) => tickAnchor(x(v), x.range()[1])));
  }, [ref, x, plotW]);
}

/**
 * A tick label's anchor: centred under its tick, but ending at it when centring would cut it at the
 * plot's right edge (Resilience S2's "22 000" was clipped there, issue 27).
 */
export function tickAnchor(tickX: number, rightX: number, halfLabelPx = 22): 'middle' | 'end' {
  return tickX + halfLabelPx > rightX ? 'end' : 'middle';
}

/**
 * Runs a behaviour factory for the component's lifetime: created once after mount (`create`, which
 * reads the latest props through refs), `update(elements())` after every render (a no-op unless the
 * elements changed), `destroy` on unmount. Returns a ref to the instance (null before mount).
 */
export function useBehaviour<E, B extends Behaviour<E>>(create: () => B, elements: () => E | null): RefObject<B | null> {
  const holder = useRef<B | null>(null);
  useEffect(() => {
    const b = create();
    holder.current = b;
    return () => {
      b.destroy();
      holder.current = null;
    };
    // Created once: `create` reads everything it needs through refs.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => {
    const els = elements();
    if (els && holder.current) holder.current.update(els);
  });
  return holder;
}
