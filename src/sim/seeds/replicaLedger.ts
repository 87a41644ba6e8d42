import { checkNumber } from './validate';

/**
 * An idempotency ledger across two server replicas or a restart, the lesson's failure table
 * (lesson "Modos de falla de producción": "In-memory ledger used across replicas | Restart or
 * another worker forgets prior commits | Use shared durable storage or upstream idempotency", and
 * "El límite del libro mayor debe ser atómico y duradero"). The lesson's ledger stores the key,
 * a fingerprint of the arguments and the committed result: the same key with the same arguments
 * returns the stored result, the same key with different arguments is rejected.
 *
 * A process-local ledger lives in one replica's memory: the other replica does not see it and a
 * restart empties it, so a retry that lands elsewhere executes again. A shared ledger (the
 * lab's SQLite ledger, one durable store for every replica) survives both. Pure: a fold over a
 * scripted list of steps; the store is a Map rebuilt per run.
 */

/** Where the ledger lives. */
export type LedgerPlacement = 'process-local' | 'shared';

/** One scripted step. */
export type ReplicaStep =
  /** A tools/call with an idempotency key lands on `replica` (the load balancer's choice). */
  | { kind: 'call'; replica: string; key: string; args: string }
  /** `replica` restarts: its memory is gone. */
  | { kind: 'restart'; replica: string };

/** What one call did. */
export interface ReplicaCallOutcome {
  step: number;
  replica: string;
  key: string;
  /** 'executed' ran the effect; 'replayed' returned the stored result; 'rejected' = key reused with other arguments. */
  outcome: 'executed' | 'replayed' | 'rejected';
}

/** The run's result. */
export interface ReplicaLedgerResult {
  calls: ReplicaCallOutcome[];
  /** Executions of the effect per key. */
  executionsByKey: Record<string, number>;
  /** Keys executed more than once: the invariant at-most-one-execution-per-key broken. */
  duplicatedKeys: string[];
}

/**
 * Folds `steps` over a ledger placed `placement`. Throws a RangeError naming `steps[i].kind` for an
 * unknown step, or `steps[i].key` for an empty key (an empty key is no key).
 */
export function runReplicaLedger(placement: LedgerPlacement, steps: readonly ReplicaStep[]): ReplicaLedgerResult {
  const shared = new Map<string, string>();
  const local = new Map<string, Map<string, string>>();
  const storeOf = (replica: string) => {
    if (placement === 'shared') return shared;
    let m = local.get(replica);
    if (!m) local.set(replica, (m = new Map()));
    return m;
  };
  const calls: ReplicaCallOutcome[] = [];
  const executionsByKey: Record<string, number> = {};
  steps.forEach((s, i) => {
    if (s.kind === 'restart') {
      if (placement === 'process-local') local.delete(s.replica);
      return;
    }
    if (s.kind !== 'call') throw new RangeError(`steps[${i}].kind: ${JSON.stringify((s as { kind: unknown }).kind)} is not a step — use "call" or "restart"`);
    if (s.key.trim() === '') throw new RangeError(`steps[${i}].key: empty — an idempotency key must be non-empty`);
    const store = storeOf(s.replica);
    const seen = store.get(s.key);
    if (seen === undefined) {
      store.set(s.key, s.args);
      executionsByKey[s.key] = (executionsByKey[s.key] ?? 0) + 1;
      calls.push({ step: i, replica: s.replica, key: s.key, outcome: 'executed' });
    } else {
      calls.push({ step: i, replica: s.replica, key: s.key, outcome: seen === s.args ? 'replayed' : 'rejected' });
    }
  });
  return { calls, executionsByKey, duplicatedKeys: Object.keys(executionsByKey).filter((k) => executionsByKey[k] > 1).sort() };
}

/**
 * The lesson's example as steps: `charge_account` with key `checkout-7` lands on replica A; the
 * response is lost; the retry (same key, same arguments) lands on replica B. With `restart`, both
 * land on A and A restarts in between.
 */
export function lostResponseRetry(options: { restart: boolean; retries?: number }): ReplicaStep[] {
  const retries = checkNumber('retries', options.retries ?? 1, { min: 1, integer: true });
  const args = '{"account":"acct-7","cents":1200}';
  const first: ReplicaStep = { kind: 'call', replica: 'A', key: 'checkout-7', args };
  const out: ReplicaStep[] = [first];
  for (let r = 0; r < retries; r++) {
    if (options.restart) out.push({ kind: 'restart', replica: 'A' }, { kind: 'call', replica: 'A', key: 'checkout-7', args });
    else out.push({ kind: 'call', replica: r % 2 === 0 ? 'B' : 'A', key: 'checkout-7', args });
  }
  return out;
}
