import { lostResponseRetry, type LedgerPlacement, type ReplicaStep } from '../seeds/replicaLedger';
import { charge, createLedger } from './ledger';
import type { OpenDatabase, SqlDatabase } from './sql';

/**
 * The lesson's failure-table row "in-memory ledger used across replicas — restart or another
 * worker forgets prior commits — use shared durable storage" (issue 13 item 8) on real SQLite: the
 * lesson's lost-response retry (`lostResponseRetry`: `charge_account` with key `checkout-7`, the
 * response lost, the same call retried) sent through the lab's own `charge()` to two server
 * replicas A and B behind one client.
 * - `process-local`: each replica keeps its ledger in its own process memory (its own in-memory
 *   database); a restart throws it away and starts an empty one. A retry that lands on the other
 *   replica, or on a restarted one, executes again.
 * - `shared`: one SQLite ledger every replica writes to (the lab's durable store); a restart
 *   loses nothing, and the retry replays the stored result.
 */

/** The invariant the panel shows: no idempotency key executes its effect more than once. */
export const REPLICA_INVARIANT = 'at-most-one-execution-per-key';

/** The two shapes of the lesson's run: the retry lands on the other replica, or on the same one after it restarts mid-run. */
export type ReplicaRun = 'other-replica' | 'restart';

/** One call as a replica answered it. */
export interface ReplicaSqlCall {
  step: number;
  replica: string;
  key: string;
  reply: 'executed' | 'replayed' | 'mismatch' | 'in-use' | 'invalid';
  receipt: string | null;
}

/** A run's result: each call, the executions (charge rows) over every replica's ledger, and the invariant. */
export interface ReplicaSqlResult {
  placement: LedgerPlacement;
  steps: ReplicaStep[];
  calls: ReplicaSqlCall[];
  /** Charge rows per key, summed over every database that ever existed in the run (a restarted replica's lost one included). */
  executionsByKey: Record<string, number>;
  /** {@link REPLICA_INVARIANT}: null when held, else what broke it. */
  violation: string | null;
}

/**
 * Runs `steps` (default: the lesson's run `run`) with a ledger placed `placement`, on databases
 * from `open`. Each call is `charge(db, …)` with the step's key and its JSON `args`
 * (`{"account", "cents"}`). Throws `RangeError` for a step with args that are not that JSON.
 */
export function runReplicaLedgerOnSql(placement: LedgerPlacement, open: OpenDatabase, run: ReplicaRun = 'other-replica', steps: ReplicaStep[] = lostResponseRetry({ restart: run === 'restart' })): ReplicaSqlResult {
  const made = (): SqlDatabase => {
    const db = open();
    createLedger(db);
    return db;
  };
  const every: SqlDatabase[] = [];
  const shared = placement === 'shared' ? made() : null;
  if (shared) every.push(shared);
  const local = new Map<string, SqlDatabase>();
  const dbOf = (replica: string): SqlDatabase => {
    if (shared) return shared;
    let db = local.get(replica);
    if (!db) {
      db = made();
      every.push(db);
      local.set(replica, db);
    }
    return db;
  };
  const calls: ReplicaSqlCall[] = [];
  steps.forEach((s, i) => {
    if (s.kind === 'restart') {
      local.delete(s.replica); // its memory is gone (the old database stays counted in `every`)
      return;
    }
    let args: { account: string; cents: number };
    try {
      args = JSON.parse(s.args) as { account: string; cents: number };
    } catch {
      throw new RangeError(`steps[${i}].args: ${JSON.stringify(s.args)} is not JSON — give {"account": …, "cents": …}`);
    }
    const reply = charge(dbOf(s.replica), { requestId: i + 1, key: s.key, args, atMs: i });
    calls.push({ step: i, replica: s.replica, key: s.key, reply: reply.kind, receipt: reply.kind === 'executed' || reply.kind === 'replayed' ? reply.result.receipt : null });
  });
  const executionsByKey: Record<string, number> = {};
  for (const db of every) for (const r of db.query('SELECT key, count(*) AS n FROM charges GROUP BY key')) executionsByKey[String(r.key)] = (executionsByKey[String(r.key)] ?? 0) + Number(r.n);
  const twice = Object.entries(executionsByKey).filter(([, n]) => n > 1);
  return {
    placement,
    steps,
    calls,
    executionsByKey,
    violation: twice.length ? twice.map(([k, n]) => `key ${k} executed ${n} times`).join('; ') : null,
  };
}
