/**
 * The stdio side of `mcp-lab serve`: a `Transport` for the SDK's `serveStdio` that reads
 * newline-delimited JSON-RPC from stdin and writes it to stdout, records every frame, and gives
 * each inbound request a `RequestChannel` so a fault can write raw frames beside the SDK.
 *
 * Unlike the SDK's own stdio transport it survives a hostile client: a line longer than the
 * request cap is skipped (one stderr line, the bytes are never buffered past the cap), and a line
 * that is not JSON gets the JSON-RPC parse error (-32700, id null) and one stderr line; the
 * connection stays up either way.
 */
import type { Readable, Writable } from 'node:stream';
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/server';
import type { RequestChannel, Revision, ServeRuntime } from './runtime';

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

/** A request's revision from its 2026-07-28 `_meta` envelope, or undefined. */
export function envelopeRevision(message: unknown): string | undefined {
  const meta = (message as { params?: { _meta?: Record<string, unknown> } })?.params?._meta;
  const v = meta?.[PROTOCOL_VERSION_KEY];
  return typeof v === 'string' ? v : undefined;
}

/** A line-delimited JSON-RPC transport over a pair of streams, with caps and recording. */
export class ServeStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** Bytes of an oversize line still being skipped (-1: not skipping). */
  private skipping = -1;
  private closed = false;
  /** The revision the 2025 handshake settled on (from the initialize result), if any. */
  private handshakeRevision: Revision | undefined;
  private endedResolve!: () => void;
  /** Resolves when the connection has closed (stdin ended, or `close`). */
  readonly ended = new Promise<void>((resolve) => {
    this.endedResolve = resolve;
  });
  /** The channel of each request still unanswered, by JSON-encoded id (dropped from the runtime once answered). */
  private readonly channels = new Map<string, RequestChannel>();
  private readonly after = new Map<string, (response: Record<string, unknown>) => unknown[]>();

  constructor(
    private readonly rt: ServeRuntime,
    private readonly stdin: Readable = process.stdin,
    private readonly stdout: Writable = process.stdout,
  ) {}

  async start(): Promise<void> {
    this.stdin.on('data', this.onData);
    this.stdin.on('end', this.onEnd);
    this.stdin.on('error', (err: Error) => this.rt.log(`mcp-lab serve: stdin error: ${err.message}`));
    this.stdout.on('error', (err: Error) => this.rt.log(`mcp-lab serve: stdout error: ${err.message}`));
  }

  private onEnd = () => {
    this.rt.recorder.frame({ direction: 'meta', transport: 'stdio', event: 'disconnect', text: 'stdin closed' });
    void this.close();
  };

  private onData = (chunk: Buffer) => {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      const piece = nl === -1 ? chunk.subarray(start) : chunk.subarray(start, nl);
      if (this.skipping >= 0) this.skipping += piece.length;
      else if (this.buffered + piece.length > this.rt.caps.maxRequestBytes) {
        this.skipping = this.buffered + piece.length;
        this.chunks = [];
        this.buffered = 0;
      } else if (piece.length > 0) {
        this.chunks.push(piece);
        this.buffered += piece.length;
      }
      if (nl === -1) return;
      start = nl + 1;
      if (this.skipping >= 0) {
        this.rt.log(`mcp-lab serve: dropped a ${this.skipping}-byte line from the client: over the ${this.rt.caps.maxRequestBytes}-byte request cap (--max-request-bytes)`);
        this.skipping = -1;
        continue;
      }
      const line = Buffer.concat(this.chunks).toString('utf8').replace(/\r$/, '');
      this.chunks = [];
      this.buffered = 0;
      if (line.trim() !== '') this.onLine(line);
    }
  };

  private onLine(line: string) {
    this.rt.recorder.frame({ direction: 'c2s', transport: 'stdio', raw: line });
    let message: unknown;
    try {
      message = JSON.parse(line);
    } catch {
      this.rt.log(`mcp-lab serve: a line from the client is not JSON (${JSON.stringify(line.slice(0, 60))}${line.length > 60 ? '…' : ''}): answered -32700`);
      this.writeLine({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the line is not JSON' } });
      return;
    }
    if (typeof message !== 'object' || message === null || Array.isArray(message) || (message as { jsonrpc?: unknown }).jsonrpc !== '2.0') {
      this.rt.log('mcp-lab serve: a line from the client is not a JSON-RPC 2.0 message: answered -32600');
      this.writeLine({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: not a JSON-RPC 2.0 message object' } });
      return;
    }
    const m = message as { id?: string | number; method?: string };
    if (m.method !== undefined && m.id !== undefined) {
      const channel = this.channelFor(m.id, envelopeRevision(message) ?? this.handshakeRevision ?? 'unknown');
      this.channels.set(JSON.stringify(m.id), channel);
      this.rt.setChannel(m.id, channel);
    }
    try {
      this.onmessage?.(message as JSONRPCMessage);
    } catch (err) {
      this.rt.log(`mcp-lab serve: the SDK refused a message: ${(err as Error).message}`);
    }
  }

  private channelFor(id: string | number, revision: Revision): RequestChannel {
    return {
      transport: 'stdio',
      revision,
      writeRaw: (message) => this.writeLine(message),
      afterResponse: (frames) => void this.after.set(JSON.stringify(id), frames),
      cutStream: () => false,
      holdFirstByte: () => false,
      dropKeepAlives: () => false,
    };
  }

  /** Writes one message as a line; false once closed. */
  private writeLine(message: unknown): boolean {
    if (this.closed) return false;
    const text = JSON.stringify(message);
    this.rt.recorder.frame({ direction: 's2c', transport: 'stdio', raw: text });
    this.stdout.write(`${text}\n`);
    return true;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const m = message as { id?: string | number; method?: string; result?: { protocolVersion?: string } };
    if (m.method === undefined && m.result?.protocolVersion) this.handshakeRevision = m.result.protocolVersion;
    this.writeLine(message);
    if (m.method === undefined && m.id !== undefined) {
      const key = JSON.stringify(m.id);
      const extra = this.after.get(key);
      this.after.delete(key);
      const channel = this.channels.get(key);
      this.channels.delete(key);
      if (channel) this.rt.dropChannel(m.id, channel);
      if (extra) for (const frame of extra(message as Record<string, unknown>)) this.writeLine(frame);
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off('data', this.onData);
    this.stdin.off('end', this.onEnd);
    this.onclose?.();
    this.endedResolve();
  }
}
