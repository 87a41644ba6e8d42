import type { CallSpan, CheckReport, ImportResult, Transcript, TranscriptEntry } from '../../store/trafficStore';

/**
 * Entries (and spans) per `part` message. A structured clone is decoded on the receiving thread in
 * one task, so the whole 100,000-entry transcript in one message was a 2.5–2.8 s main-thread task
 * (issue 24 item 1); in parts of this size each decode is a short task of its own and the page stays
 * responsive while a big import arrives.
 */
export const TRAFFIC_PART_SIZE = 2_000;

/**
 * Messages between the traffic page and its worker (`traffic.worker.ts`). The worker keeps the
 * last transcript it imported; a re-check with new options sends `transcript: null` to use it, or
 * the page's transcript when the worker is a fresh one (after a Cancel). Every reply
 * carries the job id of its request; the page ignores replies of a job it has cancelled (it also
 * terminates the worker, so a cancelled parse stops at once).
 */
export type TrafficRequest =
  | { type: 'import'; job: number; text: string; check: { allowanceMs: number; maxMs: number | null } }
  | { type: 'check'; job: number; transcript: Transcript | null; check: { allowanceMs: number; maxMs: number | null } }
  /** The reliability review report (Markdown) of the transcript; runs here because its schema check compiles code (ajv). */
  | { type: 'review'; job: number; transcript: Transcript; redact: boolean; linkBase?: string };

export type TrafficReply =
  | { type: 'progress'; job: number; stage: 'parsing' | 'checking' }
  /** A slice of a big import's entries or spans, in order, sent before its `imported` (which then says `parts: true`). */
  | { type: 'part'; job: number; entries: TranscriptEntry[]; spans: CallSpan[] }
  /**
   * The import's result. With `parts: true` the transcript's `entries` and the `spans` are empty here:
   * they came in the `part` messages before it, and the page joins them.
   */
  | { type: 'imported'; job: number; result: ImportResult; report: CheckReport | null; spans: CallSpan[]; parts?: true }
  | { type: 'checked'; job: number; report: CheckReport }
  | { type: 'review'; job: number; filename: string; text: string }
  | { type: 'failed'; job: number; error: string };
