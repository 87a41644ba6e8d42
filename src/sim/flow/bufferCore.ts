import { sortedIndexOf, type BufferItem, type PushOutcome } from './buffer';
import type { BufferCore } from './state';

/**
 * The bounded SSE buffer of `buffer.ts`, mutated in place for the checkpointed core: the same
 * policies and counters as `pushEvent` (see its module docstring), item for item, without copying
 * the queue on every push. The caller marks the buffer changed (`bufferChanged`).
 */

/** What the last `pushInto` lost (valid until the next push, `first` refilled in place: read at once by the rule notes, never kept). */
export interface PushLoss {
  /** Number of items lost. */
  count: number;
  /** The first item lost (when count > 0). */
  first: BufferItem;
  /** Set when a final is refused. */
  error: string | undefined;
}

const loss: PushLoss = { count: 0, first: { kind: 'progress', token: '', seq: 0 }, error: undefined };

/** Sets `loss.first` in place (one record, refilled by every loss: a push allocates none). */
function lostFirst(kind: 'progress' | 'final', token: string, seq: number): void {
  const f = loss.first;
  f.kind = kind;
  f.token = token;
  f.seq = seq;
}

/** Inserts `token` into the sorted, duplicate-free `list` in place. */
function mark(list: string[], token: string): void {
  const lo = sortedIndexOf(list, token);
  if (list[lo] !== token) list.splice(lo, 0, token);
}

function append(b: BufferCore, kind: 'progress' | 'final', token: string, seq: number): void {
  const runs = b.runs;
  const tail = runs[runs.length - 1];
  if (tail !== undefined && tail.kind === kind && tail.token === token && tail.to + 1 === seq) tail.to = seq;
  else runs.push({ kind, token, from: seq, to: seq });
}

/** Removes the first item of run `index` into `loss.first`. */
function removeFirstOf(b: BufferCore, index: number): void {
  const r = b.runs[index];
  lostFirst(r.kind, r.token, r.from);
  if (r.from === r.to) b.runs.splice(index, 1);
  else r.from++;
}

function grew(b: BufferCore): void {
  if (b.size > b.peak) b.peak = b.size;
}

/**
 * Offers one event to the buffer under its policy (as `pushEvent`); returns the outcome, and what
 * was lost in `lastLoss()`. Never throws for a full buffer.
 */
export function pushInto(b: BufferCore, kind: 'progress' | 'final', token: string, seq: number): PushOutcome {
  const { policy, capacityEvents: cap, runs } = b;
  loss.count = 0;
  loss.error = undefined;
  if (policy === 'unbounded') {
    append(b, kind, token, seq);
    b.size++;
    grew(b);
    return 'queued';
  }
  const tail = runs[runs.length - 1];
  if (policy === 'lesson' && kind === 'progress' && tail !== undefined && tail.kind === 'progress' && tail.token === token) {
    // Coalesce: the newest progress of this token replaces the adjacent older one.
    loss.count = 1;
    lostFirst('progress', tail.token, tail.to);
    if (tail.from === tail.to) runs.pop();
    else tail.to--;
    append(b, kind, token, seq);
    b.dropped++;
    b.coalesced++;
    mark(b.refetch, token);
    return 'coalesced';
  }
  if (b.size < cap) {
    append(b, kind, token, seq);
    b.size++;
    grew(b);
    return 'queued';
  }
  switch (policy) {
    case 'drop-oldest':
    case 'drop-silent': {
      removeFirstOf(b, 0);
      const gone = loss.first;
      loss.count = 1;
      append(b, kind, token, seq);
      const silent = policy === 'drop-silent';
      if (gone.kind === 'progress') b.dropped++;
      else b.finalsDropped++;
      b.droppedOldest++;
      if (silent) b.silentlyLost++;
      else mark(b.refetch, gone.token);
      return 'dropped-oldest';
    }
    case 'disconnect': {
      let progressLost = kind === 'progress' ? 1 : 0;
      for (const r of runs) {
        mark(b.refetch, r.token);
        if (r.kind === 'progress') progressLost += r.to - r.from + 1;
      }
      mark(b.refetch, token);
      loss.count = b.size + 1;
      if (runs.length > 0) lostFirst(runs[0].kind, runs[0].token, runs[0].from);
      else lostFirst(kind, token, seq);
      b.runs = [];
      b.size = 0;
      b.dropped += progressLost;
      b.lostOnDisconnect += loss.count;
      return 'disconnect';
    }
    default: {
      let oldestProgress = 0;
      while (oldestProgress < runs.length && runs[oldestProgress].kind !== 'progress') oldestProgress++;
      if (oldestProgress < runs.length) {
        removeFirstOf(b, oldestProgress);
        loss.count = 1;
        append(b, kind, token, seq);
        b.dropped++;
        b.droppedOldest++;
        mark(b.refetch, loss.first.token);
        return 'dropped-oldest';
      }
      if (kind === 'progress') {
        loss.count = 1;
        lostFirst(kind, token, seq);
        b.dropped++;
        b.discarded++;
        mark(b.refetch, token);
        return 'discarded';
      }
      b.finalsRefused++;
      loss.error = `buffer full: all ${cap} slots hold final responses; the final for ${token} is refused rather than dropping another final (raise capacityEvents or let the client read)`;
      return 'refused';
    }
  }
}

/** What the last `pushInto` lost. */
export function lastLoss(): Readonly<PushLoss> {
  return loss;
}
