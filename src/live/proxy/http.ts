/**
 * The Streamable HTTP proxy (`mcp-lab proxy --listen 127.0.0.1:PORT --upstream URL`): a reverse
 * proxy for one MCP endpoint. Every request (POST, GET, DELETE) goes to the upstream URL with its
 * headers (hop-by-hop ones aside); the response's status and headers come back as they were, and
 * its body is written on as each chunk arrives (an SSE stream is never buffered). The recording
 * gets each JSON-RPC frame with the HTTP method, path, status and headers (authorization and
 * cookies redacted), stream open/close with the first-byte latency, and 202s and other body-less
 * exchanges as `http` lines. A client that closes a response stream before it ended (the 2026-07-28
 * cancellation) closes the upstream stream too. Real sockets and time live here (the live floor).
 */
import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { LiveFaultName } from '../../sim/faultVocabulary';
import type { Recorder } from '../recorder';
import { parseFrame } from './faults';

/** Options of `startHttpProxy`. */
export interface HttpProxyOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  upstream: URL;
  recorder: Recorder;
  faults: LiveFaultName[];
}

/** A listening HTTP proxy. */
export interface HttpProxy {
  server: Server;
  /** `http://HOST:PORT` as bound. */
  url: string;
  /** Stops listening, ends open streams, resolves when closed. */
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer', 'host', 'content-length']);
const SECRET = new Set(['authorization', 'cookie', 'set-cookie', 'proxy-authorization']);

/** The headers as recorded: lower-case names, one string each, secrets redacted. */
export function recordedHeaders(h: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = SECRET.has(k.toLowerCase()) ? '[redacted]' : Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** Incremental SSE parser: feeds text, calls `onData` with each event's joined `data:` lines. */
export class SseParser {
  private buf = '';
  private data: string[] = [];
  constructor(private readonly onData: (data: string) => void) {}
  push(text: string): void {
    this.buf += text;
    let nl: number;
    while ((nl = this.buf.indexOf('\n')) >= 0) {
      const line = this.buf.slice(0, nl).replace(/\r$/, '');
      this.buf = this.buf.slice(nl + 1);
      if (line === '') {
        if (this.data.length) this.onData(this.data.join('\n'));
        this.data = [];
      } else if (line.startsWith('data:')) this.data.push(line.slice(5).replace(/^ /, ''));
    }
  }
}

/**
 * Starts the proxy. Resolves once it listens.
 * @throws Error when it cannot listen (the address is taken, for example).
 */
export function startHttpProxy(o: HttpProxyOptions): Promise<HttpProxy> {
  const rec = o.recorder;
  const faults = new Set(o.faults);
  let streams = 0;
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => handle(req, res));
  server.keepAliveTimeout = 5000;

  function handle(req: IncomingMessage, res: ServerResponse) {
    const t0 = performance.now();
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const method = req.method ?? 'GET';
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const reqHeaders = recordedHeaders(req.headers);
      const text = body.toString('utf8');
      const frame = text.trim() ? parseFrame(text) : null;
      if (text.trim()) rec.frame({ direction: 'c2s', transport: 'http', http: { method, path, headers: reqHeaders }, raw: text });
      const requestId = frame && 'id' in frame && typeof frame.method === 'string' ? (frame.id as string | number) : undefined;
      if (frame?.method === 'notifications/cancelled' && faults.has('ignore-cancel')) {
        rec.frame({ direction: 'meta', transport: 'http', event: 'fault', fault: 'ignore-cancel', text: 'answered the POSTed cancellation with 202 and did not pass it on' });
        res.writeHead(202).end();
        return;
      }
      const headers: Record<string, string | string[]> = {};
      for (const [k, v] of Object.entries(req.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) headers[k] = v;
      if (body.length) headers['content-length'] = String(body.length);
      const target = new URL(o.upstream.href);
      target.search = new URL(req.url ?? '/', 'http://x').search;
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const up = send(target, { method, headers });
      let clientGone = false;
      let upstreamEnded = false;
      up.on('response', (upRes) => {
        const firstByteMs = Math.round((performance.now() - t0) * 10) / 10;
        const status = upRes.statusCode ?? 502;
        const resHeaders = recordedHeaders(upRes.headers);
        const outHeaders: Record<string, string | string[]> = {};
        for (const [k, v] of Object.entries(upRes.headers)) if (v !== undefined && !HOP_BY_HOP.has(k)) outHeaders[k] = v;
        res.writeHead(status, outHeaders);
        res.flushHeaders();
        const sse = String(upRes.headers['content-type'] ?? '').includes('text/event-stream');
        const streamId = sse ? String(++streams) : undefined;
        const httpInfo = { method, path, status, headers: resHeaders };
        if (sse) {
          open.add(res);
          rec.frame({ direction: 'meta', transport: 'http', event: 'stream-open', streamId, status, http: httpInfo, ...(requestId !== undefined ? { requestId } : {}), text: `first byte after ${firstByteMs} ms` });
        }
        let events = 0;
        const cutAfterFirst = sse && faults.has('stream-cut') && frame?.method === 'tools/call';
        const parser = new SseParser((data) => {
          events++;
          rec.frame({ direction: 's2c', transport: 'http', status, streamId, raw: data, ...(events === 1 ? { http: httpInfo } : {}), ...(clientGone ? { text: 'after the client closed the stream' } : {}) });
        });
        const bodyParts: Buffer[] = [];
        upRes.on('data', (chunk: Buffer) => {
          if (sse) parser.push(chunk.toString('utf8'));
          else bodyParts.push(chunk);
          if (!clientGone) res.write(chunk);
          if (cutAfterFirst && events >= 1 && !clientGone) {
            rec.frame({ direction: 'meta', transport: 'http', event: 'fault', fault: 'stream-cut', ...(requestId !== undefined ? { requestId } : {}), text: 'ended the response stream after its first event' });
            rec.frame({ direction: 'meta', transport: 'http', event: 'stream-close', streamId, cause: 'fault', ...(requestId !== undefined ? { requestId } : {}) });
            clientGone = true;
            res.destroy();
            up.destroy();
          }
        });
        upRes.on('end', () => {
          upstreamEnded = true;
          open.delete(res);
          if (sse) {
            if (!clientGone) rec.frame({ direction: 'meta', transport: 'http', event: 'stream-close', streamId, cause: 'server', ...(requestId !== undefined ? { requestId } : {}) });
          } else {
            const b = Buffer.concat(bodyParts).toString('utf8');
            if (b.trim() && parseFrame(b) !== null) rec.frame({ direction: 's2c', transport: 'http', status, http: httpInfo, raw: b });
            else rec.frame({ direction: 'meta', transport: 'http', event: 'http', status, http: httpInfo, text: b.trim() ? `${method} ${path} → ${status}: ${b.slice(0, 200)}` : `${method} ${path} → ${status}` });
          }
          if (!clientGone) res.end();
        });
        upRes.on('error', () => {
          if (!clientGone) res.destroy();
        });
        res.on('close', () => {
          if (upstreamEnded || clientGone) return;
          clientGone = true;
          open.delete(res);
          if (faults.has('ignore-cancel')) {
            rec.frame({ direction: 'meta', transport: 'http', event: 'fault', fault: 'ignore-cancel', ...(requestId !== undefined ? { requestId } : {}), text: 'the client closed the stream; the proxy keeps the upstream stream open' });
            rec.frame({ direction: 'meta', transport: 'http', event: 'stream-close', streamId, cause: 'cancel', ...(requestId !== undefined ? { requestId } : {}) });
            return;
          }
          rec.frame({ direction: 'meta', transport: 'http', event: 'stream-close', streamId, cause: 'cancel', ...(requestId !== undefined ? { requestId } : {}), text: 'the client closed the response stream; the proxy closed the upstream one' });
          up.destroy();
        });
      });
      up.on('error', (err: NodeJS.ErrnoException) => {
        if (clientGone || res.headersSent) {
          res.destroy();
          return;
        }
        rec.frame({ direction: 'meta', transport: 'http', event: 'http', status: 502, http: { method, path, status: 502 }, text: `upstream ${o.upstream.href}: ${err.code ?? err.message}` });
        res.writeHead(502, { 'content-type': 'text/plain' }).end(`mcp-lab proxy: upstream ${o.upstream.href}: ${err.code ?? err.message}\n`);
      });
      up.end(body);
    });
  }

  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(new Error(`cannot listen on ${o.host}:${o.port}: ${err.code ?? err.message}`)));
    server.listen(o.port, o.host, () => {
      const addr = server.address() as AddressInfo;
      const url = `http://${addr.address}:${addr.port}`;
      rec.frame({ direction: 'meta', transport: 'http', event: 'listen', text: `${url} → ${o.upstream.href}` });
      resolve({
        server,
        url,
        close: () =>
          new Promise<void>((done) => {
            for (const r of open) r.destroy();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
