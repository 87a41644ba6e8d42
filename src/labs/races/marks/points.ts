import { formatMs } from '../../../charts/format';
import type { Tone } from '../../../charts/timelineTypes';
import type { RacesState } from '../../../sim/races';
import type { LabTraceView } from '../../../sim/lab';
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

/** Timer step `s` of `view` as a point (null: not a timer step); `stableId` the step's key that stays stable across edits (`source:label#occurrence`, from `racesStatic`), `note` the step's note. */
export function stepPoint(view: LabTraceView<RacesState>, s: number, layout: RacesTimelineLayout, stableId: string, note: () => string): StaticPoint | null {
  const entry = view.entryOf(s);
  if (entry.source !== 'timer') return null;
  const at = view.atOf(s);
  const kind = entry.kind;
  const lane = entry.actor === 'server' ? 'server' : 'client';
  const key = view.keyOf(s);
  const stepIgnored = view.ignoredOf(s);
  const ignored = stepIgnored.length > 0;
  const isDeadline = kind === 'deadline.idle' || kind === 'deadline.max';
  // A response that reaches a dropped stream's end is lost there (the model notes it under the
  // disconnect rule): a muted cross, never the dot of a response the client received.
  const rule = kind === 'arrive.response' ? view.ruleOf(s) : undefined;
  const lost = rule === 'disconnect.2026' || rule === 'disconnect.2025';
  if (lost) return { id: `p:${stableId}`, lane, row: layout.rowFor(lane, key, 'event'), at, shape: 'x', tone: 'muted', hollow: false, struck: false, title: `${formatMs(at)} ms · ${entry.label}: ${note()}` };
  return {
    id: `p:${stableId}`,
    lane,
    row: layout.rowFor(lane, key, 'event'),
    at,
    shape: isDeadline ? 'x' : 'dot',
    tone: isDeadline ? (kind === 'deadline.max' ? 'bad' : 'warn') : ignored ? 'muted' : lane === 'server' ? 'server' : 'client',
    hollow: ignored,
    struck: ignored,
    title: `${formatMs(at)} ms · ${entry.label}: ${note()}${ignored ? ` (ignored: ${stepIgnored.map((x) => x.reason).join('; ')})` : ''}`,
  };
}
