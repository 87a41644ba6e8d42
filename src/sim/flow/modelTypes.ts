import type { CoreContext } from '../core';
import type { BufferState } from './buffer';
import type { FlowConfig } from './schema';

/**
 * The flow model: a server producing SSE events into a bounded buffer, an optional proxy (buffering
 * and flushing, with a read timeout), a client that reads, stalls, watches one operation's idle
 * timeout, and reconnects and resyncs when the stream drops; plus, optionally, a fleet of clients
 * holding streams to a server with a stream cap and restarts (issue 4, items 1, 2 and 6).
 *
 * Rules: keep-alive comments (`:` lines) reach the client and reset the proxy's read timeout (they
 * are bytes), but never the operation's idle timeout (they are not progress) — the races model's
 * `sse.keepalive` rule. The SSE response carries `Content-Type: text/event-stream`,
 * `Cache-Control: no-cache`, `X-Accel-Buffering: no`.
 */

/** The exact SSE response headers the server sends (X-Accel-Buffering tells nginx-style proxies not to buffer). */
export const SSE_HEADERS = ['Content-Type: text/event-stream', 'Cache-Control: no-cache', 'X-Accel-Buffering: no'] as const;

/**
 * The response headers the server actually sends under `config`: `SSE_HEADERS`, minus
 * `X-Accel-Buffering: no` when the `omitAccelBufferingHeader` bug is on.
 */
export function sentSseHeaders(config: FlowConfig): readonly string[] {
  return config.bugs.omitAccelBufferingHeader ? SSE_HEADERS.slice(0, 2) : SSE_HEADERS;
}

/**
 * Whether the proxy holds events back under `config`: it is enabled and buffering, and the response
 * does not switch buffering off — an nginx-like proxy (`honoursAccelBuffering`) passes a response
 * carrying `X-Accel-Buffering: no` through unbuffered (nginx docs, `proxy_buffering` /
 * `X-Accel-Buffering`). Without the header, the same proxy buffers: events wait for the next flush
 * (every `flushIntervalMs`, or when `bufferEvents` are held).
 */
export function proxyBuffersConfig(config: FlowConfig): boolean {
  const p = config.proxy;
  if (!p.enabled || !p.buffering) return false;
  return !(p.honoursAccelBuffering && !config.bugs.omitAccelBufferingHeader);
}

/** The stream's drop and resync counters in their fixed order: the one list the state view, its thawed copy and the outcome summary copy. */
export function resyncCounters(s: Pick<FlowState, 'disconnects' | 'firstDisconnectAtMs' | 'reconnects' | 'resyncs' | 'firstResyncAtMs' | 'refetched'>) {
  return { disconnects: s.disconnects, firstDisconnectAtMs: s.firstDisconnectAtMs, reconnects: s.reconnects, resyncs: s.resyncs, firstResyncAtMs: s.firstResyncAtMs, refetched: s.refetched };
}

/** The producers' timer labels per config (`<token> producer`), built once: a producer schedules one timer per event. */
const PRODUCER_LABELS = new WeakMap<FlowConfig, string[]>();

/** The timer labels of the producers of `config` (`<token> producer`, by index; shared, never changed). */
export function producerLabels(config: FlowConfig): readonly string[] {
  let labels = PRODUCER_LABELS.get(config);
  if (labels === undefined) PRODUCER_LABELS.set(config, (labels = config.producers.map((p) => `${p.token} producer`)));
  return labels;
}

/** Tie ranks, lowest first at the same millisecond. */
export const FLOW_RANK = { deadline: 0, client: 1, server: 2, delivery: 3 } as const;

export type StreamStatus = 'open' | 'down' | 'closed';
export type OperationState = 'none' | 'waiting' | 'completed' | 'timeout-idle';

/** Events the proxy is holding (buffering on) and has not flushed yet. */
export interface ProxyHeld {
  progress: number;
  finals: number;
  keepalives: number;
  opProgress: number;
  opFinal: boolean;
  /** Highest emission number among the events in this batch (0: none). */
  lastSeq: number;
  /** Tokens whose final response is in this batch. */
  finalTokens: readonly string[];
}

export interface FleetState {
  /** Per client (index 0 = `c1`): virtual time its stream opened, or -1 when not connected. */
  since: readonly number[];
  /** Connected clients, oldest stream first (for evict-oldest). */
  order: readonly number[];
  /** Per client: connection attempts after the first (retries), for jitter draws. */
  attempts: readonly number[];
  serverUpAt: number;
  evictions: number;
  rejections: number;
  connects: number;
  /** Last time the set of open streams changed (ms). */
  lastChangeAtMs: number;
  /** Successful reconnects after a restart (ms), in order. */
  landings: readonly number[];
  /** Clients that got a 503 at least once and retried, and the times of their retries. */
  retriedClients: readonly number[];
  /** Per client: time of its last 503 (-1 when none); the gap between two is the retry interval. */
  lastRejectAt: readonly number[];
  lastRetryGapMs: number | null;
}

/**
 * The watched operation's request across broken 2026-07-28 streams (issue 11). Source: 2026-07-28
 * `changelog` major item 9 ("A broken response stream loses the in-flight request; clients MUST
 * re-issue it as a new request with a new request ID"); `basic/transports/streamable-http`
 * ("Resumable SSE streams via `Last-Event-ID` are not supported"). Rules in `reissue.ts`.
 */
export interface ReissueState {
  /** JSON-RPC id of the operation's current request: its token first, then `<token>-reissue-<n>` (null: no operation). */
  requestId: string | null;
  /** The id of the request lost with the stream and not yet re-issued (null: none). */
  lostRequestId: string | null;
  /** Re-issues sent (each a new request with a new id). */
  reissues: number;
  /** Executions of the operation the server started (one per request it did not answer from the key's stored result). */
  executions: number;
  /** Executions of a side-effecting operation that completed (each performed the side effect once). */
  sideEffects: number;
  /** The server holds a completed result under the call's idempotency key (a re-issue gets it back). */
  storedResult: boolean;
  /** Per producer index: the handle of its pending timer while it writes the operation's events (-1: none). */
  handles: readonly number[];
  /** Bug `resumeUnder2026`: broken 2026-07-28 streams after which the client continued the old request. */
  resumed: number;
  /** When the first such stream broke (ms), null: never. */
  firstResumedAtMs: number | null;
}

export interface FlowState {
  config: FlowConfig;
  buffer: BufferState;
  /** Emission counter (every progress and final the server writes). */
  seq: number;
  /** Token of the event numbered `seq` (the last one the server wrote, delivered or lost); null before any. */
  lastWriteToken: string | null;
  status: StreamStatus;
  statusReason: string;
  stalledUntil: number | null;
  readPending: boolean;
  proxyHeld: ProxyHeld;
  proxyReadDeadlineAt: number | null;
  proxyReadHandle: number;
  proxyFlushes: number;
  proxyTimeouts: number;
  delivered: { progress: number; finals: number; keepalives: number };
  /** Highest emission number (`seq`) that has reached the client: the SSE id it would send as Last-Event-ID (0: none). */
  lastDeliveredSeq: number;
  /** Tokens whose final response has reached the client, in arrival order (their calls are finished). */
  finishedTokens: readonly string[];
  op: { token: string | null; state: OperationState; atMs: number | null; idleDeadlineAt: number | null; idleHandle: number; idleResetsByKeepalive: number };
  disconnects: number;
  firstDisconnectAtMs: number | null;
  reconnects: number;
  resyncs: number;
  firstResyncAtMs: number | null;
  /** Tokens refetched at resyncs (sum over resyncs). */
  refetched: number;
  /** Events the server wrote while the stream was down or lost with it (covered by the resync). */
  lostWhileDown: number;
  /** A resync is owed (the stream dropped). */
  resyncOwed: boolean;
  errors: readonly string[];
  fleet: FleetState | null;
  /** The fleet's jitter seed: the first draw of the scenario's seeded generator (a pure function of `scenario.seed`). */
  scenarioSeed: number;
  /** The watched operation's request across 2026-07-28 re-issues. */
  reissue: ReissueState;
}

export type FlowTimer =
  | { kind: 'produce'; producer: number; n: number }
  | { kind: 'open' }
  | { kind: 'read' }
  | { kind: 'stall-end' }
  | { kind: 'flush' }
  | { kind: 'keepalive' }
  | { kind: 'idle-deadline' }
  | { kind: 'proxy-read-timeout' }
  | { kind: 'reconnect' }
  | { kind: 'fleet-connect'; client: number; reason: 'initial' | 'evicted' | 'retry' | 'restart' }
  | { kind: 'fleet-restart' }
  | { kind: 'fleet-up' };

/** What the flow rules receive while applying one entry (the checkpointed core's context). */
export type FlowCtx = CoreContext<FlowTimer>;
