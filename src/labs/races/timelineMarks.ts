import type { HandleMark, TimelineMark } from '../../charts/timelineTypes';
import type { RacesTrace } from '../../sim/races';
import { racesStateAt } from '../../store/racesStore';
import { wireArrows, type StaticArrow } from './marks/arrows';
import { busyMark, busyOverTime } from './marks/busy';
import { scriptHandles } from './marks/handles';
import { racesLayout, stableStepIds, type RacesTimelineLayout } from './marks/layout';
import { timerPoints, type StaticPoint } from './marks/points';
import { requestMarks } from './marks/requests';
import { workMarks } from './marks/work';

/**
 * Maps a races trace onto the generic timeline, one file per mark kind under `./marks/`: the layout
 * (lanes client, wire, server, worker; one row per request, or thin stacked rows past
 * COMPACT_AFTER requests), scripted events as handles, wire effects as arrows from sender to
 * receiver, model timers as points, the request bar with its deadlines as of the playhead, the
 * server's work per request, and (compact) how many workers are busy.
 */

export { COMPACT_AFTER, racesLayout, requestLabel, type RacesTimelineLayout } from './marks/layout';
export { effectLabel } from './marks/arrows';
export { stateTone } from './marks/requests';

/** The parts of the drawing that depend on the trace only (computed once per trace). */
export interface RacesStatic {
  layout: RacesTimelineLayout;
  handles: Omit<HandleMark, 'future'>[];
  arrows: StaticArrow[];
  points: StaticPoint[];
  /** Compact mode: [time, busy workers]. */
  busy: [number, number][];
  maxBusy: number;
}

/** The static parts of `trace`'s drawing: layout, handles, arrows, points and busy workers. */
export function racesStatic(trace: RacesTrace): RacesStatic {
  const layout = racesLayout(trace);
  const ids = stableStepIds(trace);
  const { busy, maxBusy } = busyOverTime(trace, layout.compact);
  return { layout, handles: scriptHandles(trace, layout), arrows: wireArrows(trace, layout, ids), points: timerPoints(trace, layout, ids), busy, maxBusy };
}

/** Every mark for the playhead at `cursorMs`. */
export function racesMarks(st: RacesStatic, trace: RacesTrace, cursorMs: number): TimelineMark[] {
  const out: TimelineMark[] = [];
  const state = racesStateAt(trace, cursorMs);
  const { layout } = st;
  state.requests.forEach((r, i) => {
    out.push(...requestMarks(r, cursorMs, trace.endAt, layout, !layout.compact || i === 0));
    if (!layout.compact) out.push(...workMarks(r, cursorMs, layout));
  });
  if (layout.compact) out.push(busyMark(st.busy, st.maxBusy, trace.outcome.requests.length, cursorMs));
  for (const a of st.arrows) {
    const future = a.sentAt > cursorMs;
    const inFlight = !future && a.arrivesAt !== null && cursorMs < a.arrivesAt;
    out.push({ ...a.mark, future, dotAt: inFlight ? cursorMs : null });
  }
  for (const p of st.points) out.push({ kind: 'point', ...p, future: p.at > cursorMs });
  for (const h of st.handles) out.push({ ...h, future: h.at > cursorMs });
  return out;
}
