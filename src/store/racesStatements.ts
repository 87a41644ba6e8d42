import type { WireEffect } from '../sim/types';
import type { RacesOutcome, RequestOutcome, ResponseFate } from '../sim/races/types';

/**
 * The sentences the races panels state about an outcome, computed here from the outcome (the
 * lab's selector) so no panel re-derives them (issue 27, item 3: one truth per run). The texts sit
 * in one place so the languages issue (25) translates them once.
 */

/** What became of a request's final response, in the outcome panel's words (keyed by `responseFate`). */
export const FATE_TEXT: Readonly<Record<ResponseFate, string>> = {
  none: 'no response reached the client',
  'in-flight': 'on the wire',
  accepted: 'accepted by the client',
  'ignored-late': 'arrived late: logged and dropped',
  'lost-with-stream': 'lost with the stream (written to a stream the client had dropped; it never reached the client)',
  undeliverable: 'nowhere to deliver it (stream closed)',
};

/** Whether the client received the final response (accepted it or dropped it as late). */
export function responseReachedClient(fate: ResponseFate): boolean {
  return fate === 'accepted' || fate === 'ignored-late';
}

/** The "Final response" line's note after its yes / no: what became of the response, or why none was sent. */
export function finalResponseNote(r: RequestOutcome): string {
  if (r.finalResponse) return FATE_TEXT[r.responseFate];
  return r.serverState === 'cancelled' ? 'the server stopped and sent none' : 'none sent';
}

/** Milliseconds as the timeline writes them (groups of three separated by spaces: `220 000`). */
const ms = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');

/**
 * The "Server" line: the server's state and when its work ended, in a verb that matches the state
 * (a completed tool finished its work; a cancelled one stopped; a failed one failed) — never
 * "work stopped" for a tool that ran to completion.
 */
export function serverWorkText(r: RequestOutcome): string {
  if (r.workEndedAtMs === null) return r.serverState;
  const at = `${ms(r.workEndedAtMs)} ms`;
  switch (r.serverState) {
    case 'completed':
      return `completed (work finished at ${at})`;
    case 'cancelled':
      return `cancelled (work stopped at ${at})`;
    case 'failed':
      return `failed (work ended at ${at})`;
    default:
      return `${r.serverState} (work ended at ${at})`;
  }
}

/**
 * When the wire effect `e` was lost (ms), or null: `e` is a final response the outcome says was
 * lost with the stream, and it would have arrived after the stream dropped (the returned time).
 * From then on the wire panel says "never reached the client" instead of "arrives" / "arrived".
 */
export function effectLostAtMs(outcome: RacesOutcome, e: WireEffect): number | null {
  if (e.from !== 'server' || e.requestKey === undefined || e.arrivesAt === undefined) return null;
  const m = e.message as { id?: unknown; result?: unknown; error?: unknown } | undefined;
  if (m === undefined || m === null || typeof m !== 'object' || !('id' in m) || !('result' in m || 'error' in m)) return null;
  const r = outcome.requests.find((q) => q.key === e.requestKey);
  return r !== undefined && r.responseFate === 'lost-with-stream' && r.atMs !== null && e.arrivesAt > r.atMs ? r.atMs : null;
}
