import { useMemo, useState } from 'react';
import { REPLICA_EXPECTED_EXECUTIONS, REPLICA_INVARIANT, replicaRuns, type ReplicaRun, type ReplicaSqlResult } from '../../store/ledgerReplicas';
import { useLedger } from './context';
import { ChoiceSelect } from '../common/ChoiceSelect';

const RUN_TEXT: Record<ReplicaRun, string> = {
  'other-replica': 'the retry lands on the other replica (B)',
  restart: 'replica A restarts mid-run, the retry lands on A again',
};

/**
 * The lesson's failure table, row "in-memory ledger used across replicas": the client calls
 * `charge_account` with key `checkout-7` on replica A, the response is lost, the same call is
 * retried. Both placements run on real SQLite (`charge()`), side by side, with the expected number
 * of executions and the invariant at-most-one-execution-per-key.
 */
export function ReplicaPanel() {
  const open = useLedger((s) => s.open);
  const [run, setRun] = useState<ReplicaRun>('other-replica');
  const result = useMemo(() => replicaRuns(open, run), [open, run]);
  const column = (title: string, r: ReplicaSqlResult) => {
    const executions = r.executionsByKey['checkout-7'] ?? 0;
    const expected = REPLICA_EXPECTED_EXECUTIONS[r.placement];
    return (
      <div data-testid={`replica-${r.placement}`} data-executions={executions} data-violation={r.violation ?? ''}>
        <h3>{title}</h3>
        <ol className="small">
          {r.steps.map((s, i) => {
            const call = r.calls.find((c) => c.step === i);
            return (
              <li key={i}>
                {s.kind === 'restart' ? `replica ${s.replica} restarts` : `tools/call charge_account key ${s.key} → replica ${s.replica}: ${call?.reply ?? ''}${call?.receipt ? ` ${call.receipt}` : ''}`}
              </li>
            );
          })}
        </ol>
        <p>
          executions of checkout-7: <strong>{executions}</strong>{' '}
          <span className={`badge ${executions === expected ? 'badge-ok' : 'badge-bad'}`}>
            expected {expected} {executions === expected ? '✓' : '✗'}
          </span>
        </p>
        <p className={r.violation ? 'bad-text' : 'small'}>
          {REPLICA_INVARIANT}: {r.violation ? `broken — ${r.violation}` : 'holds'}
        </p>
      </div>
    );
  };
  return (
    <section className="panel" aria-labelledby="replica-h" data-testid="replica-panel">
      <h2 id="replica-h">Two replicas and a restart (lesson: in-memory ledger)</h2>
      <p className="small muted">
        The lesson&apos;s failure table: an in-memory ledger used across replicas — a restart or another worker forgets prior commits; use shared durable storage. The client charges with key checkout-7, the response is lost, it retries the same call.
      </p>
      <label className="field-inline">
        <span>Run</span>
        <ChoiceSelect data-testid="replica-run" choices={Object.keys(RUN_TEXT) as ReplicaRun[]} labels={RUN_TEXT} value={run} onChange={setRun} />
      </label>
      <div className="tables-grid">
        {column('process-local ledger (each replica\'s memory)', result.local)}
        {column('shared SQLite ledger (one durable store)', result.shared)}
      </div>
    </section>
  );
}
