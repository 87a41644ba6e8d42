import type { ChargeArgs, ChargeReply, ChargeResult, LedgerTables } from './ledger';
import type { ConnId, LedgerConfig, StepKind } from './schema';
import type { SqlDatabase } from './sql';

/** What the client saw of one call. */
export type ClientStatus = 'waiting' | 'ok' | 'error' | 'timed-out';

/** One call (first attempt or retry) of `charge`. */
export interface CallState {
  /** JSON-encoded request id (unique key). */
  key: string;
  requestId: string | number;
  /** JSON-encoded request id of the first attempt. */
  root: string;
  /** 0 for the first attempt, 1, 2, … for retries. */
  attempt: number;
  /** The operation this call belongs to: the first attempt's key, or its request id without a key. */
  operation: string;
  idempotencyKey: string | null;
  args: ChargeArgs;
  durationMs: number;
  timeoutMs: number | null;
  sentAtMs: number;
  /** Server's answer and when it was given; null while running. */
  reply: ChargeReply | null;
  replyAtMs: number | null;
  client: ClientStatus;
  /** True when the server answered after the client had given up (the response was lost). */
  responseLost: boolean;
  /** The client's timeout timer while it waits, or null. */
  timeoutHandle: number | null;
  /**
   * The key the upstream (the deduplicating database) sees: the client's key, or null when the MCP
   * tool layer drops it (`toolLayer: 'drops-key'`, agentmail-mcp#49 as cited in issue 11).
   */
  upstreamKey: string | null;
  /** `onInUse: 'wait-retry'`: how many 409-driven retries precede this call in its chain (0 for a call the scenario sent). */
  inUseRetries: number;
  /** The request id of the chain's first call (the base of automatic retry ids `<id>-r<n>`). */
  inUseOrigin: string | number;
  /** The JSON-encoded id of the automatic retry this call's 409 led to, or null. */
  retriedAs: string | null;
  /** True when the client took this call's 409 idempotency_key_in_use as the final answer. */
  gaveUpOnInUse: boolean;
}

/** What a racing connection returns to its caller (`pending` until it is known). */
export type ConnReply = 'pending' | 'executed' | 'replayed' | 'in-use' | 'busy' | 'constraint';

/** One of the two racing connections. */
export interface ConnState {
  conn: ConnId;
  /** idle: no open transaction; tx: in a transaction; waiting: blocked on the write lock; aborted: rolled back by SQLITE_BUSY. */
  phase: 'idle' | 'tx' | 'waiting' | 'aborted';
  /** Steps held back while waiting for the lock (the first is the one that blocked). */
  backlog: StepKind[];
  /** A deferred transaction's read snapshot: the commit version it read, or null. */
  snapshot: number | null;
  /** What its read saw: the record's status, `claimed` (its own claim), or null before reading. */
  saw: 'none' | 'completed' | 'in_progress' | 'claimed' | null;
  /** The phase to return to when the lock frees (set while waiting). */
  resume: 'idle' | 'tx';
  /** Statements buffered in the open transaction (invisible to the other connection until commit). */
  pending: ('execute' | 'write')[];
  /** The effect ran and is committed. */
  executed: boolean;
  /** The result it executed or replayed. */
  result: ChargeResult | null;
  reply: ConnReply;
  /** The last SQLite error it got (SQLITE_BUSY, UNIQUE constraint), or null. */
  error: string | null;
}

/** The model's state after a step: a snapshot of the tables plus the actors. Never mutated. */
export interface LedgerState {
  tables: LedgerTables;
  calls: CallState[];
  conns: Record<ConnId, ConnState>;
  /** The connection holding SQLite's write (RESERVED) lock, or null. */
  writer: ConnId | null;
  /** Number of write transactions committed (a deferred reader's snapshot is stale when this moved). */
  version: number;
  /** Executions per operation (key, or first request id without a key). */
  executions: Record<string, number>;
}

/** Timer payloads: a slow call finishing, the client's timeout, or its retry after a 409 (`onInUse: 'wait-retry'`). */
export type LedgerTimer = { kind: 'finish'; call: string } | { kind: 'timeout'; call: string } | { kind: 'in-use-retry'; call: string };

/** Summary counts of a ledger trace (the numbers the scenarios' `expect` blocks check). */
export interface LedgerSummary {
  /** The execution counter. */
  executions: number;
  /** Rows in `charges`. */
  charges: number;
  /** Rows in `idempotency`. */
  records: number;
  receipts: string[];
  replayed: number;
  inUse: number;
  mismatches: number;
  invalid: number;
  timedOut: number;
  /** Operations that executed more than once. */
  doubleExecuted: number;
  /** Retries the client sent on its own after a 409 idempotency_key_in_use (`onInUse: 'wait-retry'`). */
  inUseRetries: number;
  /** Calls whose 409 the client took as the final answer (`onInUse: 'give-up'`, or retries spent). */
  gaveUpOnInUse: number;
  /** Keyed calls that reached the upstream without their key (`toolLayer: 'drops-key'`). */
  keysDropped: number;
  /** Connection replies (A, B) in the race. */
  connA: ConnReply;
  connB: ConnReply;
}

export interface LedgerOutcome {
  summary: LedgerSummary;
  calls: { key: string; requestId: string | number; idempotencyKey: string | null; client: ClientStatus; reply: ChargeReply['kind'] | null; receipt: string | null; resultRequestId: string | number | null }[];
}

/** Tie ranks at the same millisecond. */
export const LEDGER_TIE_RULE = [
  { rank: 0, name: 'server finishes', why: 'A call whose work ends at this millisecond commits before anything new arrives at the same millisecond.' },
  { rank: 1, name: 'scripted events', why: 'Calls and connection steps, in scenario order (their order is the interleaving).' },
  { rank: 2, name: 'client timeouts and 409 retries', why: 'A response arriving exactly at the deadline still counts as in time; a retry after a 409 due at the commit millisecond sees the commit.' },
];


export const EMPTY_CONN = (conn: ConnId): ConnState => ({ conn, phase: 'idle', resume: 'idle', backlog: [], snapshot: null, saw: null, pending: [], executed: false, result: null, reply: 'pending', error: null });

/**
 * What the model's step functions share during one replay: the replay's database (its rows are
 * the model's truth) and the scenario's configuration. Set by `init`; one per model instance.
 */
export interface LedgerEnv {
  db: SqlDatabase | null;
  config: LedgerConfig;
}

/** A copy of `list` with item `i` replaced. */
export function replaceAt<T>(list: readonly T[], i: number, item: T): T[] {
  const out = list.slice();
  out[i] = item;
  return out;
}

/** A copy of `map` with `key` counted once more. */
export function bump(map: Record<string, number>, key: string): Record<string, number> {
  return { ...map, [key]: (map[key] ?? 0) + 1 };
}
