import { compareEntries } from './queue';
import type { QueueEntry, Scenario, ScriptedEvent, Step, WireEffect } from './types';

/**
 * The entries and effects the checkpointed core (`core.ts`) builds, each by one builder here:
 * scripted queue entries, step entry records and wire effects.
 */

/**
 * The queue entry of scripted event `event`, listed at position `seq` of its scenario, with tie
 * rank `rank` (the model's `scriptedRank`); `handle` is -1 (scripted entries cannot be cancelled).
 */
export function scriptedEntry(event: ScriptedEvent, seq: number, rank: number): QueueEntry {
  return { at: event.at, rank, seq, source: 'script', payload: event, label: event.id, actor: event.actor, handle: -1 };
}

/** The kind of an entry: the scripted event's kind, or the timer payload's `kind` (else 'timer'). */
export function entryKind(entry: QueueEntry): string {
  const p = entry.payload as { kind?: unknown } | null;
  return p !== null && typeof p === 'object' && typeof p.kind === 'string' ? p.kind : 'timer';
}

/** The step-level entry record (without the payload), as `Step.entry` holds it. */
export function stepEntry(entry: QueueEntry): Step<unknown>['entry'] {
  return { at: entry.at, rank: entry.rank, seq: entry.seq, source: entry.source, label: entry.label, actor: entry.actor, handle: entry.handle, kind: entryKind(entry) };
}

/** The sorted scripted entries of a scenario (shared, never mutated). */
export function scriptedEntries(scenario: Scenario, rank: (e: ScriptedEvent) => number): QueueEntry[] {
  const out: QueueEntry[] = scenario.events.map((event, i) => scriptedEntry(event, i, rank(event)));
  // Scenarios are usually listed in time order already: one pass instead of a sort (same result,
  // the sort being stable and `seq` unique).
  for (let i = 1; i < out.length; i++) if (compareEntries(out[i - 1], out[i]) > 0) return out.sort(compareEntries);
  return out;
}

/**
 * True when `events`, in list order, are already in queue order (`compareEntries`: time, then
 * `rank(event)`; `seq` is the list position, so it always increases): their entries then need no sort.
 */
export function inQueueOrder(events: readonly ScriptedEvent[], rank: (e: ScriptedEvent) => number): boolean {
  let at = -Infinity;
  let r = -Infinity;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    const er = rank(e);
    if (e.at < at || (e.at === at && er < r)) return false;
    at = e.at;
    r = er;
  }
  return true;
}

/**
 * The wire effect a model emits at virtual time `at` (ms), in one fixed shape for every effect
 * (absent fields are undefined and vanish in JSON); the builder of wire effects besides the hot
 * path's `CoreContext.emitWire`, whose effects lack the always-undefined `headers` and `malformed`.
 */
export function wireEffectAt(at: number, effect: Omit<WireEffect, 'type' | 'at'>): WireEffect {
  return {
    type: 'wire',
    at,
    from: effect.from,
    transport: effect.transport,
    message: effect.message,
    http: effect.http,
    headers: effect.headers,
    malformed: effect.malformed,
    arrivesAt: effect.arrivesAt,
    requestKey: effect.requestKey,
  };
}
