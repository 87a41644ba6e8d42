import type { CallSpan, CheckReport, ImportResult, Transcript } from '../../store/trafficStore';

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
  | { type: 'imported'; job: number; result: ImportResult; report: CheckReport | null; spans: CallSpan[] }
  | { type: 'checked'; job: number; report: CheckReport }
  | { type: 'review'; job: number; filename: string; text: string }
  | { type: 'failed'; job: number; error: string };
