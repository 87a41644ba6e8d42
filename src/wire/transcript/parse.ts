import type { Json } from '../../sim/types';
import { REVISIONS, type RequestId, type Revision } from '../../sim/mcp';
import { isLabId, labName, type LabId } from '../../sim/labIds';
import {
  TRANSCRIPT_FORMAT_NAMES,
  type Direction,
  type HttpInfo,
  type ImportResult,
  type MessageEntry,
  type MetaCause,
  type MetaEntry,
  type MessageKind,
  type MetaKind,
  type RevisionSource,
  type SkippedLine,
  type Transcript,
  type TranscriptEntry,
  type TranscriptFormat,
  type TranscriptTransport,
} from './types';
import { BINARY_REASON, printable } from './encoding';
import { HAR_FORMAT_NAME, harToCapture, parseHar } from './har';

/**
 * Transcript import: format detection and one parser per format, all producing the same
 * normalised `Transcript` (see `types.ts`). Never throws on bad input: lines that are not
 * messages are kept as stderr/meta entries or listed in `skipped` with a reason; a file with no
 * JSON-RPC message at all gives `{ ok: false, reason }` in one line.
 *
 * Formats (field names as the tools write them):
 * - Claude Desktop `mcp-server-<name>.log`: `<ISO> [<server>] [<level>] Message from client: {…}` /
 *   `… Message from server: {…}` (a trailing ` { metadata: undefined }` is ignored), other
 *   `<ISO> [..] [..] text` lines become notes (connect / disconnect / client timeout where the text
 *   says so), and lines without the prefix are the server's stderr (timed like the line before).
 * - MCP Inspector v2 protocol export: a JSON array of `{id, timestamp, direction:
 *   "request"|"response"|"notification", origin: "client"|"server", message, response?, duration?}`;
 *   a merged response is observed at `timestamp + duration` (ms). A cut-off array keeps its
 *   complete entries.
 * - JSON-RPC JSONL: one message per line with `ts` (ISO or ms) and `dir` (`req`/`res`/`notif`, or
 *   `c2s`/`s2c`, `send`/`recv`, `out`/`in` from the client's side; an optional `from:
 *   "client"|"server"` settles it); `dir: "meta"` lines carry `event` and `id`. Both fields may be
 *   left out: without `dir` the direction is inferred from the message (a request comes from the
 *   client unless its method is one a server sends — sampling, elicitation, roots; a response from
 *   the side that did not send its id); when no line has a time, line order is time order, 1 ms per
 *   line, and `Transcript.timeAssumption` says so (plain JSON Lines of bare messages).
 * - Capture envelope JSONL: `{ts, direction: "c2s"|"s2c"|"stderr"|"meta", transport: "stdio"|"http",
 *   raw, status?}`; meta lines carry `event` (`connect`, `connect-failed`, `disconnect`,
 *   `stream-close`, `client-timeout`), optional `requestId` and `cause`.
 *
 * Times: ISO strings with a zone; a time without a zone is read as UTC; numbers are ms (numbers in
 * [1e9, 1e11) are read as epoch seconds). Every time is floored to an integer ms, then made
 * relative to the earliest message.
 */

/** Options of `importTranscript`. */
export interface ImportOptions {
  /** Skip detection and read the text as this format. */
  format?: TranscriptFormat;
  /** Apply the checks of this revision whatever the transcript says (`revisionSource: 'chosen'`). */
  revision?: Revision;
}

/** A parsed-but-not-normalised entry: absolute time (ms) or null (inherits the time of the line before). */
type Pending =
  | { type: 'message'; t: number | null; direction: Direction; transport: TranscriptTransport; message: Json; raw: string; line: number; status?: number; http?: HttpInfo; streamId?: string; framing?: 'content-length'; merged?: true }
  | (Omit<MetaEntry, 'index' | 'atMs'> & { t: number | null; merged?: true })
  | { type: 'stderr'; t: number | null; text: string; line: number };

interface Parsed {
  pending: Pending[];
  skipped: SkippedLine[];
  lineCount: number;
  /** Set when the times were not in the file but assumed (see `Transcript.timeAssumption`). */
  timeAssumption?: string;
}

/** `<ISO time> [a] [b] rest`: `[server] [level]` in mcp-server-<name>.log, `[level] [server]` in Claude's mcp.log; either order reads. */
const CLAUDE_LINE = /^(\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\s+\[([^\]]*)\]\s+\[([^\]]*)\]\s?(.*)$/;
const CLAUDE_MESSAGE = /^Message from (client|server):\s*/;

/**
 * A line's first 200 characters, as a string of its own: a slice (or a short line itself) would
 * keep alive the whole chunk of the file it was cut from, for as long as the skipped line is listed.
 */
const excerpt = (s: string) => ownString(s.length > 200 ? `${s.slice(0, 200)}…` : s);

/** A copy of `s` that shares no storage with it (V8 slices and concatenations point into their source). */
const ownString = (s: string): string => JSON.parse(JSON.stringify(s)) as string;

/** The number written by the `count` decimal digits at `s[from]`, or -1 when one is not a digit. */
function digitsAt(s: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/**
 * The ms of `YYYY-MM-DDTHH:MM:SS.sssZ` (what `Date.prototype.toISOString` writes, and nearly every
 * transcript line carries) read field by field, or NaN for any other text or a field out of the
 * range where it is certainly what `Date.parse` gives (days past the 28th, for one, are left to it).
 */
function canonicalIsoMs(s: string): number {
  if (s.length !== 24 || s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || s.charCodeAt(10) !== 84 || s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58 || s.charCodeAt(19) !== 46 || s.charCodeAt(23) !== 90) return NaN;
  const year = digitsAt(s, 0, 4);
  const month = digitsAt(s, 5, 2);
  const day = digitsAt(s, 8, 2);
  const hours = digitsAt(s, 11, 2);
  const minutes = digitsAt(s, 14, 2);
  const seconds = digitsAt(s, 17, 2);
  const ms = digitsAt(s, 20, 3);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || day > 28 || hours < 0 || hours > 23 || minutes < 0 || minutes > 59 || seconds < 0 || seconds > 59 || ms < 0) return NaN;
  return Date.UTC(year, month - 1, day, hours, minutes, seconds, ms);
}

/**
 * Absolute time in ms of a timestamp field, or null when it is not one. ISO strings without a
 * zone are read as UTC (so the result never depends on the machine's zone).
 */
export function parseTimeMs(value: unknown): number | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return null;
    return Math.floor(value >= 1e9 && value < 1e11 ? value * 1000 : value);
  }
  if (typeof value !== 'string') return null;
  const fast = canonicalIsoMs(value);
  if (fast === fast) return fast; // not NaN
  if (value.trim() === '') return null;
  let s = value.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return parseTimeMs(Number(s));
  if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?$/.test(s)) s = `${s.replace(' ', 'T')}Z`;
  const t = Date.parse(s);
  return Number.isFinite(t) ? Math.floor(t) : null;
}

/**
 * The end (exclusive) of the JSON value that starts at `text[start]` (`{` or `[`), found by
 * bracket matching outside strings, or -1 when the text ends first.
 */
export function jsonValueEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

/** Splits text into lines, accepting LF, CRLF and lone CR; reports whether the text ended with a newline. */
function splitLines(text: string): { lines: string[]; endsWithNewline: boolean } {
  const lines = text.split(/\r\n|\n|\r/);
  const endsWithNewline = lines.length > 0 && lines[lines.length - 1] === '';
  if (endsWithNewline) lines.pop();
  return { lines, endsWithNewline };
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function isObject(v: unknown): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** What a JSON-RPC message is, by its fields. */
export function messageKind(m: Json): MessageKind {
  if (!isObject(m)) return 'invalid';
  if (typeof m.method === 'string') return 'id' in m ? 'request' : 'notification';
  if ('id' in m && ('result' in m || 'error' in m)) return 'response';
  return 'invalid';
}

function asRequestId(v: unknown): RequestId | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  return undefined;
}

function transportOf(v: unknown, fallback: TranscriptTransport): TranscriptTransport {
  if (typeof v !== 'string') return fallback;
  const s = v.toLowerCase();
  if (s === 'stdio') return 'stdio';
  if (s === 'http' || s === 'streamable-http' || s === 'sse' || s === 'https') return 'streamable-http';
  return fallback;
}

const META_EVENTS: Record<string, MetaKind> = {
  connect: 'connect',
  connected: 'connect',
  reconnect: 'connect',
  reconnected: 'connect',
  'connect-failed': 'connect-failed',
  'reconnect-failed': 'connect-failed',
  disconnect: 'disconnect',
  disconnected: 'disconnect',
  close: 'disconnect',
  'stream-close': 'stream-close',
  'stream-closed': 'stream-close',
  'client-timeout': 'client-timeout',
  timeout: 'client-timeout',
  'stream-open': 'stream-open',
  http: 'http',
  fault: 'fault',
  exit: 'exit',
  listen: 'listen',
  framing: 'framing',
};

const CAUSES: ReadonlySet<string> = new Set(['cancel', 'network', 'server', 'fault']);

/** The `http` object of an envelope v2 line, normalised (header names lower-cased, values kept as strings), or undefined. */
export function httpInfoOf(v: unknown): HttpInfo | undefined {
  if (!isObject(v)) return undefined;
  const out: HttpInfo = {};
  if (typeof v.method === 'string') out.method = v.method.toUpperCase();
  if (typeof v.path === 'string') out.path = v.path;
  if (typeof v.status === 'number' && Number.isInteger(v.status)) out.status = v.status;
  if (isObject(v.headers)) {
    const headers: Record<string, string> = {};
    for (const [k, value] of Object.entries(v.headers)) if (typeof value === 'string' || typeof value === 'number') headers[k.toLowerCase()] = String(value);
    out.headers = headers;
  }
  return out;
}

/** `Content-Length: N` (with any further header lines) and the blank line ending it: an LSP-style frame header. */
const FRAME_HEADER = /^Content-Length:[ \t]*\d+[ \t]*\r?\n(?:[A-Za-z][A-Za-z0-9-]*:[^\r\n]*\r?\n)*\r?\n/i;
/** A line that is a lone `Content-Length: N` header. */
export const FRAME_HEADER_LINE = /^Content-Length:[ \t]*\d+[ \t]*$/i;

/** Splits an LSP-style frame header off `raw`: the body after it, or null when `raw` has none. */
export function stripFrameHeader(raw: string): string | null {
  const m = FRAME_HEADER.exec(raw);
  return m ? raw.slice(m[0].length) : null;
}

/** A client-produced timeout error: JSON-RPC error -32001 whose message says it timed out (TS SDK v1 `RequestTimeout`). */
export function isTimeoutError(m: Json): boolean {
  return isObject(m) && isObject(m.error) && m.error.code === -32001 && typeof m.error.message === 'string' && /timed? ?out/i.test(m.error.message);
}

/** Methods a server sends to a client as requests (sampling, elicitation, roots). */
const SERVER_REQUESTS = new Set(['sampling/createMessage', 'elicitation/create', 'roots/list']);
/** Notifications a client sends. */
const CLIENT_NOTIFICATIONS = new Set(['notifications/initialized', 'notifications/roots/list_changed']);

/**
 * How many request ids (and progress tokens) the direction guesser remembers: a response to an
 * older request is guessed as the server's (what nearly every response is), and memory stays
 * bounded however long the file.
 */
const GUESSER_KEPT = 10_000;

/** Whether a JSON value is its own key in a Map (a string, or a finite number: their JSON texts are equal exactly when they are, and a Map tells 1 from "1"). */
const isOwnKey = (v: unknown): v is string | number => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/**
 * A map keyed by JSON values — two keys are one when their JSON texts are equal — that forgets its
 * oldest keys (by first insertion) beyond `GUESSER_KEPT`. Strings and finite numbers are looked up
 * as themselves (no JSON text is written for them: ids and tokens are nearly always these), any
 * other value by its JSON text in a second map. The keys in order of insertion are a ring of
 * `GUESSER_KEPT` slots: the slot a new key takes holds the oldest, which is forgotten.
 */
class BoundedMap<V> {
  private readonly own = new Map<string | number, V>();
  private readonly byJson = new Map<string | undefined, V>();
  /** The keys in insertion order from `next` on (own keys as themselves, others as their JSON text, with `isJson` set). */
  private readonly ring: (string | number | undefined)[] = [];
  private readonly isJson: boolean[] = [];
  private next = 0;
  get(key: unknown): V | undefined {
    return isOwnKey(key) ? this.own.get(key) : this.byJson.get(JSON.stringify(key));
  }
  set(key: unknown, value: V): void {
    const json = !isOwnKey(key);
    const k = json ? JSON.stringify(key) : key;
    const map = (json ? this.byJson : this.own) as Map<string | number | undefined, V>;
    if (map.has(k)) {
      map.set(k, value);
      return;
    }
    map.set(k, value);
    if (this.ring.length < GUESSER_KEPT) {
      this.ring.push(k);
      this.isJson.push(json);
      return;
    }
    const slot = this.next;
    ((this.isJson[slot] ? this.byJson : this.own) as Map<string | number | undefined, V>).delete(this.ring[slot]);
    this.ring[slot] = k;
    this.isJson[slot] = json;
    this.next = slot + 1 === GUESSER_KEPT ? 0 : slot + 1;
  }
}

/**
 * Infers the direction of a message whose line only says request/response/notification, from
 * the messages before it: a response goes against its request; a cancellation travels like the
 * request it names; progress goes against the request that carried its token.
 */
class DirectionGuesser {
  private requestDir = new BoundedMap<Direction>();
  private tokenDir = new BoundedMap<Direction>();
  guess(m: Json): Direction {
    const kind = messageKind(m);
    const o = isObject(m) ? m : {};
    if (kind === 'request') return SERVER_REQUESTS.has(o.method as string) ? 's2c' : 'c2s';
    if (kind === 'response') {
      const d = this.requestDir.get(o.id);
      return d === 'c2s' || d === undefined ? 's2c' : 'c2s';
    }
    if (kind === 'notification') {
      const params = isObject(o.params) ? o.params : {};
      if (o.method === 'notifications/cancelled') return this.requestDir.get(params.requestId) ?? 'c2s';
      if (o.method === 'notifications/progress') {
        const d = this.tokenDir.get(params.progressToken);
        return d === 's2c' ? 'c2s' : 's2c';
      }
      return CLIENT_NOTIFICATIONS.has(o.method as string) ? 'c2s' : 's2c';
    }
    return 'c2s';
  }
  /** Records a message whose direction is now known. */
  note(m: Json, direction: Direction): void {
    if (messageKind(m) !== 'request' || !isObject(m)) return;
    this.requestDir.set(m.id, direction);
    const params = isObject(m.params) ? m.params : {};
    const meta = isObject(params._meta) ? params._meta : {};
    if (meta.progressToken !== undefined) this.tokenDir.set(meta.progressToken, direction);
  }
  /** Whether `m` answers a request that went in `direction` (same way: a locally produced response). */
  answersOwn(m: Json, direction: Direction): boolean {
    return messageKind(m) === 'response' && isObject(m) && this.requestDir.get(m.id) === direction;
  }
}

/** Pushes one or more messages (a JSON-RPC batch is split) with the shared fields. */
function pushMessages(
  out: Pending[],
  value: Json,
  base: { t: number | null; direction: Direction; transport: TranscriptTransport; raw: string; line: number; status?: number; http?: HttpInfo; streamId?: string; framing?: 'content-length'; merged?: true },
  guesser: DirectionGuesser,
) {
  const list = Array.isArray(value) ? value : [value];
  for (const m of list) {
    // A -32001 timeout "answering" a request that went the same way was produced by the sender itself: its own timeout.
    if (isTimeoutError(m) && guesser.answersOwn(m, base.direction)) {
      out.push({ type: 'meta', t: base.t, kind: 'client-timeout', transport: base.transport, requestId: asRequestId((m as Record<string, Json>).id), text: 'client-side timeout (error -32001 produced by the client)', line: base.line, ...(base.merged ? { merged: true as const } : {}) });
      continue;
    }
    guesser.note(m, base.direction);
    out.push({ type: 'message', ...base, message: m, raw: list.length > 1 ? JSON.stringify(m) : base.raw });
  }
}

// ───────────────────────────── Claude Desktop ─────────────────────────────

function parseClaude(text: string): Parsed {
  const { lines, endsWithNewline } = splitLines(text);
  const pending: Pending[] = [];
  const skipped: SkippedLine[] = [];
  const guesser = new DirectionGuesser();
  lines.forEach((lineText, i) => {
    const line = i + 1;
    const isLast = i === lines.length - 1 && !endsWithNewline;
    if (lineText.trim() === '') return;
    const m = CLAUDE_LINE.exec(lineText);
    if (!m) {
      pending.push({ type: 'stderr', t: null, text: lineText, line });
      return;
    }
    const t = parseTimeMs(m[1]);
    const rest = m[4];
    const msg = CLAUDE_MESSAGE.exec(rest);
    if (msg) {
      const start = rest.slice(msg[0].length).search(/[{[]/);
      const from = msg[0].length + (start < 0 ? 0 : start);
      const end = start < 0 ? -1 : jsonValueEnd(rest, from);
      if (end < 0) {
        skipped.push({ line, reason: isLast ? 'truncated last line: the message JSON is cut off' : 'the message JSON is cut off or missing', text: excerpt(lineText) });
        return;
      }
      const raw = rest.slice(from, end);
      let value: Json;
      try {
        value = JSON.parse(raw) as Json;
      } catch (err) {
        skipped.push({ line, reason: `the message is not valid JSON — ${(err as Error).message}`, text: excerpt(lineText) });
        return;
      }
      if (t === null) {
        skipped.push({ line, reason: `unreadable timestamp "${m[1]}"`, text: excerpt(lineText) });
        return;
      }
      pushMessages(pending, value, { t, direction: msg[1] === 'client' ? 'c2s' : 's2c', transport: 'stdio', raw, line }, guesser);
      return;
    }
    pending.push(claudeNote(t, rest, line));
  });
  return { pending, skipped, lineCount: lines.length };
}

function claudeNote(t: number | null, rest: string, line: number): Pending {
  let requestId: RequestId | undefined;
  const brace = rest.indexOf('{');
  if (brace >= 0) {
    const end = jsonValueEnd(rest, brace);
    if (end > 0) {
      try {
        const extra = JSON.parse(rest.slice(brace, end)) as Json;
        if (isObject(extra)) requestId = asRequestId(extra.requestId ?? extra.id);
      } catch {
        /* a note with braces that are not JSON: keep it as text */
      }
    }
  }
  let kind: MetaKind = 'note';
  if (/-32001|request timed out/i.test(rest)) kind = 'client-timeout';
  else if (/transport closed|disconnected|connection closed|server exited/i.test(rest)) kind = 'disconnect';
  else if (/connected successfully|server started/i.test(rest)) kind = 'connect';
  else if (/failed to (start|connect)|connection failed/i.test(rest)) kind = 'connect-failed';
  return { type: 'meta', t, kind, transport: 'stdio', ...(requestId !== undefined ? { requestId } : {}), text: rest, line };
}

// ───────────────────────────── MCP Inspector v2 ─────────────────────────────

/** The complete top-level elements of a JSON array text (a cut-off tail is dropped, and reported). */
function arrayElements(text: string): { elements: string[]; truncated: boolean } {
  const elements: string[] = [];
  let i = text.indexOf('[') + 1;
  for (;;) {
    while (i < text.length && /[\s,]/.test(text[i])) i++;
    if (i >= text.length) return { elements, truncated: true };
    if (text[i] === ']') return { elements, truncated: false };
    if (text[i] === '{' || text[i] === '[') {
      const end = jsonValueEnd(text, i);
      if (end < 0) return { elements, truncated: true };
      elements.push(text.slice(i, end));
      i = end;
    } else {
      // A scalar element: up to the next comma or bracket.
      let j = i;
      while (j < text.length && text[j] !== ',' && text[j] !== ']') j++;
      elements.push(text.slice(i, j));
      i = j;
    }
  }
}

function parseInspector(text: string): Parsed {
  const pending: Pending[] = [];
  const skipped: SkippedLine[] = [];
  const guesser = new DirectionGuesser();
  const { elements, truncated } = arrayElements(text);
  elements.forEach((el, i) => {
    const line = i + 1;
    let entry: Json;
    try {
      entry = JSON.parse(el) as Json;
    } catch (err) {
      skipped.push({ line, reason: `entry ${line} is not valid JSON — ${(err as Error).message}`, text: excerpt(el) });
      return;
    }
    if (!isObject(entry) || !('message' in entry)) {
      skipped.push({ line, reason: `entry ${line} has no "message" field`, text: excerpt(el) });
      return;
    }
    const t = parseTimeMs(entry.timestamp);
    if (t === null) {
      skipped.push({ line, reason: `entry ${line} has no readable "timestamp"`, text: excerpt(el) });
      return;
    }
    const transport = transportOf(entry.transport, 'unknown');
    const message = entry.message;
    const origin = entry.origin;
    let direction: Direction = origin === 'client' ? 'c2s' : origin === 'server' ? 's2c' : guesser.guess(message);
    if (entry.direction === 'response' && origin === undefined) direction = guesser.guess(message);
    pushMessages(pending, message, { t, direction, transport, raw: JSON.stringify(message), line }, guesser);
    if ('response' in entry && entry.response !== null && entry.response !== undefined) {
      const duration = typeof entry.duration === 'number' && Number.isFinite(entry.duration) ? Math.max(0, entry.duration) : 0;
      const rt = Math.floor(t + duration);
      const response = entry.response;
      if (isTimeoutError(response)) {
        pending.push({ type: 'meta', t: rt, kind: 'client-timeout', transport, requestId: asRequestId((response as Record<string, Json>).id), text: 'client-side timeout recorded as the response (error -32001)', line, merged: true });
      } else {
        const rdir: Direction = direction === 'c2s' ? 's2c' : 'c2s';
        pushMessages(pending, response, { t: rt, direction: rdir, transport, raw: JSON.stringify(response), line, merged: true }, guesser);
      }
    }
  });
  if (truncated) skipped.push({ line: elements.length + 1, reason: 'truncated last entry: the JSON array is cut off (complete entries were kept)', text: '' });
  return { pending, skipped, lineCount: elements.length + (truncated ? 1 : 0) };
}

// ───────────────────────────── JSONL formats ─────────────────────────────

/** Reads one parsed JSONL line into `out`; returns the reason when the line is skipped instead. */
type JsonlLineFn = (value: Record<string, Json>, raw: string, line: number, out: Pending[]) => string | void;

/** Reads one JSONL line into `pending` (or `skipped`, with the reason). `isLast`: the file's last line, without a newline after it. */
function jsonlLine(lineText: string, line: number, isLast: boolean, lineFn: JsonlLineFn, pending: Pending[], skipped: SkippedLine[]): void {
  // A line opening with `{` is not blank: no trimmed copy needed to tell.
  if (lineText.charCodeAt(0) !== 123 && lineText.trim() === '') return;
  let value: Json;
  try {
    value = JSON.parse(lineText) as Json;
  } catch (err) {
    skipped.push({ line, reason: isLast ? 'truncated last line: not complete JSON' : `not valid JSON — ${(err as Error).message}`, text: excerpt(lineText) });
    return;
  }
  if (!isObject(value)) {
    skipped.push({ line, reason: 'not a JSON object', text: excerpt(lineText) });
    return;
  }
  const reason = lineFn(value, lineText, line, pending);
  if (reason !== undefined) skipped.push({ line, reason, text: excerpt(lineText) });
}

function parseJsonl(text: string, lineFn: JsonlLineFn): Parsed {
  const { lines, endsWithNewline } = splitLines(text);
  const pending: Pending[] = [];
  const skipped: SkippedLine[] = [];
  lines.forEach((lineText, i) => jsonlLine(lineText, i + 1, i === lines.length - 1 && !endsWithNewline, lineFn, pending, skipped));
  return { pending, skipped, lineCount: lines.length };
}

const C2S_WORDS = new Set(['c2s', 'client->server', 'client-to-server', 'out', 'outgoing', 'send', 'sent', 'tx', '>']);
const S2C_WORDS = new Set(['s2c', 'server->client', 'server-to-client', 'in', 'incoming', 'recv', 'received', 'rx', '<']);
const JSONL_ENVELOPE_KEYS = ['ts', 'timestamp', 'time', 'dir', 'from', 'transport', 'status'];
const ENVELOPE_KEY_SET: ReadonlySet<string> = new Set(JSONL_ENVELOPE_KEYS);

/** The one sentence shown when a JSON-RPC JSONL file had no time at all. */
export const LINE_ORDER_TIME_ASSUMPTION = 'no timestamps: 1 ms per line — line order is taken as time order (add a "ts" field to each line for real times)';

const FRAME_HEADERS = /Content-Length:[ \t]*\d+[ \t]*(?:\r\n|\n|\r)(?:[A-Za-z][A-Za-z0-9-]*:[^\r\n]*(?:\r\n|\n|\r))*(?:\r\n|\n|\r)/gi;
const lineBreaks = (s: string) => s.split(/\r\n|\n|\r/).length - 1;

/**
 * LSP-style framing (`Content-Length: N`, a blank line, the body, the next header right after it)
 * turned into one message per line: each header block becomes as many line breaks as it had, so
 * line numbers stay those of the file. Returns the text and the lines that followed a header.
 */
export function deframeContentLength(text: string): { text: string; framedLines: Set<number> } {
  const framedLines = new Set<number>();
  let breaks = 0;
  let last = 0;
  const out = text.replace(FRAME_HEADERS, (match: string, offset: number) => {
    breaks += lineBreaks(text.slice(last, offset)) + lineBreaks(match);
    last = offset + match.length;
    framedLines.add(breaks + 1);
    return '\n'.repeat(lineBreaks(match));
  });
  return { text: out, framedLines };
}

function parseJsonrpcJsonl(input: string): Parsed {
  let text = input;
  let framedLines: Set<number> | null = null;
  if (/^Content-Length:[ \t]*\d+/im.test(text)) ({ text, framedLines } = deframeContentLength(text));
  const parsed = parseJsonrpcLines(text);
  if (framedLines) for (const p of parsed.pending) if (p.type === 'message' && framedLines.has(p.line)) p.framing = 'content-length';
  return parsed;
}

function parseJsonrpcLines(text: string): Parsed {
  const guesser = new DirectionGuesser();
  // Lines with no time field at all get their ordinal (1 ms per line); kept only if no line has a time.
  const untimed = new Map<Pending, { line: number; text: string }>();
  let ordinal = 0;
  let timedLines = 0;
  const parsed = parseJsonl(text, (value, raw, line, out) => {
    const hasTime = hasTimeKey(value);
    if (hasTime) timedLines++;
    const t = hasTime ? parseTimeMs(value.ts ?? value.timestamp ?? value.time) : ordinal++;
    if (t === null) return NO_TS;
    const before = out.length;
    const reason = jsonrpcLine(value, t, line, out, guesser);
    if (reason !== undefined) return reason;
    if (!hasTime) for (const p of out.slice(before)) untimed.set(p, { line, text: excerpt(raw) });
  });
  if (untimed.size === 0) return parsed;
  if (timedLines === 0) return { ...parsed, timeAssumption: LINE_ORDER_TIME_ASSUMPTION };
  // Some lines carry times and some do not: the untimed ones cannot be placed.
  const pending = parsed.pending.filter((p) => !untimed.has(p));
  const lines = new Map<number, string>();
  for (const u of untimed.values()) lines.set(u.line, u.text);
  const reason = 'no "ts" (timestamp) field while other lines have one — give every line a ts, or none (then line order is time order)';
  const skipped = [...parsed.skipped, ...[...lines].map(([line, text]) => ({ line, reason, text }))].sort((x, y) => x.line - y.line);
  return { ...parsed, pending, skipped };
}

/** Whether a JSON-RPC JSONL line has a time field: `ts`, `timestamp` or `time`. */
const hasTimeKey = (value: Record<string, Json>) => 'ts' in value || 'timestamp' in value || 'time' in value;

const NO_TS = 'no readable "ts" (timestamp) field — give an ISO time or a number of ms';

/**
 * One JSON-RPC JSONL line at time `t` (ms) into `out`: a meta line, a stderr line, or a message (a
 * line holds one object: never a batch). Returns the reason when the line is no message either.
 */
function jsonrpcLine(value: Record<string, Json>, t: number, line: number, out: Pending[], guesser: DirectionGuesser, keepRaw = true): string | void {
  const dir = typeof value.dir === 'string' ? value.dir.toLowerCase() : typeof value.direction === 'string' ? value.direction.toLowerCase() : '';
  const transport = transportOf(value.transport, 'unknown');
  if (dir === 'meta') {
    const kind = META_EVENTS[String(value.event ?? '').toLowerCase()] ?? 'note';
    const requestId = asRequestId(value.id ?? value.requestId);
    const cause = value.cause === 'cancel' || value.cause === 'network' ? value.cause : undefined;
    out.push({ type: 'meta', t, kind, transport, ...(requestId !== undefined ? { requestId } : {}), ...(cause ? { cause } : {}), text: typeof value.text === 'string' ? value.text : String(value.event ?? 'meta'), line });
    return;
  }
  if (dir === 'stderr') {
    out.push({ type: 'stderr', t, text: typeof value.text === 'string' ? value.text : JSON.stringify(value), line });
    return;
  }
  let message: Json;
  if (isObject(value.message) && !('jsonrpc' in value)) message = value.message;
  else {
    // The line without its envelope keys, built rather than copied and deleted from (delete made every message a slow dictionary object).
    const copy: Record<string, Json> = {};
    for (const k in value) {
      if (ENVELOPE_KEY_SET.has(k) || (k === 'direction' && typeof value.direction === 'string')) continue;
      copy[k] = value[k];
    }
    message = copy;
  }
  if (messageKind(message) === 'invalid' && !('jsonrpc' in (message as Record<string, Json>))) return 'neither a JSON-RPC message nor a meta line (no method, id/result/error or jsonrpc) — a message needs "jsonrpc":"2.0" and a method (request, notification) or an id with result or error';
  let direction: Direction;
  if (value.from === 'client') direction = 'c2s';
  else if (value.from === 'server') direction = 's2c';
  else if (C2S_WORDS.has(dir)) direction = 'c2s';
  else if (S2C_WORDS.has(dir)) direction = 's2c';
  else direction = guesser.guess(message);
  // What `pushMessages` does for one message, without building its shared fields first (this runs for every line).
  if (isTimeoutError(message) && guesser.answersOwn(message, direction)) {
    out.push({ type: 'meta', t, kind: 'client-timeout', transport, requestId: asRequestId((message as Record<string, Json>).id), text: 'client-side timeout (error -32001 produced by the client)', line });
    return;
  }
  guesser.note(message, direction);
  const p = new PendingMessage(t, direction, transport, message, keepRaw ? JSON.stringify(message) : '', line);
  if (typeof value.status === 'number') p.status = value.status;
  out.push(p);
}

/**
 * A JSON-RPC JSONL message line, parsed (`Pending` of type message). Built by a constructor, not
 * as an object literal: V8 watches a literal's allocation site, and when its objects outlive a
 * scavenge — as the entries the streaming check's call index holds do — it allocates every later
 * one straight into the old generation, where each dies and waits for a mark-compact. The
 * streaming check turns it into its entry in place (`streamedEntry`).
 */
class PendingMessage {
  declare type: 'message';
  declare t: number;
  declare direction: Direction;
  declare transport: TranscriptTransport;
  declare message: Json;
  declare raw: string;
  declare line: number;
  declare status?: number;
  constructor(t: number, direction: Direction, transport: TranscriptTransport, message: Json, raw: string, line: number) {
    this.type = 'message';
    this.t = t;
    this.direction = direction;
    this.transport = transport;
    this.message = message;
    this.raw = raw;
    this.line = line;
  }
}

function parseCapture(text: string): Parsed {
  return parseJsonl(text, captureLineFn(new DirectionGuesser()));
}

/** The per-line reader of the capture envelope (v1 and v2). */
function captureLineFn(guesser: DirectionGuesser): JsonlLineFn {
  return (value, _raw, line, out) => {
    const t = parseTimeMs(value.ts ?? value.timestamp);
    if (t === null) return 'no readable "ts" (timestamp) field';
    const direction = typeof value.direction === 'string' ? value.direction.toLowerCase() : '';
    const transport = transportOf(value.transport, 'unknown');
    const status = typeof value.status === 'number' ? value.status : undefined;
    if (direction === 'stderr') {
      out.push({ type: 'stderr', t, text: typeof value.raw === 'string' ? value.raw : JSON.stringify(value.raw ?? ''), line });
      return;
    }
    if (direction === 'meta') {
      let fields: Record<string, Json> = value;
      if (value.event === undefined && typeof value.raw === 'string' && value.raw.trim().startsWith('{')) {
        try {
          const inner = JSON.parse(value.raw) as Json;
          if (isObject(inner)) fields = { ...value, ...inner };
        } catch {
          /* plain text meta */
        }
      }
      const kind = META_EVENTS[String(fields.event ?? '').toLowerCase()] ?? 'note';
      const requestId = asRequestId(fields.requestId ?? fields.id);
      const cause = typeof fields.cause === 'string' && CAUSES.has(fields.cause) ? (fields.cause as MetaCause) : undefined;
      const textValue = typeof fields.text === 'string' ? fields.text : typeof value.raw === 'string' ? value.raw : String(fields.event ?? 'meta');
      const http = httpInfoOf(fields.http);
      out.push({
        type: 'meta',
        t,
        kind,
        transport,
        ...(requestId !== undefined ? { requestId } : {}),
        ...(cause ? { cause } : {}),
        text: textValue,
        line,
        ...(typeof fields.fault === 'string' ? { fault: fields.fault } : {}),
        ...(typeof fields.code === 'number' || fields.code === null ? { code: fields.code } : {}),
        ...(typeof fields.signal === 'string' || fields.signal === null ? { signal: fields.signal } : {}),
        ...(http ? { http } : {}),
        ...(typeof fields.streamId === 'string' ? { streamId: fields.streamId } : {}),
      });
      return;
    }
    if (direction !== 'c2s' && direction !== 's2c') return `"direction" must be c2s, s2c, stderr or meta, got ${JSON.stringify(value.direction) ?? 'nothing'}`;
    let message: Json;
    let raw: string;
    let framing: 'content-length' | undefined;
    if (typeof value.raw === 'string') {
      raw = value.raw;
      const body = stripFrameHeader(raw);
      if (body !== null) {
        framing = 'content-length';
        raw = body.trim();
      }
      try {
        message = JSON.parse(raw) as Json;
      } catch (err) {
        return `"raw" is not JSON-RPC text — ${(err as Error).message}`;
      }
    } else if (isObject(value.raw) || Array.isArray(value.raw)) {
      message = value.raw;
      raw = JSON.stringify(value.raw);
    } else return 'no "raw" frame';
    const http = httpInfoOf(value.http);
    const frameStatus = status ?? http?.status;
    pushMessages(
      out,
      message,
      {
        t,
        direction,
        transport,
        raw,
        line,
        ...(frameStatus !== undefined ? { status: frameStatus } : {}),
        ...(http ? { http } : {}),
        ...(typeof value.streamId === 'string' ? { streamId: value.streamId } : {}),
        ...(framing ? { framing } : {}),
      },
      guesser,
    );
  };
}

// ───────────────────────────── detection ─────────────────────────────

/**
 * Guesses the format of `text` from its first lines. Returns the format, or null with the reason
 * (one line) when it looks like none of them.
 */
export function detectFormat(text: string): { format: TranscriptFormat } | { format: null; reason: string } {
  const body = stripBom(text);
  const trimmed = body.trimStart();
  if (trimmed === '') return { format: null, reason: 'the input is empty' };
  if (trimmed.startsWith('[')) return { format: 'inspector-v2' };
  const { lines } = splitLines(body);
  const sample = lines.filter((l) => l.trim() !== '').slice(0, 200);
  if (sample.some((l) => CLAUDE_LINE.test(l))) return { format: 'claude-desktop-log' };
  // LSP-style framing dumped from a stdio pipe: Content-Length headers between the messages.
  if (sample.some((l) => FRAME_HEADER_LINE.test(l.trim())) && sample.some((l) => /^\s*\{/.test(l))) return { format: 'jsonrpc-jsonl' };
  for (const l of sample) {
    const s = l.trim();
    if (!s.startsWith('{')) continue;
    let v: Json;
    try {
      v = JSON.parse(s) as Json;
    } catch {
      continue;
    }
    if (!isObject(v)) continue;
    const d = typeof v.direction === 'string' ? v.direction : null;
    if (d !== null && ['c2s', 's2c', 'stderr', 'meta'].includes(d) && ('raw' in v || 'transport' in v)) return { format: 'capture-jsonl' };
    if ('ts' in v || 'timestamp' in v || 'time' in v) return { format: 'jsonrpc-jsonl' };
    // A bare JSON-RPC message per line (no ts, no dir): JSON Lines of messages.
    if ('jsonrpc' in v || messageKind(v) !== 'invalid' || (isObject(v.message) && messageKind(v.message) !== 'invalid')) return { format: 'jsonrpc-jsonl' };
  }
  // A lab's scenario file pasted or dropped here by mistake: say what it is and where it opens (walkthrough).
  if (trimmed.startsWith('{') && /"lab"\s*:/.test(trimmed.slice(0, 4096))) {
    let whole: unknown = null;
    try {
      whole = JSON.parse(body);
    } catch {
      whole = null;
    }
    if (isObject(whole as Json) && isLabId((whole as { lab?: unknown }).lab) && Array.isArray((whole as { events?: unknown }).events)) {
      const lab = (whole as { lab: LabId }).lab;
      return { format: null, reason: `this is a "${lab}" scenario file, not a transcript — open it in the ${labName(lab)} lab (#/${lab}, Import / export…) or replay it with npm run replay` };
    }
  }
  const first = printable(excerpt(sample[0] ?? '').slice(0, 80));
  return {
    format: null,
    reason: `not a transcript format the lab reads; the first line is: ${first} — give one JSON-RPC message per line ({"jsonrpc":"2.0",…}, optionally with "ts" and "dir"), a Claude Desktop log, an Inspector v2 JSON array or a capture envelope JSONL`,
  };
}

// ───────────────────────────── normalisation ─────────────────────────────

/**
 * Finds the protocol revision the transcript announces: a negotiated `initialize`, else a 2026
 * `_meta` field — the first that names a revision the lab knows, else the first one. A request
 * declaring a version the server does not support is answered with -32022 and retried with one
 * it does (basic/versioning: "The client SHOULD select a mutually supported version from the
 * supported list and retry the request"), so a first unknown version does not say what the
 * transcript speaks.
 */
export function findRevision(entries: TranscriptEntry[]): { seen: string | null; source: 'initialize' | '_meta' | null } {
  let fromRequest: string | null = null;
  for (const e of entries) {
    if (e.type !== 'message' || !isObject(e.message)) continue;
    const m = e.message;
    if (m.method === 'initialize' && isObject(m.params) && typeof m.params.protocolVersion === 'string') fromRequest ??= m.params.protocolVersion;
    if (messageKind(m) === 'response' && isObject(m.result) && typeof m.result.protocolVersion === 'string' && ('serverInfo' in m.result || 'capabilities' in m.result)) {
      return { seen: m.result.protocolVersion, source: 'initialize' };
    }
  }
  if (fromRequest !== null) return { seen: fromRequest, source: 'initialize' };
  let firstMeta: string | null = null;
  for (const e of entries) {
    if (e.type !== 'message' || !isObject(e.message)) continue;
    const params = e.message.params;
    const meta = isObject(params) && isObject(params._meta) ? params._meta : null;
    const v = meta?.['io.modelcontextprotocol/protocolVersion'];
    if (typeof v !== 'string') continue;
    if ((REVISIONS as readonly string[]).includes(v)) return { seen: v, source: '_meta' };
    firstMeta ??= v;
  }
  return firstMeta !== null ? { seen: firstMeta, source: '_meta' } : { seen: null, source: null };
}

function chooseRevision(entries: TranscriptEntry[], chosen: Revision | undefined): Pick<Transcript, 'revision' | 'revisionSource' | 'revisionSeen' | 'revisionNote'> {
  return chooseRevisionFrom(findRevision(entries), chosen);
}

/**
 * The revision to check by, from what the transcript announced (`seen`, found in an initialize
 * handshake or a 2026 `_meta`) and the one the user chose: the same choice as an import makes.
 */
export function chooseRevisionFrom({ seen, source }: { seen: string | null; source: 'initialize' | '_meta' | null }, chosen: Revision | undefined): Pick<Transcript, 'revision' | 'revisionSource' | 'revisionSeen' | 'revisionNote'> {
  if (chosen) {
    return { revision: chosen, revisionSource: 'chosen', revisionSeen: seen, revisionNote: `checked as ${chosen} (chosen)${seen ? `; the transcript announces ${seen}` : ''}` };
  }
  if (seen !== null && source !== null) {
    if ((REVISIONS as readonly string[]).includes(seen)) {
      return { revision: seen as Revision, revisionSource: source, revisionSeen: seen, revisionNote: `${seen}, from ${source === 'initialize' ? 'the initialize handshake' : "a request's _meta protocolVersion"}` };
    }
    const revision: Revision = seen > '2026-07-28' ? '2026-07-28' : '2025-11-25';
    return {
      revision,
      revisionSource: source as RevisionSource,
      revisionSeen: seen,
      revisionNote: `the transcript announces ${seen}, which the lab has no schema for: checked as ${revision}, the closest revision it has (choose one to override)`,
    };
  }
  return {
    revision: '2025-11-25',
    revisionSource: 'default',
    revisionSeen: null,
    revisionNote: 'no initialize and no _meta protocolVersion: read as 2025-11-25 (every 2026-07-28 request carries its protocolVersion in _meta); choose a revision to override',
  };
}

function normalise(parsed: Parsed, format: TranscriptFormat, options: ImportOptions): ImportResult {
  const { pending, skipped, lineCount } = parsed;
  // Lines without a time (stderr) take the time of the line before, or of the first timed line.
  const firstTimed = pending.find((p) => p.t !== null)?.t ?? null;
  let last = firstTimed;
  const timed = pending.map((p) => {
    if (p.t === null) return { ...p, t: last };
    last = p.t;
    return p;
  });
  const messages = timed.filter((p) => p.type === 'message');
  if (messages.length === 0) {
    const why = skipped.length > 0 ? `; ${skipped.length} line${skipped.length === 1 ? '' : 's'} skipped, the first (line ${skipped[0].line}) because ${skipped[0].reason}` : '';
    return { ok: false, format, skipped, reason: `nothing usable: read ${lineCount} line${lineCount === 1 ? '' : 's'} as ${TRANSCRIPT_FORMAT_NAMES[format]} but found no JSON-RPC message${why}` };
  }
  let count = 0;
  let firstLine: number | null = null;
  let max = -Infinity;
  for (const p of timed) {
    // A response merged into its request entry (Inspector) is timed by the request's duration, not by its place in the file.
    if (p.type !== 'stderr' && p.merged) continue;
    const t = p.t as number;
    if (t < max) {
      count++;
      firstLine ??= p.line;
    } else max = t;
  }
  const order = timed.map((p, i) => ({ p, i })).sort((a, b) => (a.p.t as number) - (b.p.t as number) || a.i - b.i);
  let origin = Infinity;
  for (const m of messages) origin = Math.min(origin, m.t as number);
  const entries: TranscriptEntry[] = order.map(({ p }, index) => pendingEntry(p, index, origin));
  const messageIndices = entries.filter((e) => e.type === 'message').map((e) => e.index);
  const absolute = origin > 1e11; // an epoch time (after 1973), not a relative ms count
  const transcript: Transcript = {
    format,
    formatName: TRANSCRIPT_FORMAT_NAMES[format],
    ...chooseRevision(entries, options.revision),
    entries,
    messageIndices,
    skipped,
    outOfOrder: { count, firstLine },
    lineCount,
    originIso: absolute ? new Date(origin).toISOString() : null,
    ...(parsed.timeAssumption ? { timeAssumption: parsed.timeAssumption } : {}),
  };
  return { ok: true, transcript };
}

/** The entry of a parsed line at position `index`, its time made relative to `origin` (ms). */
function pendingEntry(p: Pending, index: number, origin: number): TranscriptEntry {
  const atMs = (p.t as number) - origin;
  if (p.type === 'message') {
    // Field by field (an object rest/spread per message was a tenth of the streaming check's time); key order as before.
    const e = { type: 'message', direction: p.direction, transport: p.transport, message: p.message, raw: p.raw, line: p.line } as MessageEntry;
    if (p.status !== undefined) e.status = p.status;
    if (p.http !== undefined) e.http = p.http;
    if (p.streamId !== undefined) e.streamId = p.streamId;
    if (p.framing !== undefined) e.framing = p.framing;
    e.index = index;
    e.atMs = atMs;
    e.kind = messageKind(p.message);
    return e;
  }
  if (p.type === 'meta') {
    const { t: _t, merged: _m, ...rest } = p;
    return { ...rest, index, atMs };
  }
  const { t: _t, ...rest } = p;
  return { ...rest, index, atMs };
}

/**
 * A parsed line before its time is made relative: the absolute time in ms (`t`) and what it is
 * (`type`); `streamedEntry` makes it the entry at a given index and origin.
 */
export interface StreamedLine {
  readonly t: number;
  readonly type: TranscriptEntry['type'];
}

/**
 * The entry a streamed line becomes at position `index`, its time made relative to `origin` (ms).
 * A JSON-RPC JSONL message becomes it in place (the line is read once: the entry keeps its `t`).
 */
export function streamedEntry(l: StreamedLine, index: number, origin: number): TranscriptEntry {
  if (!(l instanceof PendingMessage)) return pendingEntry(l as Pending, index, origin);
  const e = l as unknown as MessageEntry;
  e.index = index;
  e.atMs = l.t - origin;
  e.kind = messageKind(l.message);
  return e;
}

/**
 * A line-at-a-time reader of the line formats (JSON-RPC JSONL and the capture envelope), for the
 * streaming `check`: `line(text, n, isLast)` returns the entries that line holds (a batch gives
 * several), unsorted and with absolute times, in an array the next call refills (read it first);
 * skipped lines collect in `skipped`. It gives up — `fallback` set to the reason, and the caller
 * reads the whole file instead — where a line's meaning depends on lines after it: JSON-RPC JSONL
 * that mixes lines with and without times, or LSP-style framing (whose bodies span lines).
 */
export function lineReader(format: 'jsonrpc-jsonl' | 'capture-jsonl'): {
  line(text: string, n: number, isLast: boolean): readonly StreamedLine[];
  skipped: SkippedLine[];
  fallback: string | null;
  timeAssumption: string | undefined;
} {
  const guesser = new DirectionGuesser();
  const skipped: SkippedLine[] = [];
  let ordinal = 0;
  let timed = 0;
  let untimed = 0;
  const lineFn: JsonlLineFn =
    format === 'capture-jsonl'
      ? captureLineFn(guesser)
      : (value, _raw, line, out) => {
          const hasTime = hasTimeKey(value);
          if (hasTime) timed++;
          else untimed++;
          const t = hasTime ? parseTimeMs(value.ts ?? value.timestamp ?? value.time) : ordinal++;
          if (t === null) return NO_TS;
          // The streaming check never shows a message's text: no need to write it again.
          return jsonrpcLine(value, t, line, out, guesser, false);
        };
  const out: Pending[] = [];
  const reader = {
    skipped,
    fallback: null as string | null,
    timeAssumption: undefined as string | undefined,
    line(text: string, n: number, isLast: boolean): readonly StreamedLine[] {
      // A line opening with `{` is no frame header (the test would trim a copy of every line).
      if (format === 'jsonrpc-jsonl' && text.charCodeAt(0) !== 123 && FRAME_HEADER_LINE.test(text.trim())) reader.fallback = 'Content-Length framing';
      out.length = 0;
      jsonlLine(text, n, isLast, lineFn, out, skipped);
      if (timed > 0 && untimed > 0) reader.fallback = 'lines with and without times';
      if (untimed > 0) reader.timeAssumption = LINE_ORDER_TIME_ASSUMPTION;
      return out as readonly StreamedLine[];
    },
  };
  return reader;
}

const PARSERS: Record<TranscriptFormat, (text: string) => Parsed> = {
  'claude-desktop-log': parseClaude,
  'inspector-v2': parseInspector,
  'jsonrpc-jsonl': parseJsonrpcJsonl,
  'capture-jsonl': parseCapture,
};

/**
 * Imports transcript text of any supported format (detected, or `options.format`). Never throws:
 * returns `{ ok: false, reason }` (one line) when the text is no known format or holds no JSON-RPC
 * message. Entries are sorted stably by time; `outOfOrder` says how many were out of order.
 */
export function importTranscript(text: string, options: ImportOptions = {}): ImportResult {
  const body = stripBom(text);
  if (body.includes('\u0000')) return { ok: false, reason: BINARY_REASON, format: null, skipped: [] };
  // A HAR (browser network export) is read through the capture envelope it converts to.
  const har = options.format === undefined || options.format === 'capture-jsonl' ? parseHar(body) : null;
  if (har) {
    const result = normalise(parseCapture(harToCapture(har.entries)), 'capture-jsonl', options);
    if (result.ok) result.transcript.formatName = HAR_FORMAT_NAME;
    return result;
  }
  let format = options.format;
  if (!format) {
    const detected = detectFormat(body);
    if (detected.format === null) return { ok: false, reason: detected.reason, format: null, skipped: [] };
    format = detected.format;
  }
  return normalise(PARSERS[format](body), format, options);
}

/** The message entries of a transcript, in time order. */
export function transcriptMessages(t: Transcript): import('./types').MessageEntry[] {
  return t.messageIndices.map((i) => t.entries[i] as import('./types').MessageEntry);
}
