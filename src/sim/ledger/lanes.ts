import { movableLanes } from '../explore';
import type { Scenario, ScriptedEvent } from '../types';
import { ledgerLaneOf } from './model';
import { STEP_KINDS } from './schema';

/**
 * The ledger's lanes: each connection runs its own steps (begin, read, execute, write, commit) in
 * order. Moves, reorders, links and files are checked against these rules, and the explorer
 * merges only orders that keep them.
 */

export const isStep = (e: ScriptedEvent) => e.actor === 'db';
export const stepName = (e: ScriptedEvent) => `connection ${String(e.conn)}'s ${String(e.kind)}`;

/**
 * Each connection's steps in lane order, exactly as the explorer sees them (`movableLanes` over
 * the db steps with `ledgerLaneOf`: by time, ties by scenario order).
 */
export function ledgerStepLanes(scenario: Scenario): string[][] {
  return movableLanes(
    scenario,
    scenario.events.filter(isStep).map((e) => e.id),
    ledgerLaneOf,
  );
}

/**
 * Where step `id` may move without passing a step of its own connection: `minMs`..`maxMs`
 * (inclusive, integer ms; at a neighbour's time the tie order keeps it on its side because a move
 * never changes scenario order), and the sentence that says why when a move is held back.
 * Null for client events (they are not lane-ordered) and unknown ids.
 */
export function laneBounds(scenario: Scenario, id: string): { minMs: number; maxMs: number; notice: string } | null {
  const index = new Map(scenario.events.map((e, i) => [e.id, i]));
  const event = scenario.events[index.get(id) ?? -1];
  if (!event || !isStep(event)) return null;
  const lane = ledgerStepLanes(scenario).find((l) => l.includes(id))!;
  const k = lane.indexOf(id);
  const byId = (x: string | undefined) => (x === undefined ? undefined : scenario.events[index.get(x)!]);
  const prev = byId(lane[k - 1]);
  const next = byId(lane[k + 1]);
  const minMs = prev ? prev.at + (index.get(id)! < index.get(prev.id)! ? 1 : 0) : 0;
  const maxMs = next ? next.at - (index.get(id)! > index.get(next.id)! ? 1 : 0) : Number.MAX_SAFE_INTEGER;
  const around = [prev && `after its ${String(prev.kind)} (${prev.at} ms)`, next && `before its ${String(next.kind)} (${next.at} ms)`].filter(Boolean).join(' and ');
  return {
    minMs,
    maxMs,
    notice: `${stepName(event)} stays ${around}: a connection runs its own steps in order. To change the interleaving, move the other connection's steps.`,
  };
}

/**
 * Why a scenario's connection steps are out of their lane order (each connection runs begin,
 * read, execute, write, commit in that order, at most once each), or null. Files and links are
 * checked with it, so the explorer never merges a lane that runs its steps out of order.
 */
export function laneKindProblem(scenario: Scenario): string | null {
  const byId = new Map(scenario.events.map((e) => [e.id, e]));
  for (const lane of ledgerStepLanes(scenario)) {
    const kinds = lane.map((id) => String(byId.get(id)!.kind));
    const ranks = kinds.map((k) => (STEP_KINDS as readonly string[]).indexOf(k));
    if (ranks.some((r, i) => i > 0 && r <= ranks[i - 1])) {
      const conn = String(byId.get(lane[0])!.conn);
      return `events: connection ${conn}'s steps must run in the order ${STEP_KINDS.join(', ')} (each at most once); here they run ${kinds.join(' → ')}`;
    }
  }
  return null;
}

/** Why `order` (movable step ids) would change a connection's own step order, or null. */
export function orderProblem(scenario: Scenario, order: readonly string[]): string | null {
  const lanes = ledgerStepLanes(scenario);
  const all = new Set(lanes.flat());
  if (order.length !== all.size || order.some((id) => !all.has(id))) return `order: must list each connection step once (${[...all].join(', ')})`;
  for (const lane of lanes) {
    const inOrder = order.filter((id) => lane.includes(id));
    if (inOrder.join() !== lane.join()) return `order: ${inOrder.join(' → ')} is not the lane's own order ${lane.join(' → ')}`;
  }
  return null;
}

