import type { Json, WireEffect } from '../../sim/types';
import type { RequestId } from '../../sim/mcp';
import type { RacesTrace } from '../../sim/races';
import { redactRecords } from './redact';
import type { Direction, MetaKind, Transcript, TranscriptFormat, TranscriptTransport, WireRecord } from './types';

/**
 * Exporters: a lab run's wire effects → wire records → the text of any of the four transcript
 * formats, so a run goes round trip through `importTranscript` and the checks.
 */

/** Where the transcript is recorded. */
export type Observer =
  /** In the client's path (like Claude Desktop's log or the Inspector): client messages when sent, server messages when they arrive; a response written to a closed stream is never seen. */
  | 'client'
  /** Each message when its sender wrote it (every effect, including the undeliverable). */
  | 'sender';

/** Options of `racesWireRecords`. */
export interface RacesRecordOptions {
  /** Default `client`. */
  observer?: Observer;
}

/** The JSON-RPC id of a races request key (`1`, `"req-7"`, `1#2` for a reused id). */
export function requestIdOfKey(key: string): RequestId | undefined {
  try {
    const v = JSON.parse(key.replace(/#\d+$/, '')) as unknown;
    return typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v)) ? v : undefined;
  } catch {
    return undefined;
  }
}

function statusOf(http: string | undefined): number | undefined {
  const m = http ? /→ (\d{3})\b/.exec(http) : null;
  return m ? Number(m[1]) : undefined;
}

function transportOfEffect(e: WireEffect): TranscriptTransport {
  return e.transport;
}

/**
 * The wire records of any lab's wire effects (each lab's trace carries `effects`), in observation
 * order (stable by time): every JSON-RPC message, and each HTTP response stream close (`meta
 * stream-close`, cause `cancel` when the client closed it, `network` when it dropped). SSE
 * keep-alive comments and other HTTP-only notes are left out (they are not messages). Pure.
 */
export function wireEffectRecords(effects: readonly WireEffect[], options: RacesRecordOptions = {}): WireRecord[] {
  return sortRecords(effectRecords(effects, options.observer ?? 'client'));
}

interface Ranked {
  r: WireRecord;
  rank: number;
  seq: number;
}

function effectRecords(effects: readonly WireEffect[], observer: Observer): Ranked[] {
  const out: Ranked[] = [];
  let seq = 0;
  for (const e of effects) {
    const transport = transportOfEffect(e);
    if (e.message !== undefined) {
      const direction: Direction = e.from === 'client' ? 'c2s' : 's2c';
      const atMs = observer === 'client' && direction === 's2c' ? e.arrivesAt : e.at;
      if (atMs === undefined) continue;
      const status = statusOf(e.http);
      out.push({ r: { type: 'message', atMs, direction, transport, message: e.message, ...(status !== undefined ? { status } : {}) }, rank: 1, seq: seq++ });
      continue;
    }
    if (e.http && /SSE response stream/.test(e.http) && /closes|drops/.test(e.http)) {
      const cause = /drops/.test(e.http) ? 'network' : 'cancel';
      const requestId = e.requestKey ? requestIdOfKey(e.requestKey) : undefined;
      out.push({
        r: { type: 'meta', atMs: e.at, kind: 'stream-close', transport, ...(requestId !== undefined ? { requestId } : {}), cause, text: e.http },
        rank: 1,
        seq: seq++,
      });
    }
  }
  return out;
}

/** Stable by time; at one millisecond a client timeout (rank 0) comes before the cancellation it sends. */
function sortRecords(list: Ranked[]): WireRecord[] {
  return list.sort((a, b) => a.r.atMs - b.r.atMs || a.rank - b.rank || a.seq - b.seq).map((x) => x.r);
}

/**
 * The wire records of a races run: `wireEffectRecords` of its effects plus each client-side
 * timeout (`meta client-timeout`, at the time the call timed out, before the cancellation it
 * sends), taken from the run's outcome. Pure.
 */
export function racesWireRecords(trace: RacesTrace, options: RacesRecordOptions = {}): WireRecord[] {
  const out = effectRecords(trace.effects, options.observer ?? 'client');
  let seq = out.length;
  const transport = (trace.scenario.config as { transport?: TranscriptTransport }).transport ?? 'stdio';
  for (const r of trace.outcome.requests) {
    if ((r.state === 'timeout-idle' || r.state === 'timeout-max') && r.atMs !== null) {
      out.push({ r: { type: 'meta', atMs: r.atMs, kind: 'client-timeout', transport, requestId: r.requestId, text: `client-side timeout (${r.state === 'timeout-idle' ? 'idle' : 'maximum'}): error -32001 Request timed out` }, rank: 0, seq: seq++ });
    }
  }
  return sortRecords(out);
}

/** The records of an imported transcript (for re-export in another format). */
export function transcriptRecords(t: Transcript): WireRecord[] {
  return t.entries.map((e): WireRecord => {
    if (e.type === 'message') {
      return { type: 'message', atMs: e.atMs, direction: e.direction, transport: e.transport, message: e.message, ...(e.status !== undefined ? { status: e.status } : {}), ...(e.http ? { http: e.http } : {}), ...(e.streamId !== undefined ? { streamId: e.streamId } : {}) };
    }
    if (e.type === 'meta') {
      return {
        type: 'meta',
        atMs: e.atMs,
        kind: e.kind,
        transport: e.transport,
        ...(e.requestId !== undefined ? { requestId: e.requestId } : {}),
        ...(e.cause ? { cause: e.cause } : {}),
        text: e.text,
        ...(e.fault !== undefined ? { fault: e.fault } : {}),
        ...(e.code !== undefined ? { code: e.code } : {}),
        ...(e.signal !== undefined ? { signal: e.signal } : {}),
        ...(e.http ? { http: e.http } : {}),
        ...(e.streamId !== undefined ? { streamId: e.streamId } : {}),
      };
    }
    return { type: 'stderr', atMs: e.atMs, text: e.text };
  });
}

/** Options of `exportTranscript`. */
export interface ExportOptions {
  /** ISO time of virtual 0 ms. Default `2026-01-01T00:00:00.000Z`. */
  originIso?: string;
  /** Server name in a Claude Desktop log's `[name]` column. Default `lab`. */
  serverName?: string;
  /** Hash argument and result values (keys and ids kept): see `redact.ts`. */
  redact?: boolean;
}

const DEFAULT_ORIGIN = '2026-01-01T00:00:00.000Z';

function isoAt(originMs: number, atMs: number): string {
  return new Date(originMs + atMs).toISOString();
}

function kindOf(m: Json): 'req' | 'res' | 'notif' {
  if (m !== null && typeof m === 'object' && !Array.isArray(m)) {
    if (typeof m.method === 'string') return 'id' in m ? 'req' : 'notif';
    if ('result' in m || 'error' in m) return 'res';
  }
  return 'notif';
}

const wireTransport = (t: TranscriptTransport) => (t === 'streamable-http' ? 'http' : t === 'stdio' ? 'stdio' : undefined);

const CLAUDE_META_TEXT: Partial<Record<MetaKind, string>> = {
  connect: 'Server started and connected successfully',
  disconnect: 'Client transport closed',
  'connect-failed': 'Connection failed',
};

/** A stderr line must not look like a log line (or be blank) or it would read back as something else. */
function claudeStderr(text: string): string {
  const t = text.replace(/[\r\n]+/g, ' ');
  return t.trim() === '' || /^\d{4}-\d{2}-\d{2}[T ]\d{2}:/.test(t) ? `  ${t}` : t;
}

function toClaude(records: readonly WireRecord[], originMs: number, name: string): string {
  const lines: string[] = [];
  for (const r of records) {
    const ts = isoAt(originMs, r.atMs);
    if (r.type === 'message') lines.push(`${ts} [${name}] [info] Message from ${r.direction === 'c2s' ? 'client' : 'server'}: ${JSON.stringify(r.message)} { metadata: undefined }`);
    else if (r.type === 'stderr') lines.push(claudeStderr(r.text));
    else if (r.kind === 'client-timeout') lines.push(`${ts} [${name}] [error] Request timed out (MCP error -32001) ${JSON.stringify(r.requestId !== undefined ? { requestId: r.requestId } : {})}`);
    else if (CLAUDE_META_TEXT[r.kind]) lines.push(`${ts} [${name}] [info] ${CLAUDE_META_TEXT[r.kind]}`);
    // A stdio log has no HTTP streams: stream closes and notes are left out.
  }
  return lines.map((l) => `${l}\n`).join('');
}

function toInspector(records: readonly WireRecord[], originMs: number): string {
  const entries: Record<string, Json>[] = [];
  const paired = new Set<number>();
  let n = 0;
  records.forEach((r, i) => {
    if (paired.has(i)) return;
    const ts = isoAt(originMs, r.atMs);
    if (r.type === 'meta') {
      if (r.kind === 'client-timeout' && r.requestId !== undefined) {
        entries.push({ id: ++n, timestamp: ts, direction: 'response', origin: 'client', message: { jsonrpc: '2.0', id: r.requestId, error: { code: -32001, message: 'Request timed out' } } });
      }
      return;
    }
    if (r.type === 'stderr') return;
    const kind = kindOf(r.message);
    const entry: Record<string, Json> = {
      id: ++n,
      timestamp: ts,
      direction: kind === 'req' ? 'request' : kind === 'res' ? 'response' : 'notification',
      origin: r.direction === 'c2s' ? 'client' : 'server',
      message: r.message,
    };
    const transport = wireTransport(r.transport);
    if (transport) entry.transport = transport;
    if (kind === 'req') {
      const id = JSON.stringify((r.message as Record<string, Json>).id);
      for (let j = i + 1; j < records.length; j++) {
        const s = records[j];
        if (paired.has(j) || s.type !== 'message' || s.direction === r.direction || kindOf(s.message) !== 'res') continue;
        if (JSON.stringify((s.message as Record<string, Json>).id) !== id) continue;
        paired.add(j);
        entry.response = s.message;
        entry.duration = s.atMs - r.atMs;
        break;
      }
    }
    entries.push(entry);
  });
  return `${JSON.stringify(entries, null, 2)}\n`;
}

const ENVELOPE_KEYS = ['ts', 'timestamp', 'time', 'dir', 'direction', 'from', 'transport', 'status', 'message'];

function toJsonrpcJsonl(records: readonly WireRecord[], originMs: number): string {
  const lines: string[] = [];
  for (const r of records) {
    const ts = isoAt(originMs, r.atMs);
    if (r.type === 'stderr') lines.push(JSON.stringify({ ts, dir: 'stderr', text: r.text }));
    else if (r.type === 'meta') {
      lines.push(JSON.stringify({ ts, dir: 'meta', event: r.kind, ...(r.requestId !== undefined ? { id: r.requestId } : {}), ...(r.cause ? { cause: r.cause } : {}), ...(wireTransport(r.transport) ? { transport: wireTransport(r.transport) } : {}), text: r.text }));
    } else {
      const head: Record<string, Json> = { ts, dir: kindOf(r.message), from: r.direction === 'c2s' ? 'client' : 'server' };
      const transport = wireTransport(r.transport);
      if (transport) head.transport = transport;
      if (r.status !== undefined) head.status = r.status;
      const m = r.message;
      const flat = m !== null && typeof m === 'object' && !Array.isArray(m) && 'jsonrpc' in m && !ENVELOPE_KEYS.some((k) => k in m);
      lines.push(JSON.stringify(flat ? { ...head, ...(m as Record<string, Json>) } : { ...head, message: m }));
    }
  }
  return lines.map((l) => `${l}\n`).join('');
}

function toCapture(records: readonly WireRecord[], originMs: number): string {
  const lines: string[] = [];
  for (const r of records) {
    const ts = isoAt(originMs, r.atMs);
    if (r.type === 'stderr') lines.push(JSON.stringify({ ts, direction: 'stderr', transport: 'stdio', raw: r.text }));
    else if (r.type === 'meta') {
      // Envelope v2 fields only when the record has them, so a v1-only run exports the same bytes as before.
      const v2 = { ...(r.fault !== undefined ? { fault: r.fault } : {}), ...(r.code !== undefined ? { code: r.code } : {}), ...(r.signal !== undefined ? { signal: r.signal } : {}), ...(r.streamId !== undefined ? { streamId: r.streamId } : {}), ...(r.http ? { http: r.http } : {}) };
      lines.push(JSON.stringify({ ts, direction: 'meta', ...(wireTransport(r.transport) ? { transport: wireTransport(r.transport) } : {}), event: r.kind, ...(r.requestId !== undefined ? { requestId: r.requestId } : {}), ...(r.cause ? { cause: r.cause } : {}), ...v2, raw: r.text }));
    } else {
      const v2 = { ...(r.streamId !== undefined ? { streamId: r.streamId } : {}), ...(r.http ? { http: r.http } : {}) };
      lines.push(JSON.stringify({ ts, direction: r.direction, ...(wireTransport(r.transport) ? { transport: wireTransport(r.transport) } : {}), ...v2, raw: JSON.stringify(r.message), ...(r.status !== undefined ? { status: r.status } : {}) }));
    }
  }
  return lines.map((l) => `${l}\n`).join('');
}

/**
 * The text of `records` in `format`. What each format can carry: Claude Desktop logs carry
 * messages, stderr, connects/disconnects and client timeouts (no HTTP stream closes); the
 * Inspector export carries messages (responses merged into their request, `duration` in ms) and
 * client timeouts (as a client-origin -32001 response); both JSONL formats carry everything.
 * Pure (no clock: times come from `originIso`).
 */
export function exportTranscript(records: readonly WireRecord[], format: TranscriptFormat, options: ExportOptions = {}): string {
  const originMs = Date.parse(options.originIso ?? DEFAULT_ORIGIN);
  if (!Number.isFinite(originMs)) throw new Error(`originIso: not an ISO time (${options.originIso}) — use e.g. 2026-01-01T00:00:00.000Z`);
  const list = options.redact ? redactRecords(records) : records;
  switch (format) {
    case 'claude-desktop-log':
      return toClaude(list, originMs, options.serverName ?? 'lab');
    case 'inspector-v2':
      return toInspector(list, originMs);
    case 'jsonrpc-jsonl':
      return toJsonrpcJsonl(list, originMs);
    case 'capture-jsonl':
      return toCapture(list, originMs);
  }
}

/** Which record types and meta kinds a format keeps on export (the rest is dropped). */
export function formatKeeps(format: TranscriptFormat, r: WireRecord): boolean {
  if (r.type === 'message') return true;
  if (format === 'jsonrpc-jsonl' || format === 'capture-jsonl') return true;
  if (format === 'inspector-v2') return r.type === 'meta' && r.kind === 'client-timeout' && r.requestId !== undefined;
  if (r.type === 'stderr') return true;
  return r.kind === 'client-timeout' || CLAUDE_META_TEXT[r.kind] !== undefined;
}
