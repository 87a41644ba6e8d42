/**
 * The bounded SSE buffer: a server's per-stream outbound queue of progress notifications and final
 * responses, under the lesson's policy and the policies it is compared with (issue 4, item 1).
 *
 * Pure and immutable: every operation returns a new `BufferState`. The queue is stored as runs of
 * consecutive items with the same kind and token (`from..to` emission numbers), so an unbounded
 * queue of thousands of events costs one run, and each state can be kept per replay step.
 *
 * Policies:
 * - 'lesson' (the lesson's policy, capacity ≥ 2): a progress event replaces an adjacent progress of
 *   the same token (the queue's last item; counted as dropped, token marked for an authoritative
 *   refetch); when full, the oldest progress is dropped (marked); if only final responses remain,
 *   the new progress is discarded (counted, marked); a final evicts the oldest progress but is
 *   never dropped, and a final that could only fit by dropping another final is refused with an
 *   error.
 * - 'unbounded': never drops; memory grows without limit (the capacity is only a reference line).
 * - 'drop-oldest': a ring buffer; when full the oldest item of any kind is dropped and its token
 *   marked (it can drop a final response: the `final-never-dropped` invariant shows it). At
 *   capacity 1 each event overwrites the unread one, the loss marked.
 * - 'disconnect': at capacity the stream is closed; everything queued and the new item are lost,
 *   every affected token is marked, and the client must reconnect and resync.
 * - 'drop-silent': the explicitly broken policy: drop-oldest without any refetch mark (a silent gap).
 *   At capacity 1 it is cpp-mcp's single-slot buffer before PR#53 (built-in SB1).
 */

/** How the buffer behaves at capacity. */
export type BufferPolicy = 'lesson' | 'unbounded' | 'drop-oldest' | 'disconnect' | 'drop-silent';

export const BUFFER_POLICIES: readonly BufferPolicy[] = ['lesson', 'unbounded', 'drop-oldest', 'disconnect', 'drop-silent'];

/** One queued SSE event: a progress notification or a final response for `token`; `seq` is its emission number. */
export interface BufferItem {
  kind: 'progress' | 'final';
  token: string;
  seq: number;
}

/** Consecutive items of one kind and token with emission numbers `from..to` (inclusive, contiguous). */
export interface BufferRun {
  kind: 'progress' | 'final';
  token: string;
  from: number;
  to: number;
}

/** The buffer and its counters. Immutable. */
export interface BufferState {
  policy: BufferPolicy;
  capacityEvents: number;
  runs: readonly BufferRun[];
  /** Items queued now. */
  size: number;
  /** Largest `size` ever reached. */
  peak: number;
  /** Progress events lost in total (coalesced + droppedOldest + discarded + progress lost on disconnect). */
  dropped: number;
  /** Progress replaced by a newer adjacent progress of the same token. */
  coalesced: number;
  /** Items dropped from the front (oldest progress, or under drop-oldest any oldest item). */
  droppedOldest: number;
  /** New progress refused because only final responses were queued. */
  discarded: number;
  /** Finals refused because only other finals could make room (each with an error). */
  finalsRefused: number;
  /** Finals dropped (must stay 0; drop-oldest and drop-silent break it). */
  finalsDropped: number;
  /** Items lost because the stream was closed at capacity (disconnect policy). */
  lostOnDisconnect: number;
  /** Items lost with no refetch mark (only drop-silent). */
  silentlyLost: number;
  /** Tokens whose state must be refetched from the server (sorted, no duplicates). */
  refetch: readonly string[];
}

/**
 * The buffer's loss counters in their fixed order (dropped, coalesced, droppedOldest, discarded,
 * finalsRefused, finalsDropped): the one list the state view and the outcome summary both copy.
 */
export function dropCounters(b: Pick<BufferState, 'dropped' | 'coalesced' | 'droppedOldest' | 'discarded' | 'finalsRefused' | 'finalsDropped'>) {
  return { dropped: b.dropped, coalesced: b.coalesced, droppedOldest: b.droppedOldest, discarded: b.discarded, finalsRefused: b.finalsRefused, finalsDropped: b.finalsDropped };
}

/** What one push did. */
export type PushOutcome = 'queued' | 'coalesced' | 'dropped-oldest' | 'discarded' | 'refused' | 'disconnect';

export interface PushResult {
  state: BufferState;
  outcome: PushOutcome;
  /** Items lost by this push (the replaced, dropped or discarded ones; all queued items on disconnect). */
  lost: BufferItem[];
  /** Set when a final is refused: names the capacity and the finals holding it. */
  error?: string;
}

/** The lesson policy's smallest capacity: one progress and one final must fit together. */
export const LESSON_MIN_CAPACITY_EVENTS = 2;

/**
 * Why `capacityEvents` is no capacity for `policy`, or null: an integer ≥ 2 under 'lesson' (one
 * progress and one final must fit together), ≥ 1 under the others — 1 is the one-slot buffer of
 * cpp-mcp before PR#53 (github.com/hkr04/cpp-mcp/pull/53: "send_event overwrote the previous
 * unread notification"), which 'drop-silent' at capacity 1 is.
 */
export function capacityProblem(policy: BufferPolicy, capacityEvents: number): string | null {
  const min = policy === 'lesson' ? LESSON_MIN_CAPACITY_EVENTS : 1;
  return Number.isInteger(capacityEvents) && capacityEvents >= min ? null : `buffer: capacityEvents must be an integer ≥ ${min} under policy ${policy}, got ${capacityEvents}`;
}

/** An empty buffer. Throws RangeError when `capacityProblem(policy, capacityEvents)` names a problem. */
export function emptyBuffer(policy: BufferPolicy, capacityEvents: number): BufferState {
  const problem = capacityProblem(policy, capacityEvents);
  if (problem !== null) throw new RangeError(problem);
  return {
    policy,
    capacityEvents,
    runs: [],
    size: 0,
    peak: 0,
    dropped: 0,
    coalesced: 0,
    droppedOldest: 0,
    discarded: 0,
    finalsRefused: 0,
    finalsDropped: 0,
    lostOnDisconnect: 0,
    silentlyLost: 0,
    refetch: [],
  };
}

/** The queued items in order, oldest first (expands the runs; for views and tests). */
export function bufferItems(state: BufferState, limit = Infinity): BufferItem[] {
  const out: BufferItem[] = [];
  for (const r of state.runs) {
    for (let s = r.from; s <= r.to && out.length < limit; s++) out.push({ kind: r.kind, token: r.token, seq: s });
  }
  return out;
}

/**
 * Where `token` stands or would be inserted in the sorted list `list` (binary search: the first
 * index whose entry is not less than `token`). Shared with the in-place buffer (`bufferCore.ts`).
 */
export function sortedIndexOf(list: readonly string[], token: string): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < token) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Inserts `token` into a sorted, duplicate-free list (returns the same list when present). */
function mark(list: readonly string[], token: string): readonly string[] {
  const lo = sortedIndexOf(list, token);
  if (list[lo] === token) return list;
  const out = list.slice();
  out.splice(lo, 0, token);
  return out;
}

function append(runs: readonly BufferRun[], item: BufferItem): BufferRun[] {
  const out = runs.slice();
  const tail = out[out.length - 1];
  if (tail && tail.kind === item.kind && tail.token === item.token && tail.to + 1 === item.seq) out[out.length - 1] = { ...tail, to: item.seq };
  else out.push({ kind: item.kind, token: item.token, from: item.seq, to: item.seq });
  return out;
}

/** Removes the first item of run `index`; returns the new runs and the removed item. */
function removeFirstOf(runs: readonly BufferRun[], index: number): { runs: BufferRun[]; item: BufferItem } {
  const out = runs.slice();
  const r = out[index];
  const item: BufferItem = { kind: r.kind, token: r.token, seq: r.from };
  if (r.from === r.to) out.splice(index, 1);
  else out[index] = { ...r, from: r.from + 1 };
  return { runs: out, item };
}

function withSize(state: BufferState, runs: readonly BufferRun[], size: number, patch: Partial<BufferState>): BufferState {
  return { ...state, ...patch, runs, size, peak: Math.max(state.peak, size) };
}

/**
 * Offers one event to the buffer under its policy (see the module docstring). Never throws for a
 * full buffer: a refused final comes back with outcome 'refused' and an `error` text, the buffer
 * unchanged but for the counter. Throws RangeError if `item.seq` is not an integer.
 */
export function pushEvent(state: BufferState, item: BufferItem): PushResult {
  if (!Number.isInteger(item.seq)) throw new RangeError(`buffer: seq must be an integer, got ${item.seq}`);
  const { policy, capacityEvents: cap } = state;
  const runs = state.runs;
  const tail = runs[runs.length - 1];

  if (policy === 'unbounded') return { state: withSize(state, append(runs, item), state.size + 1, {}), outcome: 'queued', lost: [] };

  if (policy === 'lesson' && item.kind === 'progress' && tail && tail.kind === 'progress' && tail.token === item.token) {
    // Coalesce: the newest progress of this token replaces the adjacent older one.
    const replaced: BufferItem = { kind: 'progress', token: tail.token, seq: tail.to };
    const out = runs.slice();
    if (tail.from === tail.to) out.pop();
    else out[out.length - 1] = { ...tail, to: tail.to - 1 };
    const next = append(out, item);
    return {
      state: withSize(state, next, state.size, { dropped: state.dropped + 1, coalesced: state.coalesced + 1, refetch: mark(state.refetch, item.token) }),
      outcome: 'coalesced',
      lost: [replaced],
    };
  }

  if (state.size < cap) return { state: withSize(state, append(runs, item), state.size + 1, {}), outcome: 'queued', lost: [] };

  // Full.
  switch (policy) {
    case 'drop-oldest':
    case 'drop-silent': {
      const { runs: rest, item: gone } = removeFirstOf(runs, 0);
      const silent = policy === 'drop-silent';
      return {
        state: withSize(state, append(rest, item), state.size, {
          dropped: state.dropped + (gone.kind === 'progress' ? 1 : 0),
          droppedOldest: state.droppedOldest + 1,
          finalsDropped: state.finalsDropped + (gone.kind === 'final' ? 1 : 0),
          silentlyLost: state.silentlyLost + (silent ? 1 : 0),
          refetch: silent ? state.refetch : mark(state.refetch, gone.token),
        }),
        outcome: 'dropped-oldest',
        lost: [gone],
      };
    }
    case 'disconnect': {
      const lost = [...bufferItems(state), item];
      let refetch = state.refetch;
      for (const r of runs) refetch = mark(refetch, r.token);
      refetch = mark(refetch, item.token);
      const progressLost = lost.filter((x) => x.kind === 'progress').length;
      return {
        state: withSize(state, [], 0, { dropped: state.dropped + progressLost, lostOnDisconnect: state.lostOnDisconnect + lost.length, refetch }),
        outcome: 'disconnect',
        lost,
      };
    }
    case 'lesson': {
      const oldestProgress = runs.findIndex((r) => r.kind === 'progress');
      if (oldestProgress >= 0) {
        const { runs: rest, item: gone } = removeFirstOf(runs, oldestProgress);
        return {
          state: withSize(state, append(rest, item), state.size, {
            dropped: state.dropped + 1,
            droppedOldest: state.droppedOldest + 1,
            refetch: mark(state.refetch, gone.token),
          }),
          outcome: 'dropped-oldest',
          lost: [gone],
        };
      }
      if (item.kind === 'progress') {
        return {
          state: { ...state, dropped: state.dropped + 1, discarded: state.discarded + 1, refetch: mark(state.refetch, item.token) },
          outcome: 'discarded',
          lost: [item],
        };
      }
      return {
        state: { ...state, finalsRefused: state.finalsRefused + 1 },
        outcome: 'refused',
        lost: [],
        error: `buffer full: all ${cap} slots hold final responses; the final for ${item.token} is refused rather than dropping another final (raise capacityEvents or let the client read)`,
      };
    }
  }
}

/** Takes the oldest item (the client reads it). Returns null item when empty. */
export function takeEvent(state: BufferState): { state: BufferState; item: BufferItem | null } {
  if (state.runs.length === 0) return { state, item: null };
  const { runs, item } = removeFirstOf(state.runs, 0);
  return { state: { ...state, runs, size: state.size - 1 }, item };
}

/** Takes every queued item at once (a reader that keeps up); returns how many progress and finals it got. */
export function drainEvents(state: BufferState): { state: BufferState; progress: number; finals: number; finalTokens: string[] } {
  let progress = 0;
  let finals = 0;
  const finalTokens: string[] = [];
  for (const r of state.runs) {
    const n = r.to - r.from + 1;
    if (r.kind === 'progress') progress += n;
    else {
      finals += n;
      for (let i = 0; i < n; i++) finalTokens.push(r.token);
    }
  }
  return { state: { ...state, runs: [], size: 0 }, progress, finals, finalTokens };
}

/** Clears the refetch marks (the client refetched the authoritative state of those tokens). */
export function clearRefetch(state: BufferState): BufferState {
  return state.refetch.length === 0 ? state : { ...state, refetch: [] };
}
