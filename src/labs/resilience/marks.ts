import type { ArrowMark, HandleMark, TimelineLane, TimelineMark, Tone } from '../../charts/timelineTypes';
import type { ResilienceTrace } from '../../sim/resilience';
import type { BreakerState } from '../../sim/resilience/breaker';
import { finalStateOf, stepRecords, traceView, windowCounts } from '../../store/resilienceStore';
import type { StormState } from '../../sim/resilience/storm';
import type { TasksState } from '../../sim/resilience/tasks';
import type { ScriptedEvent } from '../../sim/types';

/**
 * Maps a resilience trace onto the shared timeline, per mechanism:
 * - tasks: the client's view (the cancel acknowledgement versus the terminal state it saw, then the
 *   result it fetched with `tasks/result`), the
 *   wire messages as arrows, the server's task status lane, the worker's checkpoints;
 * - breaker: the state band (closed / open / half-open) over the call dots, the window failure
 *   rate, the downstream's health and the token bucket's level;
 * - storm: every attempt of every layer as a bar (packed into rows), and the upstream executions;
 *   above `STORM_DETAIL_LIMIT` attempts, each layer's attempts started so far instead (one scale for
 *   all layers, so the counts visibly multiply), with the time after the user's cancel shaded.
 */

export interface ResilienceView {
  lanes: TimelineLane[];
  marks: TimelineMark[];
}

const SHAPES: Record<string, HandleMark['shape']> = {
  call: 'diamond',
  abort: 'diamond',
  request: 'diamond',
  cancel: 'diamond',
  created: 'circle',
  checkpoint: 'square',
  finish: 'square',
  'input-required': 'square',
  resume: 'square',
  recover: 'triangle',
  outage: 'triangle',
};

const TASK_TONE: Record<string, Tone> = { working: 'info', input_required: 'warn', completed: 'ok', failed: 'bad', cancelled: 'muted' };
const MODE_TONE: Record<string, Tone> = { closed: 'ok', open: 'bad', 'half-open': 'warn' };
/** Abbreviated breaker states for narrow band segments (the help text spells them out). */
const MODE_SHORT: Record<string, string> = { closed: 'C', open: 'O', 'half-open': 'H' };

function lastState<S>(trace: ResilienceTrace): S {
  return finalStateOf(trace) as unknown as S;
}

function handle(ev: ScriptedEvent, lane: string, row: string, cursorMs: number, tone: Tone, ignored: boolean): HandleMark {
  const count = typeof ev.count === 'number' && ev.count > 1 ? ` ×${ev.count}` : '';
  const label = ev.label ?? `${ev.kind}${count}`;
  return {
    kind: 'handle',
    id: ev.id,
    lane,
    row,
    at: ev.at,
    tone,
    shape: SHAPES[ev.kind] ?? 'circle',
    label,
    group: ev.kind,
    ariaLabel: `${ev.actor} ${ev.kind}${count} "${ev.id}" at ${ev.at} ms`,
    testId: `handle-${ev.id}`,
    future: ev.at > cursorMs,
    ignored,
  };
}

function ignoredIds(trace: ResilienceTrace): Set<string> {
  const out = new Set<string>();
  const t = traceView(trace);
  for (let i = 0; i < t.stepCount; i++) {
    if (t.ignoredOf(i).length === 0) continue;
    const entry = t.entryOf(i);
    if (entry.source === 'script') out.add(entry.label);
  }
  return out;
}

/** Time of the first step where the server acknowledged a 2026 cancel before the task stopped (`tasks.cancel-2026`), or null. */
function cancelAckAt(trace: ResilienceTrace): number | null {
  const t = traceView(trace);
  for (let i = 0; i < t.stepCount; i++) if (t.ruleOf(i) === 'tasks.cancel-2026' && t.entryOf(i).kind === 'arrive.cancel') return t.atOf(i);
  return null;
}

/** What the breaker timeline draws of one step: consecutive failures, the window failure rate (%), the token bucket and the ratio budget. */
function breakerRecord(r: { at: number; state: unknown }): { at: number; consecutive: number; ratePercent: number; tokens: number; ratioAllowance: number } {
  const s = r.state as BreakerState;
  return {
    at: r.at,
    consecutive: s.consecutive,
    ratePercent: Math.round(windowCounts(s, r.at).rate * 100),
    tokens: s.bucket.tokensMilli / 1000,
    ratioAllowance: Math.max(0, Math.floor((s.ratio.ratioMilli * s.ratio.calls) / 1000) - s.ratio.retries),
  };
}

/** Packs intervals into as few rows as possible (first fit); returns a row index per interval. */
export function packRows(intervals: readonly { from: number; to: number }[], maxRows: number): number[] {
  const ends: number[] = [];
  return intervals.map((iv) => {
    let row = ends.findIndex((end) => end <= iv.from);
    if (row < 0) {
      if (ends.length < maxRows) row = ends.push(iv.to) - 1;
      else row = ends.indexOf(Math.min(...ends));
    }
    ends[row] = Math.max(iv.to, iv.from + 1);
    return row;
  });
}

// ───────────────────────────── tasks ─────────────────────────────

function tasksView(trace: ResilienceTrace, cursorMs: number): ResilienceView {
  const ignored = ignoredIds(trace);
  const final = lastState<TasksState>(trace);
  const end = Math.max(trace.endAt, 1);
  const lanes: TimelineLane[] = [
    { id: 'client', label: 'Client', rows: [{ id: 'events', height: 36, label: 'user' }, { id: 'view', height: 30, label: 'client sees' }, ...(final.client.resultRequestedAt !== null ? [{ id: 'result', height: 24, label: final.config.revision === '2025-11-25' ? 'tasks/result' : 'result (tasks/get)' }] : [])] },
    { id: 'wire', label: 'Wire', rows: [{ id: 'w1', height: 17 }, { id: 'w2', height: 17 }], labelLane: true },
    { id: 'server', label: 'Server', rows: [{ id: 'events', height: 30, label: 'server' }, { id: 'status', height: 46, label: 'task status' }, { id: 'pending', height: 22, label: 'cancel' }] },
    { id: 'worker', label: 'Worker', rows: [{ id: 'events', height: 34, label: 'work' }] },
  ];
  const marks: TimelineMark[] = [];
  for (const ev of trace.scenario.events) {
    const lane = ev.actor === 'client' ? 'client' : ev.actor === 'server' ? 'server' : 'worker';
    marks.push(handle(ev, lane, 'events', cursorMs, lane === 'client' ? 'client' : lane === 'server' ? 'server' : 'worker', ignored.has(ev.id)));
  }
  // task status lane (server truth)
  const h = final.server.history;
  // A task lost in the crash (never durable) has no status after it: the extension defines only
  // working, input_required, completed, failed and cancelled, and tasks/get for it is -32602.
  const lostAt = final.server.lostTaskId !== null ? final.server.crashedAt : null;
  h.forEach((entry, i) => {
    const last = i + 1 === h.length;
    const to = !last ? h[i + 1].at : lostAt ?? end;
    const terminal = entry.status === 'completed' || entry.status === 'failed' || entry.status === 'cancelled';
    const endsLost = last && !terminal && lostAt !== null;
    marks.push({ kind: 'span', id: `status-${i}`, lane: 'server', row: 'status', at: entry.at, to: terminal || endsLost ? Math.max(to, entry.at + 1) : to, tone: TASK_TONE[entry.status], endLabel: last && !endsLost ? entry.status : undefined, title: `task ${entry.status} from ${entry.at} ms${endsLost ? ` until it was lost at ${lostAt} ms` : ''}`, future: entry.at > cursorMs, open: !terminal && !endsLost && last, thickness: 12 });
  });
  const knows = taskKnowledge(final);
  if (lostAt !== null) marks.push({ kind: 'marker', id: 'task-lost', lane: 'server', row: 'status', at: lostAt, tone: 'bad', label: `lost: no task (${final.server.lostTaskId} never durable)`, labelAt: 'top', title: knows.server, future: lostAt > cursorMs });
  const ackAt = cancelAckAt(trace);
  if (final.server.cancelPendingSince !== null || ackAt !== null) {
    const ackStep = ackAt === null ? null : { at: ackAt };
    if (ackStep) {
      const stopped = final.server.history.find((x) => x.at >= ackStep.at && x.status !== 'working');
      marks.push({ kind: 'band', id: 'cancel-pending', lane: 'server', row: 'status', at: ackStep.at, to: stopped?.at ?? end, tone: 'warn', title: 'cancel acknowledged, waiting for a checkpoint' });
      marks.push({ kind: 'span', id: 'cancel-pending-bar', lane: 'server', row: 'pending', at: ackStep.at, to: Math.max(stopped?.at ?? end, ackStep.at + 1), tone: 'warn', thickness: 6, open: stopped === undefined, endLabel: stopped ? `cancel pending → ${stopped.status}` : 'cancel pending', title: 'cancel acknowledged (empty), the task keeps working until a checkpoint', future: ackStep.at > cursorMs });
    }
  }
  // client view: acknowledgement versus terminal state
  const c = final.client;
  if (c.ackAt !== null) marks.push({ kind: 'marker', id: 'ack', lane: 'client', row: 'view', at: c.ackAt, tone: c.ack === 'error-32602' ? 'bad' : 'warn', label: `ack: ${c.ack === 'empty' ? 'empty (not terminal)' : c.ack}`, labelAt: 'top', future: c.ackAt > cursorMs });
  if (c.terminalObservedAt !== null) marks.push({ kind: 'marker', id: 'terminal-seen', lane: 'client', row: 'view', at: c.terminalObservedAt, tone: TASK_TONE[c.observed ?? 'working'], label: `sees ${c.observed}`, labelAt: 'bottom', anchor: 'end', future: c.terminalObservedAt > cursorMs });
  // tasks/result: the result the client fetched after it saw completed (or the error it got)
  if (c.resultReceivedAt !== null) {
    const label = c.resultFetched !== null ? `result: ${c.resultFetched}` : 'failed: no result';
    marks.push({ kind: 'marker', id: 'result-fetched', lane: 'client', row: 'result', at: c.resultReceivedAt, tone: c.resultFetched !== null ? 'ok' : 'bad', label, labelAt: 'top', anchor: 'end', future: c.resultReceivedAt > cursorMs });
  }
  const knowsUntil = c.terminalObservedAt ?? c.taskNotFoundAt;
  if (c.knownAt !== null) marks.push({ kind: 'span', id: 'client-knows', lane: 'client', row: 'view', at: c.knownAt, to: knowsUntil ?? end, open: knowsUntil === null, tone: 'client', thickness: 4, title: `client knows ${c.taskId} from ${c.knownAt} ms${c.taskNotFoundAt !== null ? ` until tasks/get answers "not found" at ${c.taskNotFoundAt} ms` : ''}` });
  if (c.taskNotFoundAt !== null) marks.push({ kind: 'marker', id: 'client-task-gone', lane: 'client', row: 'view', at: c.taskNotFoundAt, tone: 'bad', label: 'tasks/get: not found — the task is gone', labelAt: 'bottom', title: knows.client, future: c.taskNotFoundAt > cursorMs });
  if (c.callFailedAt !== null) marks.push({ kind: 'marker', id: 'client-call-lost', lane: 'client', row: 'view', at: c.callFailedAt, tone: 'bad', label: 'no task: the call was lost — re-issue as a new request', labelAt: 'bottom', title: knows.client, future: c.callFailedAt > cursorMs });
  // wire arrows
  trace.effects.forEach((e, i) => {
    const m = e.message as { method?: string; result?: unknown; error?: unknown } | undefined;
    const label = m?.method ?? (m?.error ? 'error -32602' : 'result');
    const fromLane = e.from === 'client' ? 'client' : 'server';
    const toLane = e.from === 'client' ? 'server' : 'client';
    const arrow: ArrowMark = {
      kind: 'arrow',
      id: `msg-${i}`,
      tone: e.from === 'client' ? 'client' : 'server',
      from: { lane: fromLane, row: 'events', at: e.at },
      to: { lane: toLane, row: 'events', at: e.arrivesAt ?? e.at },
      label: label === 'tasks/get' || (label === 'result' && e.from === 'server' && i > 0 && trace.effects[i - 1].message && (trace.effects[i - 1].message as { method?: string }).method === 'tasks/get') ? undefined : label,
      labelLane: 'wire',
      title: JSON.stringify(e.message),
      future: e.at > cursorMs,
      dashed: label === 'tasks/get',
    };
    marks.push(arrow);
  });
  return { lanes, marks };
}

/**
 * What each side knows about the one task at the end of a tasks trace, in words (the client row
 * and the status lane show the same): the client holds a task id, holds none because its
 * `tools/call` was lost with the server (stdio "Unexpected Termination": "any in-flight requests
 * are simply lost and the client can retry them"), or holds an id that `tasks/get` answered "Task
 * not found" (-32602, ext-tasks "Protocol Errors"); the server holds the task in one of the
 * extension's five statuses (`working`, `input_required`, `completed`, `failed`, `cancelled` —
 * ext-tasks "Task Status"), or no task: one lost in a crash before it was durable has no status at
 * all, it is never "working" again. Pure.
 */
export function taskKnowledge(final: TasksState): { client: string; server: string } {
  const c = final.client;
  const sv = final.server;
  const client =
    c.callFailedAt !== null
      ? `no task: the tools/call was lost at ${c.callFailedAt} ms before any handle came back — re-issue it as a new request`
      : c.taskNotFoundAt !== null
        ? `holds ${c.taskId}, but tasks/get answered "Task not found" at ${c.taskNotFoundAt} ms: the task is gone`
        : c.taskId !== null
          ? `knows ${c.taskId} since ${c.knownAt} ms${c.observed !== null ? `, last saw ${c.observed}` : ''}`
          : 'no task id yet';
  const server =
    sv.lostTaskId !== null && sv.crashedAt !== null
      ? `no task: ${sv.lostTaskId} was lost in the crash at ${sv.crashedAt} ms (never durable) — tasks/get for it answers -32602`
      : sv.taskId !== null && sv.status !== null
        ? `${sv.taskId} ${sv.status} since ${sv.statusAt} ms`
        : 'no task yet';
  return { client, server };
}

// ───────────────────────────── breaker ─────────────────────────────

function breakerView(trace: ResilienceTrace, cursorMs: number): ResilienceView {
  const ignored = ignoredIds(trace);
  const final = lastState<BreakerState>(trace);
  const end = Math.max(trace.endAt, ...trace.scenario.events.map((e) => e.at), 1);
  const cfg = final.config;
  const lanes: TimelineLane[] = [
    { id: 'client', label: 'Client', rows: [{ id: 'events', height: 36, label: 'calls' }] },
    { id: 'breaker', label: 'Breaker', rows: [{ id: 'state', height: 26, label: 'state' }, { id: 'attempts', height: 30, label: 'attempts' }, { id: 'rate', height: 34, label: cfg.policy.consecutiveNeverDecays ? 'consecutive' : 'fail rate' }] },
    { id: 'upstream', label: 'Downstream', rows: [{ id: 'events', height: 34, label: 'health' }] },
  ];
  if (cfg.retry.budget !== 'none') lanes.push({ id: 'budget', label: 'Budget', rows: [{ id: 'level', height: 40, label: cfg.retry.budget === 'token-bucket' ? 'tokens' : 'retries left' }] });
  const marks: TimelineMark[] = [];
  // Many calls (B2, B3: one every 100 ms–1 s): one label for the lane ("40 requests") instead of
  // "request request request" repeated along it; each handle still names itself to a screen reader.
  const requests = trace.scenario.events.filter((e) => e.actor === 'client' && e.kind === 'request');
  const total = requests.reduce((n, e) => n + (typeof e.count === 'number' && e.count > 1 ? e.count : 1), 0);
  for (const ev of trace.scenario.events) {
    const lane = ev.actor === 'client' ? 'client' : 'upstream';
    const mark = handle(ev, lane, 'events', cursorMs, ev.kind === 'recover' ? 'ok' : ev.kind === 'outage' ? 'bad' : 'client', ignored.has(ev.id));
    if (requests.length > 8 && ev.actor === 'client' && ev.kind === 'request' && ev.label === undefined) mark.label = ev === requests[0] ? `${total} requests` : undefined;
    marks.push(mark);
  }
  // state band
  const transitions = final.logs.transitions.slice(0, final.transitionsSeen);
  const periods = [{ at: 0, to: 'closed' as string }, ...transitions.map((t) => ({ at: t.at, to: t.to as string }))];
  periods.forEach((p, i) => {
    const to = i + 1 < periods.length ? periods[i + 1].at : end;
    if (to <= p.at && i + 1 < periods.length) return;
    marks.push({ kind: 'span', id: `mode-${i}`, lane: 'breaker', row: 'state', at: p.at, to: Math.max(to, p.at + 1), tone: MODE_TONE[p.to], thickness: 14, endLabel: undefined, title: `${p.to} from ${p.at} ms`, future: p.at > cursorMs });
    // The state's name only where its segment has room for it (else its initial, else none; the tooltip always names it).
    marks.push({ kind: 'marker', id: `mode-l-${i}`, lane: 'breaker', row: 'state', at: p.at, tone: MODE_TONE[p.to], label: p.to, shortLabel: MODE_SHORT[p.to], labelUntil: Math.max(to, p.at + 1), labelAt: 'top', title: `${p.to} from ${p.at} ms${i + 1 < periods.length ? ` to ${to} ms` : ''}`, future: p.at > cursorMs });
  });
  // attempt dots
  const attempts = final.logs.attempts.slice(0, final.attemptsSeen);
  attempts.forEach((a, i) => {
    marks.push({
      kind: 'point',
      id: `att-${i}`,
      lane: 'breaker',
      row: 'attempts',
      at: a.endAt,
      shape: a.outcome === 'ok' ? 'dot' : a.outcome === 'failed' ? 'x' : 'tick',
      tone: a.outcome === 'ok' ? 'ok' : a.outcome === 'failed' ? 'bad' : 'muted',
      hollow: a.stale,
      title: `${a.call} attempt ${a.n}: ${a.outcome}${a.stale ? ' (stale result)' : ''}, admitted while ${a.mode}`,
      future: a.endAt > cursorMs,
    });
  });
  // failure rate (or consecutive count) after each step
  const rate: [number, number][] = [[0, 0]];
  const level: [number, number][] = [];
  for (const step of stepRecords(trace, 'breaker', breakerRecord)) {
    const v = cfg.policy.consecutiveNeverDecays ? step.consecutive : step.ratePercent;
    if (rate[rate.length - 1][1] !== v) rate.push([step.at, v]);
    const b = cfg.retry.budget === 'token-bucket' ? step.tokens : step.ratioAllowance;
    if (level.length === 0 || level[level.length - 1][1] !== b) level.push([step.at, b]);
  }
  marks.push({ kind: 'steps', id: 'rate', lane: 'breaker', row: 'rate', points: rate, max: cfg.policy.consecutiveNeverDecays ? Math.max(cfg.breaker.failureThreshold, ...rate.map((r) => r[1])) : 100, until: cursorMs, tone: 'bad', label: cfg.policy.consecutiveNeverDecays ? 'consecutive failures' : 'window failure rate %' });
  if (cfg.retry.budget !== 'none') {
    const max = cfg.retry.budget === 'token-bucket' ? cfg.retry.maxTokens : Math.max(1, ...level.map((l) => l[1]));
    marks.push({ kind: 'steps', id: 'level', lane: 'budget', row: 'level', points: level.length ? level : [[0, max]], max, until: cursorMs, tone: 'info', label: cfg.retry.budget === 'token-bucket' ? `tokens (retries stop at ${cfg.retry.maxTokens / 2})` : 'retries the 10% budget still allows' });
    if (cfg.retry.budget === 'token-bucket') marks.push({ kind: 'marker', id: 'half', lane: 'budget', row: 'level', at: 0, tone: 'warn', dashed: true, label: 'half', labelAt: 'top' });
  }
  return { lanes, marks };
}

// ───────────────────────────── storm ─────────────────────────────

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

function stormView(trace: ResilienceTrace, cursorMs: number, detail: StormDetail = 'auto'): ResilienceView {
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

/** The lanes and marks of `trace` with the playhead at `cursorMs`. */
export function resilienceView(trace: ResilienceTrace, cursorMs: number, stormDetail: StormDetail = 'auto'): ResilienceView {
  const mechanism = trace.initial.mechanism;
  if (mechanism === 'tasks') return tasksView(trace, cursorMs);
  if (mechanism === 'breaker') return breakerView(trace, cursorMs);
  return stormView(trace, cursorMs, stormDetail);
}
