import type { TimelineMark } from '../../../charts/timelineTypes';
import type { RacesTrace } from '../../../sim/races';

/** Steps mark (compact mode): how many server workers are busy over time. */

/** [time, busy workers] at each change, from 0; empty unless `compact`. */
export function busyOverTime(trace: RacesTrace, compact: boolean): { busy: [number, number][]; maxBusy: number } {
  const busy: [number, number][] = [];
  let maxBusy = 0;
  if (compact) {
    const working = new Set<string>();
    busy.push([0, 0]);
    for (const step of trace.steps) {
      for (const key of step.state.touched) {
        const i = step.state.indexOf[key];
        const r = i === undefined ? undefined : step.state.requests[i];
        if (r && r.server.state === 'working') working.add(key);
        else working.delete(key);
      }
      const last = busy[busy.length - 1];
      if (last[1] !== working.size) {
        if (last[0] === step.at) last[1] = working.size;
        else busy.push([step.at, working.size]);
      }
      maxBusy = Math.max(maxBusy, working.size);
    }
  }
  return { busy, maxBusy };
}

/** The busy-workers steps mark as of the playhead at `cursorMs`. */
export function busyMark(busy: [number, number][], maxBusy: number, requestCount: number, cursorMs: number): TimelineMark {
  let busyNow = 0;
  for (const [t, v] of busy) if (t <= cursorMs) busyNow = v;
  return { kind: 'steps', id: 'busy', lane: 'worker', row: 'count', points: busy, max: Math.max(maxBusy, 1), until: cursorMs, tone: 'worker', label: `${busyNow} of ${requestCount} workers busy`, title: 'server workers busy over time' };
}
