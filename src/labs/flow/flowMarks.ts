import type { HandleMark, TimelineLane, TimelineMark } from '../../charts/timelineTypes';
import type { FlowState, FlowTrace } from '../../sim/flow';
import { finalStateOf, flowStateAt, stepRecords, type StepReading } from '../../store/flowStore';

/**
 * Maps a flow trace onto the shared timeline: lanes server (scripted events as draggable handles,
 * the SSE buffer's depth against its capacity), proxy (events held while buffering, flushes, read
 * timeouts, the stream's down time), client (the operation as a bar, stalls, the idle deadline as
 * of the playhead, keep-alives that reached it) and, for fleet scenarios, the open streams.
 */

export interface FlowSeries {
  /** [time, value] pairs, value holding until the next pair. */
  depth: [number, number][];
  held: [number, number][];
  open: [number, number][];
  maxDepth: number;
  maxHeld: number;
  maxOpen: number;
}

/**
 * What the flow views draw of one step (small, so a drag re-reads only the steps after its
 * fork's checkpoint; see `stepRecords`): buffer depth and counters, proxy-held events, the fleet's
 * counters, the stream status and the proxy's read timeouts.
 */
export interface FlowStepRecord {
  index: number;
  at: number;
  kind: string;
  depth: number;
  held: number;
  /** Open fleet streams, evictions, rejections, landings (null without a fleet). */
  fleet: { open: number; evictions: number; rejections: number; landings: number } | null;
  down: boolean;
  proxyTimeouts: number;
  coalesced: number;
  dropped: number;
  refetched: number;
  resyncs: number;
  finals: number;
  disconnects: number;
}

function flowRecord(r: StepReading<FlowState>): FlowStepRecord {
  const s = r.state;
  const f = s.fleet;
  return {
    index: r.index,
    at: r.at,
    kind: r.kind,
    depth: s.buffer.size,
    held: s.proxyHeld.progress + s.proxyHeld.finals + s.proxyHeld.keepalives,
    fleet: f ? { open: f.order.length, evictions: f.evictions, rejections: f.rejections, landings: f.landings.length } : null,
    down: s.status === 'down',
    proxyTimeouts: s.proxyTimeouts,
    coalesced: s.buffer.coalesced,
    dropped: s.buffer.droppedOldest + s.buffer.discarded + s.buffer.finalsRefused,
    refetched: s.refetched,
    resyncs: s.resyncs,
    finals: s.delivered.finals,
    disconnects: s.disconnects,
  };
}

/** Every step of `trace` as the flow views draw it (cached per trace; a fork reuses its base's records before its checkpoint). */
export function flowStepRecords(trace: FlowTrace): FlowStepRecord[] {
  return stepRecords(trace, 'flow', flowRecord);
}

/** Step series of buffer depth, proxy-held events and open fleet streams (one point per change). */
export function flowSeries(trace: FlowTrace): FlowSeries {
  const depth: [number, number][] = [[0, 0]];
  const held: [number, number][] = [[0, 0]];
  const open: [number, number][] = [[0, trace.initial.fleet?.order.length ?? 0]];
  let maxDepth = 0;
  let maxHeld = 0;
  let maxOpen = open[0][1];
  const push = (list: [number, number][], at: number, v: number) => {
    const last = list[list.length - 1];
    if (last[1] === v) return;
    if (last[0] === at) last[1] = v;
    else list.push([at, v]);
  };
  for (const r of flowStepRecords(trace)) {
    push(depth, r.at, r.depth);
    push(held, r.at, r.held);
    if (r.fleet) push(open, r.at, r.fleet.open);
    maxDepth = Math.max(maxDepth, r.depth);
    maxHeld = Math.max(maxHeld, r.held);
    maxOpen = Math.max(maxOpen, r.fleet?.open ?? 0);
  }
  return { depth, held, open, maxDepth, maxHeld, maxOpen };
}

export function flowLanes(trace: FlowTrace): TimelineLane[] {
  const c = trace.scenario.config as unknown as FlowState['config'];
  if (c.fleet && c.producers.length === 0 && trace.scenario.events.length === 0) {
    // A fleet-only scenario: no single stream to draw, only the server's open streams and what happened to them.
    return [{ id: 'fleet', label: 'Fleet', rows: [{ id: 'open', height: 70, label: 'open' }, { id: 'events', height: 30, label: 'events' }] }];
  }
  const lanes: TimelineLane[] = [
    { id: 'server', label: 'Server', rows: [{ id: 'events', height: 34, label: 'events' }, { id: 'buffer', height: 44, label: 'buffer' }] },
  ];
  if (c.proxy.enabled) lanes.push({ id: 'proxy', label: 'Proxy', rows: [{ id: 'held', height: 40, label: 'held' }] });
  lanes.push({ id: 'client', label: 'Client', rows: [{ id: 'op', height: 36, label: 'operation' }, { id: 'stream', height: 26, label: 'stream' }] });
  if (c.fleet) lanes.push({ id: 'fleet', label: 'Fleet', rows: [{ id: 'open', height: 50, label: 'open' }] });
  return lanes;
}

const SHAPE: Record<string, HandleMark['shape']> = { progress: 'circle', final: 'square', keepalive: 'triangle', stall: 'diamond', drop: 'diamond' };

/** Every mark at playhead `cursorMs`. */
export function flowMarks(trace: FlowTrace, series: FlowSeries, cursorMs: number, endMs: number): TimelineMark[] {
  const marks: TimelineMark[] = [];
  const c = trace.scenario.config as unknown as FlowState['config'];
  for (const e of trace.scenario.events) {
    const lane = e.actor === 'server' ? 'server' : 'client';
    const row = e.actor === 'server' ? 'events' : 'stream';
    const token = typeof e.token === 'string' ? ` ${e.token}` : '';
    const label = e.label ?? `${e.kind}${token}`;
    marks.push({
      kind: 'handle',
      id: e.id,
      lane,
      row,
      at: e.at,
      shape: SHAPE[e.kind] ?? 'circle',
      tone: e.kind === 'final' ? 'ok' : e.kind === 'drop' ? 'bad' : e.actor === 'server' ? 'server' : 'client',
      label,
      group: e.kind,
      ariaLabel: `${e.actor} ${label} at ${e.at} ms`,
      testId: `handle-${e.id}`,
      future: e.at > cursorMs,
    });
    if (e.kind === 'stall' && typeof e.durationMs === 'number') {
      marks.push({ kind: 'band', id: `stall-${e.id}`, lane: 'client', row: 'op', at: e.at, to: e.at + e.durationMs, tone: 'warn', title: `client stalled ${e.at}–${e.at + e.durationMs} ms` });
    }
  }
  const fleetOnlyLanes = c.fleet !== null && c.producers.length === 0 && trace.scenario.events.length === 0;
  if (!fleetOnlyLanes) marks.push({ kind: 'steps', id: 'depth', lane: 'server', row: 'buffer', points: series.depth, max: Math.max(c.capacityEvents, series.maxDepth), until: cursorMs, tone: series.maxDepth > c.capacityEvents ? 'bad' : 'server', label: `depth (cap ${c.capacityEvents})` });
  if (c.proxy.enabled) {
    marks.push({ kind: 'steps', id: 'held', lane: 'proxy', row: 'held', points: series.held, max: Math.max(1, series.maxHeld), until: cursorMs, tone: 'warn', label: c.proxy.buffering ? `held until flush (every ${c.proxy.flushIntervalMs} ms)` : 'pass-through' });
  }
  if (c.fleet) {
    marks.push({ kind: 'steps', id: 'open', lane: 'fleet', row: 'open', points: series.open, max: Math.max(1, series.maxOpen), until: cursorMs, tone: 'client', label: `open streams (cap ${c.fleet.maxStreams ?? 'none'})` });
    if (fleetOnlyLanes) {
      const f0 = trace.initial.fleet;
      let prev = f0 ? { evictions: f0.evictions, rejections: f0.rejections, landings: f0.landings.length } : null;
      let shown = 0;
      for (const step of flowStepRecords(trace)) {
        const f = step.fleet;
        if (!f || !prev || shown > 400) break;
        const future = step.at > cursorMs;
        if (f.evictions > prev.evictions) marks.push({ kind: 'point', id: `ev-${step.index}`, lane: 'fleet', row: 'events', at: step.at, shape: 'x', tone: 'bad', title: `eviction at ${step.at} ms`, future });
        else if (f.rejections > prev.rejections) marks.push({ kind: 'point', id: `rj-${step.index}`, lane: 'fleet', row: 'events', at: step.at, shape: 'tick', tone: 'warn', title: `503 Retry-After at ${step.at} ms`, future });
        else if (f.landings > prev.landings) marks.push({ kind: 'point', id: `ld-${step.index}`, lane: 'fleet', row: 'events', at: step.at, shape: 'dot', tone: 'ok', hollow: true, title: `reconnect at ${step.at} ms`, future });
        else continue;
        shown++;
        prev = f;
      }
    }
  }

  // Events from the steps: flushes, timeouts, drops, reconnects (capped so huge traces stay light).
  let downFrom: number | null = null;
  let count = 0;
  for (const step of flowStepRecords(trace)) {
    const k = step.kind;
    const future = step.at > cursorMs;
    if (k === 'flush' && c.proxy.enabled && count < 400) {
      count++;
      marks.push({ kind: 'point', id: `flush-${step.index}`, lane: 'proxy', row: 'held', at: step.at, shape: 'tick', tone: 'warn', title: `proxy flush at ${step.at} ms`, future });
    }
    if (step.down && downFrom === null) downFrom = step.at;
    if (!step.down && downFrom !== null) {
      marks.push({ kind: 'span', id: `down-${downFrom}`, lane: 'client', row: 'stream', at: downFrom, to: step.at, tone: 'bad', endCap: 'dot', endLabel: 'resync', title: `stream down ${downFrom}–${step.at} ms`, future: downFrom > cursorMs });
      downFrom = null;
    }
    if (k === 'proxy-read-timeout' && step.proxyTimeouts > 0) marks.push({ kind: 'point', id: `prt-${step.index}`, lane: c.proxy.enabled ? 'proxy' : 'client', row: c.proxy.enabled ? 'held' : 'stream', at: step.at, shape: 'x', tone: 'bad', title: `proxy read timeout at ${step.at} ms (504)`, future });
  }
  if (downFrom !== null) marks.push({ kind: 'span', id: `down-${downFrom}`, lane: 'client', row: 'stream', at: downFrom, to: endMs, open: true, tone: 'bad', title: `stream down from ${downFrom} ms`, future: downFrom > cursorMs });

  // The operation: a bar from 0 to its end (open while waiting at the playhead), the idle deadline as of the playhead.
  const at = flowStateAt(trace, cursorMs);
  const final = finalStateOf(trace);
  if (final.op.token !== null) {
    const ended = at.op.state !== 'waiting';
    marks.push({
      kind: 'span',
      id: 'op',
      lane: 'client',
      row: 'op',
      at: 0,
      to: ended ? (at.op.atMs ?? cursorMs) : Math.max(cursorMs, 1),
      open: !ended,
      tone: at.op.state === 'completed' ? 'ok' : at.op.state === 'timeout-idle' ? 'bad' : 'client',
      endCap: ended ? (at.op.state === 'completed' ? 'dot' : 'x') : 'none',
      endLabel: ended ? at.op.state : undefined,
      title: `operation ${final.op.token}: ${at.op.state}`,
    });
    if (at.op.idleDeadlineAt !== null) marks.push({ kind: 'marker', id: 'idle', lane: 'client', row: 'op', at: at.op.idleDeadlineAt, tone: 'warn', dashed: true, label: `idle ${at.op.idleDeadlineAt} ms`, title: 'idle deadline as of the playhead (reset only by progress)' });
  }
  return marks;
}
