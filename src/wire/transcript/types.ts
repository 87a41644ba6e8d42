import type { Json } from '../../sim/types';
import type { RequestId, Revision } from '../../sim/mcp';

/**
 * The normalised transcript every import format becomes, and every exporter writes from.
 * Times are integer virtual milliseconds from the first JSON-RPC message of the file (entries
 * logged before it, such as a server's start-up line, get negative times).
 */

/** The transcript formats the lab reads and writes. */
export type TranscriptFormat = 'claude-desktop-log' | 'inspector-v2' | 'jsonrpc-jsonl' | 'capture-jsonl';

/** Every format, in the order the Import panel lists them. */
export const TRANSCRIPT_FORMATS: readonly TranscriptFormat[] = ['claude-desktop-log', 'inspector-v2', 'jsonrpc-jsonl', 'capture-jsonl'];

/** The name of each format as the page shows it. */
export const TRANSCRIPT_FORMAT_NAMES: Record<TranscriptFormat, string> = {
  'claude-desktop-log': 'Claude Desktop server log (mcp-server-<name>.log)',
  'inspector-v2': 'MCP Inspector v2 protocol export (JSON array)',
  'jsonrpc-jsonl': 'JSON-RPC JSONL (one message per line)',
  'capture-jsonl': 'Per-frame capture envelope JSONL (ts, direction, transport, raw)',
};

/** The usual file extension of each format (for exports). */
export const TRANSCRIPT_FORMAT_EXTENSIONS: Record<TranscriptFormat, string> = {
  'claude-desktop-log': 'log',
  'inspector-v2': 'json',
  'jsonrpc-jsonl': 'jsonl',
  'capture-jsonl': 'jsonl',
};

/** Which way a message travels: client to server, or server to client. */
export type Direction = 'c2s' | 's2c';

/** Transport of an entry; `unknown` when the format does not say (Inspector exports, bare JSONL). */
export type TranscriptTransport = 'stdio' | 'streamable-http' | 'unknown';

/** What a JSON-RPC message is, by its fields (JSON-RPC 2.0 §4–5). `invalid`: none of them. */
export type MessageKind = 'request' | 'notification' | 'response' | 'invalid';

/** One JSON-RPC message as it was observed. */
export interface MessageEntry {
  type: 'message';
  /** Position in `Transcript.entries` (after the stable sort by time). */
  index: number;
  /** Virtual ms from the first message (integer). */
  atMs: number;
  direction: Direction;
  transport: TranscriptTransport;
  kind: MessageKind;
  /** The parsed JSON-RPC message. */
  message: Json;
  /** The message text exactly as it appeared in the file (for the wire panel). */
  raw: string;
  /** 1-based line of the file it came from (for an Inspector array: 1-based entry number). */
  line: number;
  /** HTTP status of the frame, when the capture recorded one. */
  status?: number;
  /** The HTTP exchange the frame travelled in, when the capture recorded it (envelope v2, HAR): header names in lower case. */
  http?: HttpInfo;
  /** The response stream a server frame travelled on (envelope v2 `streamId`). */
  streamId?: string;
  /** Set when the frame came with an LSP-style `Content-Length:` header instead of newline-delimited JSON (stdio). */
  framing?: 'content-length';
}

/** The HTTP side of a frame (capture envelope v2 `http`): the request's method and path, a response's status, headers with lower-case names. */
export interface HttpInfo {
  method?: string;
  path?: string;
  status?: number;
  headers?: Record<string, string>;
}

/** Kinds of non-message entry the formats can show. */
export type MetaKind =
  /** A request's HTTP response stream closed (by the client: the 2026-07-28 cancel; or by the network). */
  | 'stream-close'
  /** The client's own timeout fired for a request (SDK error -32001 produced locally, or a meta line). */
  | 'client-timeout'
  /** A connection (or reconnection) attempt succeeded. */
  | 'connect'
  /** A connection attempt failed. */
  | 'connect-failed'
  /** The connection dropped or was closed. */
  | 'disconnect'
  /** A response stream opened (envelope v2). */
  | 'stream-open'
  /** An HTTP exchange with no JSON-RPC body: a 202, a 400, a 405, a DELETE (envelope v2). */
  | 'http'
  /** A live fault fired (envelope v2: `fault` names it, from src/sim/faultVocabulary.ts). */
  | 'fault'
  /** A process ended (envelope v2: `code` / `signal`). */
  | 'exit'
  /** A server started listening (envelope v2). */
  | 'listen'
  /** A stdio frame header (`Content-Length: N`): LSP framing where MCP stdio is newline-delimited JSON. */
  | 'framing'
  /** Anything else the log says (an info line, an SSE comment). */
  | 'note';

/** A non-message line the format describes: a connection event, a stream close, a client-side timeout, a note. */
export interface MetaEntry {
  type: 'meta';
  index: number;
  atMs: number;
  kind: MetaKind;
  /** The request the entry is about, when the line names one. */
  requestId?: RequestId;
  /** stream-close only: who closed it (`cancel`: the client, as its cancellation; `network`: a drop; v2 adds `server` and `fault`). */
  cause?: MetaCause;
  transport: TranscriptTransport;
  text: string;
  line: number;
  /** fault only: the fault's name (`src/sim/faultVocabulary.ts`). */
  fault?: string;
  /** exit only: the exit code, or the signal that ended the process. */
  code?: number | null;
  signal?: string | null;
  /** http (and any meta line the capture gave one): the HTTP exchange. */
  http?: HttpInfo;
  streamId?: string;
}

/** Who closed a stream (envelope v1: cancel, network; v2 adds server and fault). */
export type MetaCause = 'cancel' | 'network' | 'server' | 'fault';

/** A raw line of the server's stderr interleaved in the log (not a message). */
export interface StderrEntry {
  type: 'stderr';
  index: number;
  atMs: number;
  text: string;
  line: number;
}

export type TranscriptEntry = MessageEntry | MetaEntry | StderrEntry;

/** A line that became no entry, with the reason. */
export interface SkippedLine {
  /** 1-based line (Inspector: entry number). */
  line: number;
  reason: string;
  /** The line's first 200 characters. */
  text: string;
}

/** How the revision was found. */
export type RevisionSource = 'initialize' | '_meta' | 'chosen' | 'default';

/** An imported (or exported) transcript, normalised. */
export interface Transcript {
  format: TranscriptFormat;
  /** `TRANSCRIPT_FORMAT_NAMES[format]`, for the page. */
  formatName: string;
  /** The revision the checks apply (the official schema used is this revision's). */
  revision: Revision;
  revisionSource: RevisionSource;
  /** The protocol version string the transcript itself announced, when any (may be one the lab has no schema for). */
  revisionSeen: string | null;
  /** One line on how the revision was chosen. */
  revisionNote: string;
  /** Every entry, sorted stably by `atMs`. */
  entries: TranscriptEntry[];
  /** The indices (into `entries`) of the messages, in order. */
  messageIndices: number[];
  skipped: SkippedLine[];
  /** Entries whose time was earlier than an entry before them in the file; they were sorted stably. */
  outOfOrder: { count: number; firstLine: number | null };
  /** Lines (or array entries) read. */
  lineCount: number;
  /** ISO time of virtual 0 (the first message), when the file had absolute times. */
  originIso: string | null;
  /**
   * Set when the file carried no times and they were assumed, in one sentence for the reader
   * (JSON-RPC JSONL without any `ts`: `LINE_ORDER_TIME_ASSUMPTION`, 1 ms per line).
   */
  timeAssumption?: string;
}

/** The result of an import: the transcript, or one line saying why nothing was usable. */
export type ImportResult =
  | { ok: true; transcript: Transcript }
  | { ok: false; reason: string; format: TranscriptFormat | null; skipped: SkippedLine[] };

/**
 * What an exporter writes: one wire record (a message or a meta entry), at an integer virtual
 * time in ms. `exportTranscript` turns a list of these into any format's text.
 */
export type WireRecord =
  | { type: 'message'; atMs: number; direction: Direction; transport: TranscriptTransport; message: Json; status?: number; http?: HttpInfo; streamId?: string }
  | { type: 'meta'; atMs: number; kind: MetaKind; transport: TranscriptTransport; requestId?: RequestId; cause?: MetaCause; text: string; fault?: string; code?: number | null; signal?: string | null; http?: HttpInfo; streamId?: string }
  | { type: 'stderr'; atMs: number; text: string };
