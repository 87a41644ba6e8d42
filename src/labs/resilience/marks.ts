import type { ArrowMark, TimelineLane, TimelineMark, Tone } from '../../charts/timelineTypes';
import type { ResilienceTrace } from '../../sim/resilience';
import type { BreakerState } from '../../sim/resilience/breaker';
import { stepRecords, traceView, windowCounts } from '../../store/resilienceStore';
import type { TasksState } from '../../sim/resilience/tasks';

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

import { handle, ignoredIds, lastState, type ResilienceView } from './markParts';
import { stormView, type StormDetail } from './stormMarks';

export { packRows, type ResilienceView } from './markParts';
export { STORM_DETAIL_LIMIT, startedLabel, startedSeries, stormAggregated, type StormDetail } from './stormMarks';

const TASK_TONE: Record<string, Tone> = { working: 'info', input_required: 'warn', completed: 'ok', failed: 'bad', cancelled: 'muted' };
const MODE_TONE: Record<string, Tone> = { closed: 'ok', open: 'bad', 'half-open': 'warn' };
/** Abbreviated breaker states for narrow band segments (the help text spells them out). */
const MODE_SHORT: Record<string, string> = { closed: 'C', open: 'O', 'half-open': 'H' };

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

// ───────────────────────────── tasks ─────────────────────────────

function tasksView(trace: ResilienceTrace, cursorMs: number): ResilienceView {
  const ignored = ignoredIds(trace);
  const final = lastState<TasksState>(trace);
  const end = Math.max(trace.endAt, 1);
  const lanes: TimelineLane[] = [
    { id: 'client', label: 'Client', rows: [{ id: 'events', height: 36, label: 'user' }, { id: 'view', height: 30, label: 'client sees' }, ...(final.client.resultRequestedAt !== null ? [{ id: 'result', height: 24, label: final.config.revision === '2025-11-25' ? 'tasks/result' : 'result (tasks/get)' }] : [])] },
    { id: 'wire', label: 'Wire', rows: [{ id: 'w1', height: 17 }, { id: 'w2', height: 17 }], labelLane: true },
    { id: 'server', label: 'Server', rows: [{ id: 'events', height: 30, label: 'server' }, { id: 'status', height: 46, label: 'task status' }, ...(final.more ?? []).map((t) => ({ id: `status-${t.key}`, height: 30, label: `${t.key} status` })), { id: 'pending', height: 22, label: 'cancel' }] },
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
  // A further task's status lane (T6: several tasks polled side by side), one row each, same tones.
  for (const t of final.more ?? []) {
    t.server.history.forEach((entry, i) => {
      const last = i + 1 === t.server.history.length;
      const terminal = entry.status === 'completed' || entry.status === 'failed' || entry.status === 'cancelled';
      const to = !last ? t.server.history[i + 1].at : end;
      marks.push({ kind: 'span', id: `status-${t.key}-${i}`, lane: 'server', row: `status-${t.key}`, at: entry.at, to: terminal ? Math.max(to, entry.at + 1) : to, tone: TASK_TONE[entry.status], endLabel: last ? entry.status : undefined, title: `${t.key} (${t.server.taskId}) ${entry.status} from ${entry.at} ms`, future: entry.at > cursorMs, open: !terminal && last, thickness: 8 });
    });
  }
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
          : c.resultError !== null
            ? `no task: the tools/call got ${c.resultError} at ${c.resultReceivedAt} ms`
            : 'no task id yet';
  const server =
    sv.lostTaskId !== null && sv.crashedAt !== null
      ? `no task: ${sv.lostTaskId} was lost in the crash at ${sv.crashedAt} ms (never durable) — tasks/get for it answers -32602`
      : sv.taskId !== null && sv.status !== null
        ? `${sv.taskId} ${sv.status} since ${sv.statusAt} ms`
        : sv.refusedAt !== undefined
          ? `no task: it refused the call at ${sv.refusedAt} ms with -32021 (the client did not declare the tasks extension)`
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

/** The lanes and marks of `trace` with the playhead at `cursorMs`. */
export function resilienceView(trace: ResilienceTrace, cursorMs: number, stormDetail: StormDetail = 'auto'): ResilienceView {
  const mechanism = trace.initial.mechanism;
  if (mechanism === 'tasks') return tasksView(trace, cursorMs);
  if (mechanism === 'breaker') return breakerView(trace, cursorMs);
  return stormView(trace, cursorMs, stormDetail);
}
