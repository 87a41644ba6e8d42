import { coreOfModel, type ModelBox } from '../modelCore';
import type { CoreModel } from '../core';
import type { Model } from '../types';
import { createLedger, finishCharge, readTables, resetLedger, type LedgerTables } from './ledger';
import { autoRetry, deliver, startCall, toCall } from './calls';
import { connStep } from './conns';
import { LEDGER_INVARIANTS, ledgerOutcome } from './outcome';
import { bump, EMPTY_CONN, LEDGER_TIE_RULE, replaceAt, type LedgerEnv, type LedgerOutcome, type LedgerState, type LedgerTimer } from './state';
import type { CallEvent, LedgerConfig, RetryEvent, StepEvent } from './schema';
import type { OpenDatabase, SqlDatabase } from './sql';

// The model's parts, one file each (issue 10: no hand-written file in src/sim over 400 lines):
// state.ts (types, tie rule), calls.ts (the client's calls and the server's replies), conns.ts
// (the two racing connections), outcome.ts (outcome, invariants, lanes). Re-exported here, so
// `./model` exports what it always did.
export * from './state';
export * from './outcome';

/** A model instance bound to a database opener, plus the database of the replay in progress. */
export interface LedgerModel extends Model<LedgerConfig, LedgerState, LedgerOutcome, LedgerTimer> {
  /** The database of the latest replay (reused by the next `init`), for consoles and exports. */
  database(): SqlDatabase | null;
  /**
   * The same model on the checkpointed core (`coreOfModel`, thaw refused): what `replay` runs.
   * Its checkpoints cannot restore the rows in SQLite, so it has no seekable trace.
   */
  core: CoreModel<LedgerConfig, ModelBox<LedgerState>, LedgerState, LedgerOutcome, LedgerTimer>;
}

/**
 * Options of `createLedgerModel`. `tables`: 'every-step' (default) keeps a snapshot of the four
 * tables in each step's state (what the views and the `counter-matches-charges` invariant read);
 * 'none' keeps `NO_TABLES` there instead (the order explorer reads the tables once, at the end of
 * an order, with `readOutcomeTables`; invariants that read tables are then meaningless).
 */
export interface LedgerModelOptions {
  tables?: 'every-step' | 'none';
}

/** The empty tables a `tables: 'none'` model keeps in its states (shared, frozen). */
export const NO_TABLES: LedgerTables = Object.freeze({ executions: 0, charges: [], idempotency: [], log: [] }) as LedgerTables;

/**
 * Creates the ledger model on `open` (a factory of fresh in-memory databases: sql.js in the
 * browser and in Node tests). The first `init` opens a database; each later `init` empties it
 * (`resetLedger`), so one instance runs one replay at a time (replays are synchronous) and the
 * explorer's hundreds of replays do not open hundreds of databases. Every step runs real SQL;
 * the state keeps a snapshot of the tables after each step so views can follow the playhead.
 * `replay` runs it on the checkpointed core like every lab (`core`: the one-step functions below
 * through `coreOfModel`), on the fast path or with the full trace, never seekable: a checkpoint
 * would have to copy the database (the trie explorer restores rows through its own undo log).
 *
 * Lock rules enforced for the two connections (SQLite, https://sqlite.org/lang_transaction.html
 * and https://sqlite.org/wal.html): one writer at a time; `BEGIN IMMEDIATE` takes the write lock
 * at once (a second one waits or gets SQLITE_BUSY per `busy`); a deferred transaction that read
 * and then tries to write while the other holds the lock, or after the other committed since its
 * read, fails with SQLITE_BUSY (no waiting: waiting could deadlock); uncommitted writes are
 * invisible to the other connection.
 */
export function createLedgerModel(open: OpenDatabase, options: LedgerModelOptions = {}): LedgerModel {
  const env: LedgerEnv = { db: null, config: undefined as unknown as LedgerConfig };

  const everyStep = (options.tables ?? 'every-step') === 'every-step';
  const snapshot = (s: Omit<LedgerState, 'tables'>): LedgerState => ({ ...s, tables: everyStep ? readTables(env.db!) : NO_TABLES });

  const model: Omit<LedgerModel, 'core'> = {
    lab: 'ledger',
    tieRule: LEDGER_TIE_RULE,
    database: () => env.db,
    scriptedRank: () => 1,
    init(cfg) {
      env.config = cfg;
      if (env.db === null) {
        env.db = open();
        createLedger(env.db);
      } else resetLedger(env.db);
      return snapshot({ calls: [], conns: { A: EMPTY_CONN('A'), B: EMPTY_CONN('B') }, writer: null, version: 0, executions: {} });
    },
    applyScripted(state, event, ctx) {
      const e = event as unknown as CallEvent | RetryEvent | StepEvent;
      if (e.kind === 'call') return snapshot(startCall(env, state, e, ctx, null));
      if (e.kind === 'retry') {
        const rootKey = JSON.stringify(e.of);
        const root = state.calls.find((c) => c.key === rootKey);
        if (!root) {
          ctx.ignore({ by: 'client', what: `retry ${JSON.stringify(e.requestId)}`, reason: `no call with requestId ${rootKey} to retry` });
          ctx.why(`Retry ignored: there is no earlier call ${rootKey}.`);
          return state;
        }
        return snapshot(startCall(env, state, e, ctx, root));
      }
      return snapshot(connStep(env, state, e.conn, e.kind, ctx));
    },
    applyTimer(state, timer, ctx) {
      const i = state.calls.findIndex((c) => c.key === timer.call);
      const c = state.calls[i];
      if (timer.kind === 'in-use-retry') return snapshot(autoRetry(env, state, i, ctx));
      if (timer.kind === 'timeout') {
        if (c.client !== 'waiting') return state;
        ctx.why(`Request ${c.key}: the client's ${c.timeoutMs} ms timeout fired. The server may still finish: the outcome is unknown to the client.`);
        return { ...state, calls: replaceAt(state.calls, i, { ...c, client: 'timed-out', timeoutHandle: null }) };
      }
      const reply = finishCharge(env.db!, toCall(c), env.config.dedupe === 'key', ctx.now);
      const next = { ...state, executions: bump(state.executions, c.operation) };
      return snapshot(deliver(env, next, i, reply, ctx, `Request ${c.key}: the server's work ends and one transaction executes the charge and records it`));
    },
    outcome: ledgerOutcome,
    invariants: LEDGER_INVARIANTS,
  };
  return { ...model, core: coreOfModel(model, { thaw: 'refuse' }) };
}
