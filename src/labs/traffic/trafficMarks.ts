import type { TimelineLane, TimelineMark, Tone } from '../../charts/timelineTypes';
import type { CallSpan, MetaEntry, Transcript, TranscriptEntry } from '../../store/trafficStore';
import { faultWords } from '../../wire/transcript/view';

/**
 * The traffic page's timeline: a client lane and a server lane, each with a "calls" row (every
 * request its side sent, as a span from the request to what ended it — open-ended when the
 * transcript never shows the outcome, Jepsen's `:info`) and a "messages" row (requests,
 * responses, progress, cancels as glyphs; stream closes, client timeouts, and — on the server lane,
 * in words — the faults that fired and process exits as markers). Stderr
 * lines sit faint on the server lane. With more than `maxMarks` entries shown, the messages are
 * aggregated into time buckets (one glyph per bucket, its count in the tooltip) and the calls
 * into an in-flight step series, so a 100k-line log draws a few hundred marks.
 */

export const TRAFFIC_LANES: readonly TimelineLane[] = [
  { id: 'client', label: 'Client', rows: [{ id: 'calls', height: 22, label: 'calls' }, { id: 'msgs', height: 22, label: 'sent' }] },
  { id: 'server', label: 'Server', rows: [{ id: 'calls', height: 22, label: 'calls' }, { id: 'msgs', height: 22, label: 'sent' }] },
];

/** Above this many shown entries the timeline aggregates. */
export const MAX_DETAILED_MARKS = 600;
/** Buckets across the domain when aggregating. */
export const AGGREGATE_BUCKETS = 160;

function methodOf(e: TranscriptEntry): string | null {
  if (e.type !== 'message' || e.message === null || typeof e.message !== 'object' || Array.isArray(e.message)) return null;
  return typeof e.message.method === 'string' ? e.message.method : null;
}

/** How a process ended, in words: `code 1`, `by SIGTERM`, `(how unknown)`. */
function exitWords(e: MetaEntry): string {
  if (typeof e.code === 'number') return `code ${e.code}`;
  if (e.signal) return `by ${e.signal}`;
  return '(how unknown)';
}

/** A short label of an entry for lists and tooltips: `→ tools/call #42`, `← result #42`, `stderr: …`. */
export function entryLabel(e: TranscriptEntry): string {
  if (e.type === 'stderr') return `stderr: ${e.text.slice(0, 80)}`;
  if (e.type === 'meta') {
    const what = e.kind === 'fault' ? `fault ${e.fault ?? '(unnamed)'}` : e.kind === 'exit' ? `process exit ${exitWords(e)}` : e.kind;
    return `${what}${e.requestId !== undefined ? ` #${e.requestId}` : ''}${e.cause ? ` (${e.cause})` : ''}`;
  }
  const arrow = e.direction === 'c2s' ? '→' : '←';
  const m = e.message !== null && typeof e.message === 'object' && !Array.isArray(e.message) ? e.message : null;
  const id = m && 'id' in m ? ` #${JSON.stringify(m.id)}` : '';
  if (e.kind === 'response' && m) return `${arrow} ${'error' in m ? 'error' : 'result'}${id}`;
  if (e.kind === 'invalid') return `${arrow} (not JSON-RPC)`;
  const method = methodOf(e) ?? '?';
  if (method === 'notifications/cancelled' && m && m.params && typeof m.params === 'object' && !Array.isArray(m.params)) return `${arrow} cancel #${JSON.stringify(m.params.requestId)}`;
  if (method === 'notifications/progress' && m && m.params && typeof m.params === 'object' && !Array.isArray(m.params)) return `${arrow} progress ${JSON.stringify(m.params.progress)}`;
  return `${arrow} ${method}${id}`;
}

function toneOf(e: TranscriptEntry): Tone {
  if (e.type === 'stderr') return 'muted';
  if (e.type === 'meta') return e.kind === 'client-timeout' || e.kind === 'connect-failed' ? 'warn' : 'wire';
  const method = methodOf(e);
  if (method === 'notifications/cancelled') return 'bad';
  if (method === 'notifications/progress') return 'info';
  if (e.kind === 'response') return e.message !== null && typeof e.message === 'object' && 'error' in e.message ? 'warn' : 'ok';
  if (e.kind === 'invalid') return 'bad';
  return e.direction === 'c2s' ? 'client' : 'server';
}

const laneOf = (e: TranscriptEntry): 'client' | 'server' =>
  e.type === 'stderr' ? 'server' : e.type === 'meta' ? (e.kind === 'fault' || e.kind === 'exit' ? 'server' : 'client') : e.direction === 'c2s' ? 'client' : 'server';

const OUTCOME_TONE: Record<CallSpan['outcome'], Tone> = { result: 'ok', error: 'warn', cancelled: 'bad', timeout: 'warn', 'stream-closed': 'bad', unknown: 'muted' };

/**
 * Shortest drawn range (ms): the axis fits the data (5 ms of bare JSON-RPC lines draw as 0–11 ms, not
 * 0–100), yet never so short that its ticks fall between whole milliseconds (the axis labels whole ms).
 */
export const MIN_TRAFFIC_RANGE_MS = 10;

/** The drawn range [0, end] of a transcript (at least `MIN_TRAFFIC_RANGE_MS`; a little room, at least 1 ms, after the last entry). */
export function trafficDomain(t: Transcript | null): readonly [number, number] {
  if (!t || t.entries.length === 0) return [0, 1000];
  const first = Math.min(0, t.entries[0].atMs);
  const last = t.entries[t.entries.length - 1].atMs;
  const end = Math.max(first + MIN_TRAFFIC_RANGE_MS, last);
  return [first, end + Math.max(1, Math.ceil((end - first) * 0.04))];
}

/** Mark id of entry `i` (stable, for tests and highlighting). */
export const entryMarkId = (i: number) => `entry-${i}`;

/**
 * The marks of `shown` entries of `t`: detailed glyphs, or buckets when there are more than
 * `MAX_DETAILED_MARKS`. `highlight` (the current finding's entries) is drawn as `bad` with a marker;
 * `selected` gets a marker labelled "selected".
 */
export function trafficMarks(t: Transcript, spans: readonly CallSpan[], shown: readonly number[], highlight: readonly number[], selected: number | null, cursorMs: number): TimelineMark[] {
  const marks: TimelineMark[] = [];
  const [d0, d1] = trafficDomain(t);
  const shownSet = new Set(shown);
  const hl = new Set(highlight);
  const visibleSpans = spans.filter((s) => shownSet.has(s.entries[0]));
  if (shown.length <= MAX_DETAILED_MARKS) {
    for (const s of visibleSpans) {
      const lane = s.direction === 'c2s' ? 'client' : 'server';
      const open = s.endAtMs === null;
      const to = open ? d1 : Math.max(s.endAtMs!, s.startAtMs + 1);
      marks.push({
        kind: 'span',
        id: `call-${lane}-${s.entries[0]}`,
        lane,
        row: 'calls',
        at: s.startAtMs,
        to,
        open,
        tone: OUTCOME_TONE[s.outcome],
        endCap: s.outcome === 'cancelled' || s.outcome === 'stream-closed' ? 'x' : s.outcome === 'timeout' ? 'bar' : open ? 'none' : 'dot',
        endLabel: `${s.tool ?? s.method} #${JSON.stringify(s.id)} ${s.outcome === 'unknown' ? 'outcome unknown' : s.outcome}`,
        title: `${s.method}${s.tool ? ` ${s.tool}` : ''} id ${JSON.stringify(s.id)}: ${s.startAtMs} ms → ${open ? 'no outcome in the transcript' : `${s.outcome} at ${s.endAtMs} ms`}${s.responseAtMs !== null && s.responseAtMs !== s.endAtMs ? `; response at ${s.responseAtMs} ms` : ''}`,
        future: s.startAtMs > cursorMs,
      });
      // The other side's view: the peer worked from the request until its response (open when none
      // came) — a response after the call ended (a late result after a cancel or timeout) shows here.
      const peer = lane === 'client' ? 'server' : 'client';
      const late = s.responseAtMs !== null && s.endAtMs !== null && s.responseAtMs > s.endAtMs;
      if (s.responseAtMs === null || late) {
        marks.push({
          kind: 'span',
          id: `work-${peer}-${s.entries[0]}`,
          lane: peer,
          row: 'calls',
          at: s.startAtMs,
          to: s.responseAtMs ?? d1,
          open: s.responseAtMs === null,
          tone: late ? 'warn' : 'muted',
          thickness: 4,
          endCap: s.responseAtMs === null ? 'none' : 'dot',
          endLabel: late ? `#${JSON.stringify(s.id)} answered late` : undefined,
          title: late ? `${s.method} id ${JSON.stringify(s.id)}: the ${peer} still answered at ${s.responseAtMs} ms, after the call ended (${s.outcome}) at ${s.endAtMs} ms` : `${s.method} id ${JSON.stringify(s.id)}: no response from the ${peer} in the transcript`,
          future: s.startAtMs > cursorMs,
        });
      }
    }
    for (const i of shown) {
      const e = t.entries[i];
      const lane = laneOf(e);
      const tone = hl.has(i) ? 'bad' : toneOf(e);
      if (e.type === 'meta' && (e.kind === 'fault' || e.kind === 'exit')) {
        // In words on the timeline, not only a mark: which fault fired (and where it is taught), how the process ended.
        const label = e.kind === 'fault' ? `fault: ${e.fault ?? '?'}` : `exit ${exitWords(e)}`;
        marks.push({ kind: 'marker', id: entryMarkId(i), lane, row: 'msgs', at: e.atMs, tone: hl.has(i) ? 'bad' : 'warn', dashed: e.kind === 'exit', label, labelAt: 'bottom', title: `${e.atMs} ms ${e.kind === 'fault' ? faultWords(e.fault) : entryLabel(e)}` });
        continue;
      }
      if (e.type === 'meta' && (e.kind === 'stream-close' || e.kind === 'client-timeout' || e.kind === 'disconnect')) {
        marks.push({ kind: 'marker', id: entryMarkId(i), lane, row: 'msgs', at: e.atMs, tone, dashed: true, label: e.kind === 'client-timeout' ? 'timeout' : e.kind === 'stream-close' ? 'stream closed' : 'drop', labelAt: 'bottom', title: `${e.atMs} ms ${entryLabel(e)}` });
        continue;
      }
      const method = methodOf(e);
      const shape = e.type === 'message' && method === 'notifications/cancelled' ? 'x' : e.type === 'message' && e.kind === 'response' ? 'tick' : 'dot';
      marks.push({ kind: 'point', id: entryMarkId(i), lane, row: 'msgs', at: e.atMs, shape, hollow: method === 'notifications/progress' || e.type !== 'message', tone, title: `${e.atMs} ms ${entryLabel(e)}`, future: e.atMs > cursorMs });
    }
  } else {
    // Aggregate: one glyph per (lane, bucket) with the count; calls in flight as steps.
    const width = Math.max(1, (d1 - d0) / AGGREGATE_BUCKETS);
    const buckets = new Map<string, { lane: 'client' | 'server'; b: number; n: number; bad: number }>();
    for (const i of shown) {
      const e = t.entries[i];
      const lane = laneOf(e);
      const b = Math.floor((e.atMs - d0) / width);
      const key = `${lane}|${b}`;
      const cur = buckets.get(key) ?? { lane, b, n: 0, bad: 0 };
      cur.n++;
      if (hl.has(i)) cur.bad++;
      buckets.set(key, cur);
    }
    for (const { lane, b, n, bad } of buckets.values()) {
      const at = Math.round(d0 + (b + 0.5) * width);
      marks.push({ kind: 'point', id: `bucket-${lane}-${b}`, lane, row: 'msgs', at, shape: 'dot', tone: bad > 0 ? 'bad' : lane, title: `${n} entries from ${Math.round(d0 + b * width)} ms to ${Math.round(d0 + (b + 1) * width)} ms${bad ? ` (${bad} in the current finding)` : ''}`, future: at > cursorMs });
    }
    for (const lane of ['client', 'server'] as const) {
      const deltas: [number, number][] = [];
      for (const s of visibleSpans) {
        if ((s.direction === 'c2s' ? 'client' : 'server') !== lane) continue;
        deltas.push([s.startAtMs, 1]);
        deltas.push([s.endAtMs ?? d1, -1]);
      }
      if (deltas.length === 0) continue;
      deltas.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const points: [number, number][] = [[d0, 0]];
      let level = 0;
      let max = 1;
      for (const [at, d] of deltas) {
        level += d;
        max = Math.max(max, level);
        if (points[points.length - 1][0] === at) points[points.length - 1][1] = level;
        else points.push([at, level]);
      }
      marks.push({ kind: 'steps', id: `inflight-${lane}`, lane, row: 'calls', points, max, until: cursorMs, tone: lane, label: `calls in flight (max ${max})` });
    }
  }
  for (const i of highlight) {
    const e = t.entries[i];
    if (e && shownSet.has(i)) marks.push({ kind: 'marker', id: `finding-${i}`, lane: laneOf(e), row: 'calls', at: e.atMs, tone: 'bad', title: `in the current finding: ${entryLabel(e)}` });
  }
  if (selected !== null && t.entries[selected]) {
    const e = t.entries[selected];
    marks.push({ kind: 'marker', id: 'selected-entry', lane: laneOf(e), row: 'msgs', at: e.atMs, tone: 'info', label: 'selected', labelAt: 'top', title: `selected: ${e.atMs} ms ${entryLabel(e)}` });
  }
  return marks;
}
