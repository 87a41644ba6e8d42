import { describe, expect, it, vi } from 'vitest';
import { replayRaces, withOverrides, racesOutcomeAt, type RacesTrace } from '../sim/races';
import type { Json, Scenario } from '../sim/types';
import { loadScenario } from '../sim/races/__tests__/helpers';
import { exerciseMet, withGuideParam, type Exercise, type RunView } from './guide';
import { createGuideProgress, guideParam } from './guideProgress';
import { RACES_GUIDE } from './guideRaces';

const runOf = (trace: RacesTrace, cursorMs = trace.endAt): RunView => ({
  scenarioId: trace.scenario.id,
  final: trace.outcome,
  atPlayhead: racesOutcomeAt(trace, cursorMs),
  violated: new Set(trace.invariants.filter((i) => i.firstViolation !== null).map((i) => i.name)),
});
const moved = (s: Scenario, id: string, at: number): Scenario => ({ ...s, events: s.events.map((e) => (e.id === id ? { ...e, at } : e)) });
const ex = (id: string): Exercise => RACES_GUIDE.find((e) => e.id === id)!;

/** What the learner does for each exercise, as an edit of its scenario (and the playhead). */
const DOING: Record<string, { edit: (s: Scenario) => Scenario; cursorMs?: number }> = {
  'cancel-wins': { edit: (s) => s, cursorMs: 330 },
  'completion-wins': { edit: (s) => moved(s, 'cancel', 600) },
  'http-signal': { edit: (s) => withOverrides(s, { transport: 'streamable-http' }) },
  'late-cancel': { edit: (s) => withOverrides(s, { policy: { clientNeverSettles: true } as Record<string, Json> }) },
  'maximum-fixed': { edit: (s) => withOverrides(s, { policy: { progressResetsMaximum: true } as Record<string, Json> }) },
  twice: { edit: (s) => withOverrides(s, { policy: { idempotencyKeyOmitted: true } as Record<string, Json> }) },
};

describe('the Races guided path ticks from the run, never from a click', () => {
  it('every exercise has a doing and a scenario that exists', () => {
    expect(RACES_GUIDE.map((e) => e.id).sort()).toEqual(Object.keys(DOING).sort());
  });
  for (const e of RACES_GUIDE) {
    it(`${e.id}: not met by the built-in as it opens, met once the learner does it, not met on another scenario`, () => {
      const s = loadScenario(e.scenario);
      const opened = replayRaces(s);
      expect(exerciseMet(e, runOf(opened, 0)), 'met at the playhead 0 of the untouched built-in').toBe(false);
      if (e.goal.at === 'final') expect(exerciseMet(e, runOf(opened)), 'met by the untouched built-in').toBe(false);
      const d = DOING[e.id];
      const done = replayRaces(d.edit(s));
      expect(exerciseMet(e, runOf(done, d.cursorMs ?? done.endAt))).toBe(true);
      expect(exerciseMet(e, { ...runOf(done, d.cursorMs ?? done.endAt), scenarioId: 'another' })).toBe(false);
    });
  }
  it('the cancel exercise reads the playhead: not yet at 310 ms (the cancel is on the wire), done at 320 ms', () => {
    const t = replayRaces(loadScenario('A-cancel-then-complete'));
    expect(exerciseMet(ex('cancel-wins'), runOf(t, 310))).toBe(false);
    expect(exerciseMet(ex('cancel-wins'), runOf(t, 320))).toBe(true);
  });
});

describe('guided path progress', () => {
  it('guide=<n> in a link opens the path at exercise n; bad values are ignored', () => {
    expect(guideParam('#/races/A-cancel-then-complete?guide=3')).toBe(2);
    expect(guideParam('#/races?guide=0')).toBeNull();
    expect(guideParam('#/races?guide=x')).toBeNull();
    expect(withGuideParam('#/races/A?transport=stdio&guide=1', 4)).toBe('#/races/A?transport=stdio&guide=4');
  });
  it('is kept in localStorage across a reload and opened by the link', () => {
    const m = new Map<string, string>();
    vi.stubGlobal('localStorage', { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) });
    const a = createGuideProgress('races', '#/races');
    expect(a.getState()).toEqual({ open: false, index: 0, done: [] });
    a.setState({ open: true, index: 2, done: ['cancel-wins'] });
    expect(createGuideProgress('races', '#/races').getState()).toEqual({ open: true, index: 2, done: ['cancel-wins'] });
    expect(createGuideProgress('races', '#/races?guide=5').getState()).toMatchObject({ open: true, index: 4, done: ['cancel-wins'] });
    vi.unstubAllGlobals();
  });
});
