/**
 * Node benchmark of the flow lab. `benchFlowReplay`: the flow model's replay on the checkpointed
 * core beside the old engine (the oracle copy), same process, interleaved rounds, medians (issue
 * 10 target: ≥ 5× the old engine). `benchHerd`: the reconnect herd of 100,000 clients × 8 attempts for every
 * backoff strategy (target < 100 ms each). Median of 7 runs after 2 warm-ups. 'lesson-sha256' is
 * measured twice: computing its SHA-256 delays, and redrawing from the table the page caches (its
 * delays depend on nothing but client and attempt). Prints figures and the ratio to the target;
 * never fails on speed.
 */
import { performance } from 'node:perf_hooks';
import { oracleReplayFlow } from '../oracle';
import { replay } from '../src/sim/replay';
import { flowCore, flowModel } from '../src/sim/flow';
import { SeekableTrace } from '../src/sim/trace';
import { parseScenario } from '../src/sim/scenario';
import { LAB_SCHEMAS } from '../src/sim/labs';
import type { Scenario } from '../src/sim/types';
import { BACKOFF_STRATEGIES, type BackoffStrategy } from '../src/sim/retry/backoff';
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

/** The flow replay workloads, by name. */
export type FlowWorkload = 'stream' | 'stalled' | 'fleet';

function flowScenario(id: string, config: Record<string, unknown>, events: Record<string, unknown>[] = []): Scenario {
  const r = parseScenario({ format: 1, lab: 'flow', id, title: id, seed: 1, config, events }, 'flow', LAB_SCHEMAS.flow);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

/**
 * (a) stream: two producers write 50,000 progress events each (every 2 ms and 3 ms) and a final, a
 *     reader that keeps up, a proxy with a read timeout, keep-alives every second, an idle timeout;
 * (b) stalled: the same producers at 20,000 each into the lesson buffer (capacity 64) with a paced
 *     reader (5 ms per event), a stall every 10 s and a drop every 25 s (coalescing, drops, resyncs);
 * (c) fleet: 2,000 clients against a cap of 1,500 streams (evict-oldest), a restart at 60 s.
 */
export function flowWorkload(kind: FlowWorkload): Scenario {
  const producers = (count: number) => [
    { token: 'A', intervalMs: 2, count, final: true },
    { token: 'B', startMs: 1, intervalMs: 3, count, final: true },
  ];
  if (kind === 'stream') {
    return flowScenario('bench-stream', {
      producers: producers(50_000),
      proxy: { enabled: true, readTimeoutMs: 5000 },
      keepAliveIntervalMs: 1000,
      client: { idleTimeoutMs: 30000 },
      horizonMs: 200_000,
    });
  }
  if (kind === 'stalled') {
    const events: Record<string, unknown>[] = [];
    for (let t = 5000; t < 60_000; t += 10_000) events.push({ id: `stall${t}`, at: t, actor: 'client', kind: 'stall', durationMs: 2000 });
    for (let t = 25_000; t < 60_000; t += 25_000) events.push({ id: `drop${t}`, at: t, actor: 'wire', kind: 'drop' });
    events.sort((a, b) => (a.at as number) - (b.at as number));
    // Like for like with the old engine: its drops resume the stream, the 2026-07-28 rule (a broken
    // stream loses the request, which is re-issued) is newer than the oracle, so the old rule is on here.
    return flowScenario('bench-stalled', { policy: 'lesson', capacityEvents: 64, producers: producers(20_000), consumer: { readIntervalMs: 5 }, client: { reconnectDelayMs: 500 }, bugs: { resumeUnder2026: true }, horizonMs: 200_000 }, events);
  }
  return flowScenario('bench-fleet', {
    fleet: { clients: 2000, connectAtMs: 0, maxStreams: 1500, atCap: 'evict-oldest', evictedReconnectMs: 3000, restart: { atMs: 60_000, durationMs: 2000 }, reconnectDelayMs: 5000, jitterMs: 1000 },
    horizonMs: 120_000,
  });
}

/** The engines compared, by name: each returns the step count. */
export const FLOW_ENGINES = {
  'old effects': (s: Scenario) => oracleReplayFlow(s, 'effects').stepCount,
  'new fast path': (s: Scenario) => replay(flowModel, s, { keep: 'effects' }).stepCount,
  'new seekable': (s: Scenario) => SeekableTrace.replay(flowCore, s).stepCount,
} as const;
export type FlowEngineName = keyof typeof FLOW_ENGINES;

export interface FlowReplayFigure {
  workload: FlowWorkload;
  engine: FlowEngineName;
  steps: number;
  medianMs: number;
  stepsPerSecond: number;
  /** Old engine's median / this engine's median (the target: ≥ 5 for the new engines). */
  speedup: number;
}

const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Interleaved rounds: each round runs every engine once on the workload (after one warm-up each); medians. */
export function benchFlowReplay(workload: FlowWorkload, rounds = 7): FlowReplayFigure[] {
  const scenario = flowWorkload(workload);
  const engines = Object.keys(FLOW_ENGINES) as FlowEngineName[];
  const times = new Map<FlowEngineName, number[]>(engines.map((e) => [e, []]));
  const steps = new Map<FlowEngineName, number>();
  for (const e of engines) FLOW_ENGINES[e](scenario);
  for (let r = 0; r < rounds; r++) {
    for (const e of engines) {
      const t0 = performance.now();
      steps.set(e, FLOW_ENGINES[e](scenario));
      times.get(e)!.push(performance.now() - t0);
    }
  }
  const oldMs = mid(times.get('old effects')!);
  return engines.map((engine) => {
    const medianMs = mid(times.get(engine)!);
    return { workload, engine, steps: steps.get(engine)!, medianMs, stepsPerSecond: steps.get(engine)! / (medianMs / 1000), speedup: oldMs / medianMs };
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const w of ['stream', 'stalled', 'fleet'] as FlowWorkload[]) {
    for (const f of benchFlowReplay(w, Number(process.env.BENCH_ROUNDS ?? 7))) console.log(w.padEnd(8), f.engine.padEnd(14), f.steps, f.medianMs.toFixed(1), 'ms', Math.round(f.stepsPerSecond), 'steps/s', `${f.speedup.toFixed(2)}× old`);
  }
  for (const f of benchHerd()) console.log(f.label.padEnd(24), f.medianMs.toFixed(1), 'ms', f.attempts, `${f.ratioToTarget.toFixed(2)} of budget`);
}
