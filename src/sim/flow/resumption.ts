import type { Revision } from '../mcp';
import type { ResumptionConfig } from './schema';

/** A 2025-11-25 stream resumed with Last-Event-ID across drops (issue 11), moved out of `reconnect.ts` (which re-exports it). */

/** One reconnect of `resumeAfterDrops`: when, and the Last-Event-ID header it sent (null: none). */
export interface ResumeAttempt {
  atMs: number;
  lastEventId: number | null;
  /** Events the server replayed on this stream (ids). */
  replayed: number[];
  /** What the server did: resumed the request's stream, or opened a standalone GET stream (no header). */
  served: 'resumed' | 'standalone';
}

/** What `resumeAfterDrops` measured (times in virtual ms). */
export interface ResumptionSummary {
  reconnects: number;
  /** Reconnects sent without Last-Event-ID although an event had been seen. */
  reconnectsWithoutLastEventId: number;
  eventsReceived: number;
  responseDelivered: boolean;
  responseDeliveredAtMs: number | null;
  /** True when the response never arrives by horizonMs: the request hangs. */
  hangs: boolean;
  /** False under 2026-07-28: resumable streams are not supported, nothing is resumed. */
  resumable: boolean;
  /** 2026-07-28: when the first drop lost the request before its response (it must be re-issued as a new request); null otherwise. */
  lostAtMs: number | null;
}

/** Result of `resumeAfterDrops`. */
export interface ResumptionResult {
  summary: ResumptionSummary;
  attempts: ResumeAttempt[];
  invariants: { name: string; description: string; firstViolation: { at: number; message: string } | null }[];
}

/**
 * A 2025-11-25 tools/call response stream resumed across drops (`basic/transports`, Resumability
 * and Redelivery: the client resumes with an HTTP GET carrying `Last-Event-ID`, and the server
 * "MUST NOT send a JSON-RPC response on the stream unless resuming a stream associated with a
 * previous client request"). The server writes events 1…n at `eventsAtMs` and the response as
 * event n + 1 at `responseAtMs`, keeping all of them in its event store. At each drop the client
 * reconnects `reconnectDelayMs` later; with a Last-Event-ID the server replays what came after it
 * and the stream continues; without one it opens a standalone stream, where the response can
 * never arrive, so the request hangs.
 *
 * The bug (typescript-sdk#2499; the number comes from issue 11's text): `cursor: 'per-stream'` — each
 * resumed stream's cursor starts undefined, so a quick second drop, before the resumed stream
 * delivered an event, sends no Last-Event-ID. Correct: `cursor: 'carried'`. Pure; throws nothing.
 */
export function resumeAfterDrops(c: ResumptionConfig, revision: Revision = '2025-11-25', resumeUnder2026 = false): ResumptionResult {
  if (revision === '2026-07-28' && !resumeUnder2026) return lostAtFirstDrop(c);
  const result = resumeWithLastEventId(c);
  if (revision === '2026-07-28') {
    const first = result.attempts.find((a) => a.lastEventId !== null);
    result.invariants.push(noResumption2026(first === undefined ? null : { at: first.atMs, message: `under 2026-07-28 the reconnect at ${first.atMs} ms resumes with Last-Event-ID: ${first.lastEventId}, which this revision does not support` }));
  }
  return result;
}

/** The invariant `no-resumption-2026` with its first violation (null: it holds). */
function noResumption2026(firstViolation: { at: number; message: string } | null): ResumptionResult['invariants'][number] {
  return {
    name: 'no-resumption-2026',
    description: 'Under 2026-07-28 no reconnect resumes a stream with Last-Event-ID ("Resumable SSE streams via Last-Event-ID are not supported"): a broken stream loses its request, which is re-issued as a new request.',
    firstViolation,
  };
}

/**
 * 2026-07-28: the stream is not resumable, so the first drop before the response loses the request
 * (the client re-issues it as a new request with a new id — the flow model's `reissue.ts` and built-in
 * RI1); nothing is replayed and no GET with Last-Event-ID is sent. Sources: 2026-07-28
 * `basic/transports/streamable-http` ("Resumable SSE streams via Last-Event-ID are not supported");
 * `changelog` major item 9 ("A broken response stream loses the in-flight request").
 */
function lostAtFirstDrop(c: ResumptionConfig): ResumptionResult {
  const responseAt = c.responseAtMs;
  const drop = [...c.dropsAtMs].sort((a, b) => a - b).find((d) => d <= c.horizonMs);
  const lostAt = drop !== undefined && drop <= responseAt ? drop : null;
  const delivered = lostAt === null && responseAt <= c.horizonMs;
  // A drop at an event's millisecond comes first (as in the 2025-11-25 walk).
  const eventsReceived = lostAt !== null ? c.eventsAtMs.filter((at) => at < lostAt).length : c.eventsAtMs.filter((at) => at <= c.horizonMs).length + (delivered ? 1 : 0);
  return {
    summary: { reconnects: 0, reconnectsWithoutLastEventId: 0, eventsReceived, responseDelivered: delivered, responseDeliveredAtMs: delivered ? responseAt : null, hangs: false, resumable: false, lostAtMs: lostAt },
    attempts: [],
    invariants: [noResumption2026(null)],
  };
}

/** The 2025-11-25 walk: events, drops and Last-Event-ID reconnects in time order. */
function resumeWithLastEventId(c: ResumptionConfig): ResumptionResult {
  const events = [...c.eventsAtMs].sort((a, b) => a - b).map((at, i) => ({ id: i + 1, at }));
  const responseId = events.length + 1;
  events.push({ id: responseId, at: c.responseAtMs });
  events.sort((a, b) => a.at - b.at || a.id - b.id);
  const drops = [...c.dropsAtMs].sort((a, b) => a - b);
  const attempts: ResumeAttempt[] = [];
  let carried: number | null = null;
  let streamCursor: number | null = null;
  let received = 0;
  let deliveredAt: number | null = null;
  let connected = true;
  let hung = false;
  let reconnectAt: number | null = null;
  let missingAt: { at: number; message: string } | null = null;
  const delivered = new Set<number>();
  const receive = (id: number, at: number) => {
    if (delivered.has(id)) return;
    delivered.add(id);
    received++;
    carried = carried === null ? id : Math.max(carried, id);
    streamCursor = streamCursor === null ? id : Math.max(streamCursor, id);
    if (id === responseId) deliveredAt = at;
  };
  // Walk time through events, drops and reconnects in order (a drop at an event's millisecond comes first).
  let ei = 0;
  let di = 0;
  while (!hung && deliveredAt === null) {
    const nextEvent = ei < events.length ? events[ei].at : Infinity;
    const nextDrop = di < drops.length ? drops[di] : Infinity;
    const nextReconnect: number = reconnectAt ?? Infinity;
    const now = Math.min(nextEvent, nextDrop, nextReconnect);
    if (now === Infinity || now > c.horizonMs) break;
    if (nextReconnect === now && nextReconnect <= nextDrop && nextReconnect <= nextEvent) {
      reconnectAt = null;
      const header = c.cursor === 'carried' ? carried : streamCursor;
      if (header === null && carried !== null && missingAt === null) missingAt = { at: now, message: `the reconnect at ${now} ms sends no Last-Event-ID although event ${carried} was received` };
      if (header === null) {
        attempts.push({ atMs: now, lastEventId: null, replayed: [], served: 'standalone' });
        hung = true;
        break;
      }
      streamCursor = null;
      const replay = events.filter((e) => e.id > header && e.at <= now && !delivered.has(e.id)).map((e) => e.id);
      attempts.push({ atMs: now, lastEventId: header, replayed: replay, served: 'resumed' });
      connected = true;
      for (const id of replay) receive(id, now);
      continue;
    }
    if (nextDrop === now && nextDrop <= nextEvent) {
      di++;
      if (connected) {
        connected = false;
        reconnectAt = now + c.reconnectDelayMs;
      }
      continue;
    }
    const e = events[ei++];
    if (connected) receive(e.id, e.at);
  }
  const hangs = deliveredAt === null;
  return {
    summary: {
      reconnects: attempts.length,
      reconnectsWithoutLastEventId: attempts.filter((a) => a.lastEventId === null).length,
      eventsReceived: received,
      responseDelivered: !hangs,
      responseDeliveredAtMs: deliveredAt,
      hangs,
      resumable: true,
      lostAtMs: null,
    },
    attempts,
    invariants: [
      {
        name: 'resume-carries-last-event-id',
        description: 'Every resumption GET after an event was received carries Last-Event-ID with the newest id seen, across any number of drops (typescript-sdk#2499).',
        firstViolation: missingAt,
      },
      {
        name: 'request-answered',
        description: 'The tools/call gets its response (resumed streams replay it); it never hangs.',
        firstViolation: hangs ? { at: attempts.length ? attempts[attempts.length - 1].atMs : c.horizonMs, message: `request ${c.requestId} never gets its response: it hangs` } : null,
      },
    ],
  };
}
