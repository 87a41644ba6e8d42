import { REPLICA_INVARIANT, runReplicaLedgerOnSql, type OpenDatabase, type ReplicaRun, type ReplicaSqlResult } from '../sim/ledger';

export { REPLICA_INVARIANT, type ReplicaRun, type ReplicaSqlResult };

/**
 * What the lesson's failure table expects of each placement (issue 13 item 8): a process-local
 * ledger executes the retried `checkout-7` twice (the other replica, or the restarted one, has
 * forgotten the commit), the shared SQLite ledger once.
 */
export const REPLICA_EXPECTED_EXECUTIONS = { 'process-local': 2, shared: 1 } as const;

/** Both placements of the lesson's lost-response retry, shaped `run`, on fresh databases from `open` (real SQLite through `charge()`). */
export function replicaRuns(open: OpenDatabase, run: ReplicaRun): { local: ReplicaSqlResult; shared: ReplicaSqlResult } {
  return { local: runReplicaLedgerOnSql('process-local', open, run), shared: runReplicaLedgerOnSql('shared', open, run) };
}
