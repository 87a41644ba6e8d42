import type { TimelineLane, TimelineRow } from '../../../charts/timelineTypes';
import type { RacesTrace } from '../../../sim/races';
import type { Json } from '../../../sim/types';
import { racesTraceView } from '../../../store/racesStore';

/**
 * Maps a races trace onto the generic timeline: lanes client, wire, server, worker; one row per
 * request (or, past COMPACT_AFTER requests, thin stacked rows with the events on one shared row),
 * scripted events as handles, wire effects as arrows from sender to receiver, the request bar
 * (open-ended while its outcome is unknown at the playhead), deadlines as of the playhead, and the
 * server's work per request (or, when compact, how many workers are busy).
 */

export const COMPACT_AFTER = 6;

export interface RacesTimelineLayout {
  lanes: TimelineLane[];
  compact: boolean;
  /** Row of a lane for an item that belongs to request `key` (null: not tied to one). */
  rowFor(lane: 'client' | 'server' | 'worker', key: string | null, what: 'event' | 'bar'): string;
}

const ROW_H = 40;
const WORKER_ROW_H = 34;

export function requestLabel(r: { method: string; requestId?: Json; id?: Json }): string {
  const id = JSON.stringify(r.requestId ?? r.id) ?? '?';
  const short = id.length > 12 ? `${id.slice(0, 11)}…` : id;
  return `${r.method === 'subscriptions/listen' ? 'listen' : 'call'} ${short}`;
}


export function racesLayout(trace: RacesTrace): RacesTimelineLayout {
  const requests = trace.outcome.requests;
  const compact = requests.length > COMPACT_AFTER;
  const wire: TimelineLane = { id: 'wire', label: 'Wire', rows: [{ id: 'w1', height: 17 }, { id: 'w2', height: 17 }], labelLane: true };

  if (compact) {
    const thin = Math.max(2, Math.min(6, Math.floor(110 / requests.length)));
    return {
      compact,
      lanes: [
        { id: 'client', label: 'Client', rows: [{ id: 'events', height: 36, label: 'events' }, ...requests.map((r) => ({ id: `r:${r.key}`, height: thin }))] },
        wire,
        { id: 'server', label: 'Server', rows: [{ id: 'events', height: 36, label: 'events' }] },
        { id: 'worker', label: 'Worker', rows: [{ id: 'count', height: 56, label: 'busy' }] },
      ],
      rowFor: (lane, key, what) => (lane === 'worker' ? 'count' : lane === 'client' && what === 'bar' && key !== null ? `r:${key}` : 'events'),
    };
  }

  // Which lanes need an "other" row (items not tied to a request): the request a step belongs to
  // is the first one it touched (`keyOf`).
  const needOther = { client: requests.length === 0, server: requests.length === 0 };
  const view = racesTraceView(trace);
  for (let i = 0; i < view.stepCount; i++) {
    if (view.keyOf(i) !== null) continue;
    const lane = view.entryOf(i).actor === 'server' ? 'server' : 'client';
    needOther[lane] = true;
  }
  const rows = (height: number): TimelineRow[] => requests.map((r) => ({ id: `r:${r.key}`, height, label: requestLabel(r) }));
  const other: TimelineRow = { id: 'other', height: 36, label: 'other' };
  return {
    compact,
    lanes: [
      { id: 'client', label: 'Client', rows: needOther.client ? [...rows(ROW_H), other] : rows(ROW_H) },
      wire,
      { id: 'server', label: 'Server', rows: needOther.server ? [...rows(ROW_H), other] : rows(ROW_H) },
      { id: 'worker', label: 'Worker', rows: requests.length ? rows(WORKER_ROW_H) : [{ id: 'other', height: WORKER_ROW_H }] },
    ],
    rowFor: (_lane, key) => (key !== null && requests.some((r) => r.key === key) ? `r:${key}` : 'other'),
  };
}
