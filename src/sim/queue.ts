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
  private cancelled = new Set<number>();

  get size(): number {
    return this.heap.length;
  }

  push(entry: QueueEntry<T>): void {
    const heap = this.heap;
    heap.push(entry);
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compareEntries(heap[i], heap[parent]) >= 0) break;
      [heap[i], heap[parent]] = [heap[parent], heap[i]];
      i = parent;
    }
  }

  /** Mark a timer handle as cancelled; it will never be returned by `pop`. */
  cancel(handle: number): void {
    if (handle >= 0) this.cancelled.add(handle);
  }

  /** Remove and return the next live entry, or undefined when the queue is empty. */
  pop(): QueueEntry<T> | undefined {
    for (;;) {
      const top = this.popRaw();
      if (top === undefined) return undefined;
      if (top.handle >= 0 && this.cancelled.has(top.handle)) {
        this.cancelled.delete(top.handle);
        continue;
      }
      return top;
    }
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
        [heap[i], heap[m]] = [heap[m], heap[i]];
        i = m;
      }
    }
    return top;
  }
}
