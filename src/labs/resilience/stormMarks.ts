import type { TimelineLane, TimelineMark, Tone } from '../../charts/timelineTypes';
import type { ResilienceTrace } from '../../sim/resilience';
import type { StormState } from '../../sim/resilience/storm';
import { handle, ignoredIds, lastState, packRows, type ResilienceView } from './markParts';

/**
 * The storm timeline: every attempt of every layer as a bar (packed into rows), and the upstream
 * executions; above `STORM_DETAIL_LIMIT` attempts, each layer's attempts started so far instead (one
 * scale for all layers, so the counts visibly multiply), with the time after the user's cancel shaded.
 */

const RESULT_TONE: Record<string, Tone> = { pending: 'info', ok: 'ok', receipt: 'ok', failed: 'bad', timeout: 'warn', abandoned: 'muted', cancelled: 'muted' };
const EXEC_TONE: Record<string, Tone> = { running: 'info', ok: 'ok', failed: 'bad', killed: 'muted', cancelled: 'muted' };

/** Above this many attempts in all layers, the storm timeline shows per-layer counts instead of one bar per attempt (unless asked for every attempt). */
export const STORM_DETAIL_LIMIT = 24;

/** Whether the storm timeline of `trace` is aggregated (per-layer load) under `detail`. */
export function stormAggregated(trace: ResilienceTrace, detail: StormDetail): boolean {
  if (detail !== 'auto') return detail === 'aggregate';
  return lastState<StormState>(trace).attemptOrder.length > STORM_DETAIL_LIMIT;
}

/** Storm timeline detail: one bar per attempt, per-layer counts, or chosen by the number of attempts. */
export type StormDetail = 'auto' | 'every' | 'aggregate';

/** Cumulative starts: `[time, how many started so far]` pairs, time ascending, from 0. */
export function startedSeries(starts: readonly number[]): [number, number][] {
  const out: [number, number][] = [[0, 0]];
  [...starts].sort((x, y) => x - y).forEach((t, i) => {
    if (out[out.length - 1][0] === t) out[out.length - 1][1] = i + 1;
    else out.push([t, i + 1]);
  });
  return out;
}

/**
 * The label of a layer's "attempts so far" line at the playhead: how many of `starts` (ms) have
 * started by `cursorMs`, and of how many by the end while the run is not over there
 * ("12 of 64 attempts"; "64 attempts" once all have started). `what` is the plural noun.
 */
export function startedLabel(starts: readonly number[], cursorMs: number, what: string): string {
  const now = starts.filter((t) => t <= cursorMs).length;
  return now === starts.length ? `${now} ${what}` : `${now} of ${starts.length} ${what}`;
}

/**
 * The aggregated storm timeline: per layer, how many attempts have started so far (upstream:
 * executions), all on one scale so the layers' counts visibly multiply; the time after the user's
 * cancel is shaded. The lines and their labels follow the playhead.
 */
function stormLoadView(trace: ResilienceTrace, cursorMs: number): ResilienceView {
  const final = lastState<StormState>(trace);
  const end = Math.max(trace.endAt, 1);
  const cancelAt = final.user.cancelAt;
  const marks: TimelineMark[] = [];
  const lanes: TimelineLane[] = [];
  const perLayer = final.config.layers.map((_, i) => final.attemptOrder.filter((id) => final.attempts[id].layer === i).map((id) => final.attempts[id].startAt));
  const execStarts = final.executions.map((e) => e.startAt);
  const max = Math.max(1, execStarts.length, ...perLayer.map((l) => l.length));
  const series = (lane: string, starts: number[], what: string) => {
    marks.push({ kind: 'steps', id: `load-${lane}`, lane, row: 'load', points: startedSeries(starts), max, until: cursorMs, tone: lane === 'upstream' ? 'server' : 'client', label: startedLabel(starts, cursorMs, what) });
    if (cancelAt !== null) marks.push({ kind: 'band', id: `after-cancel-${lane}`, lane, row: 'load', at: cancelAt, to: Math.max(end, cancelAt + 1), tone: 'bad', title: 'after the user cancelled: all of this is duplicate work' });
  };
  final.config.layers.forEach((layer, i) => {
    lanes.push({ id: `L${i}`, label: layer.name, rows: [...(i === 0 ? [{ id: 'events', height: 32, label: 'user' }] : []), { id: 'load', height: 40, label: 'attempts so far' }] });
    series(`L${i}`, perLayer[i], 'attempts');
  });
  lanes.push({ id: 'upstream', label: 'Upstream API', rows: [{ id: 'events', height: 30, label: 'health' }, { id: 'load', height: 40, label: 'executions' }] });
  series('upstream', execStarts, 'executions');
  return { lanes, marks };
}

/** The storm timeline of `trace` with the playhead at `cursorMs` (ms), at the given `detail`. */
export function stormView(trace: ResilienceTrace, cursorMs: number, detail: StormDetail = 'auto'): ResilienceView {
  const ignored = ignoredIds(trace);
  const final = lastState<StormState>(trace);
  if (stormAggregated(trace, detail)) {
    const v = stormLoadView(trace, cursorMs);
    stormEventMarks(trace, final, ignored, cursorMs, v.marks);
    return v;
  }
  const end = Math.max(trace.endAt, 1);
  const layers = final.config.layers;
  const marks: TimelineMark[] = [];
  const lanes: TimelineLane[] = [];
  const maxRows = 8;
  layers.forEach((layer, i) => {
    const ids = final.attemptOrder.filter((id) => final.attempts[id].layer === i);
    const iv = ids.map((id) => ({ from: final.attempts[id].startAt, to: final.attempts[id].endAt ?? end }));
    const rows = packRows(iv, maxRows);
    const n = Math.max(1, ...rows.map((r) => r + 1));
    const h = Math.max(6, Math.min(16, Math.floor(96 / n)));
    lanes.push({ id: `L${i}`, label: layer.name, rows: [...(i === 0 ? [{ id: 'events', height: 32, label: 'user' }] : []), ...Array.from({ length: n }, (_, r) => ({ id: `r${r}`, height: h }))] });
    ids.forEach((id, k) => {
      const a = final.attempts[id];
      const pending = a.endAt === null || a.endAt > cursorMs;
      marks.push({ kind: 'span', id: `a-${id}`, lane: `L${i}`, row: `r${rows[k]}`, at: a.startAt, to: Math.max(a.endAt ?? end, a.startAt + 1), tone: pending && a.startAt <= cursorMs ? 'info' : RESULT_TONE[a.result], thickness: Math.max(3, h - 4), open: a.endAt === null, title: `${id}: ${a.result} (${a.startAt}–${a.endAt ?? '…'} ms)`, future: a.startAt > cursorMs, endCap: a.result === 'timeout' ? 'x' : 'none' });
    });
  });
  const ex = final.executions;
  const rows = packRows(ex.map((e) => ({ from: e.startAt, to: e.endAt ?? end })), maxRows);
  const n = Math.max(1, ...rows.map((r) => r + 1));
  const h = Math.max(6, Math.min(16, Math.floor(110 / n)));
  lanes.push({ id: 'upstream', label: 'Upstream API', rows: [{ id: 'events', height: 30, label: 'health' }, ...Array.from({ length: n }, (_, r) => ({ id: `r${r}`, height: h }))] });
  ex.forEach((e, k) => {
    const wasted = e.state === 'ok' && !e.waiters.some((w) => final.attempts[w].result === 'ok');
    marks.push({ kind: 'span', id: `e-${e.id}`, lane: 'upstream', row: `r${rows[k]}`, at: e.startAt, to: Math.max(e.endAt ?? end, e.startAt + 1), tone: wasted ? 'warn' : EXEC_TONE[e.state], thickness: Math.max(3, h - 4), open: e.endAt === null, title: `${e.id}: ${e.state}${wasted ? ', nobody waiting any more (wasted work)' : ''} (${e.startAt}–${e.endAt ?? '…'} ms)`, future: e.startAt > cursorMs });
  });
  stormEventMarks(trace, final, ignored, cursorMs, marks);
  return { lanes, marks };
}

/** The scripted events (user, upstream health) and the user's cancel line of the storm timeline. */
function stormEventMarks(trace: ResilienceTrace, final: StormState, ignored: Set<string>, cursorMs: number, marks: TimelineMark[]): void {
  for (const ev of trace.scenario.events) {
    const upstream = ev.actor === 'upstream';
    marks.push(handle(ev, upstream ? 'upstream' : 'L0', 'events', cursorMs, upstream ? (ev.kind === 'recover' ? 'ok' : 'bad') : ev.kind === 'cancel' ? 'bad' : 'client', ignored.has(ev.id)));
  }
  if (final.user.cancelAt !== null) marks.push({ kind: 'marker', id: 'user-cancel', lane: 'upstream', row: 'events', at: final.user.cancelAt, tone: 'bad', dashed: true, label: 'user cancelled', labelAt: 'top', future: final.user.cancelAt > cursorMs });
}
