import { callToolRequest, toolResultResponse, type Revision } from '../mcp';
import { decideWriteLock } from './locks';
import type { ApplyContext, Invariant, Json, Model, ScriptedEvent } from '../types';
import {
  beginCharge,
  createLedger,
  resetLedger,
  executeCharge,
  finishCharge,
  fingerprint,
  parseResult,
  readTables,
  usableKey,
  type ChargeArgs,
  type ChargeCall,
  type ChargeReply,
  type ChargeResult,
  type LedgerTables,
} from './ledger';
import type { CallEvent, ConnId, LedgerConfig, RetryEvent, StepEvent, StepKind } from './schema';
import type { OpenDatabase, SqlDatabase } from './sql';

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

const EMPTY_CONN = (conn: ConnId): ConnState => ({ conn, phase: 'idle', resume: 'idle', backlog: [], snapshot: null, saw: null, pending: [], executed: false, result: null, reply: 'pending', error: null });

/** A model instance bound to a database opener, plus the database of the replay in progress. */
export interface LedgerModel extends Model<LedgerConfig, LedgerState, LedgerOutcome, LedgerTimer> {
  /** The database of the latest replay (reused by the next `init`), for consoles and exports. */
  database(): SqlDatabase | null;
}

/**
 * Creates the ledger model on `open` (a factory of fresh in-memory databases: sql.js in the
 * browser and in Node tests). The first `init` opens a database; each later `init` empties it
 * (`resetLedger`), so one instance runs one replay at a time (replays are synchronous) and the
 * explorer's hundreds of replays do not open hundreds of databases. Every step runs real SQL;
 * the state keeps a snapshot of the tables after each step so views can follow the playhead.
 *
 * Lock rules enforced for the two connections (SQLite, https://sqlite.org/lang_transaction.html
 * and https://sqlite.org/wal.html): one writer at a time; `BEGIN IMMEDIATE` takes the write lock
 * at once (a second one waits or gets SQLITE_BUSY per `busy`); a deferred transaction that read
 * and then tries to write while the other holds the lock, or after the other committed since its
 * read, fails with SQLITE_BUSY (no waiting: waiting could deadlock); uncommitted writes are
 * invisible to the other connection.
 */
export function createLedgerModel(open: OpenDatabase): LedgerModel {
  let db: (SqlDatabase & { close?: () => void }) | null = null;
  let config: LedgerConfig;

  const snapshot = (s: Omit<LedgerState, 'tables'>): LedgerState => ({ ...s, tables: readTables(db!) });

  const model: LedgerModel = {
    lab: 'ledger',
    tieRule: LEDGER_TIE_RULE,
    database: () => db,
    scriptedRank: () => 1,
    init(cfg) {
      config = cfg;
      if (db === null) {
        db = open();
        createLedger(db);
      } else resetLedger(db);
      return snapshot({ calls: [], conns: { A: EMPTY_CONN('A'), B: EMPTY_CONN('B') }, writer: null, version: 0, executions: {} });
    },
    applyScripted(state, event, ctx) {
      const e = event as unknown as CallEvent | RetryEvent | StepEvent;
      if (e.kind === 'call') return snapshot(startCall(state, e, ctx, null));
      if (e.kind === 'retry') {
        const rootKey = JSON.stringify(e.of);
        const root = state.calls.find((c) => c.key === rootKey);
        if (!root) {
          ctx.ignore({ by: 'client', what: `retry ${JSON.stringify(e.requestId)}`, reason: `no call with requestId ${rootKey} to retry` });
          ctx.why(`Retry ignored: there is no earlier call ${rootKey}.`);
          return state;
        }
        return snapshot(startCall(state, e, ctx, root));
      }
      return snapshot(connStep(state, e.conn, e.kind, ctx));
    },
    applyTimer(state, timer, ctx) {
      const i = state.calls.findIndex((c) => c.key === timer.call);
      const c = state.calls[i];
      if (timer.kind === 'in-use-retry') return snapshot(autoRetry(state, i, ctx));
      if (timer.kind === 'timeout') {
        if (c.client !== 'waiting') return state;
        ctx.why(`Request ${c.key}: the client's ${c.timeoutMs} ms timeout fired. The server may still finish: the outcome is unknown to the client.`);
        return { ...state, calls: replaceAt(state.calls, i, { ...c, client: 'timed-out', timeoutHandle: null }) };
      }
      const reply = finishCharge(db!, toCall(c), config.dedupe === 'key', ctx.now);
      const next = { ...state, executions: bump(state.executions, c.operation) };
      return snapshot(deliver(next, i, reply, ctx, `Request ${c.key}: the server's work ends and one transaction executes the charge and records it`));
    },
    outcome: ledgerOutcome,
    invariants: LEDGER_INVARIANTS,
  };

  /** A first attempt (`root` null) or a retry of `root`. */
  function startCall(state: LedgerState, e: CallEvent | RetryEvent, ctx: ApplyContext<LedgerTimer>, root: CallState | null): Omit<LedgerState, 'tables'> {
    const key = JSON.stringify(e.requestId);
    if (state.calls.some((c) => c.key === key)) {
      ctx.ignore({ by: 'client', what: `call ${key}`, reason: `request id ${key} is already in use; JSON-RPC ids must be unique per session` });
      ctx.why(`Call ignored: request id ${key} was used before.`);
      return state;
    }
    let call: CallState;
    if (root === null) {
      const c = e as CallEvent;
      const k = usableKey(c.key) ? c.key : null;
      call = {
        key,
        requestId: c.requestId,
        root: key,
        attempt: 0,
        operation: k ?? key,
        idempotencyKey: c.key,
        args: { account: c.account, cents: c.cents },
        durationMs: c.durationMs,
        timeoutMs: c.timeoutMs,
        sentAtMs: ctx.now,
        reply: null,
        replyAtMs: null,
        client: 'waiting',
        responseLost: false,
        timeoutHandle: null,
        upstreamKey: null,
        inUseRetries: 0,
        inUseOrigin: c.requestId,
        retriedAs: null,
        gaveUpOnInUse: false,
      };
    } else {
      const attempt = state.calls.filter((x) => x.root === root.root).length;
      const idempotencyKey = config.clientKey === 'per-attempt' && usableKey(root.idempotencyKey) ? `${root.idempotencyKey}.retry${attempt}` : root.idempotencyKey;
      call = { ...root, key, requestId: e.requestId, attempt, idempotencyKey, sentAtMs: ctx.now, reply: null, replyAtMs: null, client: 'waiting', responseLost: false, timeoutHandle: null, inUseRetries: 0, inUseOrigin: e.requestId, retriedAs: null, gaveUpOnInUse: false };
    }
    const what = root === null ? `Request ${key} calls charge(${call.args.account}, ${call.args.cents})` : `Request ${key} retries ${root.key} with a new JSON-RPC id`;
    return sendCall(state, call, ctx, what);
  }

  /**
   * `onInUse: 'wait-retry'`: the client retries call `i` (answered 409) with the same key and a new
   * JSON-RPC id `<origin>-r<n>` (Stripe: "retry later with the same key"; a new request under MCP).
   */
  function autoRetry(state: LedgerState, i: number, ctx: ApplyContext<LedgerTimer>): Omit<LedgerState, 'tables'> {
    const c = state.calls[i];
    const n = c.inUseRetries + 1;
    let requestId: string = `${String(c.inUseOrigin)}-r${n}`;
    for (let k = 2; state.calls.some((x) => x.key === JSON.stringify(requestId)); k++) requestId = `${String(c.inUseOrigin)}-r${n}.${k}`;
    const key = JSON.stringify(requestId);
    const attempt = state.calls.filter((x) => x.root === c.root).length;
    const call: CallState = { ...c, key, requestId, attempt, sentAtMs: ctx.now, reply: null, replyAtMs: null, client: 'waiting', responseLost: false, timeoutHandle: null, inUseRetries: n, retriedAs: null, gaveUpOnInUse: false };
    const calls = replaceAt(state.calls, i, { ...c, retriedAs: key });
    return sendCall({ ...state, calls }, call, ctx, `Request ${key}: after ${config.inUseRetryMs} ms the client retries ${c.key}'s 409 with the same key "${c.idempotencyKey}" and a new JSON-RPC id (retry ${n} of at most ${config.inUseMaxRetries})`);
  }

  /** Sends `call` (new, appended to the calls): arms its timeout, emits the tools/call, and lets the server claim or answer. */
  function sendCall(state: Omit<LedgerState, 'tables'>, call: CallState, ctx: ApplyContext<LedgerTimer>, what: string): Omit<LedgerState, 'tables'> {
    const key = call.key;
    call.upstreamKey = config.toolLayer === 'drops-key' ? null : call.idempotencyKey;
    if (call.timeoutMs !== null) call.timeoutHandle = ctx.schedule(ctx.now + call.timeoutMs, 2, 'client', `timeout ${key}`, { kind: 'timeout', call: key });
    const calls = [...state.calls, call];
    const i = calls.length - 1;
    const request = callToolRequest(config.revision as Revision, call.requestId, 'charge', null) as { params: { arguments: Record<string, Json> } };
    request.params.arguments = { account: call.args.account, cents: call.args.cents, ...(call.idempotencyKey !== null ? { idempotencyKey: call.idempotencyKey } : {}) };
    ctx.emit({ from: 'client', transport: 'streamable-http', message: request as unknown as Json, http: 'POST /mcp', arrivesAt: ctx.now, requestKey: key });
    const keyText = call.idempotencyKey === null || !usableKey(call.idempotencyKey) ? 'no idempotency key' : `key "${call.idempotencyKey}"`;
    const reply = beginCharge(db!, toCall(call, ctx.now), config.dedupe === 'key');
    if (reply !== null) return deliver({ ...state, calls }, i, reply, ctx, `${what} with ${keyText}`);
    ctx.schedule(ctx.now + call.durationMs, 0, 'server', `finish ${key}`, { kind: 'finish', call: key });
    const dropped = usableKey(call.idempotencyKey) && call.upstreamKey === null;
    const claim = dropped
      ? ' The MCP tool layer drops the key before calling the upstream (toolLayer: drops-key), so the upstream that would deduplicate sees a call without a key and runs it.'
      : config.dedupe === 'key' && usableKey(call.idempotencyKey)
        ? ' The key is claimed (in_progress) in one transaction.'
        : config.dedupe === 'none'
          ? ' The server ignores keys (dedupe: none).'
          : ' Without a key nothing can recognise a repeat.';
    ctx.why(`${what} with ${keyText}.${claim} The charge commits after ${call.durationMs} ms of work.`);
    return { ...state, calls };
  }

  /** Records the server's reply to call `i` and sends it (lost if the client already gave up). */
  function deliver(state: Omit<LedgerState, 'tables'>, i: number, reply: ChargeReply, ctx: ApplyContext<LedgerTimer>, what: string): Omit<LedgerState, 'tables'> {
    const c = state.calls[i];
    const lost = c.client === 'timed-out';
    const ok = reply.kind === 'executed' || reply.kind === 'replayed';
    if (c.timeoutHandle !== null) ctx.cancel(c.timeoutHandle);
    const next: CallState = { ...c, reply, replyAtMs: ctx.now, client: lost ? 'timed-out' : ok ? 'ok' : 'error', responseLost: lost, timeoutHandle: null };
    let after = '';
    if (reply.kind === 'in-use' && !lost && config.onInUse !== 'scripted') {
      if (config.onInUse === 'wait-retry' && c.inUseRetries < config.inUseMaxRetries) {
        ctx.schedule(ctx.now + config.inUseRetryMs, 2, 'client', `retry ${c.key} after 409`, { kind: 'in-use-retry', call: c.key });
        after = ` The client waits ${config.inUseRetryMs} ms and retries with the same key (the first execution is still running; after its commit the retry gets the stored result).`;
      } else {
        next.gaveUpOnInUse = true;
        after =
          config.onInUse === 'give-up'
            ? ' The client takes the 409 as the final answer: the user sees a failure although the charge is about to succeed (and may try again with a new key).'
            : ` The client has retried ${config.inUseMaxRetries} times and gives up.`;
      }
    }
    const text = ok ? `${reply.kind === 'replayed' ? 'replayed ' : ''}${reply.result.receipt}: ${reply.result.cents} cents from ${reply.result.account}` : reply.message;
    const response = toolResultResponse(config.revision as Revision, c.requestId, text, !ok) as { result: Record<string, Json> };
    if (ok) response.result.structuredContent = { ...reply.result, replayed: reply.kind === 'replayed' } as unknown as Json;
    ctx.emit({ from: 'server', transport: 'streamable-http', message: response as unknown as Json, arrivesAt: lost ? undefined : ctx.now, requestKey: c.key });
    const said: Record<ChargeReply['kind'], string> = {
      executed: 'executed',
      replayed: `returned the stored result of request ${ok ? JSON.stringify(reply.result.requestId) : ''} — nothing executed`,
      'in-use': 'answered 409 idempotency_key_in_use ("in progress") — nothing executed',
      mismatch: 'rejected: same key, different arguments — nothing executed',
      invalid: 'rejected before any transaction',
    };
    ctx.why(`${what}: ${said[reply.kind]}${ok ? ` (${reply.result.receipt})` : ''}.${lost ? ' The client had already timed out, so this response is lost.' : ''}${after}`);
    return { ...state, calls: replaceAt(state.calls, i, next) };
  }

  function toCall(c: CallState, atMs = c.sentAtMs): ChargeCall {
    return { requestId: c.requestId, key: c.upstreamKey, args: c.args, atMs };
  }

  // ---- two racing connections ----

  function raceArgs(): ChargeArgs {
    return { account: config.race.account, cents: config.race.cents };
  }

  function logOp(ctx: ApplyContext<LedgerTimer>, conn: ConnId, op: string, detail: string) {
    db!.run('INSERT INTO op_log (at_ms, actor, op, detail) VALUES (?, ?, ?, ?)', [ctx.now, `conn ${conn}`, op, detail]);
  }

  /** Applies one step of connection `conn` (or queues it while the connection waits for the lock). */
  function connStep(state: Omit<LedgerState, 'tables'>, conn: ConnId, step: StepKind, ctx: ApplyContext<LedgerTimer>): Omit<LedgerState, 'tables'> {
    const c = state.conns[conn];
    const other: ConnId = conn === 'A' ? 'B' : 'A';
    const policy = config.policy;
    const key = config.race.key;
    const set = (patch: Partial<ConnState>, extra: Partial<Omit<LedgerState, 'tables'>> = {}) => ({ ...state, ...extra, conns: { ...state.conns, ...extra.conns, [conn]: { ...c, ...patch } } });
    const done = c.reply === 'replayed' || c.reply === 'in-use' || c.reply === 'busy';

    if (c.phase === 'waiting') {
      ctx.why(`Connection ${conn} is still waiting for the write lock held by ${other}: its ${step} runs when ${other} commits.`);
      return set({ backlog: [...c.backlog, step] });
    }
    if (c.phase === 'aborted') {
      ctx.ignore({ by: 'db', what: `${conn} ${step}`, reason: 'its transaction was rolled back by SQLITE_BUSY' });
      ctx.why(`Connection ${conn}: ${step} does nothing — SQLITE_BUSY already rolled its transaction back and the call failed (the client may retry with the same key).`);
      return state;
    }

    /** The write lock for a statement or a BEGIN IMMEDIATE: null when granted, else the new state. */
    const blocked = (upgrade: boolean): Omit<LedgerState, 'tables'> | null => {
      const decision = decideWriteLock(state, conn, { upgrade, snapshot: c.snapshot, busy: config.busy });
      if (decision.kind === 'granted') return null;
      if (decision.kind === 'busy' && decision.code === 'SQLITE_BUSY_SNAPSHOT') {
        ctx.why(`Connection ${conn}: SQLITE_BUSY_SNAPSHOT — it read before ${other} committed, so its read transaction cannot become a write transaction. Rolled back; nothing executed.`);
        logOp(ctx, conn, 'busy', 'SQLITE_BUSY_SNAPSHOT on read-then-write upgrade; rolled back');
        return set({ phase: 'aborted', pending: [], snapshot: null, reply: 'busy', error: 'SQLITE_BUSY_SNAPSHOT' });
      }
      if (decision.kind === 'busy') {
        const why =
          decision.because === 'upgrade'
            ? `a read transaction cannot upgrade to a write while ${other} holds the write lock (SQLite returns at once, since waiting could deadlock)`
            : `${other} holds the write lock and busy is "error" (no busy_timeout)`;
        ctx.why(`Connection ${conn}: SQLITE_BUSY — ${why}. Rolled back; nothing executed.`);
        logOp(ctx, conn, 'busy', `SQLITE_BUSY on ${step}; rolled back`);
        return set({ phase: 'aborted', pending: [], snapshot: null, reply: 'busy', error: 'SQLITE_BUSY' });
      }
      ctx.why(`Connection ${conn}: ${step} waits — ${other} holds the write lock (busy_timeout). It continues the moment ${other} commits.`);
      return set({ phase: 'waiting', resume: c.phase === 'tx' ? 'tx' : 'idle', backlog: [step] });
    };

    const inTx = c.phase === 'tx';
    switch (step) {
      case 'begin': {
        if (policy === 'naive' || policy === 'claim') {
          ctx.why(`Connection ${conn}: no BEGIN under the ${policy} policy — every statement commits on its own (autocommit).`);
          return state;
        }
        if (inTx) {
          ctx.ignore({ by: 'db', what: `${conn} begin`, reason: 'already in a transaction' });
          ctx.why(`Connection ${conn} is already in a transaction.`);
          return state;
        }
        if (policy === 'deferred') {
          ctx.why(`Connection ${conn}: BEGIN (deferred) — no lock yet; the first read takes a snapshot, the first write must then get the write lock.`);
          return set({ phase: 'tx', snapshot: null });
        }
        const b = blocked(false);
        if (b) return b;
        ctx.why(`Connection ${conn}: BEGIN IMMEDIATE takes the write lock now, so no other connection can write until it commits.`);
        return set({ phase: 'tx' }, { writer: conn });
      }
      case 'read': {
        if (done) return skip(ctx, conn, step, c, state);
        if (policy === 'claim') {
          const fp = fingerprint(raceArgs() as unknown as Json);
          const claimed = db!.query(
            `INSERT INTO idempotency (key, fingerprint, status, result, request_id) VALUES (?, ?, 'in_progress', NULL, ?) ON CONFLICT(key) DO NOTHING RETURNING key`,
            [key, fp, JSON.stringify(conn)],
          );
          if (claimed.length) {
            logOp(ctx, conn, 'claim', `INSERT … ON CONFLICT DO NOTHING RETURNING: key ${key} claimed`);
            ctx.why(`Connection ${conn}: one statement INSERT … ON CONFLICT(key) DO NOTHING RETURNING claims key "${key}" — it returned a row, so ${conn} owns the key.`);
            return set({ saw: 'claimed' });
          }
          const row = db!.query('SELECT status, result FROM idempotency WHERE key = ?', [key])[0];
          if (row.status === 'completed') {
            logOp(ctx, conn, 'replay', `key ${key} already completed: stored result returned`);
            ctx.why(`Connection ${conn}: the claim returned no row — key "${key}" is completed, so it returns the stored result.`);
            return set({ saw: 'completed', reply: 'replayed', result: parseResult(String(row.result)) });
          }
          logOp(ctx, conn, 'in-use', `key ${key} in progress elsewhere: 409`);
          ctx.why(`Connection ${conn}: the claim returned no row — key "${key}" is in progress on ${other}, so it answers 409 "key in use" and executes nothing.`);
          return set({ saw: 'in_progress', reply: 'in-use' });
        }
        const snap = policy === 'deferred' && inTx && c.snapshot === null ? state.version : c.snapshot;
        const row = db!.query('SELECT status, result FROM idempotency WHERE key = ?', [key])[0];
        const where = inTx ? 'inside its transaction' : 'as an autocommit SELECT';
        if (row === undefined) {
          ctx.why(`Connection ${conn} reads key "${key}" ${where}: no record, so it will execute.${policy === 'naive' ? ' Nothing stops the other connection from reading the same thing before this one writes.' : ''}`);
          return set({ saw: 'none', snapshot: snap });
        }
        if (row.status === 'completed') {
          ctx.why(`Connection ${conn} reads key "${key}": a completed record — it returns the stored result and executes nothing.`);
          return set({ saw: 'completed', snapshot: snap, reply: 'replayed', result: parseResult(String(row.result)) });
        }
        ctx.why(`Connection ${conn} reads key "${key}": in progress elsewhere — it answers 409 "key in use".`);
        return set({ saw: 'in_progress', snapshot: snap, reply: 'in-use' });
      }
      case 'execute': {
        if (done) return skip(ctx, conn, step, c, state);
        if (c.saw === null) {
          ctx.ignore({ by: 'db', what: `${conn} execute`, reason: 'it has not checked the key yet' });
          ctx.why(`Connection ${conn}: execute skipped — it has not read the key yet (steps run in lane order).`);
          return state;
        }
        if (c.executed || c.pending.includes('execute')) return skip(ctx, conn, step, c, state);
        if (inTx) {
          const b = blocked(policy === 'deferred' && state.writer !== conn && c.snapshot !== null);
          if (b) return b;
          ctx.why(`Connection ${conn} executes the charge inside its transaction (counter + charge row). Uncommitted: ${other} cannot see it yet.`);
          return set({ pending: [...c.pending, 'execute'] }, { writer: conn });
        }
        const b = blocked(false);
        if (b) return b;
        const result = executeCharge(db!, conn, key, raceArgs());
        logOp(ctx, conn, 'execute', `${result.receipt} (autocommit)`);
        const twice = (state.executions[key] ?? 0) >= 1;
        ctx.why(`Connection ${conn} executes the charge (${result.receipt}) and it commits at once (autocommit).${twice ? ' The key has now executed TWICE.' : ''}`);
        return set({ executed: true, result }, { executions: bump(state.executions, key) });
      }
      case 'write': {
        if (done) return skip(ctx, conn, step, c, state);
        if (!c.executed && !c.pending.includes('execute')) {
          ctx.ignore({ by: 'db', what: `${conn} write`, reason: 'nothing executed yet to record' });
          ctx.why(`Connection ${conn}: write skipped — it has not executed anything to record.`);
          return state;
        }
        if (inTx) {
          ctx.why(`Connection ${conn} writes the idempotency record inside its transaction (visible to ${other} only after commit).`);
          return set({ pending: [...c.pending, 'write'] });
        }
        const b = blocked(false);
        if (b) return b;
        const result = c.result!;
        if (policy === 'claim') {
          db!.run(`UPDATE idempotency SET status = 'completed', result = ? WHERE key = ?`, [JSON.stringify(result), key]);
          logOp(ctx, conn, 'record', `key ${key} completed with ${result.receipt}`);
          ctx.why(`Connection ${conn} stores the result under its claimed key: later repeats replay ${result.receipt}.`);
          return set({ reply: 'executed' });
        }
        try {
          db!.run(`INSERT INTO idempotency (key, fingerprint, status, result, request_id) VALUES (?, ?, 'completed', ?, ?)`, [key, fingerprint(raceArgs() as unknown as Json), JSON.stringify(result), JSON.stringify(conn)]);
        } catch (err) {
          const message = (err as Error).message;
          logOp(ctx, conn, 'error', `INSERT record failed: ${message} — the charge already ran`);
          ctx.why(`Connection ${conn}: INSERT of the record fails (${message}) — too late, its charge ${result.receipt} already committed.`);
          return set({ reply: 'constraint', error: message });
        }
        logOp(ctx, conn, 'record', `key ${key} recorded with ${result.receipt}`);
        ctx.why(`Connection ${conn} records key "${key}" with ${result.receipt} (autocommit).`);
        return set({ reply: 'executed' });
      }
      case 'commit': {
        if (policy === 'naive' || policy === 'claim') {
          ctx.why(`Connection ${conn}: nothing to commit — every statement already committed on its own.`);
          return state;
        }
        if (!inTx) {
          ctx.ignore({ by: 'db', what: `${conn} commit`, reason: 'no open transaction' });
          ctx.why(`Connection ${conn}: COMMIT with no open transaction does nothing.`);
          return state;
        }
        let result = c.result;
        let executions = state.executions;
        if (c.pending.length) {
          db!.exec('BEGIN IMMEDIATE');
          for (const op of c.pending) {
            if (op === 'execute') {
              result = executeCharge(db!, conn, key, raceArgs());
              executions = bump(executions, key);
            } else {
              db!.run(`INSERT INTO idempotency (key, fingerprint, status, result, request_id) VALUES (?, ?, 'completed', ?, ?)`, [key, fingerprint(raceArgs() as unknown as Json), JSON.stringify(result), JSON.stringify(conn)]);
            }
          }
          db!.run('INSERT INTO op_log (at_ms, actor, op, detail) VALUES (?, ?, ?, ?)', [ctx.now, `conn ${conn}`, 'commit', `${c.pending.join(' + ')} committed${result ? ` (${result.receipt})` : ''}`]);
          db!.exec('COMMIT');
        }
        const executed = c.executed || c.pending.includes('execute');
        const released = state.writer === conn;
        let next = set(
          { phase: 'idle', pending: [], snapshot: null, executed, result, reply: c.reply === 'pending' && executed ? 'executed' : c.reply },
          { writer: released ? null : state.writer, version: c.pending.length ? state.version + 1 : state.version, executions },
        );
        const twice = (executions[key] ?? 0) > 1;
        const text = `Connection ${conn} commits${c.pending.length ? ` ${c.pending.join(' + ')}${result ? ` (${result.receipt})` : ''}` : ''}${released ? ' and releases the write lock' : ''}.${twice ? ' The key has now executed TWICE.' : ''}`;
        const waiter = next.conns[other];
        if (released && waiter.phase === 'waiting') {
          next = { ...next, conns: { ...next.conns, [other]: { ...waiter, phase: waiter.resume, backlog: [] } } };
          for (const s of waiter.backlog) next = connStep(next, other, s, { ...ctx, why: () => {}, ignore: () => {} });
          ctx.why(`${text} ${other} stops waiting and runs its held steps now (${waiter.backlog.join(', ')}): it ${describeReply(next.conns[other])}.`);
        } else ctx.why(text);
        return next;
      }
    }
  }

  return model;
}

function describeReply(c: ConnState): string {
  switch (c.reply) {
    case 'replayed':
      return `finds ${c.result?.receipt ?? 'the record'} and replays it`;
    case 'in-use':
      return 'gets "key in use"';
    case 'busy':
      return 'gets SQLITE_BUSY';
    default:
      return c.phase === 'tx' ? 'is inside its own transaction' : 'continues';
  }
}

function skip<S>(ctx: ApplyContext<LedgerTimer>, conn: ConnId, step: StepKind, c: ConnState, state: S): S {
  const why = c.reply === 'replayed' ? 'it already returned the stored result' : c.reply === 'in-use' ? 'the key is in use elsewhere' : c.reply === 'busy' ? 'SQLITE_BUSY ended its attempt' : 'it already did this';
  ctx.ignore({ by: 'db', what: `${conn} ${step}`, reason: why });
  ctx.why(`Connection ${conn}: ${step} skipped — ${why}.`);
  return state;
}

function replaceAt<T>(list: readonly T[], i: number, item: T): T[] {
  const out = list.slice();
  out[i] = item;
  return out;
}

function bump(map: Record<string, number>, key: string): Record<string, number> {
  return { ...map, [key]: (map[key] ?? 0) + 1 };
}

/** The outcome of a state: summary counts and each call's end. */
export function ledgerOutcome(state: LedgerState): LedgerOutcome {
  const t = state.tables;
  const count = (k: ChargeReply['kind']) => state.calls.filter((c) => c.reply?.kind === k).length;
  return {
    summary: {
      executions: t.executions,
      charges: t.charges.length,
      records: t.idempotency.length,
      receipts: t.charges.map((r) => String(r.receipt)),
      replayed: count('replayed') + Object.values(state.conns).filter((c) => c.reply === 'replayed').length,
      inUse: count('in-use') + Object.values(state.conns).filter((c) => c.reply === 'in-use').length,
      mismatches: count('mismatch'),
      invalid: count('invalid'),
      timedOut: state.calls.filter((c) => c.client === 'timed-out').length,
      doubleExecuted: Object.values(state.executions).filter((n) => n > 1).length,
      inUseRetries: state.calls.filter((c) => c.inUseRetries > 0).length,
      gaveUpOnInUse: state.calls.filter((c) => c.gaveUpOnInUse).length,
      keysDropped: state.calls.filter((c) => usableKey(c.idempotencyKey) && c.upstreamKey === null).length,
      connA: state.conns.A.reply,
      connB: state.conns.B.reply,
    },
    calls: state.calls.map((c) => ({
      key: c.key,
      requestId: c.requestId,
      idempotencyKey: c.idempotencyKey,
      client: c.client,
      reply: c.reply?.kind ?? null,
      receipt: c.reply && (c.reply.kind === 'executed' || c.reply.kind === 'replayed') ? c.reply.result.receipt : null,
      resultRequestId: c.reply && (c.reply.kind === 'executed' || c.reply.kind === 'replayed') ? c.reply.result.requestId : null,
    })),
  };
}

/** Invariants checked after every step (they stay on under broken policies, which must break them). */
export const LEDGER_INVARIANTS: Invariant<LedgerState>[] = [
  {
    name: 'at-most-once',
    description: 'No operation (one idempotency key, or one call and its retries) executes more than once.',
    check: (s) => {
      const twice = Object.entries(s.executions).filter(([, n]) => n > 1);
      return twice.length ? twice.map(([op, n]) => `operation ${op} executed ${n} times`).join('; ') : null;
    },
  },
  {
    name: 'counter-matches-charges',
    description: 'The execution counter equals the number of charge rows (each execution is one atomic change).',
    check: (s) => (s.tables.executions === s.tables.charges.length ? null : `counter ${s.tables.executions} ≠ ${s.tables.charges.length} charges`),
  },
  {
    name: 'in-progress-is-not-final',
    description:
      'A 409 idempotency_key_in_use ("in progress": the first execution is still running) is not the call\'s final answer: the client waits and retries with the same key, and after the commit gets the stored result (Stripe\'s idempotency_key_in_use, cited in issue 11).',
    check: (s) => {
      const gave = s.calls.filter((c) => c.gaveUpOnInUse);
      return gave.length ? gave.map((c) => `request ${c.key} stopped at 409 for key "${c.idempotencyKey}"`).join('; ') : null;
    },
  },
  {
    name: 'key-reaches-upstream',
    description: 'An idempotency key the client sends reaches the upstream that deduplicates; a tool layer that drops it turns every repeat into a new execution (agentmail-mcp#49, cited in issue 11).',
    check: (s) => {
      const dropped = s.calls.filter((c) => usableKey(c.idempotencyKey) && c.upstreamKey === null);
      return dropped.length ? dropped.map((c) => `request ${c.key}: key "${c.idempotencyKey}" dropped before the upstream`).join('; ') : null;
    },
  },
];

/** Lane order of a scripted event, for the explorer: calls by client, steps by connection. */
export function ledgerLaneOf(event: ScriptedEvent): string {
  return event.actor === 'db' ? `conn ${String(event.conn)}` : event.actor;
}
