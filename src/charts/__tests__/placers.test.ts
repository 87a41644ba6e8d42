import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arrowLabelPlacer, handlePlacer, placeArrowLabels, placeHandles } from '../labels';
import { computeLayout, layoutCache, marksSplitter, splitMarks } from '../layout';
import { linearScale } from '../scale';
import type { ArrowMark, HandleMark, TimelineLane, TimelineMark } from '../timelineTypes';

const lanes: TimelineLane[] = [
  { id: 'client', label: 'Client', rows: [{ id: 'r1', height: 40 }, { id: 'r2', height: 40 }] },
  { id: 'wire', label: 'Wire', rows: [{ id: 'w1', height: 17 }, { id: 'w2', height: 17 }], labelLane: true },
  { id: 'server', label: 'Server', rows: [{ id: 'r1', height: 40 }, { id: 'r2', height: 18 }] },
];
const layout = computeLayout(lanes);
const x = linearScale([0, 1000], [118, 884]);

/** A handle drawn from small ranges, so stacks, clusters and ties happen often. */
const handleArb = (id: string) =>
  fc.record({
    lane: fc.constantFrom('client', 'server'),
    row: fc.constantFrom('r1', 'r2'),
    at: fc.integer({ min: 0, max: 60 }).map((v) => v * 17),
    label: fc.option(fc.constantFrom('start', 'progress', 'complete'), { nil: undefined }),
    group: fc.option(fc.constantFrom('start', 'progress'), { nil: undefined }),
    tieOrder: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  }).map((f): HandleMark => ({ kind: 'handle', id, shape: 'circle', tone: 'server', ariaLabel: id, ...f }));

const arrowArb = (id: string) =>
  fc.record({
    from: fc.integer({ min: 0, max: 990 }),
    len: fc.integer({ min: 0, max: 40 }),
    lost: fc.boolean(),
    label: fc.option(fc.constantFrom('tools/call', 'notifications/progress', 'result'), { nil: undefined }),
  }).map((f): ArrowMark => ({ kind: 'arrow', id, tone: 'wire', from: { lane: 'client', row: 'r1', at: f.from }, to: f.lost ? null : { lane: 'server', row: 'r2', at: f.from + f.len }, label: f.label, labelLane: 'wire' }));

/** A list, then edits: each replaces a few entries by fresh objects (a drag move), or keeps the list. */
const editsOf = <T,>(make: (id: string) => fc.Arbitrary<T>) =>
  fc.integer({ min: 1, max: 40 }).chain((n) =>
    fc.tuple(
      fc.tuple(...Array.from({ length: n }, (_, i) => make(`m${i}`))),
      fc.array(fc.array(fc.tuple(fc.nat({ max: n - 1 }), make('edit')), { maxLength: 3 }), { minLength: 1, maxLength: 8 }),
    ),
  );

describe('placers that remember their last answer', () => {
  it('handlePlacer gives what placeHandles gives after every edit, and keeps the objects of rows no edit touched', () => {
    fc.assert(
      fc.property(editsOf(handleArb), ([first, edits]) => {
        const place = handlePlacer();
        let list: HandleMark[] = first.map((h, i) => ({ ...h, id: `m${i}` }));
        let before = place(list, x, 884, layout);
        expect(before).toEqual(placeHandles(list, x, 884, layout));
        for (const edit of edits) {
          const next = list.slice();
          for (const [i, h] of edit) next[i] = { ...h, id: `m${i}` };
          const got = place(next, x, 884, layout);
          expect(got).toEqual(placeHandles(next, x, 884, layout));
          const touched = new Set(edit.flatMap(([i]) => [`${list[i].lane}/${list[i].row}`, `${next[i].lane}/${next[i].row}`]));
          if (edit.length === 0) expect(got).toBe(before);
          else if (edit.length * 4 <= next.length) got.forEach((p, i) => !touched.has(`${p.mark.lane}/${p.mark.row}`) && expect(p).toBe(before[i]));
          list = next;
          before = got;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('arrowLabelPlacer gives what placeArrowLabels gives after every edit', () => {
    fc.assert(
      fc.property(editsOf(arrowArb), fc.boolean(), ([first, edits], rescale) => {
        const place = arrowLabelPlacer();
        let list: ArrowMark[] = first.map((a, i) => ({ ...a, id: `m${i}` }));
        expect(place(list, x, layout, 118, 884)).toEqual(placeArrowLabels(list, x, layout, 118, 884));
        for (const edit of edits) {
          const next = list.slice();
          for (const [i, a] of edit) next[i] = { ...a, id: `m${i}` };
          const scale = rescale ? linearScale([0, 500], [118, 884]) : x;
          expect(place(next, scale, layout, 118, 884)).toEqual(placeArrowLabels(next, scale, layout, 118, 884));
          list = next;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('marksSplitter gives what splitMarks gives after every edit, and keeps a kind\'s list when none of its marks changed', () => {
    // Handles and arrows mixed, some with a bidi control in their text (cleaned into a new object).
    const markArb = (id: string): fc.Arbitrary<TimelineMark> =>
      fc.tuple(fc.boolean(), fc.boolean()).chain(([handle, bidi]) =>
        (handle ? handleArb(id) : arrowArb(id)).map((m) => (bidi ? { ...m, ariaLabel: `${id}\u202E`, label: `l\u202E${id}` } : m) as TimelineMark),
      );
    fc.assert(
      fc.property(editsOf(markArb), fc.nat({ max: 3 }), ([first, edits], cut) => {
        const split = marksSplitter();
        let list: TimelineMark[] = first;
        let before = split(list);
        expect(before).toEqual(splitMarks(list));
        expect(split(list)).toBe(before);
        for (const [n, edit] of edits.entries()) {
          let next = list.slice();
          for (const [i, m] of edit) next[i] = m;
          if (n === edits.length - 1 && cut > 0) next = next.slice(0, Math.max(1, next.length - cut)); // a shorter list too
          const got = split(next);
          expect(got).toEqual(splitMarks(next));
          for (const kind of ['handles', 'arrows'] as const) {
            const same = got[kind].length === before[kind].length && got[kind].every((m, i) => m === before[kind][i]);
            expect(got[kind] === before[kind]).toBe(same);
          }
          list = next;
          before = got;
        }
      }),
      { numRuns: 300 },
    );
  });

  it('layoutCache keeps the layout object while the lanes lay out the same, and makes a new one when a row changes', () => {
    const of = layoutCache();
    const a = of(lanes);
    expect(of(structuredClone(lanes))).toBe(a);
    const taller = structuredClone(lanes);
    taller[0].rows[1].height = 41;
    const b = of(taller);
    expect(b).not.toBe(a);
    expect(b).toEqual(computeLayout(taller));
    const relabelled = structuredClone(taller);
    relabelled[2].rows[0].label = 'call 2';
    expect(of(relabelled)).not.toBe(b);
  });
});
