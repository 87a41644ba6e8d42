import type { Scenario, ScriptedEvent } from './types';

/**
 * The interleaving explorer: every order of a scenario's movable events that keeps each lane's
 * own order, replayed one by one, with the outcomes grouped. Generic over labs: the caller says
 * which events move, what a lane is, how to replay and how to name an outcome.
 *
 * An ordering is realised as data: the movable events' original times, sorted, are handed out
 * in the new order (ties broken by the new order through event order in the file), so every
 * ordering is an ordinary scenario that replays, shares and opens on the timeline like any other.
 * For lanes of sizes n₁…n_k there are (n₁+…+n_k)! / (n₁!…n_k!) orderings (two lanes of five: 252).
 */

/** What to explore. `O` is the lab's outcome type. */
export interface ExploreSpec<O> {
  scenario: Scenario;
  /** Ids of the events that may move; the rest keep their time. Unknown ids throw `Error`. */
  movable: readonly string[];
  /** The lane of an event: movable events of one lane keep their relative order. */
  laneOf(event: ScriptedEvent): string;
  /** Replays one ordering (a full scenario) to its outcome. Must be deterministic. */
  run(scenario: Scenario): O;
  /** Names an outcome; orderings with the same name form one group. */
  classify(outcome: O): string;
}

/** One ordering: movable event ids in execution order, and how often it switches lanes. */
export interface Interleaving {
  order: string[];
  /** Number of times consecutive events belong to different lanes (fewer = simpler to follow). */
  switches: number;
}

/** A group of orderings with the same outcome name. */
export interface OutcomeGroup<O> {
  key: string;
  count: number;
  /** The simplest ordering of the group: fewest lane switches, then first in enumeration order. */
  example: Interleaving;
  outcome: O;
}

/** The explorer's result; `cancelled` when `shouldStop` ended it early (then `done < total`). */
export interface ExploreResult<O> {
  total: number;
  done: number;
  cancelled: boolean;
  groups: OutcomeGroup<O>[];
}

/** The number of orderings that keep each lane's order: the multinomial coefficient of `sizes`. */
export function countInterleavings(sizes: readonly number[]): number {
  let total = 1;
  let n = 0;
  for (const k of sizes) {
    for (let i = 1; i <= k; i++) {
      n++;
      total = (total * n) / i;
    }
  }
  return Math.round(total);
}

/** Splits movable ids into lanes (each in time order, ties by file order). Throws for unknown ids. */
export function movableLanes(scenario: Scenario, movable: readonly string[], laneOf: (e: ScriptedEvent) => string): string[][] {
  const index = new Map(scenario.events.map((e, i) => [e.id, i]));
  for (const id of movable) if (!index.has(id)) throw new Error(`explore: no event with id "${id}" in scenario ${scenario.id}`);
  const sorted = [...movable].sort((a, b) => {
    const ea = scenario.events[index.get(a)!];
    const eb = scenario.events[index.get(b)!];
    return ea.at - eb.at || index.get(a)! - index.get(b)!;
  });
  const lanes = new Map<string, string[]>();
  for (const id of sorted) {
    const lane = laneOf(scenario.events[index.get(id)!]);
    if (!lanes.has(lane)) lanes.set(lane, []);
    lanes.get(lane)!.push(id);
  }
  return [...lanes.values()];
}

/** Every merge of `lanes` that keeps each lane's order, in a fixed (lexicographic by lane) order. */
export function* interleavings(lanes: readonly (readonly string[])[]): Generator<Interleaving> {
  const pos = lanes.map(() => 0);
  const total = lanes.reduce((n, l) => n + l.length, 0);
  const order: string[] = [];
  const laneAt: number[] = [];
  function* rec(switches: number): Generator<Interleaving> {
    if (order.length === total) {
      yield { order: order.slice(), switches };
      return;
    }
    for (let l = 0; l < lanes.length; l++) {
      if (pos[l] >= lanes[l].length) continue;
      const sw = laneAt.length > 0 && laneAt[laneAt.length - 1] !== l ? 1 : 0;
      order.push(lanes[l][pos[l]]);
      laneAt.push(l);
      pos[l]++;
      yield* rec(switches + sw);
      pos[l]--;
      laneAt.pop();
      order.pop();
    }
  }
  yield* rec(0);
}

/**
 * The scenario in which the movable events happen in `order`: the sorted original times of the
 * movable events are assigned in that order, and events are re-listed so equal times keep it.
 * Other events are untouched. Pure; the input is not mutated.
 */
export function scenarioForOrder(scenario: Scenario, order: readonly string[]): Scenario {
  const moving = new Set(order);
  const byId = new Map(scenario.events.map((e) => [e.id, e]));
  const slots = order.map((id) => byId.get(id)!.at).sort((a, b) => a - b);
  const fixed = scenario.events.filter((e) => !moving.has(e.id));
  const moved = order.map((id, i) => ({ ...byId.get(id)!, at: slots[i] }));
  const events = [...fixed, ...moved].sort((a, b) => a.at - b.at);
  return { ...scenario, events };
}

/**
 * Replays every ordering and groups the outcomes. `onProgress(done, total)` is called after each
 * replay; `shouldStop()` is polled before each and ends the run early (`cancelled: true`).
 * Groups are sorted by count, largest first. Throws only what `spec.run` throws.
 */
export function explore<O>(
  spec: ExploreSpec<O>,
  hooks: { onProgress?(done: number, total: number): void; shouldStop?(): boolean } = {},
): ExploreResult<O> {
  const lanes = movableLanes(spec.scenario, spec.movable, spec.laneOf);
  const total = countInterleavings(lanes.map((l) => l.length));
  const groups = new Map<string, OutcomeGroup<O>>();
  let done = 0;
  let cancelled = false;
  for (const il of interleavings(lanes)) {
    if (hooks.shouldStop?.()) {
      cancelled = true;
      break;
    }
    const outcome = spec.run(scenarioForOrder(spec.scenario, il.order));
    const key = spec.classify(outcome);
    const g = groups.get(key);
    if (!g) groups.set(key, { key, count: 1, example: il, outcome });
    else {
      g.count++;
      if (il.switches < g.example.switches) {
        g.example = il;
        g.outcome = outcome;
      }
    }
    done++;
    hooks.onProgress?.(done, total);
  }
  return { total, done, cancelled, groups: [...groups.values()].sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1)) };
}

export { exploreOrders, type OrdersSpec, type OrdersResult, type OrderClass } from './orders';
