import { scenarioForOrder } from './explore';
import type { AnyLabDefinition, LabDefinition } from './lab';
import type { OrderClass, OrdersResult } from './orders';
import type { ReplayResult } from './replay';
import type { Scenario } from './types';
import { countInversions, factorial, nextPermutation, progressSaysStop, type ExploreProgress } from './permutations';

/**
 * "All orders" through the lab contract (issue 10 item 5): every order of up to 8 selected events
 * of any lab, grouped into outcome classes (terminal state per call + broken invariants), each with
 * its count and the order closest to the scenario as written (fewest inversions).
 *
 * Labs on the checkpointed core (races) bring their own `explore.orders` (one shared prefix, the
 * fast path); the others are explored here over their `replay` (`keep: 'effects'`): an order is a
 * permutation of the selected events over their sorted original times (`scenarioForOrder`, ties
 * keep the same-millisecond rule), and orders that put two events of one lane (`explore.laneOf`,
 * e.g. a connection's own steps) out of their original order are rejected by the lab's constraint.
 */

/** Hooks of a long exploration: progress every 64 orders (1,024 on the core) and a cancel poll. */
export interface OrdersHooks extends ExploreProgress {
  /** Labs with their own `explore.orders`: skip orders equivalent by commuting events (default: the lab's choice). */
  prune?: boolean;
}

/**
 * A compact key of a terminal state: JSON-like with sorted object keys, leaving out times (keys
 * ending in `Ms`/`AtMs`, which move with every order) so that orders reaching the same states form
 * one class. The outcome class of labs without a hand-written `classify`.
 */
export function outcomeKey(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(outcomeKey).join(',')}]`;
  const o = value as Record<string, unknown>;
  return `{${Object.keys(o).sort().filter((k) => o[k] !== undefined && !/Ms$/.test(k)).map((k) => `${k}:${outcomeKey(o[k])}`).join(',')}}`;
}

/** The events the "All orders" panel selects first: the lab's natural set, else the first 8 movable events. */
export function naturalOrderEvents(definition: AnyLabDefinition, scenario: Scenario): string[] {
  const ex = definition.explore;
  if (!ex) return [];
  return (ex.natural?.(scenario) ?? ex.movable(scenario)).slice(0, 8);
}

/**
 * Every order of `events` (ids, 1–8) of `scenario`, through the definition. Throws `Error` when the
 * lab has no explorer, or for an unknown, repeated or missing selection, or more than 8 events
 * (each message names the field: `events: …`).
 */
export function exploreLabOrders<S, O, T extends ReplayResult<S, O>>(
  definition: LabDefinition<S, O, T>,
  scenario: Scenario,
  events: readonly string[],
  hooks: OrdersHooks = {},
): OrdersResult<O> {
  const ex = definition.explore;
  if (!ex) throw new Error(`explore: the ${definition.id} lab has no explorer`);
  const k = events.length;
  if (k === 0) throw new Error('events: nothing is selected — select 1 to 8 events (this scenario may have no scripted events to order)');
  if (ex.orders) return ex.orders(scenario, events, hooks);
  if (k > 8) throw new Error(`events: select 1 to 8 events, got ${k} — pick fewer events to explore`);
  const index = new Map(scenario.events.map((e, i) => [e.id, i]));
  const byId = new Map(scenario.events.map((e) => [e.id, e]));
  for (const id of events) if (!index.has(id)) throw new Error(`events: no event with id "${id}" in scenario ${scenario.id} — use an id from the scenario's events`);
  if (new Set(events).size !== k) throw new Error('events: an id is selected twice — select each event once');
  const original = [...events].sort((a, b) => byId.get(a)!.at - byId.get(b)!.at || index.get(a)! - index.get(b)!);
  const lane = original.map((id) => ex.laneOf(byId.get(id)!));
  const classify = (outcome: O, broken: readonly string[]) => {
    const calls = ex.classify(outcome);
    return broken.length === 0 ? calls : `${calls} | broken: ${broken.join(', ')}`;
  };
  const total = factorial(k);
  const perm = original.map((_, i) => i);
  const classes = new Map<string, OrderClass<O>>();
  let evaluated = 0;
  let rejected = 0;
  let cancelled = false;
  for (let n = 0; n < total; n++) {
    if (progressSaysStop(hooks, n, total, 64)) {
      cancelled = true;
      break;
    }
    if (keepsLanes(perm, lane)) {
      const order = perm.map((i) => original[i]);
      const trace = definition.replay(scenarioForOrder(scenario, order), { keep: 'effects' });
      const broken = trace.invariants.filter((i) => i.firstViolation !== null).map((i) => i.name);
      const key = classify(trace.outcome, broken);
      const inversions = countInversions(perm);
      const c = classes.get(key);
      if (c === undefined) classes.set(key, { key, count: 1, example: order, inversions, outcome: trace.outcome, broken });
      else {
        c.count++;
        if (inversions < c.inversions) Object.assign(c, { example: order, inversions, outcome: trace.outcome });
      }
      evaluated++;
    } else rejected++;
    nextPermutation(perm);
  }
  if (!cancelled) hooks.onProgress?.(total, total);
  return { total, evaluated, rejected, pruned: 0, cancelled, classes: [...classes.values()].sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1)) };
}

/** The scenario an order stands for (the counterexample the panel opens): `scenarioForOrder`. */
export function scenarioOfOrder(scenario: Scenario, order: readonly string[]): Scenario {
  return scenarioForOrder(scenario, order);
}

/** True when every lane's selected events keep their original relative order in `perm`. */
function keepsLanes(perm: readonly number[], lane: readonly string[]): boolean {
  for (let i = 0; i < perm.length; i++) for (let j = i + 1; j < perm.length; j++) if (perm[i] > perm[j] && lane[perm[i]] === lane[perm[j]]) return false;
  return true;
}
