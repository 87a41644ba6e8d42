import { describe, expect, it } from 'vitest';
import { bigRacesScenario } from '../../../bench/scenarios';
import { racesMarks, racesStatic, racesStaticCache } from '../../labs/races/timelineMarks';
import { loadBuiltinScenarios } from '../../sim/__tests__/builtinScenarios';
import { racesPageCore } from '../../sim/races/pageDefinition';
import type { RacesTrace } from '../../sim/races';
import type { Scenario } from '../../sim/types';

/**
 * The races drawing computed from the previous one (a drag's fork takes over the marks of the
 * steps it shares) is the drawing computed from scratch, and the marks it took over are the same
 * objects (what lets the chart skip them).
 */

const seekable = (s: Scenario) => racesPageCore.seekable!(s) as unknown as RacesTrace & { fork(s: Scenario): RacesTrace };
const moved = (s: Scenario, index: number, deltaMs: number): Scenario => ({ ...s, events: s.events.map((e, i) => (i === index ? { ...e, at: Math.max(0, e.at + deltaMs) } : e)) });
const plain = (st: ReturnType<typeof racesStatic>) => JSON.parse(JSON.stringify({ lanes: st.layout.lanes, handles: st.handles, arrows: st.arrows, points: st.points, busy: st.busy, maxBusy: st.maxBusy }));

describe('racesStatic from the previous drawing', () => {
  const builtins = loadBuiltinScenarios('races').map((b) => b.scenario);
  it.each(builtins.map((s) => [s.id, s] as const))('%s: each of the first 12 events moved 10 ms later and back, each drawing equal to a fresh one', (_id, scenario) => {
    let trace = seekable(scenario);
    let st = racesStatic(trace);
    let current = scenario;
    for (let i = 0; i < Math.min(12, current.events.length); i++) {
      for (const delta of [10, -10]) {
        current = moved(current, i, delta);
        trace = trace.fork(current) as typeof trace;
        const next = racesStatic(trace, st);
        const fresh = racesStatic(trace);
        expect(plain(next)).toEqual(plain(fresh));
        const at = trace.endAt / 2;
        expect(JSON.parse(JSON.stringify(racesMarks(next, trace, at)))).toEqual(JSON.parse(JSON.stringify(racesMarks(fresh, trace, at))));
        st = next;
      }
    }
  });

  it('600 events: a move late in the trace keeps the marks of the earlier steps as the same objects', () => {
    const scenario = bigRacesScenario(600, 4);
    const trace = seekable(scenario);
    const st = racesStatic(trace);
    const index = scenario.events.findIndex((e) => e.kind === 'complete');
    const fork = trace.fork(moved(scenario, index, 10));
    const next = racesStatic(fork, st);
    expect(plain(next)).toEqual(plain(racesStatic(fork)));
    const movedAt = scenario.events[index].at;
    const earlier = st.arrows.filter((a) => a.sentAt < movedAt - 700);
    expect(earlier.length).toBeGreaterThan(100);
    // Every arrow sent well before the moved event (before the checkpoint the fork resumed from) is taken over.
    const kept = new Set(next.arrows);
    expect(earlier.filter((a) => !kept.has(a))).toEqual([]);
    // Unchanged events keep their handles; the moved one gets a new one at its new time.
    const handleOf = (s: typeof st, id: string) => s.handles.find((h) => h.id === id);
    const other = scenario.events[0].id;
    expect(handleOf(next, other)).toBe(handleOf(st, other));
    expect(handleOf(next, scenario.events[index].id)?.at).toBe(movedAt + 10);
    // The marks of the playhead's view are the same objects for the same inputs.
    const cursor = movedAt - 800;
    const a = racesMarks(st, trace, cursor).filter((m) => m.kind === 'arrow' && m.from.at < cursor - 100);
    const b = new Set(racesMarks(next, fork, cursor));
    expect(a.length).toBeGreaterThan(50);
    expect(a.filter((m) => !b.has(m))).toEqual([]);
  });

  it('a drawing of another scenario takes nothing over that differs', () => {
    const [x, y] = builtins;
    const draw = racesStaticCache();
    draw(seekable(x));
    const trace = seekable(y);
    expect(plain(draw(trace))).toEqual(plain(racesStatic(trace)));
    expect(draw(trace)).toBe(draw(trace));
  });
});
