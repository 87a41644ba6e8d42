import { describe, expect, it } from 'vitest';
import { inQueueOrder } from '../coreEntries';
import { replay } from '../replay';
import { racesModel } from '../races';
import { resilienceModel } from '../resilience';
import { SeekableTrace } from '../trace';
import type { CoreModel } from '../core';
import type { Model, Scenario } from '../types';
import { loadBuiltinScenarios } from './builtinScenarios';

/**
 * A seekable replay of a scenario whose events are listed in queue order streams its scripted
 * entries (built as the run reaches them, none kept for the whole replay) and builds the sorted
 * list only when a seek, the notes or a fork first needs it; a scenario listed out of order builds
 * it up front. Either way every step, note, state and fork equals the full trace's.
 */
const scriptedListOf = (t: object) => (t as { scriptedList?: unknown }).scriptedList;

/** The scenario with its events listed last to first (still valid; ties at one ms now run in the other order). */
const reversed = (s: Scenario): Scenario => ({ ...s, events: [...s.events].reverse() });

/** Checks every scenario (and its reversed listing) on `model`; counts the streamed and sorted replays into `counts`. */
function check<C, S, V, O, T>(model: Model<C, V, O, T> & { core: CoreModel<C, S, V, O, T> }, scenarios: Scenario[], counts: { streamed: number; sorted: number }): void {
  for (const s of scenarios.flatMap((x) => [x, reversed(x)])) {
    const t = SeekableTrace.replay(model.core, s, { checkpointEvery: 4 });
    const inOrder = inQueueOrder(s.events, model.scriptedRank);
    expect(scriptedListOf(t) === undefined, s.id).toBe(inOrder);
    counts[inOrder ? 'streamed' : 'sorted']++;
    const full = replay(model, s);
    expect(t.steps, s.id).toEqual(full.steps);
    expect(scriptedListOf(t), s.id).toBeDefined();
    expect(JSON.stringify(t.outcome), s.id).toBe(JSON.stringify(full.outcome));
    if (s.events.length === 0) continue;
    const last = s.events.length - 1;
    const edited: Scenario = { ...s, events: s.events.map((e, i) => (i === last ? { ...e, at: e.at + 13 } : e)) };
    expect(SeekableTrace.replay(model.core, s, { checkpointEvery: 4 }).fork(edited).steps, `${s.id} forked`).toEqual(replay(model, edited).steps);
  }
}

describe('seekable trace: streamed scripted entries', () => {
  it('builds no scripted list during a replay in queue order, and reads the same as the full trace after it builds one', () => {
    const counts = { streamed: 0, sorted: 0 };
    check(racesModel, loadBuiltinScenarios('races').map((b) => b.scenario), counts);
    check(resilienceModel, loadBuiltinScenarios('resilience').map((b) => b.scenario), counts);
    // Both paths taken.
    expect(counts.streamed).toBeGreaterThan(10);
    expect(counts.sorted).toBeGreaterThan(10);
  });
});
