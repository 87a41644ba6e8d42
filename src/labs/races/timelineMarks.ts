import { formatMs } from '../../charts/format';
import type { ArrowMark, HandleMark, TimelineLane, TimelineMark, TimelineRow, Tone } from '../../charts/timelineTypes';
import type { ClientState, RacesTrace, RequestState } from '../../sim/races';
import { racesStateAt } from '../../store/racesStore';
import type { Json, ScriptedEvent, WireEffect } from '../../sim/types';

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

/** The request key a step belongs to (the first request it touched), or null. */
function stepKey(step: RacesTrace['steps'][number]): string | null {
  return step.state.touched[0] ?? null;
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

  // Which lanes need an "other" row (items not tied to a request).
  const needOther = { client: requests.length === 0, server: requests.length === 0 };
  for (const step of trace.steps) {
    if (stepKey(step) !== null) continue;
    const lane = step.entry.actor === 'server' ? 'server' : 'client';
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

// ───────────── static parts (depend on the trace only) ─────────────

const EVENT_STYLE: Record<string, { tone: Tone; shape: HandleMark['shape'] }> = {
  start: { tone: 'client', shape: 'diamond' },
  cancel: { tone: 'bad', shape: 'square' },
  disconnect: { tone: 'warn', shape: 'square' },
  inject: { tone: 'warn', shape: 'triangle' },
  progress: { tone: 'server', shape: 'circle' },
  keepalive: { tone: 'muted', shape: 'circle' },
  complete: { tone: 'ok', shape: 'circle' },
  error: { tone: 'bad', shape: 'circle' },
  'server-cancel': { tone: 'warn', shape: 'square' },
};

export function effectLabel(e: WireEffect): string {
  const m = e.message;
  if (m !== undefined && m !== null && typeof m === 'object' && !Array.isArray(m)) {
    const method = typeof m.method === 'string' ? m.method : null;
    if (e.malformed) return `${method ?? 'message'} (malformed)`;
    if (method) return method;
    if ('result' in m) {
      const r = m.result as { resultType?: Json } | null;
      // 2026-07-28 MRTR: an InputRequiredResult is not the final result.
      return r !== null && typeof r === 'object' && r.resultType === 'input_required' ? 'result (input_required)' : 'result';
    }
    if ('error' in m) {
      const err = m.error as { code?: Json } | null;
      return `error ${err && typeof err === 'object' && 'code' in err ? String(err.code) : ''}`.trim();
    }
    return 'message';
  }
  if (m !== undefined) return 'raw message (malformed)';
  const http = e.http ?? '';
  if (/keep-alive/i.test(http)) return ': keep-alive';
  if (/network drops/i.test(http)) return 'stream dropped';
  if (/closes the SSE/i.test(http)) return 'stream close';
  return http.length > 24 ? `${http.slice(0, 23)}…` : http;
}

function effectTone(e: WireEffect): Tone {
  const label = effectLabel(e);
  if (e.malformed) return 'warn';
  if (/cancel|stream close|stream dropped/.test(label)) return 'bad';
  if (label === 'result') return 'ok';
  if (label.startsWith('error')) return 'bad';
  if (label === ': keep-alive') return 'muted';
  return e.from === 'client' ? 'client' : 'server';
}

interface StaticArrow {
  mark: Omit<ArrowMark, 'future' | 'dotAt'>;
  sentAt: number;
  arrivesAt: number | null;
}

interface StaticPoint {
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

export interface RacesStatic {
  layout: RacesTimelineLayout;
  handles: Omit<HandleMark, 'future'>[];
  arrows: StaticArrow[];
  points: StaticPoint[];
  /** Compact mode: [time, busy workers]. */
  busy: [number, number][];
  maxBusy: number;
}

export function racesStatic(trace: RacesTrace): RacesStatic {
  const layout = racesLayout(trace);
  const { scenario } = trace;
  const stepOfEvent = new Map<string, RacesTrace['steps'][number]>();
  for (const step of trace.steps) if (step.entry.source === 'script') stepOfEvent.set(step.entry.label, step);

  // Tie order of scripted events sharing a millisecond (list order decides who goes first).
  const byMs = new Map<number, ScriptedEvent[]>();
  for (const ev of scenario.events) {
    const list = byMs.get(ev.at) ?? [];
    list.push(ev);
    byMs.set(ev.at, list);
  }

  const handles: RacesStatic['handles'] = scenario.events.map((ev) => {
    const step = stepOfEvent.get(ev.id);
    const key = step ? stepKey(step) : null;
    const lane = ev.actor === 'server' || ev.actor === 'worker' ? 'server' : 'client';
    const style = EVENT_STYLE[ev.kind] ?? { tone: 'neutral' as Tone, shape: 'circle' as const };
    const ignored = step ? step.ignored.length > 0 : false;
    const same = byMs.get(ev.at) ?? [];
    const tieOrder = same.length > 1 && same.length <= 8 ? same.indexOf(ev) + 1 : undefined;
    const reasons = step?.ignored.map((i) => `ignored by the ${i.by}: ${i.reason}`).join('; ');
    const title = `${ev.id} — ${ev.actor} ${ev.kind} at ${formatMs(ev.at)} ms${tieOrder ? ` (${tieOrder} of ${same.length} at this ms)` : ''}${reasons ? `. ${reasons}` : ''}. Drag, or focus and use the arrow keys.`;
    return {
      kind: 'handle' as const,
      id: ev.id,
      lane,
      row: layout.rowFor(lane, key, 'event'),
      at: ev.at,
      tone: style.tone,
      shape: style.shape,
      label: ev.label ?? ev.id,
      group: ev.kind,
      ariaLabel: `${ev.id} at ${ev.at} ms`,
      testId: `event-${ev.id}`,
      ignored,
      tieOrder,
      title,
    };
  });

  const arrows: StaticArrow[] = [];
  const points: StaticPoint[] = [];
  // Keys stay stable across edits (entry label + occurrence, not step index), so React updates marks in place.
  const seen = new Map<string, number>();
  for (const step of trace.steps) {
    const base = `${step.entry.source}:${step.entry.label}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const stableId = `${base}#${n}`;
    step.effects.forEach((e, i) => {
      const from = e.from;
      const to = from === 'client' ? 'server' : 'client';
      const key = e.requestKey ?? null;
      const label = effectLabel(e);
      const via = e.http ? ` — ${e.http}` : '';
      const when = e.arrivesAt !== undefined ? `sent ${formatMs(step.at)} ms, arrives ${formatMs(e.arrivesAt)} ms` : `at ${formatMs(step.at)} ms, never delivered`;
      arrows.push({
        sentAt: step.at,
        arrivesAt: e.arrivesAt ?? null,
        mark: {
          kind: 'arrow',
          id: `a:${stableId}:${i}`,
          tone: effectTone(e),
          from: { lane: from, row: layout.rowFor(from, key, 'event'), at: step.at },
          to: e.arrivesAt !== undefined ? { lane: to, row: layout.rowFor(to, key, 'event'), at: e.arrivesAt } : null,
          dashed: e.message === undefined,
          label,
          labelLane: 'wire',
          title: `${from} → ${to}: ${label} (${when})${via}`,
        },
      });
    });
    if (step.entry.source !== 'timer') continue;
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
  }

  // Busy workers over time (compact mode).
  const busy: [number, number][] = [];
  let maxBusy = 0;
  if (layout.compact) {
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

  return { layout, handles, arrows, points, busy, maxBusy };
}

// ───────────── dynamic parts (depend on the playhead) ─────────────

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

function requestMarks(r: RequestState, cursorMs: number, endAt: number, layout: RacesTimelineLayout, withLabels: boolean): TimelineMark[] {
  const out: TimelineMark[] = [];
  const row = layout.rowFor('client', r.key, 'bar');
  const c = r.client;
  const pending = c.state === 'pending';
  if (pending) {
    const never = cursorMs >= endAt;
    out.push({
      kind: 'span',
      id: `bar-${r.key}`,
      lane: 'client',
      row,
      at: r.startAt,
      to: Math.max(cursorMs, r.startAt),
      open: true,
      tone: 'client',
      thickness: layout.compact ? 2 : 6,
      title: never ? `${requestLabel(r)}: still pending when nothing more happens — it never settles` : `${requestLabel(r)}: pending — its outcome is not known yet at ${formatMs(cursorMs)} ms`,
    });
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
    out.push({
      kind: 'span',
      id: `bar-${r.key}`,
      lane: 'client',
      row,
      at: r.startAt,
      to: at,
      tone: stateTone(c.state),
      thickness: layout.compact ? 2 : 6,
      endCap: c.state === 'completed' || c.state === 'ended-by-server' ? 'dot' : 'x',
      endLabel: withLabels ? `${c.state} · ${formatMs(at)} ms` : undefined,
      title: `${requestLabel(r)}: ${c.state} at ${formatMs(at)} ms — ${c.reason}`,
    });
  }
  return out;
}

function workMarks(r: RequestState, cursorMs: number, layout: RacesTimelineLayout): TimelineMark[] {
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

/** Every mark for the playhead at `cursorMs`. */
export function racesMarks(st: RacesStatic, trace: RacesTrace, cursorMs: number): TimelineMark[] {
  const out: TimelineMark[] = [];
  const state = racesStateAt(trace, cursorMs);
  const { layout } = st;
  state.requests.forEach((r, i) => {
    out.push(...requestMarks(r, cursorMs, trace.endAt, layout, !layout.compact || i === 0));
    if (!layout.compact) out.push(...workMarks(r, cursorMs, layout));
  });
  if (layout.compact) {
    let busyNow = 0;
    for (const [t, v] of st.busy) if (t <= cursorMs) busyNow = v;
    out.push({ kind: 'steps', id: 'busy', lane: 'worker', row: 'count', points: st.busy, max: Math.max(st.maxBusy, 1), until: cursorMs, tone: 'worker', label: `${busyNow} of ${trace.outcome.requests.length} workers busy`, title: 'server workers busy over time' });
  }
  for (const a of st.arrows) {
    const future = a.sentAt > cursorMs;
    const inFlight = !future && a.arrivesAt !== null && cursorMs < a.arrivesAt;
    out.push({ ...a.mark, future, dotAt: inFlight ? cursorMs : null });
  }
  for (const p of st.points) out.push({ kind: 'point', ...p, future: p.at > cursorMs });
  for (const h of st.handles) out.push({ ...h, future: h.at > cursorMs });
  return out;
}
