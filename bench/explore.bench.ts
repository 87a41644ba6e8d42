/**
 * Explorer bench (issue 10 item 5): all 40,320 orders of 8 events of a races scenario, no pruning,
 * on the core's fast path (target < 1 s in Node), beside the old way — every order written out as
 * a scenario (`scenarioForOrder`) and replayed whole by the old engine (the oracle copy).
 */
import { performance } from 'node:perf_hooks';
import { oracleReplayRaces } from '../oracle';
import { scenarioForOrder } from '../src/sim/explore';
import { exploreRacesOrders } from '../src/sim/races';
import { loadBuiltinScenario } from '../src/sim/__tests__/builtinScenarios';

export interface ExploreFigure {
  scenario: string;
  events: string[];
  orders: number;
  classes: number;
  medianMs: number;
  /** Median CPU time of the process (user + system), steadier on a shared machine. */
  medianCpuMs: number;
  prunedWith: number;
  oldMs: number;
}

function* permutations(ids: string[]): Generator<string[]> {
  if (ids.length <= 1) {
    yield ids;
    return;
  }
  for (let i = 0; i < ids.length; i++) for (const rest of permutations([...ids.slice(0, i), ...ids.slice(i + 1)])) yield [ids[i], ...rest];
}

export function benchExplore(id: string, pick: (ids: string[]) => string[], rounds = 3, withOld = true): ExploreFigure {
  const scenario = loadBuiltinScenario('races', id);
  const events = pick(scenario.events.map((e) => e.id));
  exploreRacesOrders(scenario, events);
  const times: number[] = [];
  const cpu: number[] = [];
  let r = exploreRacesOrders(scenario, events);
  for (let i = 0; i < rounds; i++) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    r = exploreRacesOrders(scenario, events);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
  }
  times.sort((a, b) => a - b);
  cpu.sort((a, b) => a - b);
  const pruned = exploreRacesOrders(scenario, events, { prune: true }).pruned;
  let oldMs = NaN;
  if (withOld) {
    const t0 = performance.now();
    for (const order of permutations(events)) oracleReplayRaces(scenarioForOrder(scenario, order), 'effects');
    oldMs = performance.now() - t0;
  }
  return { scenario: id, events, orders: r.evaluated, classes: r.classes.length, medianMs: times[Math.floor(times.length / 2)], medianCpuMs: cpu[Math.floor(cpu.length / 2)], prunedWith: pruned, oldMs };
}
