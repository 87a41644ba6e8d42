/** Idle time after the last keyboard nudge before the address is written (ms). */
export const NUDGE_IDLE_MS = 300;

/** The timers an `AddressWriter` uses (the page passes `window`'s; a test passes fake ones). */
export interface WriterClock {
  /** A monotonic time in ms (the page: `performance.now()`). */
  now(): number;
  setTimeout(run: () => void, ms: number): number;
  clearTimeout(id: number): void;
}

/** When `useHashSync` writes the address; `run` does one write (the scenario's encoding). */
export interface AddressWriter {
  /** Writes now, dropping any pending write. */
  write(): void;
  /**
   * An edit, a drag's end or a paused playhead move: writes now, or once `interval` has passed
   * since the last write (60–300 ms, 20× what the last write cost); with `defer` (a drag going on,
   * or the drag's end) never now but on a timer, at least 30 ms on. A write already pending covers it.
   */
  schedule(defer: boolean): void;
  /**
   * A keyboard nudge (arrow keys on a handle, repeating while held): restarts a trailing write
   * `NUDGE_IDLE_MS` after the last nudge, so a run of nudges encodes the scenario once, not once
   * per key repeat (a big scenario's encoding costs tens of ms).
   */
  nudged(): void;
  /** Writes a pending write at once (page hidden, page left); nothing when none is pending. */
  flush(): void;
}

/** The address-write throttle of `useHashSync`, apart from the DOM so a test can drive it. */
export function createAddressWriter(run: () => void, clock: WriterClock): AddressWriter {
  let timer: number | undefined;
  let lastWriteAt = -Infinity;
  let interval = 60;
  const write = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    const start = clock.now();
    run();
    lastWriteAt = clock.now();
    interval = Math.min(300, Math.max(60, 20 * (lastWriteAt - start)));
  };
  return {
    write,
    schedule(defer) {
      if (timer !== undefined) return;
      const wait = interval - (clock.now() - lastWriteAt);
      if (wait <= 0 && !defer) write();
      else timer = clock.setTimeout(write, Math.max(wait, 30));
    },
    nudged() {
      if (timer !== undefined) clock.clearTimeout(timer);
      timer = clock.setTimeout(write, NUDGE_IDLE_MS);
    },
    flush() {
      if (timer !== undefined) write();
    },
  };
}

/** The lab store fields `addressStep` reads. */
export interface AddressFields {
  scenario: unknown;
  cursorMs: number;
  playing: boolean;
  dragging: boolean;
  lastNudge?: unknown;
}

/**
 * What a store change asks of the address writer (`useHashSync`): `nudged` for a keyboard nudge
 * (a trailing write once the keys rest), `schedule` with `defer` for an edit, a drag's end or a
 * paused playhead move, or null for nothing. A scenario changed by a drag move waits for the drag's
 * end, and the drag's end is deferred too: the write (encoding a big scenario costs tens of ms) then
 * runs in a task of its own after the release has been drawn, not inside the release's event.
 */
export function addressStep(s: AddressFields, prev: AddressFields): { kind: 'nudged' } | { kind: 'schedule'; defer: boolean } | null {
  const scenarioChanged = s.scenario !== prev.scenario && !s.dragging;
  const cursorChanged = s.cursorMs !== prev.cursorMs || s.playing !== prev.playing;
  const dragEnded = prev.dragging && !s.dragging;
  if (scenarioChanged && s.lastNudge && s.lastNudge !== prev.lastNudge) return { kind: 'nudged' };
  if (scenarioChanged || dragEnded || (cursorChanged && !s.playing)) return { kind: 'schedule', defer: s.dragging || dragEnded };
  return null;
}
