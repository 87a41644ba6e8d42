/**
 * Node benchmark: replay throughput on a 100,000-event scenario (target ≥ 1,000,000 events/s).
 * Two figures, same engine and model: keep 'steps' (the full trace the lab and tests use: per-step
 * state, notes, effects) and keep 'effects' (what the CLI needs: wire effects, invariants, outcome).
 * Prints figures and the ratio to the target; never fails on speed (that is not a test).
 */
import { performance } from 'node:perf_hooks';
import { replay } from '../src/sim/replay';
import { racesModel } from '../src/sim/races';
import { bigRacesScenario } from './scenarios';

export interface ReplayFigures {
  calls: number;
  keep: 'steps' | 'effects';
  events: number;
  steps: number;
  medianMs: number;
  eventsPerSecond: number;
  ratioToTarget: number;
}

export function benchReplay(calls: number, keep: 'steps' | 'effects', runs = 7): ReplayFigures {
  const scenario = bigRacesScenario(100_000, calls);
  const events = scenario.events.length;
  for (let i = 0; i < 2; i++) replay(racesModel, scenario, { keep });
  const times: number[] = [];
  let steps = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const trace = replay(racesModel, scenario, { keep });
    times.push(performance.now() - t0);
    steps = trace.stepCount;
  }
  times.sort((a, b) => a - b);
  const medianMs = times[Math.floor(times.length / 2)];
  const eventsPerSecond = events / (medianMs / 1000);
  return { calls, keep, events, steps, medianMs, eventsPerSecond, ratioToTarget: eventsPerSecond / 1_000_000 };
}
