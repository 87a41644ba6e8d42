import { CoreRun, type Checkpoint, type CoreModel } from './core';
import { compareEntries } from './queue';
import type { QueueEntry, Scenario, ScriptedEvent } from './types';
import { countInversions, factorial, nextPermutation, progressSaysStop, type ExploreProgress } from './permutations';

/**
 * "All orders at once" (issue 10 item 5, the `src/sim` half): every order of up to 8 selected
 * events, replayed on the fast path of the checkpointed core and grouped by outcome class.
 *
 * An order is a permutation of the selected events over the same time slots: the sorted original
 * times of the selected events are handed out in the permuted sequence; the other events keep
 * their time. Events are re-listed as `scenarioForOrder` (explore.ts) does — at one millisecond the
 * unselected events first, then the selected ones in the order's sequence — so the same-millisecond
 * tie rule applies to every order as it would to the scenario file it stands for.
 * Everything before the earliest slot is the same in every order: it runs once, and every order
 * resumes from that checkpoint.
 */

/** What to explore. `O` is the model's outcome type. */
export interface OrdersSpec<C, S, V, O, T> {
  model: CoreModel<C, S, V, O, T>;
  scenario: Scenario;
  /** Ids of the selected events, 1–8. Unknown or repeated ids throw `Error`. */
  events: readonly string[];
  /** The lab's constraint (e.g. a connection's own steps stay in order): false skips the order. */
  allowed?(order: readonly string[], byId: ReadonlyMap<string, ScriptedEvent>): boolean;
  /**
   * True when `a` and `b`, given the same millisecond in adjacent positions, lead to the same
   * outcome class in either order (they touch different entities). Enables pruning.
   */
  commute?(a: ScriptedEvent, b: ScriptedEvent): boolean;
  /** The outcome class of a finished order (e.g. terminal state per call + broken invariants). */
  classify(outcome: O, broken: readonly string[]): string;
}

/** One outcome class: how many orders reach it, and its shortest counterexample. */
export interface OrderClass<O> {
  key: string;
  count: number;
  /**
   * The order closest to the scenario as written: fewest inversions against the original order
   * of the selected events (then first in enumeration). Ids in execution order.
   */
  example: string[];
  inversions: number;
  outcome: O;
  broken: string[];
}

/** The explorer's result. `total` = k!; `total = evaluated + rejected + pruned` unless cancelled. */
export interface OrdersResult<O> {
  total: number;
  evaluated: number;
  /** Orders the lab's constraint refused. */
  rejected: number;
  /** Orders skipped as equivalent to an evaluated one (commuting events at one millisecond). */
  pruned: number;
  cancelled: boolean;
  /** Sorted by count, largest first, then by key. */
  classes: OrderClass<O>[];
}

/**
 * Replays every order of `spec.events` and groups the outcomes. `onProgress(done, total)` is called
 * every 1,024 orders; `shouldStop()` is polled as often and ends the run (`cancelled: true`).
 * Throws `Error` for an unknown, repeated or missing selection, or more than 8 events.
 */
export function exploreOrders<C, S, V, O, T>(
  spec: OrdersSpec<C, S, V, O, T>,
  hooks: ExploreProgress = {},
): OrdersResult<O> {
  const { model, scenario } = spec;
  const k = spec.events.length;
  if (k < 1 || k > 8) throw new Error(`events: select 1 to 8 events, got ${k} — pick fewer events to explore`);
  const index = new Map(scenario.events.map((e, i) => [e.id, i]));
  const byId = new Map(scenario.events.map((e) => [e.id, e]));
  for (const id of spec.events) if (!index.has(id)) throw new Error(`events: no event with id "${id}" in scenario ${scenario.id} — use an id from the scenario's events`);
  if (new Set(spec.events).size !== k) throw new Error('events: an id is selected twice — select each event once');
  // Selected events in original order (time, then file order); slots are their sorted times.
  const original = [...spec.events].sort((a, b) => byId.get(a)!.at - byId.get(b)!.at || index.get(a)! - index.get(b)!);
  const slots = original.map((id) => byId.get(id)!.at);
  const firstSlot = slots[0];
  const selected = new Set(original);
  const fixed = scenario.events.filter((e) => !selected.has(e.id));
  // moved[i][s]: selected event i placed at slot s (copies made once).
  const moved = original.map((id) => slots.map((at) => ({ ...byId.get(id)!, at })));
  const rank = model.scriptedRank;

  const sortedEntries = (perm: readonly number[]): QueueEntry[] => {
    const events: ScriptedEvent[] = fixed.slice();
    for (let s = 0; s < k; s++) events.push(moved[perm[s]][s]);
    const listed = events.map((e, i) => ({ e, i })).sort((a, b) => a.e.at - b.e.at || a.i - b.i);
    const out: QueueEntry[] = listed.map(({ e }, seq) => ({ at: e.at, rank: rank(e), seq, source: 'script', payload: e, label: e.id, actor: e.actor, handle: -1 }));
    return out.sort(compareEntries);
  };
  // When every selected event has one rank, each slot keeps its seq and its place in the sorted
  // list whichever event fills it: build that template once and fill the k slots per order.
  const sameRank = original.every((id) => rank(byId.get(id)!) === rank(byId.get(original[0])!));
  const template = sortedEntries(original.map((_, i) => i));
  const slotAt: number[] = [];
  template.forEach((e, i) => {
    if (selected.has(e.label)) slotAt.push(i);
  });
  const entriesFor = (perm: readonly number[]): QueueEntry[] => {
    if (!sameRank) return sortedEntries(perm);
    const out = template.slice();
    for (let s = 0; s < k; s++) {
      const t = template[slotAt[s]];
      const e = moved[perm[s]][s];
      out[slotAt[s]] = { at: t.at, rank: t.rank, seq: t.seq, source: 'script', payload: e, label: e.id, actor: e.actor, handle: -1 };
    }
    return out;
  };

  // Run the common prefix (every entry before the first slot) once.
  const identity = original.map((_, i) => i);
  const base = CoreRun.start(model, scenario, entriesFor(identity), 'effects');
  for (let next = base.peek(); next !== undefined && next.at < firstSlot; next = base.peek()) base.step();
  const checkpoint: Checkpoint<V> = base.checkpoint();

  const classes = new Map<string, OrderClass<O>>();
  const total = factorial(k);
  let evaluated = 0;
  let rejected = 0;
  let pruned = 0;
  let cancelled = false;
  const perm = identity.slice();
  const order: string[] = new Array(k);
  const broken: string[] = [];
  const commute = spec.commute;
  for (let n = 0; n < total; n++) {
    if (progressSaysStop(hooks, n, total, 1024)) {
      cancelled = true;
      break;
    }
    for (let s = 0; s < k; s++) order[s] = original[perm[s]];
    let skip = false;
    if (commute !== undefined) {
      // Canonical representative: adjacent same-millisecond commuting events stay in original order.
      for (let s = 0; s + 1 < k && !skip; s++) {
        if (slots[s] === slots[s + 1] && perm[s] > perm[s + 1] && commute(byId.get(order[s])!, byId.get(order[s + 1])!)) skip = true;
      }
      if (skip) pruned++;
    }
    if (!skip && spec.allowed !== undefined && !spec.allowed(order, byId)) {
      rejected++;
      skip = true;
    }
    if (!skip) {
      const run = CoreRun.resume(model, entriesFor(perm), checkpoint, [], 'effects');
      while (run.step()) {
        /* fast path */
      }
      broken.length = 0;
      for (const inv of model.invariants) if (run.firstViolation.has(inv.name)) broken.push(inv.name);
      const outcome = model.outcome(run.state, run.lastAt);
      const key = spec.classify(outcome, broken);
      const inversions = countInversions(perm);
      const c = classes.get(key);
      if (c === undefined) classes.set(key, { key, count: 1, example: order.slice(), inversions, outcome, broken: broken.slice() });
      else {
        c.count++;
        if (inversions < c.inversions) {
          c.example = order.slice();
          c.inversions = inversions;
          c.outcome = outcome;
        }
      }
      evaluated++;
    }
    nextPermutation(perm);
  }
  if (!cancelled) hooks.onProgress?.(total, total);
  return { total, evaluated, rejected, pruned, cancelled, classes: [...classes.values()].sort((a, b) => b.count - a.count || (a.key < b.key ? -1 : 1)) };
}
