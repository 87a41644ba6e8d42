import { stepsLabelX } from '../labels';
import { rowBox, type Layout, type RowBox } from '../layout';
import type { LinearScale } from '../scale';
import type { StepsMark } from '../timelineTypes';
import { toneClass } from './tone';

/**
 * The SVG path of a step series in `box`: filled down to the row's baseline (2 px above its bottom),
 * `max` at 4 px below its top, held from the last point to the end of the view.
 */
export function stepsPath(mark: StepsMark, x: LinearScale, box: RowBox): string {
  const base = box.y + box.h - 2;
  const top = box.y + 4;
  const yOf = (v: number) => base - (mark.max > 0 ? (v / mark.max) * (base - top) : 0);
  const pts = mark.points;
  if (pts.length === 0) return '';
  let d = `M${x(pts[0][0])},${base}`;
  for (let i = 0; i < pts.length; i++) {
    const [t, v] = pts[i];
    const xt = x(t);
    d += `L${xt},${i === 0 ? base : yOf(pts[i - 1][1])}L${xt},${yOf(v)}`;
  }
  const last = pts[pts.length - 1];
  const endX = Math.max(x(x.domain()[1]), x(last[0]));
  return `${d}L${endX},${yOf(last[1])}L${endX},${base}Z`;
}

function StepsView({ mark, x, box, clipId, plotLeft }: { mark: StepsMark; x: LinearScale; box: RowBox; clipId: string; plotLeft: number }) {
  const d = stepsPath(mark, x, box);
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
        <text className="tl-steps-label" x={stepsLabelX(mark, x, plotLeft)} y={box.y + 4 + 9}>
          {mark.label}
        </text>
      )}
    </g>
  );
}

/** Step series (e.g. busy workers): solid up to `until`, faint after; ids of their clip paths start with `uid`. */
export function StepsLayer({ steps, x, layout, plotLeft, uid }: { steps: readonly StepsMark[]; x: LinearScale; layout: Layout; plotLeft: number; uid: string }) {
  return (
    <g className="tl-steps">
      {steps.map((m) => (
        <StepsView key={m.id} mark={m} x={x} box={rowBox(layout, m.lane, m.row)} clipId={`${uid}-until-${m.id}`} plotLeft={plotLeft} />
      ))}
    </g>
  );
}
