import { useEffect, useState, type RefObject } from 'react';
import { inView, rowBox, rowCenterY, type Layout } from '../layout';
import type { LinearScale } from '../scale';
import type { ArrowMark, PointMark } from '../timelineTypes';
import { arrowGeometry } from './ArrowMarks';

/** What the pointer rests on: a point (a circle of radius 6) or an arrow (a segment 8 px wide), with its title. */
export type HoverTarget = { title: string; x: number; y: number } | { title: string; x1: number; y1: number; x2: number; y2: number };

/** Distance (px) from p to the segment a–b. */
function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/**
 * The titled point or arrow under chart position (`mx`, `my`) px, or null: points within 6 px of
 * their centre first (they are drawn over the arrows), then arrows within 4 px of their line — the
 * hit areas the per-mark elements had before the layers were drawn as merged paths.
 */
export function hoverTargetAt(mx: number, my: number, points: readonly PointMark[], arrows: readonly ArrowMark[], x: LinearScale, layout: Layout): HoverTarget | null {
  const [v0, v1] = x.domain();
  for (let i = points.length - 1; i >= 0; i--) {
    const m = points[i];
    if (!m.title || !inView(m.at, v0, v1)) continue;
    const cx = x(m.at);
    if (Math.abs(cx - mx) > 6) continue;
    const cy = rowCenterY(rowBox(layout, m.lane, m.row));
    if (Math.hypot(cx - mx, cy - my) <= 6) return { title: m.title, x: cx, y: cy };
  }
  for (let i = arrows.length - 1; i >= 0; i--) {
    const m = arrows[i];
    if (!m.title) continue;
    const g = arrowGeometry(m, x, layout);
    if (g !== null && segmentDistance(mx, my, g.x1, g.y1, g.x2, g.y2) <= 4) return { title: m.title, x1: g.x1, y1: g.y1, x2: g.x2, y2: g.y2 };
  }
  return null;
}

/**
 * The tooltip of the point or arrow under a resting pointer: the layers draw many marks as one
 * `<path>`, so the chart keeps a single transparent element with that mark's `<title>` where the
 * pointer is (looked up on `pointermove` over `svgRef` while no button is held). Its own state:
 * hovering re-renders nothing else.
 */
export function HoverTitle({ svgRef, points, arrows, x, layout }: { svgRef: RefObject<SVGSVGElement | null>; points: readonly PointMark[]; arrows: readonly ArrowMark[]; x: LinearScale; layout: Layout }) {
  const [target, setTarget] = useState<HoverTarget | null>(null);
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const onMove = (e: PointerEvent) => {
      if (e.buttons !== 0) return;
      const box = svg.getBoundingClientRect();
      const next = hoverTargetAt(e.clientX - box.left, e.clientY - box.top, points, arrows, x, layout);
      setTarget((prev) => (prev?.title === next?.title && prev !== null && next !== null && JSON.stringify(prev) === JSON.stringify(next) ? prev : next));
    };
    const onLeave = () => setTarget(null);
    svg.addEventListener('pointermove', onMove);
    svg.addEventListener('pointerleave', onLeave);
    return () => {
      svg.removeEventListener('pointermove', onMove);
      svg.removeEventListener('pointerleave', onLeave);
    };
  }, [svgRef, points, arrows, x, layout]);
  if (target === null) return null;
  return (
    <g className="tl-hover">
      <title>{target.title}</title>
      {'x1' in target ? <line x1={target.x1} y1={target.y1} x2={target.x2} y2={target.y2} /> : <circle cx={target.x} cy={target.y} r={6} />}
    </g>
  );
}
