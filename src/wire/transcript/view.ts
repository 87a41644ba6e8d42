import type { Json } from '../../sim/types';
import type { RequestId } from '../../sim/mcp';
import type { Finding } from './checks';
import type { Direction, MessageEntry, Transcript, TranscriptEntry } from './types';
import { isLiveFaultName, LIVE_FAULTS } from '../../sim/faultVocabulary';

/**
 * Pure helpers for the traffic view (timeline and wire panel): calls as spans, open-ended where
 * the outcome is unknown (Jepsen's `:info`), filtering by id / method / tool, and stepping to the
 * next or previous finding. No DOM; the page composes them.
 */

/** How a call ended, as the transcript shows it. `unknown`: no response, cancel or timeout seen (draw it open-ended). */
export type CallOutcome = 'result' | 'error' | 'cancelled' | 'timeout' | 'stream-closed' | 'unknown';

/** One request drawn as a span from its request to the first thing that ended it. */
export interface CallSpan {
  id: RequestId;
  /** Who sent the request. */
  direction: Direction;
  method: string;
  /** `params.name` of a tools/call. */
  tool: string | null;
  startAtMs: number;
  /** When the caller's view of it ended (response, cancel, stream close or timeout), or null: open-ended. */
  endAtMs: number | null;
  outcome: CallOutcome;
  /** The response's time, when one came (it may come after the call ended: a late response). */
  responseAtMs: number | null;
  /** Every entry about this call (request, progress for its token, cancels, stream close, timeout, response), in order. */
  entries: number[];
}

function isObject(v: unknown): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
const validId = (v: unknown): v is RequestId => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));
const k = (v: unknown) => JSON.stringify(v);

/** The calls of `t` as spans, in request order. */
export function callSpans(t: Transcript): CallSpan[] {
  const spans: CallSpan[] = [];
  const latest = new Map<string, CallSpan>();
  const byToken = new Map<string, CallSpan>();
  const end = (s: CallSpan, at: number, outcome: CallOutcome) => {
    if (s.endAtMs === null) {
      s.endAtMs = at;
      s.outcome = outcome;
    }
  };
  for (const e of t.entries) {
    if (e.type === 'meta') {
      const s = e.requestId !== undefined ? latest.get(`c2s|${k(e.requestId)}`) : undefined;
      if (!s) continue;
      if (e.kind === 'client-timeout') {
        s.entries.push(e.index);
        end(s, e.atMs, 'timeout');
      } else if (e.kind === 'stream-close') {
        s.entries.push(e.index);
        end(s, e.atMs, e.cause === 'network' ? 'stream-closed' : 'cancelled');
      }
      continue;
    }
    if (e.type !== 'message' || !isObject(e.message)) continue;
    const m = e.message;
    const params = isObject(m.params) ? m.params : {};
    if (e.kind === 'request' && validId(m.id)) {
      const meta = isObject(params._meta) ? params._meta : {};
      const s: CallSpan = { id: m.id, direction: e.direction, method: String(m.method), tool: m.method === 'tools/call' && typeof params.name === 'string' ? params.name : null, startAtMs: e.atMs, endAtMs: null, outcome: 'unknown', responseAtMs: null, entries: [e.index] };
      spans.push(s);
      latest.set(`${e.direction}|${k(m.id)}`, s);
      if (validId(meta.progressToken)) byToken.set(`${e.direction}|${k(meta.progressToken)}`, s);
      continue;
    }
    const other = e.direction === 'c2s' ? 's2c' : 'c2s';
    if (e.kind === 'response') {
      const s = latest.get(`${other}|${k(m.id)}`);
      if (!s) continue;
      s.entries.push(e.index);
      if (s.responseAtMs === null) s.responseAtMs = e.atMs;
      end(s, e.atMs, 'error' in m ? 'error' : 'result');
      continue;
    }
    if (m.method === 'notifications/progress' && validId(params.progressToken)) {
      const s = byToken.get(`${other}|${k(params.progressToken)}`);
      if (s) s.entries.push(e.index);
    } else if (m.method === 'notifications/cancelled' && validId(params.requestId)) {
      const s = latest.get(`${e.direction}|${k(params.requestId)}`) ?? latest.get(`${other}|${k(params.requestId)}`);
      if (!s) continue;
      s.entries.push(e.index);
      end(s, e.atMs, 'cancelled');
    }
  }
  return spans;
}

/** A filter of the traffic view: any of a request id, a method (exact) and a tool name (exact). */
export interface EntryFilter {
  id?: RequestId;
  method?: string;
  tool?: string;
}

/**
 * The indices of the entries that match `filter`, in order. A message matches an id when it is
 * the request, its response, a cancel naming it or progress for its token; a method when it is
 * that method or answers a request of it; a tool when it belongs to a tools/call of that tool.
 * Meta lines match an id they name; stderr lines match only an empty filter.
 */
export function filterEntries(t: Transcript, filter: EntryFilter): number[] {
  const empty = filter.id === undefined && filter.method === undefined && filter.tool === undefined;
  if (empty) return t.entries.map((e) => e.index);
  const spans = callSpans(t);
  const spanOf = new Map<number, CallSpan>();
  for (const s of spans) for (const i of s.entries) spanOf.set(i, s);
  const matches = (e: TranscriptEntry): boolean => {
    if (e.type === 'stderr') return false;
    const s = spanOf.get(e.index);
    if (filter.id !== undefined) {
      const named = e.type === 'meta' ? e.requestId : s?.id;
      if (named === undefined || k(named) !== k(filter.id)) return false;
    }
    if (filter.method !== undefined) {
      const method = e.type === 'message' && isObject(e.message) && typeof e.message.method === 'string' ? e.message.method : undefined;
      if (method !== filter.method && s?.method !== filter.method) return false;
    }
    if (filter.tool !== undefined && s?.tool !== filter.tool) return false;
    return true;
  };
  return t.entries.filter(matches).map((e) => e.index);
}

/**
 * The finding to step to from the playhead: the first finding after `atMs` (`next`) or the last
 * before it (`previous`), wrapping around; null when there are none. Findings must be sorted by
 * time (as `checkTranscript` returns them). Ties at `atMs` are skipped, so repeated steps move on.
 */
export function stepFinding(findings: readonly Finding[], atMs: number, direction: 'next' | 'previous', current: number | null = null): number | null {
  if (findings.length === 0) return null;
  if (current !== null && current >= 0 && current < findings.length) {
    return direction === 'next' ? (current + 1) % findings.length : (current - 1 + findings.length) % findings.length;
  }
  if (direction === 'next') {
    const i = findings.findIndex((f) => f.atMs > atMs);
    return i < 0 ? 0 : i;
  }
  for (let i = findings.length - 1; i >= 0; i--) if (findings[i].atMs < atMs) return i;
  return findings.length - 1;
}

/** The message entry at `index`, or undefined (for the wire panel's "as received" text: `entry.raw`). */
export function messageAt(t: Transcript, index: number): MessageEntry | undefined {
  const e = t.entries[index];
  return e && e.type === 'message' ? e : undefined;
}

/** The words of a fault mark's tooltip: what the fault does and the built-in scenario that teaches it (`src/sim/faultVocabulary.ts`). */
export function faultWords(name: string | undefined): string {
  if (name === undefined || !isLiveFaultName(name)) return `fault ${name ?? '(unnamed)'}: not one of the lab's named faults`;
  const f = LIVE_FAULTS[name];
  return `fault ${name}: the server ${f.does}; a correct client should ${f.clientShould}${f.lesson ? ` — taught by the ${f.lesson.lab} lab's scenario ${f.lesson.scenario} (#/${f.lesson.lab})` : ''}`;
}
