/**
 * Node benchmark of the flow lab: the reconnect herd of 100,000 clients × 8 attempts for every
 * backoff strategy (target < 100 ms each). Median of 7 runs after 2 warm-ups. 'lesson-sha256' is
 * measured twice: computing its SHA-256 delays, and redrawing from the table the page caches (its
 * delays depend on nothing but client and attempt). Prints figures and the ratio to the target;
 * never fails on speed.
 */
import { performance } from 'node:perf_hooks';
import { BACKOFF_STRATEGIES, type BackoffStrategy } from '../src/sim/flow/backoff';
import { lessonDelayTable, simulateHerd, type HerdParams } from '../src/sim/flow/herd';

export interface HerdFigures {
  label: string;
  medianMs: number;
  attempts: number;
  ratioToTarget: number;
}

export const HERD_BENCH_PARAMS: Omit<HerdParams, 'strategy'> = {
  clients: 100_000,
  backoff: { baseMs: 1000, capMs: 32000, seed: 1 },
  outageMs: 10000,
  acceptPerSecond: 5000,
  maxAttempts: 8,
  bucketMs: 1000,
};

function median(fn: () => number, runs: number): { ms: number; value: number } {
  for (let i = 0; i < 2; i++) fn();
  const times: number[] = [];
  let value = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    value = fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], value };
}

export function benchHerd(runs = 7): HerdFigures[] {
  const out: HerdFigures[] = BACKOFF_STRATEGIES.map((strategy: BackoffStrategy) => {
    const r = median(() => simulateHerd({ ...HERD_BENCH_PARAMS, strategy }).totalAttempts, runs);
    return { label: strategy, medianMs: r.ms, attempts: r.value, ratioToTarget: r.ms / 100 };
  });
  const table = lessonDelayTable(HERD_BENCH_PARAMS.clients, HERD_BENCH_PARAMS.maxAttempts);
  const cached = median(() => simulateHerd({ ...HERD_BENCH_PARAMS, strategy: 'lesson-sha256' }, table).totalAttempts, runs);
  out.push({ label: 'lesson-sha256 (cached)', medianMs: cached.ms, attempts: cached.value, ratioToTarget: cached.ms / 100 });
  const build = median(() => lessonDelayTable(HERD_BENCH_PARAMS.clients, HERD_BENCH_PARAMS.maxAttempts).length, 3);
  out.push({ label: 'lesson table build', medianMs: build.ms, attempts: build.value, ratioToTarget: build.ms / 100 });
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const f of benchHerd()) console.log(f.label.padEnd(24), f.medianMs.toFixed(1), 'ms', f.attempts, `${f.ratioToTarget.toFixed(2)} of budget`);
}
