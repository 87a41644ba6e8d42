/**
 * The probe's connection to the server under test: a real SDK v2 client (`@modelcontextprotocol/client`)
 * over a wrapping transport that logs every frame with its time, records it (capture envelope v2,
 * `src/live/recorder.ts`), and can send raw frames the SDK would never send (malformed cancels,
 * a response-less ping). Real time and processes live here (the live floor), never in src/sim.
 */
import { Client, StreamableHTTPClientTransport, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Revision } from '../../sim/mcp';
import { NO_RECORDER, type Recorder } from '../recorder';

/** What to probe: a command to spawn (stdio) or a Streamable HTTP endpoint. */
export type ProbeTarget = { kind: 'stdio'; command: string; args: string[]; cwd?: string } | { kind: 'http'; url: string };

/** One logged frame: `atMs` is milliseconds since the session opened; `message` the parsed JSON-RPC frame (c2s / s2c). */
export interface WireEvent {
  index: number;
  atMs: number;
  direction: 'c2s' | 's2c' | 'meta' | 'stderr';
  message?: Record<string, unknown>;
  /** meta / stderr: what happened. */
  text?: string;
}

/** An open probe session. */
export interface ProbeSession {
  readonly client: Client;
  /** The revision the handshake negotiated (`getNegotiatedProtocolVersion`). */
  readonly revision: string;
  readonly transport: 'stdio' | 'http';
  readonly log: WireEvent[];
  /** Milliseconds since the session opened. */
  now(): number;
  /** Sends `message` as it is, through the transport under the SDK (no validation, no id bookkeeping). */
  sendRaw(message: Record<string, unknown>): Promise<void>;
  /** Resolves with the first logged event from index `from` on that matches, or null after `timeoutMs`. */
  waitFor(pred: (e: WireEvent) => boolean, timeoutMs: number, from?: number): Promise<WireEvent | null>;
  /** Appends a meta line to the log and the recording. */
  mark(text: string, extra?: { event?: 'note' | 'stream-close'; requestId?: string | number; cause?: 'cancel' }): void;
  /** Set when the transport closed (the server exited or the connection dropped): why. */
  readonly closedReason: string | null;
  /** The last lines the server wrote on stderr (stdio only; at most 20). */
  readonly stderrTail: string[];
  close(): Promise<void>;
}

/** Options of `openSession`. */
export interface SessionOptions {
  /** The revision to negotiate; null lets the SDK choose (`versionNegotiation: 'auto'`). */
  revision: Revision | null;
  recorder?: Recorder;
  /** Bound on the handshake (ms). */
  connectTimeoutMs: number;
}

/** Ids of the raw requests the probe sends itself: their answers are logged but not handed to the SDK client. */
export const RAW_ID_PREFIX = 'lab-probe-';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Spawns or reaches the server and runs the SDK's handshake for `options.revision`.
 * @throws Error with one line that says why (cannot start the command, the server exited, the URL
 * refused, no answer within `connectTimeoutMs`, or the server negotiated another revision).
 */
export async function openSession(target: ProbeTarget, options: SessionOptions): Promise<ProbeSession> {
  const recorder = options.recorder ?? NO_RECORDER;
  const transportName = target.kind;
  const t0 = performance.now();
  const now = () => Math.round((performance.now() - t0) * 10) / 10;
  const log: WireEvent[] = [];
  const waiters = new Set<() => void>();
  const push = (e: Omit<WireEvent, 'index' | 'atMs'>) => {
    log.push({ index: log.length, atMs: now(), ...e });
    for (const w of [...waiters]) w();
  };
  const stderrTail: string[] = [];
  let closedReason: string | null = null;
  let lastError: string | null = null;

  let inner: Transport;
  if (target.kind === 'stdio') {
    const stdio = new StdioClientTransport({ command: target.command, args: target.args, stderr: 'pipe', ...(target.cwd ? { cwd: target.cwd } : {}) });
    inner = stdio;
    let partial = '';
    stdio.stderr?.on('data', (chunk: Buffer) => {
      const lines = (partial + chunk.toString('utf8')).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        stderrTail.push(line);
        if (stderrTail.length > 20) stderrTail.shift();
        recorder.frame({ direction: 'stderr', transport: 'stdio', raw: line });
        push({ direction: 'stderr', text: line });
      }
    });
  } else {
    const recordingFetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      const res = await fetch(input, init);
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => (headers[k] = v));
      const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
      recorder.frame({ direction: 'meta', transport: 'http', event: 'http', status: res.status, http: { method: init?.method ?? 'GET', path: url.pathname, status: res.status, headers } });
      return res;
    };
    inner = new StreamableHTTPClientTransport(new URL(target.url), { fetch: recordingFetch });
  }

  const own: Transport = {
    onmessage: undefined,
    onclose: undefined,
    onerror: undefined,
    start: () => inner.start(),
    close: () => inner.close(),
    send: (message: JSONRPCMessage, opts?: Parameters<Transport['send']>[1]) => {
      recorder.frame({ direction: 'c2s', transport: transportName, raw: JSON.stringify(message) });
      push({ direction: 'c2s', message: message as unknown as Record<string, unknown> });
      return inner.send(message, opts);
    },
  };
  // Everything else (hasPerRequestStream, setProtocolVersion, sessionId…) is the SDK transport's own:
  // the client reads them to pick the cancel's form (a 2026-07-28 stream close needs hasPerRequestStream).
  const outer = new Proxy(own, {
    get(target, prop, receiver) {
      if (prop in target) return Reflect.get(target, prop, receiver);
      const value = Reflect.get(inner, prop) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(inner) : value;
    },
  });
  inner.onmessage = (message, extra) => {
    recorder.frame({ direction: 's2c', transport: transportName, raw: JSON.stringify(message) });
    push({ direction: 's2c', message: message as unknown as Record<string, unknown> });
    const id = (message as { id?: unknown }).id;
    const isResponse = 'result' in message || 'error' in message;
    // Answers to the probe's own raw frames (and id-less error responses) are the probe's to judge.
    if (isResponse && (id === null || id === undefined || (typeof id === 'string' && id.startsWith(RAW_ID_PREFIX)))) return;
    outer.onmessage?.(message, extra);
  };
  inner.onerror = (err) => {
    lastError = err.message;
    push({ direction: 'meta', text: `transport error: ${err.message}` });
    outer.onerror?.(err);
  };
  inner.onclose = () => {
    closedReason ??= lastError ?? (transportName === 'stdio' ? 'the server process ended (its stdout closed)' : 'the connection closed');
    push({ direction: 'meta', text: `transport closed` });
    outer.onclose?.();
  };
  recorder.frame({ direction: 'meta', transport: transportName, event: 'connect', text: target.kind === 'stdio' ? `${target.command} ${target.args.join(' ')}` : target.url });

  const client = new Client(
    { name: 'mcp-lab-probe', version: '1.0.0' },
    options.revision === '2026-07-28' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : options.revision === '2025-11-25' ? {} : { versionNegotiation: { mode: 'auto' } },
  );
  client.onerror = () => {};
  try {
    await client.connect(outer, { timeout: options.connectTimeoutMs });
  } catch (err) {
    const why = (err as Error).message;
    const tail = stderrTail.filter((l) => l.trim() !== '').slice(-3).join(' | ');
    await client.close().catch(() => {});
    recorder.frame({ direction: 'meta', transport: transportName, event: 'disconnect', text: why });
    throw new Error(`${describeTarget(target)}: the handshake failed — ${lastError && !why.includes(lastError) ? `${lastError}; ` : ''}${why}${tail ? ` (server stderr: ${tail})` : ''}`);
  }
  const revision = client.getNegotiatedProtocolVersion() ?? 'unknown';
  if (options.revision !== null && revision !== options.revision) {
    await client.close().catch(() => {});
    throw new Error(`${describeTarget(target)}: asked for revision ${options.revision}, the server negotiated ${revision}`);
  }
  recorder.frame({ direction: 'meta', transport: transportName, event: 'note', text: `negotiated revision ${revision}` });

  const session: ProbeSession = {
    client,
    revision,
    transport: transportName,
    log,
    now,
    get closedReason() {
      return closedReason;
    },
    stderrTail,
    async sendRaw(original) {
      // Under 2026-07-28 every message carries the per-request `_meta` envelope; a raw frame without it
      // tests the missing envelope, not the malformation (an SDK v2 server then served the rest of the
      // connection as 2025-era).
      const message = revision === '2026-07-28' ? withEnvelope(original) : original;
      recorder.frame({ direction: 'c2s', transport: transportName, raw: JSON.stringify(message) });
      push({ direction: 'c2s', message });
      await inner.send(message as unknown as JSONRPCMessage);
    },
    waitFor(pred, timeoutMs, from = 0) {
      return new Promise((resolve) => {
        let scanned = from;
        const check = () => {
          for (; scanned < log.length; scanned++) {
            if (pred(log[scanned])) {
              done(log[scanned]);
              return;
            }
          }
        };
        const timer = setTimeout(() => done(null), timeoutMs);
        const done = (e: WireEvent | null) => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(e);
        };
        waiters.add(check);
        check();
      });
    },
    mark(text, extra = {}) {
      recorder.frame({ direction: 'meta', transport: transportName, event: extra.event ?? 'note', text, ...(extra.requestId !== undefined ? { requestId: extra.requestId } : {}), ...(extra.cause ? { cause: extra.cause } : {}) });
      push({ direction: 'meta', text });
    },
    async close() {
      await client.close().catch(() => {});
      recorder.frame({ direction: 'meta', transport: transportName, event: 'disconnect', text: 'probe finished' });
    },
  };
  return session;
}

/** The 2026-07-28 per-request `_meta` envelope the probe's raw frames carry (the keys the SDK client sends). */
export const PROBE_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'mcp-lab-probe', version: '1.0.0' },
  'io.modelcontextprotocol/clientCapabilities': {},
} as const;

function withEnvelope(message: Record<string, unknown>): Record<string, unknown> {
  const params = isObject(message.params) ? message.params : {};
  const meta = isObject(params._meta) ? params._meta : {};
  return { ...message, params: { ...params, _meta: { ...PROBE_ENVELOPE, ...meta } } };
}

/** The target in a few words, for error lines. */
export function describeTarget(target: ProbeTarget): string {
  return target.kind === 'stdio' ? `\`${[target.command, ...target.args].join(' ')}\`` : target.url;
}

/** True when `m` is a JSON-RPC response (a result or an error). */
export function isResponse(m: Record<string, unknown> | undefined): boolean {
  return m !== undefined && ('result' in m || 'error' in m) && !('method' in m);
}

/** The progress token and value of a `notifications/progress`, or null. */
export function progressOf(m: Record<string, unknown> | undefined): { token: unknown; progress: unknown } | null {
  if (m?.method !== 'notifications/progress' || !isObject(m.params)) return null;
  return { token: m.params.progressToken, progress: m.params.progress };
}
