import type { QueueEntry } from './types';

/**
 * The tie rule of every lab, in one place: entries leave the queue ordered by
 * `(at, rank, seq)` — earliest virtual time first; at the same millisecond the lower `rank`
 * first (each model documents its ranks in `Model.tieRule`); at the same rank, the lower
 * insertion `seq` first (scripted events keep their scenario order, timers their scheduling
 * order). Same-millisecond ties are where races live, so the UI shows this rule.
 */
export function compareEntries(a: QueueEntry, b: QueueEntry): number {
  return a.at - b.at || a.rank - b.rank || a.seq - b.seq;
}

/**
 * A binary min-heap of queue entries ordered by `compareEntries`, with lazy cancellation:
 * cancelled handles are skipped when they reach the top. push/pop are O(log n).
 */
export class EventQueue<T = unknown> {
  private heap: QueueEntry<T>[] = [];

  /** `cancelled` may be shared with the structure this heap is part of (see `LaneQueue`). */
  constructor(private cancelled: Set<number> = new Set<number>()) {}

  /**
   * An independent copy (entries are shared: they are never mutated), for checkpoints.
   * O(pending timers + pending cancellations).
   */
  clone(cancelled: Set<number> = new Set(this.cancelled)): EventQueue<T> {
    const copy = new EventQueue<T>(cancelled);
    copy.heap = this.heap.slice();
    return copy;
  }


  get size(): number {
    return this.heap.length;
  }

  push(entry: QueueEntry<T>): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent];
      if (compareEntries(entry, p) >= 0) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = entry;
  }

  /** Mark a timer handle as cancelled; it will never be returned by `pop`. */
  cancel(handle: number): void {
    if (handle >= 0) this.cancelled.add(handle);
  }

  /** Remove and return the next live entry, or undefined when the queue is empty. */
  pop(): QueueEntry<T> | undefined {
    return this.peek() === undefined ? undefined : this.popRaw();
  }

  /** The next live entry without removing it (cancelled entries at the top are discarded). */
  peek(): QueueEntry<T> | undefined {
    const heap = this.heap;
    while (heap.length > 0) {
      const top = heap[0];
      if (top.handle >= 0 && this.cancelled.size > 0 && this.cancelled.has(top.handle)) {
        this.cancelled.delete(top.handle);
        this.popRaw();
        continue;
      }
      return top;
    }
    return undefined;
  }

  private popRaw(): QueueEntry<T> | undefined {
    const heap = this.heap;
    if (heap.length === 0) return undefined;
    const top = heap[0];
    const last = heap.pop() as QueueEntry<T>;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      const n = heap.length;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < n && compareEntries(heap[l], heap[m]) < 0) m = l;
        if (r < n && compareEntries(heap[r], heap[m]) < 0) m = r;
        if (m === i) break;
        const t = heap[i];
        heap[i] = heap[m];
        heap[m] = t;
        i = m;
      }
    }
    return top;
  }
}

/** Drops the entries behind `lane.head` once they are at least 1,024 and half the lane (amortised O(1)). */
function compactLane<T>(lane: Lane<T>): void {
  if (lane.head >= 1024 && lane.head * 2 >= lane.items.length) {
    lane.items = lane.items.slice(lane.head);
    lane.dead = lane.dead.slice(lane.head);
    lane.head = 0;
  }
}

interface Lane<T> {
  delayMs: number;
  rank: number;
  /** Pending entries from `head` on, in queue order and so in handle order. */
  items: QueueEntry<T>[];
  /** Parallel to `items`: 1 once the entry was cancelled. */
  dead: number[];
  head: number;
}

/**
 * The checkpointed core's timer queue: same order as `EventQueue` (`compareEntries`), faster for
 * the common case. Timers scheduled with the same delay (`at - now`) and rank arrive in sorted
 * order by themselves (time never goes back and `seq` only grows), so each such class is a FIFO
 * lane; up to `maxLanes` lanes, any other timer goes to a binary heap. The next entry is the
 * smallest lane head or heap top. A lane's entries are in handle order too (handles only grow),
 * so cancelling one finds it by binary search and marks it dead; a handle in no lane is cancelled
 * lazily in the heap, as in `EventQueue`. `clone` copies it for a checkpoint (entries are shared:
 * they are never mutated).
 */
export class LaneQueue<T = unknown> {
  private lanes: Lane<T>[] = [];
  /** One set of cancelled handles, shared by the lanes and the heap (each handle lives in one place). */
  private cancelled = new Set<number>();
  private heap = new EventQueue<T>(this.cancelled);
  /**
   * What the last `peek` found (a lane or the heap) and the entry it returned, until a pop, or a
   * push or cancel that could change the next entry (a later entry or another handle cannot).
   */
  private peeked: Lane<T> | 'heap' | null = null;
  private peekedEntry: QueueEntry<T> | undefined = undefined;

  constructor(private readonly maxLanes = 8) {}

  /** Adds `entry`, scheduled at virtual time `nowMs` (≤ entry.at). */
  push(entry: QueueEntry<T>, nowMs: number): void {
    // The next entry stays the peeked one unless the new entry comes before it.
    if (this.peeked !== null && compareEntries(entry, this.peekedEntry as QueueEntry<T>) < 0) this.peeked = null;
    const delayMs = entry.at - nowMs;
    const lanes = this.lanes;
    for (let i = 0; i < lanes.length; i++) {
      const lane = lanes[i];
      if (lane.delayMs !== delayMs || lane.rank !== entry.rank) continue;
      const items = lane.items;
      if (items.length === 0 || compareEntries(items[items.length - 1], entry) <= 0) {
        items.push(entry);
        lane.dead.push(0);
        return;
      }
      break;
    }
    if (lanes.length < this.maxLanes && !lanes.some((l) => l.delayMs === delayMs && l.rank === entry.rank)) {
      lanes.push({ delayMs, rank: entry.rank, items: [entry], dead: [0], head: 0 });
      return;
    }
    this.heap.push(entry);
  }

  /** Marks a timer handle cancelled; it will never be returned. */
  cancel(handle: number): void {
    if (handle < 0) return;
    // Cancelling another entry than the peeked one leaves the next entry as it is.
    if (this.peeked !== null && (this.peekedEntry as QueueEntry<T>).handle === handle) this.peeked = null;
    const lanes = this.lanes;
    for (let i = 0; i < lanes.length; i++) {
      const lane = lanes[i];
      const items = lane.items;
      let lo = lane.head;
      let hi = items.length - 1;
      if (lo > hi || items[hi].handle < handle || items[lo].handle > handle) continue;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const h = items[mid].handle;
        if (h === handle) {
          lane.dead[mid] = 1;
          return;
        }
        if (h < handle) lo = mid + 1;
        else hi = mid - 1;
      }
    }
    this.cancelled.add(handle);
  }

  /** The next live entry without removing it, or undefined. */
  peek(): QueueEntry<T> | undefined {
    if (this.peeked !== null) return this.peekedEntry;
    const lane = this.minLane();
    const top = this.heap.peek();
    if (lane === undefined) {
      this.peeked = top === undefined ? null : 'heap';
      this.peekedEntry = top;
      return top;
    }
    const head = lane.items[lane.head];
    if (top !== undefined && compareEntries(top, head) < 0) {
      this.peeked = 'heap';
      this.peekedEntry = top;
      return top;
    }
    this.peeked = lane;
    this.peekedEntry = head;
    return head;
  }

  /** Removes and returns the next live entry, or undefined. */
  pop(): QueueEntry<T> | undefined {
    if (this.peeked === null && this.peek() === undefined) return undefined;
    const where = this.peeked as Lane<T> | 'heap';
    this.peeked = null;
    if (where === 'heap') return this.heap.pop();
    const lane = where;
    const head = lane.items[lane.head];
    lane.head++;
    compactLane(lane);
    return head;
  }

  /** A copy for a checkpoint. O(pending timers + pending cancellations). */
  clone(): LaneQueue<T> {
    const copy = new LaneQueue<T>(this.maxLanes);
    copy.lanes = this.lanes.map((l) => ({ delayMs: l.delayMs, rank: l.rank, items: l.items.slice(l.head), dead: l.dead.slice(l.head), head: 0 }));
    copy.cancelled = new Set(this.cancelled);
    copy.heap = this.heap.clone(copy.cancelled);
    return copy;
  }

  /** The lane with the smallest live head (cancelled heads are dropped), or undefined. */
  private minLane(): Lane<T> | undefined {
    const lanes = this.lanes;
    let best: Lane<T> | undefined;
    for (let i = 0; i < lanes.length; i++) {
      const lane = lanes[i];
      const dead = lane.dead;
      while (lane.head < lane.items.length && dead[lane.head] === 1) lane.head++;
      // A lane whose entries are mostly cancelled (idle deadlines moved by progress) is passed by
      // its head but rarely popped: drop what lies behind the head here too, or it keeps them all.
      compactLane(lane);
      const items = lane.items;
      if (lane.head >= items.length) {
        if (items.length > 256) {
          lane.items = [];
          lane.dead = [];
          lane.head = 0;
        }
        continue;
      }
      if (best === undefined || compareEntries(items[lane.head], best.items[best.head]) < 0) best = lane;
    }
    return best;
  }
}
