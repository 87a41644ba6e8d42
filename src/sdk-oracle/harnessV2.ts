import { Client, InMemoryTransport, SdkError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createMcpHandler, McpServer, type ServerContext } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import * as z from 'zod';
import { HandlerCommands, type CallOptions, type CallRecord, type WireRecord } from './harness';

/**
 * A real SDK v2 session for the differential oracle: the official TypeScript SDK v2 `Client`
 * (`@modelcontextprotocol/client`) and `McpServer` (`@modelcontextprotocol/server`) speaking the
 * 2026-07-28 ("modern era", stateless `_meta` envelope) wire, on the test's fake timers.
 *
 * How the pair is made to speak 2026-07-28 (read in the SDK source, `client/src/client/client.ts`
 * `ClientOptions.versionNegotiation` and `server/src/server/serveStdio.ts`): the client is pinned
 * with `versionNegotiation: { mode: { pin: '2026-07-28' } }` (the default, `'legacy'`, runs the
 * 2025 `initialize` handshake — which is why a plain stdio pair negotiates 2025-11-25), and the
 * server is served through an era-deciding entry with legacy serving off: on the stdio-like link
 * `serveStdio(factory, { transport, legacy: 'reject' })`, over Streamable HTTP
 * `createMcpHandler(factory, { legacy: 'reject', responseMode: 'sse' })` whose `fetch` the client
 * transport's `fetch` option calls in process. The handshake is the client's `server/discover`
 * probe (string id `server-discover-probe-1`), so the first `tools/call` has JSON-RPC id 0 and
 * progress token 0. `negotiated` is what `Client.getNegotiatedProtocolVersion()` reports.
 *
 * Same shape as the v1 `SdkSession` (`harness.ts`): one tool `work` whose handler waits on the
 * driver's commands (`progress` → `notifications/progress` with the request's token through
 * `ctx.mcpReq.notify`; `complete` → a `CallToolResult`); one-way latency by delaying each message
 * with `setTimeout`; times are virtual ms from `start()`.
 */

type Msg = Record<string, unknown>;

/** The link the v2 pair runs on: the stdio-like in-memory pair, or Streamable HTTP in process. */
export type V2Link = 'stdio' | 'http';

/**
 * HTTP only: something on the path of a `tools/call`'s SSE response between the server and the
 * client (e.g. a proxy, `flowProxy.ts`). It gets the body the server writes and returns the body the
 * client reads; `cut()` breaks the stream as `SdkV2Session.disconnect` does; `now()` is the
 * session's virtual time (ms).
 */
export type Middlebox = (body: ReadableStream<Uint8Array>, ctx: { id: number; headers: Headers; now: () => number; cut: () => void }) => ReadableStream<Uint8Array>;

/** How a session is set up beside its link (all optional: the defaults are the races oracle's pair). */
export interface V2SessionOptions {
  /** HTTP: `createMcpHandler`'s `keepAliveMs`, the SSE comment-frame interval of every stream it serves (unset: the SDK's default, 15000 ms; 0: none). */
  keepAliveMs?: number;
  /** HTTP: a middlebox on every `tools/call` response stream. */
  middlebox?: Middlebox;
  /**
   * A tool name the calls use instead of `work`: the same driver-commanded handler, registered
   * with an optional `idempotencyKey` argument it deduplicates on — a call whose key already has a
   * stored result gets that result at once, without running again (recorded in `executions`).
   */
  tool?: string;
}

/** One run of the tool's handler: the request id, when it started (ms), its key, and whether the stored result answered it. */
export interface ExecutionRecord {
  id: number;
  atMs: number;
  idempotencyKey: string | undefined;
  fromStore: boolean;
}

/** The transport surface the harness wraps (the SDK v2 `Transport` interface, the parts used). */
interface LinkTransport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: Msg, extra?: unknown) => void;
  start(): Promise<void>;
  close(): Promise<void>;
  send(message: Msg, options?: Record<string, unknown>): Promise<void>;
  [k: string]: unknown;
}

/**
 * Wraps a transport: `send` is recorded and delayed by the outgoing latency; on the HTTP link
 * (where the server side is a handler, not a transport) each message the client receives is
 * recorded as server-sent at its arrival in process and delivered after the incoming latency.
 * Every other member (e.g. `hasPerRequestStream`, which makes the v2 client cancel by closing the
 * request's stream) is forwarded unchanged.
 */
function latencyWrap(inner: LinkTransport, out: { ms: () => number; record: (m: Msg) => void }, incoming?: { ms: () => number; record: (m: Msg) => void; lost: (m: Msg) => boolean }): LinkTransport {
  const wrapper: LinkTransport = Object.create(inner) as LinkTransport;
  // own callback slots: a lookup must never fall through to the inner transport's (which call back here)
  wrapper.onmessage = undefined;
  wrapper.onclose = undefined;
  wrapper.onerror = undefined;
  inner.onmessage = (m, extra) => {
    if (!incoming) return wrapper.onmessage?.(m, extra);
    incoming.record(m);
    const ms = incoming.ms();
    if (ms === 0) return wrapper.onmessage?.(m, extra);
    // still on the wire: lost when the network cuts its stream before it arrives
    setTimeout(() => {
      if (!incoming.lost(m)) wrapper.onmessage?.(m, extra);
    }, ms);
  };
  inner.onclose = () => wrapper.onclose?.();
  inner.onerror = (e) => wrapper.onerror?.(e);
  wrapper.start = () => inner.start();
  wrapper.close = () => inner.close();
  wrapper.send = (message, options) => {
    out.record(message);
    const ms = out.ms();
    if (ms === 0) return inner.send(message, options);
    setTimeout(() => void inner.send(message, options).catch(() => undefined), ms);
    return Promise.resolve();
  };
  return wrapper;
}

/** One SDK v2 client + server pair on fake timers, speaking 2026-07-28. */
export class SdkV2Session {
  readonly wire: WireRecord[] = [];
  readonly calls = new Map<string, CallRecord>();
  /** Errors the SDK client reported through `onerror` (e.g. a response for an unknown id). */
  readonly clientErrors: { atMs: number; message: string }[] = [];
  /** Every HTTP request of the HTTP link, `"<METHOD> <status>"`. */
  readonly requests: string[] = [];
  /** The HTTP link's server entry (`createMcpHandler`), e.g. to `close()` it or `notify` through its event bus. */
  httpHandler: ReturnType<typeof createMcpHandler> | undefined;
  /** The revision the client negotiated (`getNegotiatedProtocolVersion()`), after `start()`. */
  negotiated: string | undefined;
  /** Every run of the tool's handler, in order. */
  readonly executions: ExecutionRecord[] = [];
  /** Results stored by idempotency key (the `tool` option's deduplication). */
  private stored = new Map<string, string>();
  private base = 0;
  private latency = { c2s: 0, s2c: 0 };
  private commands = new HandlerCommands();
  private handlerOf = new Map<number, string>();
  private aborts = new Map<string, AbortController>();
  private clientTransport!: LinkTransport;
  readonly client = new Client({ name: 'lab-sdk-oracle', version: '2.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
  private started = false;
  /** Per JSON-RPC id of a tools/call over HTTP: breaks its response stream (`disconnect`). */
  private droppers = new Map<number, () => void>();
  /** JSON-RPC ids whose response stream was cut (messages for them still in flight are lost). */
  private cut = new Set<number>();
  /** Calls whose tools/call has not gone out yet, in call order. */
  private unsent: CallRecord[] = [];

  constructor(
    readonly link: V2Link = 'stdio',
    private readonly options: V2SessionOptions = {},
  ) {
    this.client.onerror = (e) => this.clientErrors.push({ atMs: this.now(), message: e.message });
  }

  /** Virtual time since `start()` (ms). */
  now(): number {
    return Date.now() - this.base;
  }

  /** A fresh McpServer with the `work` tool (the entries call it per connection or per request). */
  private makeServer(): McpServer {
    const server = new McpServer({ name: 'lab-sdk-oracle-server', version: '2.0.0' });
    const work = async (ctx: ServerContext, idempotencyKey?: string) => {
      const id = Number(ctx.mcpReq.id);
      const storedText = idempotencyKey === undefined ? undefined : this.stored.get(idempotencyKey);
      this.executions.push({ id, atMs: this.now(), idempotencyKey, fromStore: storedText !== undefined });
      if (storedText !== undefined) return { content: [{ type: 'text' as const, text: storedText }] };
      const key = this.handlerOf.get(id) ?? `sdk-${id}`;
      const call = this.calls.get(key);
      if (call) call.handlerStartedAtMs = this.now();
      let returned = false;
      ctx.mcpReq.signal.addEventListener('abort', () => {
        const c = this.calls.get(key);
        // Over HTTP the per-request instance is closed once its response is written, which aborts the
        // signal of a handler that already returned ("Connection closed"): not a cancel, not recorded.
        if (c && c.abortFiredAtMs === null && !returned) {
          c.abortFiredAtMs = this.now();
          c.abortReason = String(ctx.mcpReq.signal.reason);
        }
      });
      const token = (ctx.mcpReq._meta as { progressToken?: string | number } | undefined)?.progressToken;
      for (;;) {
        const cmd = await this.commands.next(id);
        if (cmd.kind === 'complete') {
          returned = true;
          if (idempotencyKey !== undefined) this.stored.set(idempotencyKey, cmd.text);
          return { content: [{ type: 'text' as const, text: cmd.text }] };
        }
        if (token !== undefined) await ctx.mcpReq.notify({ method: 'notifications/progress', params: { progressToken: token, progress: cmd.progress, total: cmd.total, message: cmd.message } });
      }
    };
    server.registerTool('work', { description: 'waits on the test driver' }, (ctx) => work(ctx));
    if (this.options.tool) server.registerTool(this.options.tool, { description: 'waits on the test driver; deduplicates on idempotencyKey', inputSchema: z.object({ idempotencyKey: z.string().optional() }) }, (args, ctx) => work(ctx, args.idempotencyKey));
    return server;
  }

  /**
   * Connects (the `server/discover` handshake at latency 0, recorded at 0 ms), checks nothing
   * itself — the caller asserts `negotiated` — then sets the one-way latencies. Call with fake
   * timers installed; `advance` is `vi.advanceTimersByTimeAsync`.
   */
  async start(latencyMs: { clientToServer: number; serverToClient: number }, advance: (ms: number) => Promise<unknown>): Promise<void> {
    this.base = Date.now();
    const c2s = {
      ms: () => this.latency.c2s,
      record: (m: Msg) => {
        this.wire.push({ atMs: this.now(), direction: 'c2s', message: m as never });
        // callTool has async hops before it sends: a call learns its JSON-RPC id when its tools/call goes out (in call order)
        if (m.method === 'tools/call' && m.id !== undefined && this.unsent.length) {
          const record = this.unsent.shift()!;
          record.sdkRequestId = Number(m.id);
          this.handlerOf.set(record.sdkRequestId, record.key);
        }
      },
    };
    const s2c = { ms: () => this.latency.s2c, record: (m: Msg) => this.wire.push({ atMs: this.now(), direction: 's2c', message: m as never }) };
    if (this.link === 'stdio') {
      const [c, s] = InMemoryTransport.createLinkedPair();
      this.clientTransport = latencyWrap(c as unknown as LinkTransport, c2s);
      const serverTransport = latencyWrap(s as unknown as LinkTransport, s2c);
      serveStdio(() => this.makeServer(), { transport: serverTransport as never, legacy: 'reject' });
    } else {
      const handler = createMcpHandler(() => this.makeServer(), { legacy: 'reject', responseMode: 'sse', ...(this.options.keepAliveMs !== undefined && { keepAliveMs: this.options.keepAliveMs }) });
      this.httpHandler = handler;
      const fetchInProcess = async (url: string | URL, init?: RequestInit): Promise<Response> => {
        // The client's abort of a request's stream reaches the server after the client-to-server latency.
        const serverAbort = new AbortController();
        init?.signal?.addEventListener('abort', () => {
          const ms = this.latency.c2s;
          if (ms === 0) serverAbort.abort();
          else setTimeout(() => serverAbort.abort(), ms);
        });
        const res = await handler.fetch(new Request(url, { ...init, signal: serverAbort.signal }));
        this.requests.push(`${init?.method ?? 'GET'} ${res.status}`);
        const sent = typeof init?.body === 'string' ? (JSON.parse(init.body) as Msg) : null;
        if (!res.body || sent?.method !== 'tools/call' || typeof sent.id !== 'number') return res;
        // A tools/call's SSE stream, through a pass-through whose readable side `drop` can break (a network cut).
        const cut = new TransformStream<Uint8Array, Uint8Array>();
        const id = sent.id;
        const source = this.options.middlebox ? this.options.middlebox(res.body, { id, headers: res.headers, now: () => this.now(), cut: () => this.droppers.get(id)?.() }) : res.body;
        void source.pipeTo(cut.writable).catch(() => undefined);
        let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
        let bodyController: ReadableStreamDefaultController<Uint8Array> | undefined;
        const body = new ReadableStream<Uint8Array>({
          start: (controller) => {
            bodyController = controller;
            reader = cut.readable.getReader();
            this.droppers.set(id, () => {
              this.cut.add(id);
              bodyController?.error(new TypeError('network connection lost'));
              // the server learns of the cut one client-to-server latency later
              setTimeout(() => {
                void reader?.cancel().catch(() => undefined);
                serverAbort.abort();
              }, this.latency.c2s);
            });
          },
          pull: async (controller) => {
            const { value, done } = await reader!.read();
            if (done) controller.close();
            else controller.enqueue(value);
          },
        });
        // fetch's contract: aborting the request's signal (the client's cancel) errors its response body,
        // so what the client has not read by then never reaches it (e.g. events a proxy still holds)
        // (and the path behind it, a middlebox included, learns of the close with the server, one client-to-server latency later)
        init?.signal?.addEventListener('abort', () => {
          bodyController?.error(new DOMException('This operation was aborted', 'AbortError'));
          setTimeout(() => void reader?.cancel().catch(() => undefined), this.latency.c2s);
        });
        return new Response(body, { status: res.status, headers: res.headers });
      };
      const t = new StreamableHTTPClientTransport(new URL('http://lab-oracle.invalid/mcp'), { fetch: fetchInProcess });
      const lost = (m: Msg) => {
        const id = m.method === 'notifications/progress' ? (m.params as { progressToken?: unknown } | undefined)?.progressToken : m.id;
        return typeof id === 'number' && this.cut.has(id);
      };
      this.clientTransport = latencyWrap(t as unknown as LinkTransport, c2s, { ...s2c, lost });
    }
    const connecting = this.client.connect(this.clientTransport as never);
    await advance(0);
    await connecting;
    this.negotiated = this.client.getNegotiatedProtocolVersion();
    this.latency = { c2s: latencyMs.clientToServer, s2c: latencyMs.serverToClient };
    this.started = true;
  }

  /** Starts a `tools/call` of `work` (or the `tool` option's name, with `args`) under the driver's `key`, with the SDK request options. */
  call(key: string, options: CallOptions, args: Record<string, unknown> = {}): void {
    if (!this.started) throw new Error('SdkV2Session.call: start() first');
    const abort = new AbortController();
    this.aborts.set(key, abort);
    const record: CallRecord = { key, sdkRequestId: null, outcome: { kind: 'pending' }, handlerStartedAtMs: null, abortFiredAtMs: null, abortReason: null };
    this.calls.set(key, record);
    const p = this.client.callTool({ name: this.options.tool ?? 'work', arguments: args }, {
      timeout: options.timeout,
      maxTotalTimeout: options.maxTotalTimeout,
      resetTimeoutOnProgress: options.resetTimeoutOnProgress,
      onprogress: options.onprogress ? () => undefined : undefined,
      signal: abort.signal,
    });
    this.unsent.push(record);
    p.then(
      (r) => {
        const text = (r.content as { type: string; text?: string }[] | undefined)?.[0]?.text ?? '';
        record.outcome = { kind: 'result', text, atMs: this.now() };
      },
      (e: unknown) => {
        const code: string | number | null = e instanceof SdkError ? e.code : typeof (e as { code?: unknown })?.code === 'number' ? (e as { code: number }).code : null;
        record.outcome = { kind: 'error', code, message: e instanceof Error ? e.message : String(e), atMs: this.now() };
      },
    );
  }

  /** The user aborts call `key` (stdio: `notifications/cancelled`; HTTP: the request's stream is closed). */
  cancel(key: string, reason: string): void {
    this.aborts.get(key)?.abort(reason);
  }

  /** The tool handler of call `key` reports progress. */
  progress(key: string, progress: number, total?: number, message?: string): void {
    this.commands.give(this.calls, key, { kind: 'progress', progress, total, message }, 'SdkV2Session.progress');
  }

  /** The tool handler of call `key` returns its result. */
  complete(key: string, text: string): void {
    this.commands.give(this.calls, key, { kind: 'complete', text }, 'SdkV2Session.complete');
  }

  /**
   * HTTP only: the network cuts call `key`'s response stream now. The client's reader fails (the
   * bytes still in flight are lost with it) and the server sees its request aborted after the
   * client-to-server latency, as a closed connection.
   */
  disconnect(key: string): void {
    const id = this.calls.get(key)?.sdkRequestId;
    const drop = id === null || id === undefined ? undefined : this.droppers.get(id);
    if (!drop) throw new Error(`SdkV2Session.disconnect: no open HTTP stream for call ${key}`);
    drop();
  }

  /** Sends a raw message from the client side (bypasses the SDK client). */
  injectFromClient(message: unknown): void {
    void this.clientTransport.send(message as Msg);
  }

  /** Messages recorded from index `index` on. */
  messagesSince(index: number): WireRecord[] {
    return this.wire.slice(index);
  }
}
