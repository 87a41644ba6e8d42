/**
 * A small Streamable HTTP host for the conformance fixtures, used by the conformance test and
 * `scripts/conformance.mjs --self`: SDK v2 (`@modelcontextprotocol/server` 2.4, Node adapter
 * `@modelcontextprotocol/node` 2.1) on `127.0.0.1`, one endpoint `/mcp`, both wire eras.
 *
 * - 2026-07-28 traffic (a request carrying the per-request `_meta` envelope, SEP-2575, or a
 *   malformed claim of it) goes to `createMcpHandler`: a fresh server per request, the SDK's
 *   validation ladder, `server/discover`, `subscriptions/listen`.
 * - 2025-era traffic (`initialize`, then `Mcp-Session-Id`) gets a stateful session with its own
 *   `NodeStreamableHTTPServerTransport`, so sampling and elicitation can go back to the client;
 *   its SSE streams are resumable (an event store, a `retry:` hint; SEP-1699).
 * - DNS-rebinding protection (spec basic/transports, "Servers MUST validate the Origin header …
 *   When running locally, servers SHOULD bind only to localhost"): a Host or Origin that is not a
 *   loopback name is refused with 403 before any MCP processing.
 *
 * At merge, `mcp-lab serve --http --tools conformance` replaces this module in the test; the test
 * only needs a URL (see `conformanceServerUrl` in `conformance.test.ts`).
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler } from '@modelcontextprotocol/node';
import { classifyInboundRequest, createMcpHandler, isInitializeRequest, McpServer } from '@modelcontextprotocol/server';
import type { McpHttpHandler } from '@modelcontextprotocol/server';
import { createMemoryEventStore } from '../eventStore';
import { CONFORMANCE_SERVER_INFO, createConformanceServer, registerConformanceFixtures } from './fixtures';
import type { ConformanceFixtureOptions } from './fixtures';

/** A running host: its endpoint URL and how to stop it. */
export interface ConformanceHost {
  /** `http://127.0.0.1:PORT/mcp`. */
  url: string;
  /** Closes every session and the listening socket; resolves when the port is released. */
  close(): Promise<void>;
}

/** Largest request body the host reads, in bytes (1 MiB); larger bodies get 413. */
const MAX_BODY_BYTES = 1 << 20;

/** Host names a loopback-only server accepts in `Host` and `Origin`. */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * True when `value` (a `Host` header, or the host part of an `Origin`) names a loopback
 * interface, with or without a port.
 */
export function isLoopbackHost(value: string): boolean {
  const name = value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.split(':')[0];
  return LOOPBACK_NAMES.has(name.toLowerCase());
}

/** True when the request's Host, and its Origin if it sent one, are loopback names. */
function fromLoopback(req: IncomingMessage): boolean {
  const host = req.headers.host;
  if (typeof host !== 'string' || !isLoopbackHost(host)) return false;
  const origin = req.headers.origin;
  if (origin === undefined || origin === 'null') return origin === undefined;
  try {
    return isLoopbackHost(new URL(origin).host);
  } catch {
    return false;
  }
}

/** Reads and parses a JSON body, at most {@link MAX_BODY_BYTES}. Resolves `undefined` on bad JSON. */
async function readJson(req: IncomingMessage): Promise<{ tooLarge: true } | { tooLarge: false; body: unknown }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return { tooLarge: true };
    chunks.push(chunk);
  }
  try {
    return { tooLarge: false, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { tooLarge: false, body: undefined };
  }
}

/** The SSE `retry:` the host advises clients to wait before reconnecting, in ms. */
const RETRY_MS = 1000;

/** Writes a JSON-RPC error with no id and the given HTTP status. */
function jsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** How the host builds its servers. */
export interface HostOptions {
  /**
   * Build each server as `new McpServer(info)` with no options, the fixtures alone declaring
   * capabilities and verifying `requestState` in their handlers — the way a host that only calls
   * `registerConformanceFixtures(server)` (serve's tool-set registry) runs them; the suite then
   * fails `input-required-result-tampered-state`. Default: with `conformanceServerOptions()` (the
   * SDK's seam-level state check).
   */
  plainServer?: boolean;
}

/**
 * Starts the host on `127.0.0.1:0` (an ephemeral port) and resolves once it listens.
 * @param fixtures options passed to every `registerConformanceFixtures` call (e.g. `{ break }`).
 * @param host how servers are built (see {@link HostOptions}).
 * @throws Error when the socket cannot be bound.
 */
export async function startConformanceHost(fixtures: ConformanceFixtureOptions = {}, host: HostOptions = {}): Promise<ConformanceHost> {
  const newServer = (handler?: McpHttpHandler): McpServer => {
    const options = { ...fixtures, notifier: handler?.notify ?? fixtures.notifier };
    if (!host.plainServer) return createConformanceServer(options);
    const server = new McpServer(CONFORMANCE_SERVER_INFO);
    registerConformanceFixtures(server, options);
    return server;
  };
  // The 2026-07-28 entry: one fresh server per request; its trigger tools publish on the
  // handler's own bus, read lazily because the handler exists only after this call returns.
  const modern: McpHttpHandler = createMcpHandler(() => newServer(modern), { onerror: () => {} });
  const modernNode = toNodeHandler(modern);
  const sessions = new Map<string, { transport: NodeStreamableHTTPServerTransport; server: McpServer }>();

  const legacyPost = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const sessionId = first(req.headers['mcp-session-id']);
    const live = sessionId === undefined ? undefined : sessions.get(sessionId);
    if (live) return live.transport.handleRequest(req, res, body);
    if (sessionId !== undefined) return jsonRpcError(res, 404, -32001, 'Session not found');
    if (!isInitializeRequest(body)) return jsonRpcError(res, 400, -32000, 'Bad Request: no session; send initialize first');
    const server = newServer();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      eventStore: createMemoryEventStore(),
      retryInterval: RETRY_MS,
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, server });
      },
    });
    transport.onclose = () => {
      const id = transport.sessionId;
      if (id !== undefined && sessions.delete(id)) void server.close();
    };
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!fromLoopback(req)) return jsonRpcError(res, 403, -32000, 'Forbidden: Host and Origin must be loopback');
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') return jsonRpcError(res, 404, -32000, 'Not found: the endpoint is /mcp');
    if (req.method === 'POST') {
      const read = await readJson(req);
      if (read.tooLarge) return jsonRpcError(res, 413, -32000, `Request body over ${MAX_BODY_BYTES} bytes`);
      const inbound = classifyInboundRequest({
        httpMethod: 'POST',
        protocolVersionHeader: first(req.headers['mcp-protocol-version']),
        mcpMethodHeader: first(req.headers['mcp-method']),
        body: read.body,
      });
      if (inbound.kind !== 'legacy') return modernNode(req, res, read.body);
      return legacyPost(req, res, read.body);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      const sessionId = first(req.headers['mcp-session-id']);
      const live = sessionId === undefined ? undefined : sessions.get(sessionId);
      if (live) return live.transport.handleRequest(req, res);
      if (sessionId !== undefined) return jsonRpcError(res, 404, -32001, 'Session not found');
      return modernNode(req, res);
    }
    res.writeHead(405, { allow: 'GET, POST, DELETE' }).end();
  };

  const http: HttpServer = createServer((req, res) => {
    route(req, res).catch((error: unknown) => {
      if (!res.headersSent) jsonRpcError(res, 500, -32603, `Internal error: ${error instanceof Error ? error.message : String(error)}`);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    async close() {
      for (const { transport, server } of sessions.values()) {
        await transport.close().catch(() => {});
        await server.close().catch(() => {});
      }
      sessions.clear();
      await modern.close().catch(() => {});
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
