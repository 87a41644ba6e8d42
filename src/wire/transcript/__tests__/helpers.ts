import type { Json } from '../../../sim/types';
import type { Revision } from '../../../sim/mcp';
import { importTranscript } from '../parse';
import type { Transcript } from '../types';

/**
 * One line of a hand-made capture transcript: [ms, direction, message or meta fields], and for a
 * message optionally envelope fields that override or join the line's (`http`, a framed `raw`).
 */
export type Line = [number, 'c2s' | 's2c', Json] | [number, 'c2s' | 's2c', Json, Record<string, Json>] | [number, 'meta', Record<string, Json>];

/** Capture-envelope JSONL text for `lines` (ts as relative ms). */
export function captureText(lines: Line[], transport: 'stdio' | 'http' = 'stdio'): string {
  return lines
    .map(([ts, direction, body, extra]) =>
      direction === 'meta' ? JSON.stringify({ ts, direction, transport, ...(body as Record<string, Json>) }) : JSON.stringify({ ts, direction, transport, raw: JSON.stringify(body), ...(extra ?? {}) }),
    )
    .join('\n');
}

/** Imports hand-made lines; throws when the import fails. */
export function tx(lines: Line[], options: { transport?: 'stdio' | 'http'; revision?: Revision } = {}): Transcript {
  const r = importTranscript(captureText(lines, options.transport), { revision: options.revision ?? '2026-07-28' });
  if (!r.ok) throw new Error(r.reason);
  return r.transcript;
}

export const call = (id: Json, tool = 'slow_task', args: Json = {}, meta: Record<string, Json> = {}): Json => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args, _meta: meta } });
export const result = (id: Json, text = 'done'): Json => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });
export const progress = (token: Json, value: number): Json => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: value } });
export const cancel = (id: Json, reason = 'stop'): Json => ({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } });
