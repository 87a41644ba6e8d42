/**
 * Issue 10 figures: the races replay on the checkpointed core beside the old engine (the oracle
 * copy in oracle/), in the same process, interleaved rounds, medians. Workloads: 100,000
 * scripted events over Streamable HTTP (2026-07-28), each call: start, progress every 10 ms, then
 * complete, cancel or silence until the idle timeout (200 ms) fires; every invariant on.
 *   (a) 100 concurrent calls of 1,000 events;  (b) 1,000 calls of 100 events in sequence, a new one
 *   every 100 ms, so about 10 are in flight.
 * Prints; never fails on speed.
 */
import { performance } from 'node:perf_hooks';
import { oracleReplayRaces } from '../oracle';
import { replay } from '../src/sim/replay';
import { racesCore, racesModel } from '../src/sim/races';
import { SeekableTrace } from '../src/sim/trace';
import { parseScenario } from '../src/sim/scenario';
import { LAB_SCHEMAS } from '../src/sim/labs';
import type { Scenario } from '../src/sim/types';

export type Workload = 'concurrent' | 'sequential';

/** The issue's workload: `total` events, (a) 100 concurrent calls or (b) 1,000 sequential calls ~10 in flight. */
export function issueWorkload(kind: Workload, total = 100_000): Scenario {
  const calls = kind === 'concurrent' ? 100 : 1000;
  const perCall = Math.floor(total / calls);
  const gapMs = kind === 'concurrent' ? 7 : 100;
  const events: Record<string, unknown>[] = [];
  for (let c = 0; c < calls; c++) {
    const t0 = c * gapMs;
    const id = c + 1;
    events.push({ id: `s${id}`, at: t0, actor: 'client', kind: 'start', requestId: id, progressToken: `p${id}`, idleTimeoutMs: 200, maxTimeoutMs: perCall * 10 + 1000 });
    const ending = c % 10 === 0 ? 'cancel' : c % 10 === 1 ? 'idle' : 'complete';
    const progressCount = ending === 'idle' ? perCall - 1 : perCall - 2;
    for (let k = 1; k <= progressCount; k++) events.push({ id: `p${id}-${k}`, at: t0 + k * 10, actor: 'server', kind: 'progress', requestId: id, progress: k });
    const endAt = t0 + (progressCount + 1) * 10;
    if (ending === 'cancel') events.push({ id: `x${id}`, at: endAt - 3, actor: 'client', kind: 'cancel', requestId: id });
    else if (ending === 'complete') events.push({ id: `c${id}`, at: endAt, actor: 'server', kind: 'complete', requestId: id });
  }
  events.sort((a, b) => (a.at as number) - (b.at as number));
  const r = parseScenario({ format: 1, lab: 'races', id: `bench-${kind}`, title: kind, seed: 1, config: { transport: 'streamable-http', latencyMs: { clientToServer: 5, serverToClient: 5 } }, events }, 'races', LAB_SCHEMAS.races);
  if (!r.ok) throw new Error(r.errors.join('; '));
  if (r.scenario.events.length !== total) throw new Error(`workload has ${r.scenario.events.length} events, expected ${total}`);
  return r.scenario;
}

/** The engines compared, by name. */
export const ENGINES = {
  'old effects': (s: Scenario) => oracleReplayRaces(s, 'effects').stepCount,
  'new fast path': (s: Scenario) => replay(racesModel, s, { keep: 'effects' }).stepCount,
  'new seekable': (s: Scenario) => SeekableTrace.replay(racesCore, s).stepCount,
} as const;
export type EngineName = keyof typeof ENGINES;

export interface EngineFigure {
  engine: EngineName;
  workload: Workload;
  events: number;
  steps: number;
  medianMs: number;
  eventsPerSecond: number;
  /** Median CPU time of this process during one replay (user + system, ms): steadier than wall time on a shared machine. */
  medianCpuMs: number;
  eventsPerCpuSecond: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Interleaved rounds: each round runs every engine once on the workload; medians per engine. */
export function benchEngines(workload: Workload, rounds = 7, engines: EngineName[] = Object.keys(ENGINES) as EngineName[]): EngineFigure[] {
  const scenario = issueWorkload(workload);
  const times = new Map<EngineName, number[]>(engines.map((e) => [e, []]));
  const cpu = new Map<EngineName, number[]>(engines.map((e) => [e, []]));
  const steps = new Map<EngineName, number>();
  for (const e of engines) ENGINES[e](scenario); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const e of engines) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      steps.set(e, ENGINES[e](scenario));
      times.get(e)!.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu.get(e)!.push((c.user + c.system) / 1000);
    }
  }
  return engines.map((engine) => {
    const medianMs = median(times.get(engine)!);
    const medianCpuMs = median(cpu.get(engine)!);
    const events = scenario.events.length;
    return { engine, workload, events, steps: steps.get(engine)!, medianMs, eventsPerSecond: events / (medianMs / 1000), medianCpuMs, eventsPerCpuSecond: events / (medianCpuMs / 1000) };
  });
}
