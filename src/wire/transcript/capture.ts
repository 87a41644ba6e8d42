/**
 * The capture envelope — the one recording format (DESIGN.md, round 3). `mcp-lab serve --record`,
 * `probe --record` and `proxy --record` write it; the Traffic page and `mcp-lab check` read it
 * (`parse.ts`, format `capture-jsonl`). One JSON object per line; see docs/capture-envelope.md.
 *
 * Version 2 adds to version 1 (ts, direction, transport, raw, status, and meta lines with
 * `event`, `requestId`, `cause`, `text`) only optional fields, so every v1 file still reads:
 * `http` (method, path, status and headers of the HTTP exchange a frame travelled in),
 * `streamId` (the response stream a server frame travelled on), and meta events `stream-open`,
 * `http` (an HTTP exchange with no JSON-RPC body: 202, 400, 405, DELETE…), `fault` (which fault
 * fired, with `fault` and `requestId`), `exit` (a process ended, with `code` / `signal`),
 * `listen` / `connect` / `disconnect`.
 */

/** Which way a frame went, or a line that is not a JSON-RPC frame. */
export type CaptureDirection = 'c2s' | 's2c' | 'stderr' | 'meta';

/** The transport a frame travelled on (`http` is Streamable HTTP). */
export type CaptureTransport = 'stdio' | 'http';

/** Meta events of the envelope (v1: connect, disconnect, stream-close, client-timeout; v2 adds the rest). */
export type CaptureMetaEvent =
  | 'connect'
  | 'disconnect'
  | 'listen'
  | 'stream-open'
  | 'stream-close'
  | 'client-timeout'
  | 'http'
  | 'fault'
  | 'exit'
  | 'note';

/** The HTTP side of a frame: the request's method and path; for a response, its status; headers with lower-case names. */
export interface CaptureHttp {
  method?: string;
  path?: string;
  status?: number;
  /** Header names in lower case (`mcp-method`, `mcp-name`, `mcp-protocol-version`, `mcp-session-id`, `content-type`, `last-event-id`…). */
  headers?: Record<string, string>;
}

/** One line of a capture (the fields a writer may set; `ts` is filled in by `captureLine`). */
export interface CaptureFrame {
  /** ISO 8601 time with milliseconds. */
  ts: string;
  direction: CaptureDirection;
  transport: CaptureTransport;
  /** The JSON-RPC text exactly as it went (c2s / s2c), or the stderr text. */
  raw?: string;
  /** v1's HTTP status of the frame (kept beside `http.status` for v1 readers). */
  status?: number;
  http?: CaptureHttp;
  /** The response stream a frame travelled on (the POST it answers, numbered per session). */
  streamId?: string;
  /** meta lines: what happened. */
  event?: CaptureMetaEvent;
  /** meta lines: the request the line is about. */
  requestId?: string | number;
  /** stream-close: who closed it. */
  cause?: 'cancel' | 'network' | 'server' | 'fault';
  /** fault lines: the live fault's name (`src/sim/faultVocabulary.ts`). */
  fault?: string;
  /** exit lines: the process's exit code, or the signal that ended it. */
  code?: number | null;
  signal?: string | null;
  /** Words for the reader. */
  text?: string;
}

/** The envelope version a line of this writer carries (`v`); readers accept lines without it as v1. */
export const CAPTURE_VERSION = 2;

/**
 * One JSONL line (with its newline) for `frame`, `v` first. Key order is fixed, so two runs that
 * record the same frames write the same bytes.
 */
export function captureLine(frame: CaptureFrame): string {
  const out: Record<string, unknown> = { v: CAPTURE_VERSION, ts: frame.ts, direction: frame.direction, transport: frame.transport };
  for (const key of ['event', 'requestId', 'cause', 'fault', 'streamId', 'status', 'http', 'code', 'signal', 'text', 'raw'] as const) {
    if (frame[key] !== undefined) out[key] = frame[key];
  }
  return `${JSON.stringify(out)}\n`;
}
