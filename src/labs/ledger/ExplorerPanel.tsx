import { useEffect, useRef, useState } from 'react';
import { countInterleavings } from '../../store/ledgerStore';
import { useLedger, useLedgerContext } from './context';
import { EXPLORE_VARIANTS, type ExploreGroup, type ExploreReply } from './exploreProtocol';
import { RunControls, type RunStatus } from '../common/RunControls';
import { failOnWorkerError } from '../common/workerFailure';

/** The explorer's message when its worker could not run; `detail` says what happened. */
export function exploreFailedMessage(detail: string): string {
  return `Explore: ${detail} — check the connection, then press Retry`;
}

interface Row {
  variant: string;
  total: number;
  elapsedMs: number;
  groups: ExploreGroup[];
}

/** All orders at once: every interleaving of the two connections under each policy, in a Web Worker. Remounted (fresh results) per scenario. */
export function ExplorerPanel() {
  const { store } = useLedgerContext();
  const scenario = useLedger((s) => s.scenario);
  const [rows, setRows] = useState<Row[]>([]);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [status, setStatus] = useState<RunStatus>('idle');
  const [message, setMessage] = useState('');
  const worker = useRef<Worker | null>(null);
  const steps = scenario.events.filter((e) => e.actor === 'db');
  const perPolicy = countInterleavings(['A', 'B'].map((c) => steps.filter((e) => e.conn === c).length));

  useEffect(() => () => worker.current?.terminate(), []);

  const start = () => {
    worker.current?.terminate();
    const w = new Worker(new URL('./explore.worker.ts', import.meta.url), { type: 'module' });
    worker.current = w;
    setRows([]);
    setStatus('running');
    setProgress({ done: 0, total: perPolicy * EXPLORE_VARIANTS.length });
    let heard = false;
    w.onmessage = (e: MessageEvent<ExploreReply>) => {
      heard = true;
      const m = e.data;
      if (m.type === 'progress') setProgress({ done: m.done, total: m.total });
      else if (m.type === 'result') setRows((r) => [...r, { variant: m.variant, total: m.total, elapsedMs: m.elapsedMs, groups: m.groups }]);
      else if (m.type === 'done') {
        setStatus('done');
        w.terminate();
      } else {
        setStatus('error');
        setMessage(exploreFailedMessage(`it stopped: ${m.message}`));
        w.terminate();
      }
    };
    // A worker whose script cannot load (offline before the site was cached, a file gone after a
    // redeploy) fires `error` with no message and never answers: say so instead of "0 / 1260" forever.
    failOnWorkerError(w, worker, () => heard, (reason) => {
      setStatus('error');
      setMessage(exploreFailedMessage(reason));
    });
    w.postMessage({ scenario: store.getState().scenario, variants: EXPLORE_VARIANTS });
  };
  const cancel = () => {
    worker.current?.terminate();
    worker.current = null;
    setStatus('cancelled');
  };
  const open = (variant: string, order: string[]) => {
    const v = EXPLORE_VARIANTS.find((x) => x.id === variant)!;
    const s = store.getState();
    s.setConfig(v.overrides);
    s.applyOrder(order);
    s.toEnd();
    document.getElementById('ledger-tl-h')?.closest('section')?.scrollIntoView({ block: 'start' });
  };

  return (
    <section className="panel" aria-labelledby="ledger-explore-h">
      <h2 id="ledger-explore-h" data-testid="explore-heading">All orders at once · every policy compared</h2>
      <p className="small" data-testid="explore-intro">
        Compares the policies on the scenario as scripted (the All orders panel below reorders the events you tick under the current policy only). Each connection keeps its own step order; the explorer replays every way to merge the two lanes ({perPolicy} interleavings) under each of {EXPLORE_VARIANTS.length}{' '}
        policy rows (naive, deferred, BEGIN IMMEDIATE with a waiting and with a failing busy lock, the claim), on real SQLite, in a background worker.
      </p>
      <RunControls testIdPrefix="explore" runLabel={<>Explore {perPolicy} interleavings × {EXPLORE_VARIANTS.length} policies = {perPolicy * EXPLORE_VARIANTS.length} replays</>} status={status} progress={progress} message={message} onRun={start} onCancel={cancel} />
      {rows.length > 0 && (
        <table className="sql-table outcome-map" data-testid="outcome-map">
          <caption>Outcome map: how many orders execute the key twice</caption>
          <thead>
            <tr>
              <th scope="col">policy</th>
              <th scope="col">orders</th>
              <th scope="col">executed twice</th>
              <th scope="col">outcomes</th>
              <th scope="col">on the timeline</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const bad = r.groups.filter((g) => g.executions > 1);
              const twice = bad.reduce((n, g) => n + g.count, 0);
              const shortest = [...bad].sort((a, b) => a.switches - b.switches)[0];
              const label = EXPLORE_VARIANTS.find((v) => v.id === r.variant)?.label ?? r.variant;
              return (
                <tr key={r.variant} data-testid={`explore-${r.variant}`} data-twice={twice}>
                  <th scope="row">{label}</th>
                  <td>{r.total}</td>
                  <td>
                    <span className={`badge ${twice ? 'badge-bad' : 'badge-ok'}`}>{twice}</span>
                  </td>
                  <td className="small">
                    {r.groups.map((g) => (
                      <div key={g.key}>
                        {g.count} × {g.key}
                      </div>
                    ))}
                  </td>
                  <td>
                    {shortest ? (
                      <button type="button" onClick={() => open(r.variant, shortest.order)} data-testid={`open-counterexample-${r.variant}`}>
                        Open the shortest counterexample
                      </button>
                    ) : (
                      <span className="small muted">none executes twice</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}
