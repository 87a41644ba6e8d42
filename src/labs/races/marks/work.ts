import { formatMs } from '../../../charts/format';
import type { TimelineMark, Tone } from '../../../charts/timelineTypes';
import type { RequestState } from '../../../sim/races';
import { requestLabel, type RacesTimelineLayout } from './layout';

/** Work marks (worker lane): the server's work on one request, open while it is working. */
export function workMarks(r: RequestState, cursorMs: number, layout: RacesTimelineLayout): TimelineMark[] {
  const s = r.server;
  if (s.receivedAt === null) return [];
  const row = layout.rowFor('worker', r.key, 'bar');
  const what = r.method === 'subscriptions/listen' ? 'listen stream open' : 'working';
  if (s.state === 'working') {
    return [{ kind: 'span', id: `work-${r.key}`, lane: 'worker', row, at: s.receivedAt, to: Math.max(cursorMs, s.receivedAt), open: true, tone: 'worker', thickness: 10, title: `${requestLabel(r)}: ${what} since ${formatMs(s.receivedAt)} ms` }];
  }
  const end = s.workEndedAt ?? s.atMs ?? s.receivedAt;
  const tone: Tone = s.state === 'completed' ? 'ok' : s.state === 'cancelled' ? 'muted' : 'bad';
  const label = s.state === 'cancelled' ? `stopped (cancelled) · ${formatMs(end)} ms` : `${s.state} · ${formatMs(end)} ms`;
  return [
    {
      kind: 'span',
      id: `work-${r.key}`,
      lane: 'worker',
      row,
      at: s.receivedAt,
      to: end,
      tone,
      thickness: 10,
      endCap: s.state === 'completed' ? 'dot' : 'x',
      endLabel: label,
      title: `${requestLabel(r)} on the server: ${what} ${formatMs(s.receivedAt)}–${formatMs(end)} ms, then ${s.state}`,
    },
  ];
}
