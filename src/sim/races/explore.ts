import { exploreOrders, type OrdersResult } from '../orders';
import type { Scenario, ScriptedEvent } from '../types';
import { racesCore, type RacesOutcome } from './model';

/**
 * The races lab's explorer settings: an outcome class is the terminal state of every call plus
 * the broken invariants; two selected events commute at one millisecond when they name different
 * request ids and neither is a `start` (a start reads every active call's progress token) or an
 * `inject` (a raw message may name any id).
 */

/** The outcome class of a races order: `key:state` per request, then the broken invariants. */
export function racesOrderClass(outcome: RacesOutcome, broken: readonly string[]): string {
  const calls = outcome.requests.map((r) => `${r.key}:${r.state}`).join(' ');
  return broken.length === 0 ? calls : `${calls} | broken: ${broken.join(', ')}`;
}

/**
 * The races lab's natural "All orders" set: the cancel vs completion (vs error, disconnect, late
 * progress) of one call — the scripted events, other than its start, of the first request that a
 * client cancels (else the first request with more than one such event), at most 8, in file order.
 */
export function racesNaturalOrderEvents(scenario: Scenario): string[] {
  const key = (e: ScriptedEvent) => JSON.stringify((e as { requestId?: unknown }).requestId ?? null);
  const own = (k: string) => scenario.events.filter((e) => e.kind !== 'start' && key(e) === k);
  const cancelled = scenario.events.find((e) => e.kind === 'cancel');
  const candidates = cancelled ? [key(cancelled)] : [...new Set(scenario.events.map(key))];
  for (const k of candidates) {
    const events = own(k);
    if (events.length > 1) return events.slice(0, 8).map((e) => e.id);
  }
  return scenario.events.filter((e) => e.kind !== 'start').slice(0, 8).map((e) => e.id);
}

/** True when `a` and `b` touch different requests and so commute within one millisecond. */
export function racesCommute(a: ScriptedEvent, b: ScriptedEvent): boolean {
  if (a.kind === 'start' || b.kind === 'start' || a.kind === 'inject' || b.kind === 'inject') return false;
  return JSON.stringify(a.requestId) !== JSON.stringify(b.requestId);
}

/**
 * Every order of the selected races events (up to 8), on the fast path, grouped by class.
 * `prune`: skip orders equivalent by `racesCommute` (their count is reported). Throws as `exploreOrders`.
 */
export function exploreRacesOrders(
  scenario: Scenario,
  events: readonly string[],
  options: { prune?: boolean; onProgress?(done: number, total: number): void; shouldStop?(): boolean } = {},
): OrdersResult<RacesOutcome> {
  return exploreOrders({ model: racesCore, scenario, events, classify: racesOrderClass, commute: options.prune ? racesCommute : undefined }, options);
}
