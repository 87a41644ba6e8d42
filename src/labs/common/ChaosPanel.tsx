import { useEffect, useRef, useState } from 'react';
import type { LabId } from '../../sim/labIds';
import type { Scenario } from '../../sim/types';
import type { LabStoreState } from '../../store/labStore';
import { useLab, useLabStore } from './LabContext';
import type { ChaosReply, ChaosRequest, ChaosSeedRow } from './chaosProtocol';
import { forgetChaosSeed, showChaosSeed, withChaosSeed } from './chaosAddress';
import { RunControls, type RunStatus } from './RunControls';
import { failOnWorkerError } from './workerFailure';

/** Most seeds one run takes (the CLI, `npm run chaos`, runs more). */
export const MAX_CHAOS_SEEDS = 2000;
/** The largest first seed (seeds are unsigned 32-bit integers, as the CLI's `--first-seed`). */
const MAX_FIRST_SEED = 4294967295;
/** The whole number `raw` holds when it lies in [min, max], else null ("2.5", "", "-3", "1e3" → null). */
export function wholeIn(raw: string, min: number, max: number): number | null {
  if (!/^\d+$/.test(raw.trim())) return null;
  const v = Number(raw);
  return v >= min && v <= max ? v : null;
}
/** Failing seeds listed (the counts cover them all). */
const LISTED = 30;

type Status = RunStatus;
interface Result {
  of: Scenario;
  /** The address of the scenario the seeds ran on (a seed link is this plus `chaos=<seed>`). */
  address: string;
  seedsRun: number;
  rows: ChaosSeedRow[];
  smallestFailingSeed: number | null;
  safetyFailingSeeds: number;
  livenessFailingSeeds: number;
  safety: Record<string, number>;
  liveness: Record<string, number>;
}

export { withChaosSeed } from './chaosAddress';

/**
 * "Chaos" (every lab; issue 13 item 6, docs/chaos.md): runs N seeds of the current scenario under
 * the lab's faults from the postmortem's chaos list in a Web Worker, with progress and Cancel; per
 * seed the safety invariants it broke (a failing seed) and, apart, the liveness checks that failed
 * under faults; "Open the smallest failing seed" puts that seed's faulted scenario on the timeline
 * (an undoable edit); every failing seed has a share link `…?chaos=<seed>`, and a page opened
 * with one opens that seed.
 */
export function ChaosPanel({ lab }: { lab: LabId }) {
  const store = useLabStore<LabStoreState>();
  // The boxes' text is the state; a run reads its numbers from it (and starts only when both are valid).
  const [seedsText, setSeedsText] = useState('200');
  const [firstSeedText, setFirstSeedText] = useState('0');
  const [status, setStatus] = useState<Status>('idle');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [result, setResult] = useState<Result | null>(null);
  const [message, setMessage] = useState('');
  const [opened, setOpened] = useState<{ seed: number; faults: string[]; scenario: Scenario } | null>(null);
  const worker = useRef<Worker | null>(null);
  // a link's chaos=<seed>, read once before the address is rewritten
  const [linkQuery] = useState(() => {
    const h = window.location.hash;
    const q = h.indexOf('?');
    return q < 0 ? '' : h.slice(q + 1);
  });

  const spawn = (onReply: (m: ChaosReply, w: Worker) => void, request: ChaosRequest) => {
    worker.current?.terminate();
    const w = new Worker(new URL('./chaos.worker.ts', import.meta.url), { type: 'module' });
    worker.current = w;
    let heard = false;
    w.onmessage = (e: MessageEvent<ChaosReply>) => {
      heard = true;
      onReply(e.data, w);
    };
    failOnWorkerError(w, worker, () => heard, (reason) => {
      setStatus('error');
      setMessage(`Chaos: ${reason} — check the connection, then press Retry`);
    });
    w.postMessage(request);
  };
  const finish = (w: Worker) => {
    w.terminate();
    if (worker.current === w) worker.current = null;
  };
  const showOpened = (m: Extract<ChaosReply, { type: 'opened' }>, baseAddress: string) => {
    setOpened({ seed: m.seed, faults: m.faults, scenario: m.scenario });
    // the address names the seed, not the faulted copy (useHashSync asks chaosAddress)
    showChaosSeed(lab, m.scenario, baseAddress, m.seed);
    store.getState().showScenario(m.scenario);
  };

  useEffect(() => {
    if (!/(^|&)chaos=/.test(linkQuery)) return;
    const base = store.getState().scenario;
    const baseAddress = store.getState().address();
    spawn(
      (m, w) => {
        if (m.type === 'opened') showOpened(m, baseAddress);
        else if (m.type === 'error') store.getState().setError({ title: 'The chaos seed in the link was not used', errors: [m.message] });
        finish(w);
      },
      { type: 'open-link', lab, scenario: base, query: linkQuery },
    );
    return () => worker.current?.terminate();
    // once, on mount: the link's seed applies to the scenario the link named
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => () => worker.current?.terminate(), []);

  // A boolean of the scenario, not the scenario: an edit (a drag move) re-renders this panel only when it hides or shows the result.
  const current = useLab((s: LabStoreState) => result !== null && (result.of === s.scenario || opened?.scenario === s.scenario));
  const shown = current ? result : null;

  /** The boxes' problems (empty when both hold whole numbers in range): a run never starts with a value the boxes do not show. */
  const inputProblems = (seedsRaw: string, firstRaw: string): string[] => [
    ...(wholeIn(seedsRaw, 1, MAX_CHAOS_SEEDS) === null ? [`Seeds: ${JSON.stringify(seedsRaw)} is not a whole number from 1 to ${MAX_CHAOS_SEEDS} — type one (npm run chaos runs more)`] : []),
    ...(wholeIn(firstRaw, 0, MAX_FIRST_SEED) === null ? [`from seed: ${JSON.stringify(firstRaw)} is not a whole number from 0 to ${MAX_FIRST_SEED.toLocaleString('en-US')} — type one`] : []),
  ];
  const showProblems = (problems: string[]) => {
    if (problems.length) {
      setStatus('error');
      setMessage(problems.join('; '));
    } else if (status === 'error') {
      setMessage('');
      setStatus('idle');
    }
  };
  const commitSeeds = (raw: string) => {
    setSeedsText(raw);
    showProblems(inputProblems(raw, firstSeedText));
  };
  const commitFirstSeed = (raw: string) => {
    setFirstSeedText(raw);
    showProblems(inputProblems(seedsText, raw));
  };

  const start = () => {
    // Run (or Retry) with a box out of range names the problem and runs nothing (walkthrough: it ran 200 seeds silently).
    const problems = inputProblems(seedsText, firstSeedText);
    const seeds = wholeIn(seedsText, 1, MAX_CHAOS_SEEDS);
    const firstSeed = wholeIn(firstSeedText, 0, MAX_FIRST_SEED);
    if (problems.length || seeds === null || firstSeed === null) {
      showProblems(problems);
      return;
    }
    const current = store.getState().scenario;
    const address = store.getState().address();
    setResult(null);
    setOpened(null);
    forgetChaosSeed(lab);
    setStatus('running');
    setProgress({ done: 0, total: seeds });
    spawn(
      (m, w) => {
        if (m.type === 'progress') setProgress({ done: m.done, total: m.total });
        else if (m.type === 'result') {
          setResult({ ...m, of: current, address });
          setProgress({ done: m.seedsRun, total: m.seedsRun });
          setStatus('done');
          finish(w);
        } else if (m.type === 'error') {
          setStatus('error');
          setMessage(`Chaos: ${m.message}`);
          finish(w);
        }
      },
      { type: 'run', lab, scenario: current, seeds, firstSeed },
    );
  };
  const cancel = () => {
    worker.current?.terminate();
    worker.current = null;
    setStatus('cancelled');
  };
  const openSeed = (seed: number) => {
    if (!result) return;
    const baseAddress = result.address;
    spawn(
      (m, w) => {
        if (m.type === 'opened') showOpened(m, baseAddress);
        else if (m.type === 'error') {
          setStatus('error');
          setMessage(`Chaos: ${m.message}`);
        }
        finish(w);
      },
      { type: 'open', lab, scenario: result.of, seed },
    );
  };
  const link = (seed: number) => (result ? `${window.location.origin}${window.location.pathname}${withChaosSeed(result.address, seed)}` : '');
  const failing = shown ? shown.rows.filter((r) => r.violated.length > 0) : [];
  const livenessOnly = shown ? shown.rows.filter((r) => r.violated.length === 0 && r.liveness.length > 0) : [];

  return (
    <section className="panel chaos-panel" aria-labelledby={`${lab}-chaos-h`} data-testid="chaos">
      <h2 id={`${lab}-chaos-h`}>Chaos</h2>
      <p className="small">
        Runs this scenario under seeded faults from the postmortem&apos;s chaos list (upstream latency 500 ms–5 s, 10 % of connections reset, forged cancellation signals, a partition between two layers, quota exhaustion; the
        ledger also duplicate dispatch) — each lab applies the ones that mean something to it. A seed that breaks a <strong>safety</strong> invariant (at most one execution per key, no response after an accepted cancel, …) is a
        failing seed; <strong>liveness</strong> (every call settles) may fail under faults and is counted apart. Same seed, same faults, same trace.
      </p>
      <RunControls testIdPrefix="chaos" runLabel="Run the swarm" status={status} progress={status === 'done' && !current ? null : progress} message={message} onRun={start} onCancel={cancel} retryable={inputProblems(seedsText, firstSeedText).length === 0}>
        <label className="field-inline">
          <span>Seeds</span>
          <input type="number" min={1} max={MAX_CHAOS_SEEDS} value={seedsText} onChange={(e) => commitSeeds(e.currentTarget.value)} aria-invalid={wholeIn(seedsText, 1, MAX_CHAOS_SEEDS) === null} data-testid="chaos-seeds" style={{ width: '6em' }} />
        </label>
        <label className="field-inline">
          <span>from seed</span>
          <input type="number" min={0} max={MAX_FIRST_SEED} value={firstSeedText} onChange={(e) => commitFirstSeed(e.currentTarget.value)} aria-invalid={wholeIn(firstSeedText, 0, MAX_FIRST_SEED) === null} data-testid="chaos-first-seed" style={{ width: '7em' }} />
        </label>
      </RunControls>
      {opened && (
        <p className="small" data-testid="chaos-opened">
          On the timeline: seed <strong>{opened.seed}</strong>, faults: {opened.faults.join('; ') || 'none'}. Undo puts the scenario back.
        </p>
      )}
      {shown && (
        <div data-testid="chaos-result" data-smallest={shown.smallestFailingSeed ?? ''} data-safety={shown.safetyFailingSeeds} data-liveness={shown.livenessFailingSeeds}>
          <p data-testid="chaos-summary">
            {shown.seedsRun} seeds: <span className={shown.safetyFailingSeeds > 0 ? 'badge badge-bad' : 'badge badge-ok'}>{shown.safetyFailingSeeds} failing (safety)</span>{' '}
            <span className={shown.livenessFailingSeeds > 0 ? 'badge badge-warn' : 'badge badge-ok'}>{shown.livenessFailingSeeds} with liveness failures</span>
            {Object.keys(shown.safety).length > 0 && <> — broken: {Object.entries(shown.safety).map(([k, v]) => `${k} (${v})`).join(', ')}</>}
            {Object.keys(shown.liveness).length > 0 && <> — liveness: {Object.entries(shown.liveness).map(([k, v]) => `${k} (${v})`).join(', ')}</>}
          </p>
          {shown.smallestFailingSeed !== null ? (
            <div className="button-row">
              <button type="button" onClick={() => openSeed(shown.smallestFailingSeed as number)} data-testid="chaos-open-smallest">
                Open the smallest failing seed ({shown.smallestFailingSeed}) on the timeline
              </button>
              <a href={link(shown.smallestFailingSeed)} className="small" data-testid="chaos-link">
                Link to seed {shown.smallestFailingSeed}
              </a>
            </div>
          ) : (
            <p className="small" data-testid="chaos-none">
              No seed broke a safety invariant: this policy held under every fault drawn.
            </p>
          )}
          {(failing.length > 0 || livenessOnly.length > 0) && (
            <ul className="chaos-seeds small" data-testid="chaos-seed-list">
              {[...failing.slice(0, LISTED), ...livenessOnly.slice(0, Math.max(0, LISTED - failing.length))].map((r) => (
                <li key={r.seed} data-testid="chaos-seed" data-seed={r.seed} data-kind={r.violated.length > 0 ? 'safety' : 'liveness'}>
                  <button type="button" className="link-btn" onClick={() => openSeed(r.seed)} aria-label={`Open seed ${r.seed} on the timeline`}>
                    seed {r.seed}
                  </button>{' '}
                  {r.violated.length > 0 && <span className="badge badge-bad">safety: {r.violated.join(', ')}</span>} {r.liveness.length > 0 && <span className="badge badge-warn">liveness: {r.liveness.join(', ')}</span>}
                  <div className="muted chaos-faults">{r.faults.length ? r.faults.join('; ') : 'no fault drawn: the scenario as written'}</div>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
