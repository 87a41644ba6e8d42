import { formatMs } from '../../../charts/format';
import type { Tone } from '../../../charts/timelineTypes';
import type { RacesTrace } from '../../../sim/races';
import { stepKey, type RacesTimelineLayout } from './layout';

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
  trace.steps.forEach((step, s) => {
    if (step.entry.source !== 'timer') return;
    const stableId = ids[s];
    const kind = step.entry.kind;
    const lane = step.entry.actor === 'server' ? 'server' : 'client';
    const key = stepKey(step);
    const ignored = step.ignored.length > 0;
    const isDeadline = kind === 'deadline.idle' || kind === 'deadline.max';
    points.push({
      id: `p:${stableId}`,
      lane,
      row: layout.rowFor(lane, key, 'event'),
      at: step.at,
      shape: isDeadline ? 'x' : 'dot',
      tone: isDeadline ? (kind === 'deadline.max' ? 'bad' : 'warn') : ignored ? 'muted' : lane === 'server' ? 'server' : 'client',
      hollow: ignored,
      struck: ignored,
      title: `${formatMs(step.at)} ms · ${step.entry.label}: ${step.why}${ignored ? ` (ignored: ${step.ignored.map((x) => x.reason).join('; ')})` : ''}`,
    });
  });
  return points;
}
