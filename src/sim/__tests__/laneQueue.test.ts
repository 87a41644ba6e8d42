import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { EventQueue, LaneQueue } from '../queue';
import type { QueueEntry } from '../types';

/** LaneQueue must hand out exactly what the binary heap hands out, cancellations and clones included. */
describe('LaneQueue = EventQueue', () => {
  const op = fc.oneof(
    fc.record({ t: fc.constant('push' as const), delay: fc.constantFrom(0, 1, 5, 5, 5, 200, 200, 7, 9, 11, 13, 17, 19, 23, 29), rank: fc.integer({ min: 0, max: 3 }) }),
    fc.record({ t: fc.constant('pop' as const) }),
    fc.record({ t: fc.constant('cancel' as const), back: fc.integer({ min: 0, max: 6 }) }),
    fc.record({ t: fc.constant('clone' as const) }),
  );
  type Op = { t: 'push'; delay: number; rank: number } | { t: 'pop' } | { t: 'cancel'; back: number } | { t: 'clone' } | { t: 'peek' };
  /** Runs `ops` on a binary heap and a lane queue side by side: every pop (and peek) must agree, and so must draining both. */
  function drive(ops: Op[], maxLanes: number, peekWhileDraining: boolean): void {
    let heap = new EventQueue<null>();
    let lanes = new LaneQueue<null>(maxLanes);
    let now = 0;
    let seq = 0;
    for (const o of ops) {
      if (o.t === 'push') {
        const e: QueueEntry<null> = { at: now + o.delay, rank: o.rank, seq, source: 'timer', payload: null, label: '', actor: 'client', handle: seq };
        seq++;
        heap.push(e);
        lanes.push(e, now);
      } else if (o.t === 'cancel') {
        heap.cancel(seq - 1 - o.back);
        lanes.cancel(seq - 1 - o.back);
      } else if (o.t === 'clone') {
        heap = heap.clone();
        lanes = lanes.clone();
      } else if (o.t === 'peek') {
        expect(lanes.peek()?.seq).toBe(heap.peek()?.seq);
      } else {
        const a = heap.pop();
        expect(lanes.pop()?.seq).toBe(a?.seq);
        if (a) now = a.at;
      }
    }
    for (let a = heap.pop(); a !== undefined; a = heap.pop()) {
      if (peekWhileDraining) expect(lanes.peek()?.seq).toBe(a.seq);
      expect(lanes.pop()?.seq).toBe(a.seq);
    }
    expect(lanes.peek()).toBeUndefined();
    expect(lanes.pop()).toBeUndefined();
  }
  it('same entries in the same order over random push / cancel / pop / clone sequences (few lanes, so the heap is used too)', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), fc.integer({ min: 1, max: 8 }), (ops, maxLanes) => drive(ops, maxLanes, false)),
      { numRuns: 2000, seed: 5 },
    );
  });

  it('lane ring buffers wrap around and grow without losing order (long runs, cancels across the wrap)', () => {
    // Bursts of pushes on two lanes (delays 5 and 200) larger than a ring's first capacity (16),
    // pops that move the ring's head around it, and cancels of entries on either side of the wrap.
    const ops: Op[] = [];
    for (let round = 0; round < 60; round++) {
      const burst = 5 + ((round * 7) % 40);
      for (let k = 0; k < burst; k++) ops.push({ t: 'push', delay: k % 3 === 0 ? 200 : 5, rank: k % 3 === 0 ? 1 : 2 });
      for (let k = 0; k < burst; k += 4) ops.push({ t: 'cancel', back: k % 7 });
      if (round % 9 === 4) ops.push({ t: 'clone' });
      for (let k = 0; k < burst - 3; k++) ops.push({ t: 'pop' });
    }
    drive(ops, 8, true);
  });

  it('peek agrees too when peeks are interleaved with pushes and cancels (the peeked entry is kept while it stays next)', () => {
    const withPeek = fc.oneof(op, fc.record({ t: fc.constant('peek' as const) }), fc.record({ t: fc.constant('peek' as const) }));
    fc.assert(
      fc.property(fc.array(withPeek, { maxLength: 200 }), fc.integer({ min: 1, max: 8 }), (ops, maxLanes) => drive(ops, maxLanes, true)),
      { numRuns: 2000, seed: 7 },
    );
  });
});
