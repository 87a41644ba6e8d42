import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { BUFFER_POLICIES, bufferItems, drainEvents, emptyBuffer, pushEvent, takeEvent, type BufferItem, type BufferPolicy, type BufferState } from '../buffer';

const p = (token: string, seq: number): BufferItem => ({ kind: 'progress', token, seq });
const f = (token: string, seq: number): BufferItem => ({ kind: 'final', token, seq });
const show = (s: BufferState) => bufferItems(s).map((i) => `${i.kind === 'final' ? 'final' : i.token}${i.kind === 'final' ? `:${i.token}` : i.seq}`);

function pushAll(state: BufferState, items: BufferItem[]) {
  const outcomes: string[] = [];
  for (const it of items) {
    const r = pushEvent(state, it);
    state = r.state;
    outcomes.push(r.outcome);
  }
  return { state, outcomes };
}

describe('lesson policy: the issue\'s reference values', () => {
  it('capacity 3, 20 progress of one token then a final → [last progress, final], 19 dropped', () => {
    const items = [...Array.from({ length: 20 }, (_, i) => p('A', i + 1)), f('A', 21)];
    const { state, outcomes } = pushAll(emptyBuffer('lesson', 3), items);
    expect(bufferItems(state)).toEqual([p('A', 20), f('A', 21)]);
    expect(state.dropped).toBe(19);
    expect(state.coalesced).toBe(19);
    expect(state.refetch).toEqual(['A']);
    expect(outcomes.filter((o) => o === 'coalesced')).toHaveLength(19);
  });

  it('capacity 3, A1 B1 A2 B2 → [B1 A2 B2], 1 dropped; then a final → [A2 B2 final], 2 dropped', () => {
    let { state } = pushAll(emptyBuffer('lesson', 3), [p('A', 1), p('B', 2), p('A', 3), p('B', 4)]);
    expect(show(state)).toEqual(['B2', 'A3', 'B4']);
    expect(state.dropped).toBe(1);
    expect(state.refetch).toEqual(['A']);
    state = pushEvent(state, f('A', 5)).state;
    expect(show(state)).toEqual(['A3', 'B4', 'final:A']);
    expect(state.dropped).toBe(2);
    expect(state.refetch).toEqual(['A', 'B']);
    expect(state.finalsDropped).toBe(0);
  });

  it('only finals queued: a new progress is discarded (counted, marked); a new final is refused with an error', () => {
    const { state } = pushAll(emptyBuffer('lesson', 2), [f('A', 1), f('B', 2)]);
    const r1 = pushEvent(state, p('C', 3));
    expect(r1.outcome).toBe('discarded');
    expect(r1.state.discarded).toBe(1);
    expect(r1.state.dropped).toBe(1);
    expect(r1.state.refetch).toEqual(['C']);
    expect(show(r1.state)).toEqual(['final:A', 'final:B']);
    const r2 = pushEvent(r1.state, f('C', 4));
    expect(r2.outcome).toBe('refused');
    expect(r2.error).toMatch(/all 2 slots hold final responses; the final for C is refused/);
    expect(r2.state.finalsRefused).toBe(1);
    expect(show(r2.state)).toEqual(['final:A', 'final:B']);
  });

  it('capacity below 2 is rejected with a clear error', () => {
    expect(() => emptyBuffer('lesson', 1)).toThrow(/capacityEvents must be an integer ≥ 2 under policy lesson, got 1/);
    expect(() => emptyBuffer('lesson', 2.5)).toThrow(/got 2.5/);
  });
});

describe('the other policies', () => {
  const stream = Array.from({ length: 10 }, (_, i) => p(`r${i}`, i + 1));

  it('unbounded keeps everything (size 10 over capacity 3)', () => {
    const { state } = pushAll(emptyBuffer('unbounded', 3), stream);
    expect(state.size).toBe(10);
    expect(state.peak).toBe(10);
    expect(state.dropped).toBe(0);
  });

  it('drop-oldest holds capacity, marks every dropped token, and can drop a final', () => {
    const { state } = pushAll(emptyBuffer('drop-oldest', 3), [f('x', 0), ...stream]);
    expect(bufferItems(state)).toEqual([p('r7', 8), p('r8', 9), p('r9', 10)]);
    expect(state.droppedOldest).toBe(8);
    expect(state.finalsDropped).toBe(1);
    expect(state.refetch).toEqual(['r0', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'x']);
  });

  it('drop-silent drops the same items without any mark', () => {
    const { state } = pushAll(emptyBuffer('drop-silent', 3), stream);
    expect(state.size).toBe(3);
    expect(state.silentlyLost).toBe(7);
    expect(state.refetch).toEqual([]);
  });

  it('a one-slot buffer (capacity 1, cpp-mcp before PR#53) keeps only the newest of a burst: drop-silent loses 4 of 5 unmarked, drop-oldest marks the gap', () => {
    const burst = Array.from({ length: 5 }, (_, i) => p('scan', i + 1));
    const silent = pushAll(emptyBuffer('drop-silent', 1), burst);
    expect(silent.outcomes).toEqual(['queued', 'dropped-oldest', 'dropped-oldest', 'dropped-oldest', 'dropped-oldest']);
    expect(bufferItems(silent.state)).toEqual([p('scan', 5)]);
    expect([silent.state.dropped, silent.state.silentlyLost, silent.state.peak]).toEqual([4, 4, 1]);
    expect(silent.state.refetch).toEqual([]);
    const marked = pushAll(emptyBuffer('drop-oldest', 1), burst);
    expect(bufferItems(marked.state)).toEqual([p('scan', 5)]);
    expect([marked.state.dropped, marked.state.silentlyLost]).toEqual([4, 0]);
    expect(marked.state.refetch).toEqual(['scan']);
    expect(() => emptyBuffer('drop-oldest', 0)).toThrow(/capacityEvents must be an integer ≥ 1 under policy drop-oldest, got 0/);
  });

  it('disconnect loses the queue and the new item at capacity, marking every token', () => {
    const { state, outcomes } = pushAll(emptyBuffer('disconnect', 3), stream.slice(0, 4));
    expect(outcomes).toEqual(['queued', 'queued', 'queued', 'disconnect']);
    expect(state.size).toBe(0);
    expect(state.lostOnDisconnect).toBe(4);
    expect(state.refetch).toEqual(['r0', 'r1', 'r2', 'r3']);
  });

  it('one token of 6000 events stays one run', () => {
    const { state } = pushAll(emptyBuffer('unbounded', 1024), Array.from({ length: 6000 }, (_, i) => p('A', i)));
    expect(state.runs).toEqual([{ kind: 'progress', token: 'A', from: 0, to: 5999 }]);
    const d = drainEvents(state);
    expect(d.progress).toBe(6000);
    expect(d.state.size).toBe(0);
  });

  it('takeEvent reads the oldest item', () => {
    const { state } = pushAll(emptyBuffer('lesson', 3), [p('A', 1), p('B', 2)]);
    const r = takeEvent(state);
    expect(r.item).toEqual(p('A', 1));
    expect(show(r.state)).toEqual(['B2']);
    expect(takeEvent(emptyBuffer('lesson', 3)).item).toBeNull();
  });
});

describe('buffer properties', () => {
  const opArb = fc.oneof(
    { weight: 6, arbitrary: fc.record({ op: fc.constant('progress' as const), token: fc.constantFrom('A', 'B', 'C') }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('final' as const), token: fc.constantFrom('A', 'B', 'C') }) },
    { weight: 2, arbitrary: fc.record({ op: fc.constant('take' as const), token: fc.constant('') }) },
  );

  function check(policy: BufferPolicy, capacity: number, ops: { op: 'progress' | 'final' | 'take'; token: string }[]) {
    let s = emptyBuffer(policy, capacity);
    let seq = 0;
    let finalsIn = 0;
    let finalsOut = 0;
    for (const o of ops) {
      if (o.op === 'take') {
        const r = takeEvent(s);
        if (r.item?.kind === 'final') finalsOut++;
        s = r.state;
        continue;
      }
      const item = { kind: o.op, token: o.token, seq: seq++ };
      const r = pushEvent(s, item);
      s = r.state;
      if (item.kind === 'final' && r.outcome !== 'refused') finalsIn++;
      expect(s.size).toBe(bufferItems(s).length);
      if (policy !== 'unbounded') expect(s.size).toBeLessThanOrEqual(capacity);
      for (const lost of r.lost) {
        if (policy === 'drop-silent') expect(s.silentlyLost).toBeGreaterThan(0);
        else expect(s.refetch).toContain(lost.token);
      }
      if (r.outcome === 'refused') expect(r.error).toMatch(/refused/);
    }
    return { s, finalsIn, finalsOut };
  }

  it('lesson: size never exceeds capacity, no final is ever dropped, every lost progress is marked', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 6 }), fc.array(opArb, { maxLength: 80 }), (capacity, ops) => {
        const { s, finalsIn, finalsOut } = check('lesson', capacity, ops);
        expect(s.finalsDropped).toBe(0);
        // every accepted final is either still queued or was read
        expect(bufferItems(s).filter((i) => i.kind === 'final').length + finalsOut).toBe(finalsIn);
        expect(s.silentlyLost).toBe(0);
      }),
      { numRuns: 500 },
    );
  });

  it('every policy but drop-silent leaves no silent gap; drop-silent does (so the check can fail)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...BUFFER_POLICIES), fc.integer({ min: 2, max: 5 }), fc.array(opArb, { maxLength: 60 }), (policy, capacity, ops) => {
        const { s } = check(policy, capacity, ops);
        if (policy !== 'drop-silent') expect(s.silentlyLost).toBe(0);
      }),
      { numRuns: 400 },
    );
    const { s } = check('drop-silent', 2, [{ op: 'progress', token: 'A' }, { op: 'progress', token: 'B' }, { op: 'progress', token: 'C' }]);
    expect(s.silentlyLost).toBe(1);
  });
});
