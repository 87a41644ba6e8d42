import { describe, expect, it } from 'vitest';
import { isLabTrace, labTraceView } from '../lab';
import { replayRaces, replayRacesSeekable } from '../races';
import { racesDefinition, racesPageDefinition } from '../races/definition';
import type { Scenario } from '../types';
import { loadBuiltinScenarios } from './builtinScenarios';

/**
 * The per-step accessors of the seekable trace (`LabTrace`, issue 10 item 4) read what the full
 * trace's steps hold, for every built-in races scenario, before and after a fork; the adapter over
 * a full trace reads the same; the page's definition forks and the whole definition explores.
 */
const builtins = loadBuiltinScenarios('races').map((b) => b.scenario);

function accessorsOf(t: ReturnType<typeof labTraceView>) {
  const out = [];
  for (let i = 0; i < t.stepCount; i++) out.push({ at: t.atOf(i), entry: t.entryOf(i), key: t.keyOf(i), why: t.notes()[i], note: t.noteOf(i), effects: t.effectsOf(i), ignored: t.ignoredOf(i), violations: t.violationsOf(i), rule: t.ruleOf(i) });
  return out;
}

function expected(scenario: Scenario) {
  return replayRaces(scenario).steps.map((s) => ({ at: s.at, entry: s.entry, key: s.state.touched[0] ?? null, why: s.why, note: s.why, effects: s.effects, ignored: s.ignored, violations: s.violations, rule: s.rule }));
}

/** The scenario with event `index` moved by `deltaMs` (clamped at 0). */
const moved = (s: Scenario, index: number, deltaMs: number): Scenario => ({ ...s, events: s.events.map((e, i) => (i === index ? { ...e, at: Math.max(0, e.at + deltaMs) } : e)) });

describe('seekable trace accessors', () => {
  it('read the same as the full trace of every built-in, with small checkpoints, before and after forks', () => {
    expect(builtins.length).toBeGreaterThan(5);
    for (const s of builtins) {
      const t = replayRacesSeekable(s, { checkpointEvery: 4, keepEntries: true, keyKind: 'request' });
      expect(accessorsOf(t), s.id).toEqual(expected(s));
      const last = s.events.length - 1;
      const edited = moved(s, last, 37);
      const f = t.fork(edited);
      expect(accessorsOf(f), `${s.id} forked`).toEqual(expected(edited));
      // A fork of a trace whose notes were built reuses their prefix; still equal.
      const again = f.fork(moved(edited, last, 5));
      expect(again.notes(), `${s.id} forked twice`).toEqual(expected(moved(edited, last, 5)).map((x) => x.why));
      expect(again.steps).toEqual(replayRaces(moved(edited, last, 5)).steps);
    }
  });

  it('a fork that must replay whole (a config edit, an added event, another link) keeps the entries and keys of its base', () => {
    // Bench (issue 10): after a link to another scenario, the page's fork had dropped them, so the
    // timeline rebuilt every step's entry from a checkpoint on each nudge (10 nudges: 8.6 s against 1.7 s).
    for (const s of builtins.slice(0, 6)) {
      const t = replayRacesSeekable(s, { checkpointEvery: 4, keepEntries: true, keyKind: 'request' });
      const transport = s.config.transport === 'stdio' ? 'streamable-http' : 'stdio';
      const edits: Scenario[] = [{ ...s, config: { ...s.config, transport } }, { ...s, events: [...s.events, { ...s.events[0], id: `${s.events[0].id}-again` }] }, builtins[builtins.length - 1]];
      for (const edited of edits) {
        const f = t.fork(edited);
        expect(f.reusedSteps, `${s.id} → ${edited.id}`).toBe(0);
        const keys = Array.from({ length: f.stepCount }, (_, i) => f.keyOf(i));
        expect(keys, `${s.id} → ${edited.id} keys`).toEqual(expected(edited).map((x) => x.key));
        expect(keys.some((k) => k !== null)).toBe(true);
      }
    }
  });

  it('the adapter over a full trace reads the same as the seekable trace', () => {
    for (const s of builtins.slice(0, 4)) {
      const full = replayRaces(s);
      expect(isLabTrace(full)).toBe(false);
      const view = labTraceView(full, (step) => step.state.touched[0] ?? null);
      expect(accessorsOf(view)).toEqual(expected(s));
      expect(view.stateAtMs(s.events[0].at)).toEqual(replayRacesSeekable(s).stateAtMs(s.events[0].at));
      expect(() => view.atOf(view.stepCount)).toThrow(RangeError);
    }
  });

  it('the page definition keeps a seekable trace and no explorer orders; the whole definition has them', () => {
    const a = builtins[0];
    const t = racesPageDefinition.seekable!(a);
    expect(isLabTrace(t)).toBe(true);
    expect(t.outcome).toEqual(replayRaces(a).outcome);
    expect(racesPageDefinition.stateAt(t, 10_000)).toEqual(replayRaces(a).steps.at(-1)!.state);
    expect(racesPageDefinition.explore?.orders).toBeUndefined();
    expect(racesDefinition.explore?.orders).toBeTypeOf('function');
    const ids = a.events.slice(0, 3).map((e) => e.id);
    const pruned = racesDefinition.explore!.orders!(a, ids, {});
    const all = racesDefinition.explore!.orders!(a, ids, { prune: false });
    expect(all.pruned).toBe(0);
    expect(all.evaluated).toBe(6);
    expect(pruned.evaluated + pruned.pruned + pruned.rejected).toBe(6);
  });
});
