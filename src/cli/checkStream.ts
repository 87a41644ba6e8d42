import { createReadStream, openSync, readSync, closeSync } from 'node:fs';
import { REVISIONS, type Revision } from '../sim/mcp';
import { chooseRevisionFrom, detectFormat, findRevision, lineReader, streamedEntry, type StreamedLine } from '../wire/transcript/parse';
import { BINARY_REASON, sniffEncoding, transcriptDecoder, type TranscriptEncoding } from '../wire/transcript/encoding';
import { TranscriptChecker, type CheckReport } from '../wire/transcript/checks';
import { TRANSCRIPT_FORMAT_NAMES, type SkippedLine, type TranscriptEntry, type TranscriptFormat } from '../wire/transcript/types';

/**
 * The streaming `check` (issue 24): the file is read in chunks and line by line, each line becomes
 * its entries and goes through the checker at once, and a message's body is dropped after the
 * checks saw it — memory is the calls the checks still hold, not the file. Same findings as the
 * whole-file import: the revision comes from a first, cheap pass (only lines that mention
 * `protocolVersion` are parsed), and whenever the stream cannot be read in one pass exactly as the
 * import would read it — a time earlier than one before it (the import sorts), JSON-RPC JSONL that
 * mixes timed and untimed lines, LSP framing, a format that is not line-based — the result says so
 * (`fallback`) and the caller reads the whole file instead.
 */

/** What a streaming run produced: everything the CLI prints. */
export interface StreamCheckResult {
  format: TranscriptFormat;
  formatName: string;
  revisionSource: string;
  report: CheckReport;
  messages: number;
  lineCount: number;
  skipped: SkippedLine[];
  timeAssumption?: string;
  /** The file line of each finding's entries, in the finding's order. */
  findingLines: number[][];
}

/**
 * Chunk size of the reads (bytes). Small enough that a chunk's text dies young: a chunk is read
 * for as long as its lines take, and a 1 MiB one outlived two scavenges, so every chunk was
 * copied into the old generation and lifted the peak RSS by tens of MB.
 */
const CHUNK = 1 << 16;

/** The first bytes of a file, for the encoding and the format. */
function head(path: string, bytes = 65536): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    const buf = new Uint8Array(bytes);
    const n = readSync(fd, buf, 0, bytes, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** Calls `onLine(text, n, isLast)` for every line of the file (LF, CRLF or lone CR; any length), decoded from `encoding`. */
async function eachLine(path: string, encoding: Exclude<TranscriptEncoding, 'binary'>, onLine: (text: string, n: number, isLast: boolean) => boolean | void): Promise<number> {
  const decoder = transcriptDecoder(encoding);
  let rest = '';
  let n = 0;
  let stopped = false;
  const emit = (text: string, isLast: boolean) => {
    n++;
    if (onLine(text, n, isLast) === false) stopped = true;
  };
  /** Emits the lines of `text` from `start` on that a line end closes; returns the rest (the start of a line that goes on in the next chunk). */
  const take = (text: string, start: number) => {
    // The next CR, searched again only once passed (a file without CRs is searched once a chunk).
    let cr = text.indexOf('\r', start);
    for (;;) {
      const i = text.indexOf('\n', start);
      if (cr >= 0 && cr < start) cr = text.indexOf('\r', start);
      if (cr >= 0 && (i < 0 || cr < i)) {
        // A CR at the very end may be the first half of a CRLF split between chunks: keep it for the next chunk.
        if (cr === text.length - 1) return text.slice(start);
        emit(text.slice(start, cr), false);
        start = text.charCodeAt(cr + 1) === 10 ? cr + 2 : cr + 1;
      } else if (i >= 0) {
        emit(text.slice(start, i), false);
        start = i + 1;
      } else return text.slice(start);
      if (stopped) return '';
    }
  };
  /**
   * Takes the next chunk's text: the line the last chunk left open (`rest`) is closed by this
   * one's first line end, and only that line is joined — the chunk itself is never copied into a
   * longer string. The same lines as reading `rest + text` whole.
   */
  const next = (text: string) => {
    let start = 0;
    if (rest !== '') {
      if (rest.charCodeAt(rest.length - 1) === 13) {
        // The last chunk ended on a CR (no other line end is in `rest`): its line ends there, and an LF opening this chunk is the CRLF's.
        if (text === '') return;
        emit(rest.slice(0, -1), false);
        start = text.charCodeAt(0) === 10 ? 1 : 0;
      } else {
        const lf = text.indexOf('\n');
        const cr = text.indexOf('\r');
        const i = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf;
        if (i < 0 || (i === cr && i === text.length - 1)) {
          rest += text;
          return;
        }
        emit(rest + text.slice(0, i), false);
        start = i === cr && text.charCodeAt(i + 1) === 10 ? i + 2 : i + 1;
      }
      rest = '';
      if (stopped) return;
    }
    rest = take(text, start);
  };
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK })) {
    next(decoder.decode(chunk as Uint8Array));
    if (stopped) return n;
  }
  next(decoder.decode(new Uint8Array(0), true));
  if (stopped) return n;
  if (rest.endsWith('\r')) emit(rest.slice(0, -1), false);
  else if (rest !== '') emit(rest, true);
  return n;
}

/** The revision announcement of the file, from the lines that mention protocolVersion (initialize first, else the first `_meta` naming a known revision, else the first `_meta`: `findRevision`). */
async function scanRevision(path: string, encoding: Exclude<TranscriptEncoding, 'binary'>, format: 'jsonrpc-jsonl' | 'capture-jsonl'): Promise<{ seen: string | null; source: 'initialize' | '_meta' | null }> {
  const reader = lineReader(format);
  const candidates: TranscriptEntry[] = [];
  let metaSeen = false;
  await eachLine(path, encoding, (text, n, isLast) => {
    if (!text.includes('protocolVersion')) return;
    const handshake = text.includes('initialize') || text.includes('serverInfo') || text.includes('capabilities');
    if (!handshake && metaSeen) return;
    const before = candidates.length;
    for (const l of reader.line(text, n, isLast)) candidates.push(streamedEntry(l, candidates.length, 0));
    // A _meta line decides once it names a revision the lab knows (a first unknown one may be a version the server refused with -32022).
    if (!handshake && (REVISIONS as readonly string[]).includes(findRevision(candidates.slice(before)).seen ?? '')) metaSeen = true;
    // An initialize response decides; anything else may still be overridden by one later.
    if (handshake && candidates.some(isInitializeResult)) return false;
  });
  return findRevision(candidates);
}

/** Whether `e` is a server's initialize result (what `findRevision` takes first). */
function isInitializeResult(e: TranscriptEntry): boolean {
  if (e.type !== 'message' || e.kind !== 'response') return false;
  const result = (e.message as { result?: unknown }).result as Record<string, unknown> | undefined;
  return result !== null && typeof result === 'object' && typeof result.protocolVersion === 'string' && ('serverInfo' in result || 'capabilities' in result);
}

/**
 * Checks the file at `path` in one streaming pass. Resolves to the result, `{ fallback }` when the
 * whole-file import must be used instead (the reason), or `{ error }` (one line: binary, no
 * known format).
 */
export async function streamCheck(
  path: string,
  options: { format?: TranscriptFormat; revision?: Revision; allowanceMs?: number; maxMs?: number },
): Promise<StreamCheckResult | { fallback: string } | { error: string }> {
  const first = head(path);
  const encoding = sniffEncoding(first.subarray(0, 4096));
  if (encoding === 'binary') return { error: BINARY_REASON };
  let format = options.format;
  if (!format) {
    const text = transcriptDecoder(encoding).decode(first, true);
    const detected = detectFormat(text.slice(0, text.lastIndexOf('\n') > 0 ? text.lastIndexOf('\n') : text.length));
    if (detected.format === null) return { fallback: detected.reason };
    format = detected.format;
  }
  if (format !== 'jsonrpc-jsonl' && format !== 'capture-jsonl') return { fallback: `${format} is not read line by line` };
  const chosen = chooseRevisionFrom(await scanRevision(path, encoding, format), options.revision);
  const checker = new TranscriptChecker(chosen.revision, chosen.revisionNote, { ...(options.allowanceMs !== undefined ? { allowanceMs: options.allowanceMs } : {}), ...(options.maxMs !== undefined ? { maxMs: options.maxMs } : {}) });
  const reader = lineReader(format);
  /** Entries before the first message wait for its time (they are timed relative to it). */
  let waiting: StreamedLine[] | null = [];
  let origin = 0;
  let index = 0;
  let maxT = -Infinity;
  let messages = 0;
  let fallback: string | null = null;
  const feed = (l: StreamedLine) => {
    const e = streamedEntry(l, index++, origin);
    if (e.type === 'message') messages++;
    checker.push(e);
    if (e.type === 'message') {
      // The checks read a body only while visiting it: keep the entry's place, not its content.
      (e as { message: unknown }).message = null;
      e.raw = '';
    }
  };
  const lineCount = await eachLine(path, encoding, (text, n, isLast) => {
    const body = n === 1 && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    for (const l of reader.line(body, n, isLast)) {
      if (l.t < maxT) fallback = 'a line earlier than one before it (the import sorts by time)';
      maxT = Math.max(maxT, l.t);
      if (waiting) {
        waiting.push(l);
        if (l.type !== 'message') continue;
        origin = l.t;
        const list = waiting;
        waiting = null;
        for (const w of list) feed(w);
      } else feed(l);
    }
    if (reader.fallback) fallback = reader.fallback;
    if (fallback) return false;
  });
  if (fallback) return { fallback };
  if (waiting) return { fallback: 'no JSON-RPC message' };
  const report = checker.finish();
  return {
    format,
    formatName: TRANSCRIPT_FORMAT_NAMES[format],
    revisionSource: chosen.revisionSource,
    report,
    messages,
    lineCount,
    skipped: reader.skipped,
    ...(reader.timeAssumption ? { timeAssumption: reader.timeAssumption } : {}),
    findingLines: report.findings.map((f) => f.entries.map((i) => checker.lineOf(i) as number)),
  };
}
