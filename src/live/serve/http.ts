/**
 * The Streamable HTTP side of `mcp-lab serve`, at `/mcp` on a loopback address:
 *
 * - 2026-07-28 requests (the per-request `_meta` envelope) go to the SDK v2's `createMcpHandler`
 *   (`legacy: 'reject'`, always SSE so faults can act on the stream) through the Node adapter's
 *   `toNodeHandler`; one server instance per request; closing a request's stream cancels it.
 * - 2025-11-25 requests (`initialize`, then `Mcp-Session-Id`) go to a sessionful
 *   `NodeStreamableHTTPServerTransport` per session, so a POSTed `notifications/cancelled` reaches
 *   the instance running the call (the SDK's stateless legacy fallback would give it a fresh one).
 * - Host and Origin are validated first (DNS-rebinding protection, the SDK's guards); a body over
 *   the request cap is answered 413 before it is parsed.
 *
 * Every exchange is recorded (capture envelope v2: method, status, the `mcp-*` headers, each SSE
 * event, stream open/close), and each request gets a `RequestChannel` over its response so a
 * fault can write frames, cut the stream, hold its first byte or drop its keep-alives.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createMcpHandler, isLegacyRequest, localhostAllowedHostnames, type McpServer } from '@modelcontextprotocol/server';
import type { ListChangedNotifier } from '../conformance/fixtures';
import { createMemoryEventStore } from '../eventStore';
import { hostHeaderValidation, NodeStreamableHTTPServerTransport, originValidation, toNodeHandler } from '@modelcontextprotocol/node';
import type { CaptureHttp } from '../../wire/transcript/capture';
import type { RequestChannel, ServeRuntime } from './runtime';
import { envelopeRevision } from './stdio';

/** Headers worth keeping in a recording (lower case). */
const RECORDED_HEADERS = ['mcp-method', 'mcp-name', 'mcp-protocol-version', 'mcp-session-id', 'content-type', 'accept', 'last-event-id', 'origin', 'host', 'x-accel-buffering'];

function pickHeaders(headers: Record<string, string | string[] | number | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of RECORDED_HEADERS) {
    const v = headers[name];
    if (v !== undefined) out[name] = Array.isArray(v) ? v.join(', ') : String(v);
  }
  return out;
}

/** A running HTTP server. */
export interface ServeHttp {
  server: Server;
  /** `http://host:port/mcp`. */
  url: string;
  close(): Promise<void>;
}

/** Options of `startHttp`. */
export interface ServeHttpOptions {
  host: string;
  port: number;
  keepAliveMs: number;
  /** Makes a server instance for an era. */
  factory: (era: 'modern' | 'legacy', notifier?: ListChangedNotifier) => McpServer;
  /** Host names the Host and Origin headers may name (default: the SDK's localhost list). */
  allowedHosts?: string[];
  /**
   * How response streams are shaped. `faults` (the lab's tool sets): every 2026-07-28 answer is an
   * SSE stream from its first byte, and 2025-11-25 streams are not resumable, so a fault acts on
   * the stream the client reads (cut it, starve it, drop its keep-alives). `sdk` (the conformance
   * fixtures alone): the SDK's defaults — a JSON body unless the handler streams (`auto`, so an
   * error the transport page maps to an HTTP status gets that status), and resumable 2025-11-25
   * streams (an event store, a `retry:` interval). Default `faults`.
   */
  streams?: 'faults' | 'sdk';
}

/** The SSE `retry:` advised to 2025-11-25 clients under `streams: 'sdk'`, in ms. */
const SDK_RETRY_MS = 1000;

/** Reads a request body up to `max` bytes; null when it is longer. */
function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > max) over = true;
      if (!over) chunks.push(c);
    });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/**
 * Wraps `res` so every byte out is recorded and a fault can act on it. Returns the hooks the
 * request's channel uses.
 */
function instrument(rt: ServeRuntime, res: ServerResponse, streamId: string, requestId: string | number | undefined, revision: string) {
  const realWriteHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const realWrite = res.write.bind(res) as (chunk: string | Uint8Array) => boolean;
  const realEnd = res.end.bind(res) as (chunk?: string | Uint8Array) => ServerResponse;
  const realFlushHeaders = res.flushHeaders.bind(res);
  let head: { status: number; headers: Record<string, string>; args: unknown[] } | null = null;
  let headSent = false;
  let sse = false;
  let text = '';
  let cut = false;
  let dropKeepAlives = false;
  let holdUntil = 0;
  let held: (() => void)[] = [];
  let anyWrite = false;
  const after = new Map<string, (response: Record<string, unknown>) => unknown[]>();
  const http = (): CaptureHttp => ({ method: 'POST', path: '/mcp', status: head?.status, headers: head?.headers });

  const flushHead = () => {
    if (headSent) return;
    headSent = true;
    if (head) realWriteHead(...head.args);
    else {
      const lower: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.getHeaders())) lower[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v);
      head = { status: res.statusCode, headers: lower, args: [] };
    }
    sse = (head.headers['content-type'] ?? '').includes('text/event-stream');
    if (sse) rt.recorder.frame({ direction: 'meta', transport: 'http', event: 'stream-open', requestId, streamId, status: head.status, http: http() });
  };
  const recordEvent = (event: string) => {
    const data = event
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => l.slice(5).replace(/^ /, ''))
      .join('\n');
    if (data === '') return [];
    rt.recorder.frame({ direction: 's2c', transport: 'http', streamId, status: head?.status, http: http(), raw: data });
    try {
      const m = JSON.parse(data) as Record<string, unknown>;
      if (m.method === undefined && m.id !== undefined) {
        const extra = after.get(JSON.stringify(m.id));
        after.delete(JSON.stringify(m.id));
        return extra ? extra(m) : [];
      }
    } catch {
      /* not JSON: recorded as it went */
    }
    return [];
  };
  const sseFrame = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
  const writeNow = (chunk: string | Uint8Array): boolean => {
    if (cut || res.destroyed) return true;
    flushHead();
    const s = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    if (!sse) {
      text += s;
      return realWrite(chunk);
    }
    text += s;
    let out = '';
    let idx: number;
    while ((idx = text.indexOf('\n\n')) !== -1) {
      const event = text.slice(0, idx);
      text = text.slice(idx + 2);
      const isComment = event.split('\n').every((l) => l.startsWith(':') || l === '');
      if (isComment && dropKeepAlives) continue;
      out += `${event}\n\n`;
      for (const extra of recordEvent(event)) {
        const frame = sseFrame(extra);
        rt.recorder.frame({ direction: 's2c', transport: 'http', streamId, status: head?.status, http: http(), raw: JSON.stringify(extra) });
        out += frame;
      }
    }
    return out === '' ? true : realWrite(out);
  };
  const endNow = (chunk?: string | Uint8Array) => {
    if (cut || res.writableEnded) return;
    if (chunk !== undefined) writeNow(chunk);
    flushHead();
    if (!sse && text !== '') {
      if (head && (head.headers['content-type'] ?? '').includes('application/json')) rt.recorder.frame({ direction: 's2c', transport: 'http', status: head.status, http: http(), raw: text });
    } else if (!sse && head) rt.recorder.frame({ direction: 'meta', transport: 'http', event: 'http', requestId, status: head.status, http: http(), text: `HTTP ${head.status} with no JSON-RPC body` });
    realEnd();
  };
  const later = (fn: () => void) => {
    if (Date.now() < holdUntil || held.length > 0) held.push(fn);
    else fn();
  };
  res.writeHead = ((status: number, ...rest: unknown[]) => {
    const given = rest.find((a) => typeof a === 'object' && a !== null);
    const lower: Record<string, string> = {};
    const put = (k: unknown, v: unknown) => void (lower[String(k).toLowerCase()] = Array.isArray(v) ? v.join(', ') : String(v));
    for (const [k, v] of Object.entries(res.getHeaders())) put(k, v);
    if (Array.isArray(given)) {
      if (given.every((x) => Array.isArray(x))) for (const [k, v] of given as unknown[][]) put(k, v);
      else for (let i = 0; i + 1 < given.length; i += 2) put(given[i], given[i + 1]);
    } else if (given) for (const [k, v] of Object.entries(given)) put(k, v);
    head = { status, headers: lower, args: [status, ...rest] };
    // An SSE response's headers go out at once (the adapters wait for the first event, so a quiet
    // call would leave the client without a stream to close): one tick later, so a no-first-byte
    // fault set by the handler as it starts can still hold them.
    if ((lower['content-type'] ?? '').includes('text/event-stream')) setImmediate(() => later(() => {
      if (cut || res.destroyed || res.writableEnded || headSent) return;
      flushHead();
      realFlushHeaders();
    }));
    return res;
  }) as typeof res.writeHead;
  res.flushHeaders = () => {
    later(() => {
      if (cut || res.destroyed) return;
      flushHead();
      realFlushHeaders();
    });
  };
  res.write = ((chunk: string | Uint8Array) => {
    anyWrite = true;
    later(() => void writeNow(chunk));
    return true;
  }) as typeof res.write;
  res.end = ((chunk?: string | Uint8Array) => {
    later(() => endNow(chunk));
    return res;
  }) as typeof res.end;
  res.on('close', () => {
    const cause = cut ? 'fault' : res.writableEnded ? 'server' : 'cancel';
    if (sse || cut || !res.writableEnded) rt.recorder.frame({ direction: 'meta', transport: 'http', event: 'stream-close', requestId, streamId, cause, text: cause === 'cancel' ? 'the client closed the response stream' : undefined });
  });

  const channel: RequestChannel = {
    transport: 'http',
    revision,
    writeRaw(message) {
      if (cut || res.destroyed || res.writableEnded) {
        rt.recorder.frame({ direction: 'meta', transport: 'http', event: 'note', requestId, streamId, text: `not written (the response stream is closed): ${JSON.stringify(message)}` });
        return false;
      }
      if (!sse) flushHead();
      if (!sse) return false;
      rt.recorder.frame({ direction: 's2c', transport: 'http', streamId, status: head?.status, http: http(), raw: JSON.stringify(message) });
      realWrite(sseFrame(message));
      return true;
    },
    afterResponse(frames) {
      if (requestId !== undefined) after.set(JSON.stringify(requestId), frames);
    },
    cutStream() {
      if (res.writableEnded || res.destroyed) return false;
      flushHead();
      cut = true;
      realEnd();
      return true;
    },
    holdFirstByte(ms) {
      if (anyWrite && headSent) return false;
      holdUntil = Date.now() + ms;
      held.push(() => undefined);
      setTimeout(() => {
        const q = held;
        held = [];
        for (const fn of q) fn();
      }, ms);
      return true;
    },
    dropKeepAlives() {
      dropKeepAlives = true;
      return true;
    },
  };
  return channel;
}

/** Starts the HTTP server; rejects with one line when the address cannot be bound. */
export async function startHttp(rt: ServeRuntime, options: ServeHttpOptions): Promise<ServeHttp> {
  const allowed = options.allowedHosts ?? localhostAllowedHostnames();
  const checkHost = hostHeaderValidation(allowed);
  const checkOrigin = originValidation(allowed);
  const modern: ReturnType<typeof createMcpHandler> = createMcpHandler(() => options.factory('modern', modern.notify), { legacy: 'reject', responseMode: options.streams === 'sdk' ? 'auto' : 'sse', keepAliveMs: options.keepAliveMs, maxRequestBodySize: rt.caps.maxRequestBytes, onerror: (e) => rt.log(`mcp-lab serve: ${e.message}`, 'http') });
  const modernNode = toNodeHandler(modern, { maxRequestBodySize: rt.caps.maxRequestBytes });
  const sessions = new Map<string, NodeStreamableHTTPServerTransport>();
  let streams = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const reqHeaders = pickHeaders(req.headers);
    const path = (req.url ?? '/').split('?')[0];
    if (!checkHost(req, res) || !checkOrigin(req, res)) {
      rt.log(`mcp-lab serve: refused ${req.method} ${path}: Host ${JSON.stringify(req.headers.host ?? '')} / Origin ${JSON.stringify(req.headers.origin ?? '')} not allowed (DNS-rebinding protection)`, 'http');
      return;
    }
    if (path !== '/mcp') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('mcp-lab serve: the MCP endpoint is /mcp\n');
      return;
    }
    const streamId = String(++streams);
    const sessionId = typeof req.headers['mcp-session-id'] === 'string' ? req.headers['mcp-session-id'] : undefined;
    if (req.method !== 'POST') {
      rt.recorder.frame({ direction: 'meta', transport: 'http', event: 'http', streamId, http: { method: req.method, path, headers: reqHeaders }, text: `${req.method} ${path}` });
      instrument(rt, res, streamId, undefined, reqHeaders['mcp-protocol-version'] ?? 'unknown');
      const t = sessionId ? sessions.get(sessionId) : undefined;
      if (t) return t.handleRequest(req, res);
      if (sessionId) return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' } }));
      return modernNode(req, res);
    }
    const body = await readBody(req, rt.caps.maxRequestBytes);
    if (body === null) {
      rt.log(`mcp-lab serve: refused a POST body over the ${rt.caps.maxRequestBytes}-byte request cap (--max-request-bytes): 413`, 'http');
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: `request body over ${rt.caps.maxRequestBytes} bytes` } }));
      return;
    }
    const raw = body.toString('utf8');
    rt.recorder.frame({ direction: 'c2s', transport: 'http', streamId, http: { method: 'POST', path, headers: reqHeaders }, raw });
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      rt.log(`mcp-lab serve: a POST body is not JSON (${JSON.stringify(raw.slice(0, 60))}): 400 -32700`, 'http');
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body is not JSON' } }));
      return;
    }
    const first = (Array.isArray(parsed) ? parsed[0] : parsed) as { id?: string | number; method?: string } | undefined;
    const requestId = first && first.method !== undefined && first.id !== undefined ? first.id : undefined;
    const revision = reqHeaders['mcp-protocol-version'] ?? envelopeRevision(first) ?? 'unknown';
    const channel = instrument(rt, res, streamId, requestId, revision);
    if (requestId !== undefined) {
      rt.setChannel(requestId, channel);
      res.on('close', () => rt.dropChannel(requestId, channel));
    }
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const probe = new Request(`http://${req.headers.host ?? 'localhost'}/mcp`, { method: 'POST', headers });
    if (!(await isLegacyRequest(probe, parsed))) return modernNode(req, res, parsed);
    const existing = sessionId ? sessions.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(req, res, parsed);
    if (sessionId) return void res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: requestId ?? null, error: { code: -32001, message: 'Session not found' } }));
    if (first?.method !== 'initialize') return void res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: requestId ?? null, error: { code: -32000, message: 'Bad Request: no Mcp-Session-Id (send initialize first)' } }));
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      ...(options.streams === 'sdk' ? { eventStore: createMemoryEventStore(), retryInterval: SDK_RETRY_MS } : {}),
      onsessioninitialized: (id: string) => void sessions.set(id, transport),
      onsessionclosed: (id: string) => void sessions.delete(id),
    } as ConstructorParameters<typeof NodeStreamableHTTPServerTransport>[0]);
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await options.factory('legacy').connect(transport);
    return transport.handleRequest(req, res, parsed);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((err: Error) => {
      rt.log(`mcp-lab serve: ${req.method} ${req.url}: ${err.message}`, 'http');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' } }));
    });
  });
  server.on("clientError", (err, socket) => {
    rt.log(`mcp-lab serve: a bad HTTP request from a client: ${err.message}`, 'http');
    socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(new Error(err.code === 'EADDRINUSE' ? `--http: ${options.host}:${options.port} is already in use — pick another port (or 0 for any free one)` : `--http: cannot listen on ${options.host}:${options.port}: ${err.code ?? err.message}`)),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const hostText = options.host.includes(':') ? `[${options.host}]` : options.host;
  const url = `http://${hostText}:${port}/mcp`;
  rt.recorder.frame({ direction: 'meta', transport: 'http', event: 'listen', text: url });
  return {
    server,
    url,
    async close() {
      await modern.close();
      for (const t of sessions.values()) await t.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}
