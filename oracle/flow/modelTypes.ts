// TEST-ONLY ORACLE: verbatim copy of src/sim/flow/modelTypes.ts at 377217e (import paths adjusted). Never import from app code.
import type { ApplyContext } from '../../src/sim/types';
import type { BufferState } from './buffer';
import type { FlowConfig } from '../../src/sim/flow/schema';

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

type Ctx = ApplyContext<FlowTimer>;

export type FlowCtx = Ctx;
