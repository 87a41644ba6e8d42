// TEST-ONLY ORACLE: verbatim copy of src/sim/queue.ts at 3802fb5 (import paths adjusted). Never import from app code.
import type { QueueEntry } from '../src/sim/types';

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
