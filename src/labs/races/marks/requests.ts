import { formatMs } from '../../../charts/format';
import type { TimelineMark, Tone } from '../../../charts/timelineTypes';
import type { ClientState, RequestState } from '../../../sim/races';
import { requestLabel, type RacesTimelineLayout } from './layout';

/** Request marks (client lane): the request bar, open while pending, with its deadlines as of the playhead. */

/** The tone of a client request state: settled well, pending, stopped, or failed. */
export function stateTone(state: ClientState): Tone {
  switch (state) {
    case 'completed':
    case 'ended-by-server':
      return 'ok';
    case 'pending':
      return 'client';
    case 'cancelled':
    case 'connection-closed':
      return 'warn';
    default:
      return 'bad';
  }
}

/** The client-lane marks of request `r` at the playhead `cursorMs` (labels only when `withLabels`). */
export function requestMarks(r: RequestState, cursorMs: number, endAt: number, layout: RacesTimelineLayout, withLabels: boolean): TimelineMark[] {
  const out: TimelineMark[] = [];
  const row = layout.rowFor('client', r.key, 'bar');
  const c = r.client;
  /** The request bar from its start to `to` (the one span both states draw). */
  const bar = (to: number, tone: Tone, rest: { open?: boolean; endCap?: 'dot' | 'x'; endLabel?: string; title: string }): TimelineMark => ({
    kind: 'span',
    id: `bar-${r.key}`,
    lane: 'client',
    row,
    at: r.startAt,
    to,
    tone,
    thickness: layout.compact ? 2 : 6,
    ...rest,
  });
  const pending = c.state === 'pending';
  if (pending) {
    const never = cursorMs >= endAt;
    out.push(bar(Math.max(cursorMs, r.startAt), 'client', { open: true, title: never ? `${requestLabel(r)}: still pending when nothing more happens — it never settles` : `${requestLabel(r)}: pending — its outcome is not known yet at ${formatMs(cursorMs)} ms` }));
    // Deadlines as of the playhead.
    const idle = r.idleTimeoutMs !== null && r.idleDeadlineAt !== null && r.idleHandle !== -1 ? r.idleDeadlineAt : null;
    const max = r.maxDeadlineAt;
    const maxEnforced = r.maxHandle !== -1;
    if (idle !== null && r.idleTimeoutMs !== null) {
      out.push({ kind: 'band', id: `idlewin-${r.key}`, lane: 'client', row, at: Math.max(0, idle - r.idleTimeoutMs), to: idle, tone: 'warn', title: `idle window: ${formatMs(r.idleTimeoutMs)} ms of silence allowed` });
      out.push({
        kind: 'marker',
        id: `idle-${r.key}`,
        lane: 'client',
        row,
        at: idle,
        dashed: true,
        tone: 'warn',
        label: withLabels ? `idle ${formatMs(idle)}` : undefined,
        anchor: max !== null && max > idle ? 'end' : 'start',
        labelAt: 'bottom',
        title: `idle deadline of ${requestLabel(r)} at ${formatMs(idle)} ms (as of the playhead; progress moves it)`,
      });
    }
    if (max !== null) {
      out.push({
        kind: 'marker',
        id: `max-${r.key}`,
        lane: 'client',
        row,
        at: max,
        tone: maxEnforced ? 'bad' : 'muted',
        dashed: !maxEnforced,
        label: withLabels ? `max ${formatMs(max)}${maxEnforced ? '' : ' (not enforced)'}` : undefined,
        anchor: idle !== null && idle > max ? 'end' : 'start',
        labelAt: 'bottom',
        title: `maximum deadline of ${requestLabel(r)} at ${formatMs(max)} ms${maxEnforced ? '' : ' — not enforced by a timer (bug policy)'}`,
      });
    }
  } else {
    const at = c.atMs ?? r.startAt;
    out.push(
      bar(at, stateTone(c.state), {
        endCap: c.state === 'completed' || c.state === 'ended-by-server' ? 'dot' : 'x',
        endLabel: withLabels ? `${c.state} · ${formatMs(at)} ms` : undefined,
        title: `${requestLabel(r)}: ${c.state} at ${formatMs(at)} ms — ${c.reason}`,
      }),
    );
  }
  return out;
}
