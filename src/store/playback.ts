/**
 * Pure playback helpers for a lab's virtual clock: the speed slider's log scale, stepping between
 * trace step times, and the time range the playhead may cover. No React, no DOM.
 */
import { bisectLeft, bisectRight } from 'd3';

/** Speed is virtual milliseconds per real second. */
export const SPEED_MIN = 10;
export const SPEED_MAX = 100_000;
/** The speed slider's integer range (log scale over SPEED_MIN…SPEED_MAX). */
export const SPEED_SLIDER_MAX = 400;

/** Slider position (0…SPEED_SLIDER_MAX) → speed, rounded to a readable value (2 significant digits). */
export function sliderToSpeed(position: number): number {
  const p = Math.min(Math.max(position, 0), SPEED_SLIDER_MAX) / SPEED_SLIDER_MAX;
  const raw = SPEED_MIN * Math.pow(SPEED_MAX / SPEED_MIN, p);
  return roundSignificant(raw, 2);
}

/** Speed → slider position (inverse of `sliderToSpeed`, up to rounding). */
export function speedToSlider(speed: number): number {
  const s = Math.min(Math.max(speed, SPEED_MIN), SPEED_MAX);
  return Math.round((Math.log(s / SPEED_MIN) / Math.log(SPEED_MAX / SPEED_MIN)) * SPEED_SLIDER_MAX);
}

export function roundSignificant(value: number, digits: number): number {
  if (value <= 0) return 0;
  const magnitude = Math.pow(10, Math.floor(Math.log10(value)) - digits + 1);
  return Math.round(value / magnitude) * magnitude;
}

/**
 * A speed that plays a trace ending at `endMs` in about `seconds` real seconds, on the 1-2-5 ladder.
 * Four seconds by default: at eight, Races A (550 ms) played at 50 ms/s and showed 79 ms after 1.5 s
 * of Play — it looked stuck (issue 27's walkthrough); now 100 ms/s reaches its first progress in 1.5 s.
 */
export function suggestedSpeed(endMs: number, seconds = 4): number {
  const target = Math.max(endMs, 1) / seconds;
  const ladder: number[] = [];
  for (let m = 10; m <= SPEED_MAX; m *= 10) ladder.push(m, 2 * m, 5 * m);
  let best = ladder[0];
  for (const v of ladder) if (v <= SPEED_MAX && Math.abs(Math.log(v / target)) < Math.abs(Math.log(best / target))) best = v;
  return Math.min(Math.max(best, SPEED_MIN), SPEED_MAX);
}

/** The first step time strictly after `cursorMs`, or null. `times` is sorted ascending (binary search, d3's `bisectRight`). */
export function nextStepTime(times: readonly number[], cursorMs: number): number | null {
  const i = bisectRight(times, cursorMs);
  return i < times.length ? times[i] : null;
}

/** The last step time strictly before `cursorMs`, or null. `times` is sorted ascending (binary search, d3's `bisectLeft`). */
export function prevStepTime(times: readonly number[], cursorMs: number): number | null {
  const i = bisectLeft(times, cursorMs);
  return i > 0 ? times[i - 1] : null;
}

/** The end of the time range shown and scrubbable: the last thing that happens, plus a margin. */
export function timeRangeEnd(lastMs: number): number {
  if (lastMs <= 0) return 1000;
  const padded = lastMs * 1.06;
  const magnitude = Math.pow(10, Math.floor(Math.log10(padded)) - 1);
  return Math.ceil(padded / magnitude) * magnitude;
}

/** The playhead fields every lab store holds. Times in virtual ms; speed in virtual ms per real second. */
export interface PlaybackData {
  cursorMs: number;
  playing: boolean;
  speed: number;
  /** Distinct step times of the trace, ascending. */
  stepTimes: readonly number[];
  /** End of the scrubbable range. */
  rangeEndMs: number;
}

/** The playhead actions every lab store offers (the shared PlaybackBar and keyboard call them). */
export interface PlaybackActions {
  /** Moves the playhead to `ms`, clamped to [0, rangeEndMs]; a non-finite value goes to 0. */
  seek(ms: number): void;
  /** Pauses and moves to the next step time (stays at the last one). */
  stepForward(): void;
  /** Pauses and moves to the previous step time (or 0). */
  stepBack(): void;
  toStart(): void;
  /** Pauses at the end (`endOf`). */
  toEnd(): void;
  /** Plays from the playhead (from 0 when already at the end) or pauses on a whole millisecond. */
  togglePlay(): void;
  /** Advances the playhead by `realMs` of wall time at the current speed, stopping at the end. */
  tick(realMs: number): void;
  /** Sets the speed, clamped to [SPEED_MIN, SPEED_MAX]; a non-finite value is ignored. */
  setSpeed(speed: number): void;
}

/**
 * The playhead actions over a zustand store's `get`/`set`, the same in every lab. `endOf(state)`
 * is where playing stops and End jumps (the last step, or the range end for a lab that shows
 * time after it). Pure state transitions: the animation loop that calls `tick` lives in the UI.
 */
export function playbackActions<S extends PlaybackData>(get: () => S, set: (patch: Partial<PlaybackData>) => void, endOf: (state: S) => number): PlaybackActions {
  return {
    seek(ms) {
      set({ cursorMs: Number.isFinite(ms) ? Math.min(Math.max(ms, 0), get().rangeEndMs) : 0 });
    },
    stepForward() {
      const s = get();
      const next = nextStepTime(s.stepTimes, Math.floor(s.cursorMs));
      set({ playing: false, cursorMs: next ?? s.cursorMs });
    },
    stepBack() {
      const s = get();
      set({ playing: false, cursorMs: prevStepTime(s.stepTimes, Math.ceil(s.cursorMs)) ?? 0 });
    },
    toStart() {
      set({ playing: false, cursorMs: 0 });
    },
    toEnd() {
      set({ playing: false, cursorMs: endOf(get()) });
    },
    togglePlay() {
      const s = get();
      if (s.playing) set({ playing: false, cursorMs: Math.floor(s.cursorMs) });
      else set({ playing: true, cursorMs: s.cursorMs >= endOf(s) ? 0 : s.cursorMs });
    },
    tick(realMs) {
      const s = get();
      if (!s.playing) return;
      const end = endOf(s);
      const cursorMs = s.cursorMs + (s.speed * realMs) / 1000;
      set(cursorMs >= end ? { cursorMs: end, playing: false } : { cursorMs });
    },
    setSpeed(speed) {
      if (Number.isFinite(speed)) set({ speed: Math.min(Math.max(speed, SPEED_MIN), SPEED_MAX) });
    },
  };
}
