import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * A real SDK session for the differential oracle: the official TypeScript SDK's `Client` and
 * `McpServer` (v1, `@modelcontextprotocol/sdk`), linked by `InMemoryTransport`, with one-way
 * latency added by delaying each `send` with `setTimeout` — so everything runs on the test's fake
 * timers (vitest `vi.useFakeTimers()`, which also fakes `Date.now`, read by the SDK's maximum
 * timeout). The server has one tool, `work`, whose handler waits on a controllable queue of
 * commands: `progress` (it sends `notifications/progress` with the request's `progressToken`) or
 * `complete` (it returns a `CallToolResult`). Nothing here reads the wall clock on its own: the
 * caller advances the fake clock.
 *
 * Times are virtual milliseconds from `start()` (the moment after the handshake).
 */

/** One message on the transport: when it was sent (ms), its direction and the JSON-RPC message. */
export interface WireRecord {
  atMs: number;
  direction: 'c2s' | 's2c';
  message: JSONRPCMessage;
}

/** What the client saw for one call: the result text, an error (code + message; v2: the SdkError code, e.g. `REQUEST_TIMEOUT`), both with the time (ms). */
export type ClientOutcome = { kind: 'result'; text: string; atMs: number } | { kind: 'error'; code: number | string | null; message: string; atMs: number } | { kind: 'pending' };

/** Per call: what the client saw and whether/when the server handler's abort signal fired. */
export interface CallRecord {
  /** The key the driver gave the call (the races scenario's requestId, as JSON). */
  key: string;
  /** The JSON-RPC id the SDK client chose. */
  sdkRequestId: number | null;
  outcome: ClientOutcome;
  handlerStartedAtMs: number | null;
  abortFiredAtMs: number | null;
  abortReason: string | null;
}

/** Options of one call, as the SDK's `RequestOptions` names them. */
export interface CallOptions {
  /** `timeout` (ms); omitted: the SDK's default (60000 ms). */
  timeout?: number;
  maxTotalTimeout?: number;
  resetTimeoutOnProgress?: boolean;
  /** Whether an `onprogress` callback is passed (the SDK sends a progressToken only then). */
  onprogress: boolean;
}

/** What the driver tells a `work` handler: report progress, or return its result. */
export type Command = { kind: 'progress'; progress: number; total?: number; message?: string } | { kind: 'complete'; text: string };

/**
 * The driver's commands to the `work` tool's handlers, by the call's JSON-RPC id (shared by both
 * SDK harnesses): a handler awaits `next(id)`; `give` queues a command for the call `key` names.
 */
export class HandlerCommands {
  private queues = new Map<number, Command[]>();
  private waiting = new Map<number, (cmd: Command) => void>();

  /** The handler of request `id` waits for its next command. */
  next(id: number): Promise<Command> {
    const q = this.queues.get(id);
    if (q?.length) return Promise.resolve(q.shift()!);
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  /** Hands `cmd` to the handler of call `key` (its id from `calls`); `who` names the caller in the error when the call has no id yet. */
  give(calls: ReadonlyMap<string, CallRecord>, key: string, cmd: Command, who: string): void {
    const id = calls.get(key)?.sdkRequestId;
    if (id === null || id === undefined) throw new Error(`${who}: no call ${key}`);
    const w = this.waiting.get(id);
    if (w) {
      this.waiting.delete(id);
      w(cmd);
      return;
    }
    this.queues.set(id, [...(this.queues.get(id) ?? []), cmd]);
  }
}

/** Delays every `send` of a transport (in memory, or the Streamable HTTP pair of `httpLink.ts`) by `latencyMs` (fake timers), recording it. */
class LatencyTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: Transport['onmessage'];
  constructor(
    private inner: Transport,
    private latencyMs: () => number,
    private record: (message: JSONRPCMessage) => void,
  ) {
    inner.onmessage = (m, extra) => this.onmessage?.(m, extra);
    inner.onclose = () => this.onclose?.();
    inner.onerror = (e) => this.onerror?.(e);
  }
  start(): Promise<void> {
    return this.inner.start();
  }
  close(): Promise<void> {
    return this.inner.close();
  }
  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    this.record(message);
    const ms = this.latencyMs();
    // options carry relatedRequestId: the Streamable HTTP server writes a response on its request's stream
    if (ms === 0) return this.inner.send(message, options);
    setTimeout(() => void this.inner.send(message, options).catch(() => undefined), ms);
  }
}

/** One SDK client + server pair on fake timers. */
export class SdkSession {
  readonly wire: WireRecord[] = [];
  readonly calls = new Map<string, CallRecord>();
  /** Raw JSON-RPC messages the client transport received that the SDK client reported as errors (e.g. unknown ids). */
  readonly clientErrors: { atMs: number; message: string }[] = [];
  private base = 0;
  private latency = { c2s: 0, s2c: 0 };
  private commands = new HandlerCommands();
  private handlerOf = new Map<number, string>();
  private aborts = new Map<string, AbortController>();
  private clientTransport!: LatencyTransport;
  readonly client = new Client({ name: 'lab-sdk-oracle', version: '1.0.0' });
  readonly server = new McpServer({ name: 'lab-sdk-oracle-server', version: '1.0.0' });
  private started = false;

  constructor() {
    this.server.registerTool('work', { description: 'waits on the test driver' }, async (extra) => {
      const id = Number(extra.requestId);
      const key = this.handlerOf.get(id) ?? `sdk-${id}`;
      const call = this.calls.get(key);
      if (call) call.handlerStartedAtMs = this.now();
      extra.signal.addEventListener('abort', () => {
        const c = this.calls.get(key);
        if (c && c.abortFiredAtMs === null) {
          c.abortFiredAtMs = this.now();
          c.abortReason = String(extra.signal.reason);
        }
      });
      const token = extra._meta?.progressToken;
      for (;;) {
        const cmd = await this.commands.next(id);
        if (cmd.kind === 'complete') return { content: [{ type: 'text' as const, text: cmd.text }] };
        if (token !== undefined) await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: cmd.progress, total: cmd.total, message: cmd.message } });
      }
    });
    this.client.onerror = (e) => this.clientErrors.push({ atMs: this.now(), message: e.message });
  }

  /** Virtual time since `start()` (ms). */
  now(): number {
    return Date.now() - this.base;
  }

  /**
   * Connects client and server (the handshake runs at latency 0 and is recorded at 0 ms), then
   * sets the one-way latencies. `link` makes the client and server transports (default: an
   * `InMemoryTransport` pair, stdio-like; `httpLink()`: Streamable HTTP in process). Call with fake timers installed; `advance` is the test's
   * `vi.advanceTimersByTimeAsync`.
   */
  async start(latencyMs: { clientToServer: number; serverToClient: number }, advance: (ms: number) => Promise<unknown>, link: () => [Transport, Transport] = () => InMemoryTransport.createLinkedPair()): Promise<void> {
    this.base = Date.now();
    const [c, s] = link();
    this.clientTransport = new LatencyTransport(c, () => this.latency.c2s, (m) => this.wire.push({ atMs: this.now(), direction: 'c2s', message: m }));
    const serverTransport = new LatencyTransport(s, () => this.latency.s2c, (m) => this.wire.push({ atMs: this.now(), direction: 's2c', message: m }));
    await this.server.connect(serverTransport);
    const connecting = this.client.connect(this.clientTransport);
    await advance(0);
    await connecting;
    this.latency = { c2s: latencyMs.clientToServer, s2c: latencyMs.serverToClient };
    this.started = true;
  }

  /** Starts a `tools/call` of `work` under the driver's `key`, with the SDK request options. */
  call(key: string, options: CallOptions): void {
    if (!this.started) throw new Error('SdkSession.call: start() first');
    const before = this.wire.length;
    const abort = new AbortController();
    this.aborts.set(key, abort);
    const record: CallRecord = { key, sdkRequestId: null, outcome: { kind: 'pending' }, handlerStartedAtMs: null, abortFiredAtMs: null, abortReason: null };
    this.calls.set(key, record);
    const p = this.client.callTool({ name: 'work', arguments: {} }, undefined, {
      timeout: options.timeout,
      maxTotalTimeout: options.maxTotalTimeout,
      resetTimeoutOnProgress: options.resetTimeoutOnProgress,
      onprogress: options.onprogress ? () => undefined : undefined,
      signal: abort.signal,
    });
    const sent = this.wire.slice(before).find((w) => w.direction === 'c2s' && 'method' in w.message && w.message.method === 'tools/call');
    if (sent && 'id' in sent.message) {
      record.sdkRequestId = Number(sent.message.id);
      this.handlerOf.set(record.sdkRequestId, key);
    }
    p.then(
      (r) => {
        const text = (r.content as { type: string; text?: string }[] | undefined)?.[0]?.text ?? '';
        record.outcome = { kind: 'result', text, atMs: this.now() };
      },
      (e: unknown) => {
        record.outcome = { kind: 'error', code: e instanceof McpError ? e.code : null, message: e instanceof Error ? e.message : String(e), atMs: this.now() };
      },
    );
  }

  /** The user aborts call `key` (the SDK sends `notifications/cancelled` and rejects the call). */
  cancel(key: string, reason: string): void {
    this.aborts.get(key)?.abort(reason);
  }

  /** The tool handler of call `key` reports progress. */
  progress(key: string, progress: number, total?: number, message?: string): void {
    this.commands.give(this.calls, key, { kind: 'progress', progress, total, message }, 'SdkSession.progress');
  }

  /** The tool handler of call `key` returns its result. */
  complete(key: string, text: string): void {
    this.commands.give(this.calls, key, { kind: 'complete', text }, 'SdkSession.complete');
  }

  /** Sends a raw message from the client side (what a buggy peer might send; bypasses the SDK client). */
  injectFromClient(message: unknown): void {
    void this.clientTransport.send(message as JSONRPCMessage);
  }

  /** Messages sent from `fromMs` on (the handshake excluded when `fromMs` is 0 and the handshake is filtered by the caller). */
  messagesSince(index: number): WireRecord[] {
    return this.wire.slice(index);
  }
}

/**
 * A server-only session: the SDK's `McpServer` with the same `work` tool, driven by raw JSON-RPC
 * from the test (so the test picks the request ids, e.g. 0, which the SDK client never uses for a
 * tools/call: its ids start at 0 with `initialize`). Records what the server sends and whether the
 * handler's abort signal fired.
 */
export class RawServerSession {
  readonly sent: WireRecord[] = [];
  readonly aborted = new Map<string, number>();
  private release = new Map<string, (text: string) => void>();
  private base = 0;
  private transport!: InMemoryTransport;
  readonly server = new McpServer({ name: 'lab-sdk-oracle-server', version: '1.0.0' });

  constructor() {
    this.server.registerTool('work', { description: 'waits on the test driver' }, async (extra) => {
      const id = JSON.stringify(extra.requestId);
      extra.signal.addEventListener('abort', () => this.aborted.set(id, Date.now() - this.base));
      const text = await new Promise<string>((resolve) => this.release.set(id, resolve));
      return { content: [{ type: 'text' as const, text }] };
    });
  }

  /** Connects and runs the 2025-11-25 handshake with raw messages (ids chosen by the caller). */
  async start(advance: (ms: number) => Promise<unknown>): Promise<void> {
    this.base = Date.now();
    const [c, s] = InMemoryTransport.createLinkedPair();
    this.transport = c;
    c.onmessage = (m) => this.sent.push({ atMs: Date.now() - this.base, direction: 's2c', message: m });
    await c.start();
    await this.server.connect(s);
    await c.send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
    await c.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await advance(0);
  }

  /** Sends a raw client message. */
  async send(message: unknown, advance: (ms: number) => Promise<unknown>): Promise<void> {
    await this.transport.send(message as JSONRPCMessage);
    await advance(0);
  }

  /** Lets the handler of request `id` return `text`. */
  async complete(id: string | number, text: string, advance: (ms: number) => Promise<unknown>): Promise<void> {
    this.release.get(JSON.stringify(id))?.(text);
    await advance(0);
  }
}
