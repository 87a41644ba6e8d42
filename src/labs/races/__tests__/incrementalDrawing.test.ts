import { describe, expect, it } from 'vitest';
import { bigRacesScenario } from '../../../../bench/scenarios';
import { builtinRaces } from '../../../store/builtinRaces';
import { createRacesStore } from '../../../store/racesStore';
import type { RacesTrace } from '../../../sim/races';
import type { Scenario } from '../../../sim/types';
import { racesMarks, racesMarksCache, racesStatic, racesStaticCache } from '../timelineMarks';

/**
 * The drag path's drawing is patched, not redrawn (issue 10 item 4): the steps a fork shares are
 * copied in slices, the handles of events nothing touched are kept, the layout object is kept,
 * and rebuilt marks that come out the same keep their objects. Each drawing must still equal the
 * one drawn from scratch, whatever the sequence of edits (moves, reorders into and out of ties,
 * several events at once, a drawing made twice from the same one).
 */

type Forkable = RacesTrace & { fork(s: Scenario): Forkable };
/** The page's seekable trace of `s`, as the races store makes it. */
const seekable = (s: Scenario) => createRacesStore({ builtins: [s] }).getState().trace as unknown as Forkable;
const loadBuiltinScenario = (_lab: 'races', id: string): Scenario => {
  const found = builtinRaces().scenarios.find((b) => b.id === id);
  if (!found) throw new Error(`no races built-in ${id}`);
  return found;
};
const plain = (st: ReturnType<typeof racesStatic>) => JSON.parse(JSON.stringify({ lanes: st.layout.lanes, handles: st.handles, arrows: st.arrows, points: st.points, busy: st.busy, maxBusy: st.maxBusy, ids: st.steps.map((s) => s.id) }));
const moveTo = (s: Scenario, index: number, at: number): Scenario => ({ ...s, events: s.events.map((e, i) => (i === index ? { ...e, at: Math.max(0, at) } : e)) });
const swap = (s: Scenario, i: number, j: number): Scenario => {
  const events = s.events.slice();
  [events[i], events[j]] = [events[j], events[i]];
  return { ...s, events };
};

/** A deterministic sequence of edits: moves of single events (some onto another event's time), a swap, a move of two events at once. */
function edits(scenario: Scenario, count: number): Scenario[] {
  const out: Scenario[] = [];
  let s = scenario;
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let k = 0; k < count; k++) {
    const i = Math.floor(next() * s.events.length);
    const kind = k % 7;
    if (kind === 3) {
      // Onto another event's millisecond (a tie), then a swap at that millisecond.
      const j = Math.floor(next() * s.events.length);
      s = moveTo(s, i, s.events[j].at);
    } else if (kind === 5 && i + 1 < s.events.length) s = swap(s, i, i + 1);
    else if (kind === 6) {
      const j = Math.floor(next() * s.events.length);
      s = moveTo(moveTo(s, i, s.events[i].at + 20), j, s.events[j].at - 20);
    } else s = moveTo(s, i, s.events[i].at + (next() < 0.5 ? -1 : 1) * (1 + Math.floor(next() * 40)));
    out.push(s);
  }
  return out;
}

describe('the patched races drawing', () => {
  it.each([
    ['bench 200 events, 4 calls', bigRacesScenario(200, 4)],
    ['bench 300 events, 12 calls (compact rows)', bigRacesScenario(300, 12)],
    ['A-cancel-then-complete', loadBuiltinScenario('races', 'A-cancel-then-complete')],
    ['I6-cancel-in-write-window', loadBuiltinScenario('races', 'I6-cancel-in-write-window')],
    ['F5-fifty-timeouts', loadBuiltinScenario('races', 'F5-fifty-timeouts')],
  ] as const)('%s: 40 edits, each drawing and its marks equal to those drawn from scratch', (_name, scenario) => {
    let trace = seekable(scenario);
    const draw = racesStaticCache();
    const asOf = racesMarksCache();
    let st = draw(trace);
    for (const edited of edits(scenario, scenario.events.length > 250 ? 16 : 40)) {
      trace = trace.fork(edited);
      st = draw(trace);
      const fresh = racesStatic(trace);
      expect(plain(st)).toEqual(plain(fresh));
      for (const at of [0, trace.endAt / 3, trace.endAt]) {
        expect(JSON.parse(JSON.stringify(asOf(st, trace, at)))).toEqual(JSON.parse(JSON.stringify(racesMarks(fresh, trace, at))));
      }
    }
  });

  it('a move late in a 2,000-event trace keeps the layout, every untouched handle and the marks that came out the same', () => {
    const scenario = bigRacesScenario(2000, 4);
    const trace = seekable(scenario);
    const st = racesStatic(trace);
    const index = scenario.events.findIndex((e) => e.kind === 'cancel');
    const fork = trace.fork(moveTo(scenario, index, scenario.events[index].at + 10));
    const next = racesStatic(fork, st);
    expect(plain(next)).toEqual(plain(racesStatic(fork)));
    expect(next.layout).toBe(st.layout);
    const changed = next.handles.filter((h, i) => h !== st.handles[i]).map((h) => h.id);
    // The moved cancel, and at most the few events that ran after the fork's checkpoint.
    expect(changed).toContain(scenario.events[index].id);
    expect(changed.length).toBeLessThan(40);
    const kept = new Set(next.arrows);
    expect(st.arrows.filter((a) => !kept.has(a)).length).toBeLessThan(20);
  });

  it('the moved request\'s rebuilt arrows are new objects where they differ, the same objects where they do not', () => {
    const scenario = bigRacesScenario(200, 4);
    const trace = seekable(scenario);
    const st = racesStatic(trace);
    const index = scenario.events.findIndex((e) => e.kind === 'complete');
    const fork = trace.fork(moveTo(scenario, index, scenario.events[index].at + 30));
    const next = racesStatic(fork, st);
    const old = new Map(st.arrows.map((a) => [a.mark.id, a]));
    let same = 0;
    let differ = 0;
    for (const a of next.arrows) {
      const o = old.get(a.mark.id);
      if (o === undefined) continue;
      if (a === o) same++;
      else {
        differ++;
        expect(JSON.stringify(a)).not.toBe(JSON.stringify(o));
      }
    }
    expect(same).toBeGreaterThan(0);
    expect(differ).toBeGreaterThan(0);
  });

  it('two drawings made from the same one are both right (the occurrence counts are counted again for the second)', () => {
    const scenario = bigRacesScenario(200, 4);
    const trace = seekable(scenario);
    const st = racesStatic(trace);
    const i = scenario.events.findIndex((e) => e.kind === 'complete');
    const a = trace.fork(moveTo(scenario, i, scenario.events[i].at + 10));
    const b = trace.fork(moveTo(scenario, i, scenario.events[i].at - 30));
    const first = racesStatic(a, st);
    const second = racesStatic(b, st);
    expect(plain(first)).toEqual(plain(racesStatic(a)));
    expect(plain(second)).toEqual(plain(racesStatic(b)));
    // And a drawing made from the first after that.
    const c = a.fork(moveTo(a.scenario, i, scenario.events[i].at + 50));
    expect(plain(racesStatic(c, first))).toEqual(plain(racesStatic(c)));
  });
});
