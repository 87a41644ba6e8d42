import type { Json } from '../types';
import type { RequestId } from '../mcp';
import type { RacesConfig } from './schema';
import type { MechanicsMarks } from './mechanics/marks';

/**
 * The request lifecycle model: one MCP client and one server exchanging `tools/call` and
 * `subscriptions/listen` requests over stdio or Streamable HTTP, under revision 2026-07-28 or
 * 2025-11-25, with idle and maximum timeouts, progress, cancellation and the races between them.
 * Rules are in `rules.ts` and `../../shared/SPEC-NOTES.md`.
 */

/** The caller's view of a request. Everything but `pending` is terminal. */
export type ClientState =
  | 'pending'
  | 'completed'
  | 'failed'
  | 'cancelled'
  | 'timeout-idle'
  | 'timeout-max'
  | 'connection-closed'
  | 'ended-by-server'
  | 'rejected'
  /** 2026-07-28 MRTR: the server answered with InputRequiredResult; the request is over, a retry (new id) follows. */
  | 'input-required';

/** The server's view of a request. `working` means work (or an open listen stream) is in flight. */
export type ServerState = 'not-received' | 'working' | 'completed' | 'failed' | 'cancelled';

/**
 * The signal the client put on the wire to cancel, if any. `process-kill`: no message at all — the
 * stdio client ended the server process (the bug `policy.cancelKillsServerProcess`).
 */
export type CancelSignal = 'none' | 'notifications/cancelled' | 'stream-close' | 'stream-close+notifications/cancelled' | 'process-kill';

/**
 * Where the server's final response went. `lost-with-stream`: it was written to a stream (or
 * connection) the client had already dropped, so it never reached the client — unlike
 * `ignored-late`, which the client received and dropped because the call had already ended.
 */
export type ResponseFate = 'none' | 'in-flight' | 'accepted' | 'ignored-late' | 'lost-with-stream' | 'undeliverable';

/**
 * One request's state on both sides. In a trace or a view it is frozen; inside the core's hot loop
 * (`state.ts`) the same shape is a mutable record changed in place.
 */
export interface RequestState {
  /** Instance key: the JSON-encoded id, with `#n` appended when an id is reused after it ended. */
  key: string;
  /** `[key]`, made once, so steps that touch only this request share one list. */
  self: readonly string[];
  id: RequestId;
  method: 'tools/call' | 'subscriptions/listen';
  tool: string;
  /** false: the server's work cannot be stopped, so it MAY ignore the cancellation. */
  cancellable: boolean;
  /**
   * Optional fields (absent unless the scenario uses them, so older traces keep their shape):
   * the tool changes the world when its work completes; the idempotency key on the wire; the
   * logical operation (the instance key of the first request of a chain of re-issues and MRTR
   * retries); the request this one re-issues or retries, and the one that replaced it; the
   * InputRequiredResult the server answered with; the HTTP headers it lacked (a bug).
   */
  sideEffect?: boolean;
  idempotencyKey?: string;
  op?: string;
  retryOf?: string;
  retriedAs?: string;
  retryKind?: 'reissue' | 'mrtr' | 'version';
  inputRequest?: { inputKey: string; requestState?: string };
  /** The server put elicitation/create in `inputRequests` although the client declared no elicitation (the bug `inputRequestsUndeclared`). */
  undeclaredInput?: true;
  /** The MRTR answer this request carries (`inputResponses`, echoed `requestState`); a re-issue carries it again. */
  retryInput?: { inputResponses: Json; requestState?: string };
  missingHeaders?: readonly string[];
  /** The client cancelled with a malformed notifications/cancelled (a faulty client, scripted). */
  malformedCancel?: 'no-jsonrpc' | 'bad-jsonrpc' | 'reason-not-string' | 'has-id';
  startAt: number;
  /** Token declared by the scenario, and the one actually on the wire (null when omitted by the bug). */
  progressToken: RequestId | null;
  wireToken: RequestId | null;
  idleTimeoutMs: number | null;
  maxTimeoutMs: number | null;
  /** Current deadlines (ms) and their timer handles (-1 when none is scheduled). */
  idleDeadlineAt: number | null;
  maxDeadlineAt: number | null;
  idleHandle: number;
  maxHandle: number;
  client: {
    state: ClientState;
    atMs: number | null;
    reason: string;
    rule: string | undefined;
    /** How many times the terminal state was set (must stay ≤ 1). */
    terminalSets: number;
    lastProgress: number | null;
    progressAccepted: number;
    /** Progress accepted after the call was terminal (must stay 0). */
    progressAfterEnd: number;
    cancelRequestedAt: number | null;
    cancelSignal: CancelSignal;
    responseFate: ResponseFate;
    isError: boolean;
  };
  /** Marks of the failure mechanics (issue 11); absent unless a mechanic touched this request. */
  mech?: MechanicsMarks;
  /** TypeScript SDK v1 profile only: the idle timeout is the SDK's 60 s default (absent otherwise, so other traces keep their shape). */
  sdkDefaultIdle?: true;
  /** TypeScript SDK v2 profile only: when the network cut this call's response stream (ms); the call stays pending and what was in flight on the stream is lost (`sdk.broken-stream-pending`). */
  sdkStreamCutAt?: number;
  server: {
    state: ServerState;
    atMs: number | null;
    receivedAt: number | null;
    cancelAcceptedAt: number | null;
    /** Time the final response was sent (ms), or null. */
    responseSentAt: number | null;
    /** Last time the worker made progress (an increasing scripted progress while working), ms. */
    lastWorkerProgressAt: number | null;
    /** The worker's last progress value. */
    lastProgressValue: number | null;
    /** When the work stopped (completed, failed, or cancelled), ms. */
    workEndedAt: number | null;
    /** The HTTP response stream was closed by the client (or the network). */
    streamClosed: boolean;
    /** Executions of this request's operation (or idempotency key) counted when this request executed (absent: it did not). */
    opExecutions?: number;
    /** The server answered with the result stored under the idempotency key instead of executing (ms). */
    dedupedAt?: number;
    /** A listen stream: when the server sent `notifications/subscriptions/acknowledged` (ms); absent: not (yet, or the bug). */
    listenAckAt?: number;
    /** A listen stream the server tore down: the signal it sent the client (`none`: the silent bug). */
    teardown?: 'notifications/cancelled' | 'listen-result' | 'none';
  };
}

/** The whole model state. `touched` lists the request keys the last step changed (for invariants). */
export interface RacesState {
  config: RacesConfig;
  requests: readonly RequestState[];
  /** Latest instance index per JSON-encoded request id. */
  latest: Readonly<Record<string, number>>;
  /** Index in `requests` per instance key. */
  indexOf: Readonly<Record<string, number>>;
  touched: readonly string[];
  /**
   * The server's ledger of side effects, by idempotency key (`key:<k>`) or operation (`op:<key>`):
   * executions so far and the stored result text once one committed. Absent until a side effect runs.
   */
  ledger?: Readonly<Record<string, LedgerEntry>>;
  /**
   * Bug `policy.replyIsFirstMessageRead` (mechanics/firstRead.ts): the server's messages the client
   * read while no call waited for a reply, oldest first — each next call takes the first as its
   * reply. Absent until one is kept.
   */
  readQueue?: readonly ReadMessage[];
}

/** A server message as the client that pairs replies by reading order keeps it: a progress notification or a response, for the call with instance key `key` (`of`: its id as JSON text). */
export type ReadMessage = { kind: 'progress'; key: string; of: string; progress: number } | { kind: 'response'; key: string; of: string; ok: boolean };

/** One ledger entry (see `RacesState.ledger`). */
export interface LedgerEntry {
  executions: number;
  result: string | null;
  /** Instance keys of the requests that executed, in order. */
  by: readonly string[];
}

/** Timers and deliveries the model schedules. */
export type RacesTimer =
  | { kind: 'deadline.max'; key: string }
  | { kind: 'deadline.idle'; key: string }
  | { kind: 'arrive.request'; key: string }
  | { kind: 'arrive.cancel'; message: Json; posted: boolean }
  | { kind: 'arrive.stream-close'; key: string; cause: 'cancel' | 'network' }
  | { kind: 'arrive.raw'; message: Json }
  /** `i`: the request's index in `requests` (a lookup saved on the hot path). */
  | { kind: 'arrive.progress'; key: string; i: number; progress: number }
  | { kind: 'arrive.keepalive'; key: string }
  | { kind: 'arrive.response'; key: string; ok: boolean; inputRequired?: true }
  | { kind: 'arrive.server-cancel'; key: string }
  /** Intermediary hop (`config.hop`): its idle or maximum timer for a call, and its error reaching the client. */
  | { kind: 'deadline.hop'; key: string; which: 'idle' | 'max' }
  | { kind: 'arrive.hop-error'; key: string }
  /** The deferred response write after a handler returned (`complete.writeDelayMs`). */
  | { kind: 'write.response'; key: string };

/** One request's outcome, as printed by the CLI and shown in the outcome panel. */
export interface RequestOutcome {
  requestId: RequestId;
  key: string;
  method: RequestState['method'];
  state: ClientState;
  reason: string;
  rule: string | undefined;
  atMs: number | null;
  /** The server sent a final response (result or error) for this request. */
  finalResponse: boolean;
  responseFate: ResponseFate;
  cancelSignal: CancelSignal;
  serverState: ServerState;
  workEndedAtMs: number | null;
  isError: boolean;
  /** The request that replaced this one (re-issue after a broken stream, or MRTR retry), when any. */
  retriedAs?: string;
  /** The request this one re-issues or retries. */
  retryOf?: string;
  /** Side effects of this request's operation counted when it executed (absent: it did not execute). */
  opExecutions?: number;
}

/** The model outcome: per request, plus counts. */
export interface RacesOutcome {
  requests: RequestOutcome[];
  summary: {
    requests: number;
    states: Partial<Record<ClientState, number>>;
    finalResponses: number;
    cancelSignals: number;
    /** Requests whose server-side work is still running at the end of the trace. */
    workInFlight: number;
    /** Latest time any tools/call work stopped (ms), or null. */
    lastWorkEndedAtMs: number | null;
    lateResponsesDropped: number;
    /** Side effects executed on the server over the whole trace (present once a side-effecting tool ran). */
    sideEffectExecutions?: number;
  };
}

/** Tie ranks (lowest first at the same millisecond). */
export const RANK = { maxDeadline: 0, idleDeadline: 1, arrival: 2, scripted: 3 } as const;


/** Encodes a request id as the instance-independent key `JSON.stringify(id)`. */
export function idKey(id: RequestId): string {
  // Same text as JSON.stringify for a number, without its cost on the hot path.
  return typeof id === 'number' ? String(id) : JSON.stringify(id);
}
