import { formatMs } from '../../../charts/format';
import type { Tone } from '../../../charts/timelineTypes';
import type { RacesTrace } from '../../../sim/races';
import { racesTraceView } from '../../../store/racesStore';
import type { RacesTimelineLayout } from './layout';

/** Point marks: model timers (deadlines as crosses, other timers as dots; ignored ones struck). */

export interface StaticPoint {
  id: string;
  lane: string;
  row: string;
  at: number;
  shape: 'dot' | 'x' | 'tick';
  tone: Tone;
  hollow: boolean;
  struck: boolean;
  title: string;
}

/** Every timer step of `trace` as a point; `ids` from `stableStepIds`. */
export function timerPoints(trace: RacesTrace, layout: RacesTimelineLayout, ids: string[]): StaticPoint[] {
  const points: StaticPoint[] = [];
  const view = racesTraceView(trace);
  let notes: string[] | undefined;
  for (let s = 0; s < view.stepCount; s++) {
    const entry = view.entryOf(s);
    if (entry.source !== 'timer') continue;
    const stableId = ids[s];
    const at = view.atOf(s);
    const kind = entry.kind;
    const lane = entry.actor === 'server' ? 'server' : 'client';
    const key = view.keyOf(s);
    const stepIgnored = view.ignoredOf(s);
    const ignored = stepIgnored.length > 0;
    notes ??= view.notes();
    const isDeadline = kind === 'deadline.idle' || kind === 'deadline.max';
    points.push({
      id: `p:${stableId}`,
      lane,
      row: layout.rowFor(lane, key, 'event'),
      at,
      shape: isDeadline ? 'x' : 'dot',
      tone: isDeadline ? (kind === 'deadline.max' ? 'bad' : 'warn') : ignored ? 'muted' : lane === 'server' ? 'server' : 'client',
      hollow: ignored,
      struck: ignored,
      title: `${formatMs(at)} ms · ${entry.label}: ${notes[s]}${ignored ? ` (ignored: ${stepIgnored.map((x) => x.reason).join('; ')})` : ''}`,
    });
  }
  return points;
}
