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

/**
 * One FIFO lane of `LaneQueue`: a ring buffer of pending entries, slots `head … head + size - 1`
 * (modulo the capacity, a power of two; `mask` is capacity - 1), in queue order and so in handle
 * order. A slot is cleared when its entry leaves, so the lane holds no entry it no longer needs, and
 * a lane that has grown to its largest backlog pushes and pops without allocating.
 */
interface Lane<T> {
  delayMs: number;
  rank: number;
  items: (QueueEntry<T> | undefined)[];
  /** Parallel to `items`: 1 once the entry was cancelled. */
  dead: Uint8Array;
  head: number;
  size: number;
  mask: number;
}

/** An empty lane of `delayMs` and `rank` with room for `capacity` entries (a power of two). */
function newLane<T>(delayMs: number, rank: number, capacity: number): Lane<T> {
  return { delayMs, rank, items: new Array<QueueEntry<T> | undefined>(capacity).fill(undefined), dead: new Uint8Array(capacity), head: 0, size: 0, mask: capacity - 1 };
}

/** A copy of `lane` (its entries and dead marks, oldest first from slot 0) with room for at least `room` entries. */
function copyLane<T>(lane: Lane<T>, room: number): Lane<T> {
  let capacity = 16;
  while (capacity < room) capacity *= 2;
  const copy = newLane<T>(lane.delayMs, lane.rank, capacity);
  for (let k = 0; k < lane.size; k++) {
    const slot = (lane.head + k) & lane.mask;
    copy.items[k] = lane.items[slot];
    copy.dead[k] = lane.dead[slot];
  }
  copy.size = lane.size;
  return copy;
}

/** Appends `entry` to `lane`, doubling the ring when it is full. */
function laneAppend<T>(lane: Lane<T>, entry: QueueEntry<T>): void {
  if (lane.size > lane.mask) {
    const grown = copyLane(lane, 2 * (lane.mask + 1));
    lane.items = grown.items;
    lane.dead = grown.dead;
    lane.head = 0;
    lane.mask = grown.mask;
  }
  const slot = (lane.head + lane.size) & lane.mask;
  lane.items[slot] = entry;
  lane.dead[slot] = 0;
  lane.size++;
}

/** Removes the lane's oldest entry (clearing its slot). */
function laneShift<T>(lane: Lane<T>): void {
  lane.items[lane.head] = undefined;
  lane.head = (lane.head + 1) & lane.mask;
  lane.size--;
}

/** The entry `k` places behind the lane's oldest (0 ≤ k < size). */
function laneAt<T>(lane: Lane<T>, k: number): QueueEntry<T> {
  return lane.items[(lane.head + k) & lane.mask] as QueueEntry<T>;
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
      if (lane.size === 0 || compareEntries(laneAt(lane, lane.size - 1), entry) <= 0) {
        laneAppend(lane, entry);
        return;
      }
      break;
    }
    if (lanes.length < this.maxLanes && !lanes.some((l) => l.delayMs === delayMs && l.rank === entry.rank)) {
      const lane = newLane<T>(delayMs, entry.rank, 16);
      laneAppend(lane, entry);
      lanes.push(lane);
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
      let lo = 0;
      let hi = lane.size - 1;
      if (hi < 0 || laneAt(lane, hi).handle < handle || laneAt(lane, 0).handle > handle) continue;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const h = laneAt(lane, mid).handle;
        if (h === handle) {
          lane.dead[(lane.head + mid) & lane.mask] = 1;
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
    const head = lane.items[lane.head] as QueueEntry<T>;
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
    laneShift(lane);
    return head;
  }

  /** A copy for a checkpoint. O(pending timers + pending cancellations). */
  clone(): LaneQueue<T> {
    const copy = new LaneQueue<T>(this.maxLanes);
    copy.lanes = this.lanes.map((l) => copyLane(l, l.size));
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
      // Cancelled heads leave here (an idle-deadline lane, whose entries progress cancels, is
      // passed by its head but rarely popped): their slots are cleared, so the lane keeps none.
      while (lane.size > 0 && lane.dead[lane.head] === 1) laneShift(lane);
      if (lane.size === 0) continue;
      if (best === undefined || compareEntries(lane.items[lane.head] as QueueEntry<T>, best.items[best.head] as QueueEntry<T>) < 0) best = lane;
    }
    return best;
  }
}
