import { formatTime } from '../format';
import { AXIS_H } from '../layout';

/** The playhead: a line with a flag on the axis and its time under the lanes (kept inside the plot). Not drawn when out of view. */
export function Playhead({ cursorMs, cursorX, plotLeft, plotRight, bottom }: { cursorMs: number; cursorX: number; plotLeft: number; plotRight: number; bottom: number }) {
  if (!(cursorX >= plotLeft - 0.5 && cursorX <= plotRight + 0.5)) return null;
  return (
    <g className="tl-playhead" aria-hidden="true" pointerEvents="none">
      <line x1={cursorX} x2={cursorX} y1={AXIS_H - 8} y2={bottom} />
      <path d={`M${cursorX - 6},${AXIS_H - 14}H${cursorX + 6}V${AXIS_H - 7}L${cursorX},${AXIS_H - 1}L${cursorX - 6},${AXIS_H - 7}Z`} />
      <text x={Math.min(Math.max(cursorX, plotLeft + 30), plotRight - 30)} y={bottom + 15} textAnchor="middle">
        {formatTime(Math.floor(cursorMs))}
      </text>
    </g>
  );
}
