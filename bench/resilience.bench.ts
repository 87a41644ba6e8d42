/**
 * Node benchmark: simulated calls per second through the resilience lab's breaker plus retry, with
 * 100,000 logical calls (one every ms) against a downstream that fails for 2 s out of every 5 s, so
 * the breaker opens, probes and closes again and retries and the token bucket stay busy.
 * Both compositions, both keep modes; and the old engine (the oracle copy of the old immutable
 * model) beside the new core in the same run, interleaved rounds, medians (issue 10: "flow and
 * resilience replays: ≥ 5× the old engine"). Prints figures and ratios; never fails on speed.
 */
import { performance } from 'node:perf_hooks';
import { parseScenario } from '../src/sim/scenario';
import { LAB_SCHEMAS } from '../src/sim/labs';
import { replayResilience, resilienceCore } from '../src/sim/resilience';
import { SeekableTrace } from '../src/sim/trace';
import { oracleReplayResilience } from '../oracle';
import type { Scenario } from '../src/sim/types';

export interface BreakerFigures {
  composition: string;
  keep: 'steps' | 'effects';
  calls: number;
  steps: number;
  wireAttempts: number;
  medianMs: number;
  callsPerSecond: number;
}

/** 100,000 calls, 1 ms apart; outages of 2000 ms every 5000 ms. */
export function breakerBenchScenario(calls: number, composition: string): Scenario {
  const events: Record<string, unknown>[] = [];
  for (let i = 0; i < calls; i++) events.push({ id: `c${i}`, at: i, actor: 'client', kind: 'request' });
  for (let t = 0; t < calls; t += 5000) {
    events.push({ id: `out${t}`, at: t, actor: 'upstream', kind: 'outage' }, { id: `rec${t}`, at: t + 2000, actor: 'upstream', kind: 'recover' });
  }
  const r = parseScenario(
    {
      format: 1, lab: 'resilience', id: 'bench', title: 'bench', seed: 1,
      config: {
        mechanism: 'breaker', composition,
        breaker: { failureThreshold: 20, failureRateThreshold: 0.5, windowMs: 1000, cooldownMs: 500, halfOpenPermits: 3 },
        retry: { maxAttempts: 3, strategy: 'full-jitter', baseMs: 10, capMs: 200, budget: 'token-bucket', maxTokens: 100, tokenRatio: 0.1 },
        downstream: { latencyMs: 20, failingAtStart: false, failWith: 'http-503' },
      },
      events,
    },
    'resilience',
    LAB_SCHEMAS.resilience,
  );
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

export function benchBreaker(composition: string, keep: 'steps' | 'effects', calls = 100_000, runs = 5): BreakerFigures {
  const scenario = breakerBenchScenario(calls, composition);
  replayResilience(scenario, { keep });
  const times: number[] = [];
  let steps = 0;
  let wireAttempts = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const trace = replayResilience(scenario, { keep });
    times.push(performance.now() - t0);
    steps = trace.stepCount;
    wireAttempts = (trace.outcome.summary as { wireAttempts: number }).wireAttempts;
  }
  times.sort((a, b) => a - b);
  const medianMs = times[Math.floor(times.length / 2)];
  return { composition, keep, calls, steps, wireAttempts, medianMs, callsPerSecond: calls / (medianMs / 1000) };
}

/** The engines compared: the old engine on the oracle model, and the new core in each of its modes. */
export const RESILIENCE_ENGINES = ['old effects', 'new fast path', 'old steps', 'new steps', 'new seekable'] as const;
export type ResilienceEngine = (typeof RESILIENCE_ENGINES)[number];

function runEngine(engine: ResilienceEngine, scenario: Scenario): number {
  switch (engine) {
    case 'old effects':
      return oracleReplayResilience(scenario, 'effects').stepCount;
    case 'old steps':
      return oracleReplayResilience(scenario, 'steps').stepCount;
    case 'new fast path':
      return replayResilience(scenario, { keep: 'effects' }).stepCount;
    case 'new steps':
      return replayResilience(scenario, { keep: 'steps' }).stepCount;
    case 'new seekable':
      return SeekableTrace.replay(resilienceCore, scenario).stepCount;
  }
}

/** One engine's figures in the old-vs-new comparison. */
export interface EngineFigures {
  engine: ResilienceEngine;
  steps: number;
  medianMs: number;
  stepsPerSecond: number;
}

/**
 * Old engine vs new core on the breaker workload (`calls` calls, `composition`): `rounds`
 * interleaved rounds, each running every engine once (in a rotating order), after one warm-up run
 * each; medians.
 */
export function benchResilienceEngines(composition: string, calls = 100_000, rounds = 5): EngineFigures[] {
  const scenario = breakerBenchScenario(calls, composition);
  const times = new Map<ResilienceEngine, number[]>(RESILIENCE_ENGINES.map((e) => [e, []]));
  const steps = new Map<ResilienceEngine, number>();
  for (const e of RESILIENCE_ENGINES) steps.set(e, runEngine(e, scenario));
  for (let r = 0; r < rounds; r++) {
    for (let j = 0; j < RESILIENCE_ENGINES.length; j++) {
      const e = RESILIENCE_ENGINES[(j + r) % RESILIENCE_ENGINES.length];
      const t0 = performance.now();
      runEngine(e, scenario);
      times.get(e)!.push(performance.now() - t0);
    }
  }
  return RESILIENCE_ENGINES.map((engine) => {
    const t = times.get(engine)!.sort((a, b) => a - b);
    const medianMs = t[Math.floor(t.length / 2)];
    const n = steps.get(engine)!;
    return { engine, steps: n, medianMs, stepsPerSecond: n / (medianMs / 1000) };
  });
}
