import { describe, expect, it } from 'vitest';
import { nextStepTime, playbackActions, prevStepTime, sliderToSpeed, speedToSlider, SPEED_MAX, SPEED_MIN, SPEED_SLIDER_MAX, suggestedSpeed, timeRangeEnd, type PlaybackData } from './playback';

describe('speed slider (log scale)', () => {
  it('spans 10…100000 virtual ms per second', () => {
    expect(sliderToSpeed(0)).toBe(SPEED_MIN);
    expect(sliderToSpeed(SPEED_SLIDER_MAX)).toBe(SPEED_MAX);
    expect(sliderToSpeed(SPEED_SLIDER_MAX / 2)).toBe(1000);
  });
  it('round-trips through the slider position', () => {
    for (const speed of [10, 100, 1000, 10000, 100000]) expect(sliderToSpeed(speedToSlider(speed))).toBe(speed);
  });
  it('suggests a 1-2-5 speed that plays the trace in a few seconds', () => {
    expect(suggestedSpeed(500)).toBe(100);
    expect(suggestedSpeed(46000)).toBe(10000);
    expect(suggestedSpeed(460000)).toBe(SPEED_MAX);
    expect(suggestedSpeed(0)).toBe(SPEED_MIN);
  });
  it('shows motion at once: Races A (last step 550 ms) passes its first progress (150 ms) within 1.5 s of Play', () => {
    expect(suggestedSpeed(550) * 1.5).toBeGreaterThanOrEqual(150);
  });
});

describe('stepping', () => {
  const times = [0, 20, 150, 170, 300];
  it('finds the next step time strictly after the cursor', () => {
    expect(nextStepTime(times, 0)).toBe(20);
    expect(nextStepTime(times, 19.5)).toBe(20);
    expect(nextStepTime(times, 300)).toBeNull();
  });
  it('finds the previous step time strictly before the cursor', () => {
    expect(prevStepTime(times, 300)).toBe(170);
    expect(prevStepTime(times, 160)).toBe(150);
    expect(prevStepTime(times, 0)).toBeNull();
  });
  it('steps over every step sharing a millisecond, both ways', () => {
    const shared = [0, 20, 20, 20, 150];
    expect(nextStepTime(shared, 0)).toBe(20);
    expect(nextStepTime(shared, 20)).toBe(150);
    expect(prevStepTime(shared, 150)).toBe(20);
    expect(prevStepTime(shared, 20)).toBe(0);
  });
  it('pads the range end to a round number', () => {
    expect(timeRangeEnd(500)).toBe(530);
    expect(timeRangeEnd(460000)).toBe(490000);
    expect(timeRangeEnd(0)).toBe(1000);
  });
});

describe('the shared playhead actions', () => {
  const make = (over: Partial<PlaybackData> = {}) => {
    let state: PlaybackData = { cursorMs: 0, playing: false, speed: 1000, stepTimes: [0, 100, 250], rangeEndMs: 400, ...over };
    const a = playbackActions(() => state, (patch) => (state = { ...state, ...patch }), (s) => s.stepTimes[s.stepTimes.length - 1]);
    return { a, get: () => state };
  };
  it('steps between step times, pausing, and clamps seeks to the range', () => {
    const { a, get } = make({ playing: true });
    a.stepForward();
    expect(get()).toMatchObject({ cursorMs: 100, playing: false });
    a.stepForward();
    a.stepForward();
    expect(get().cursorMs).toBe(250);
    a.stepBack();
    expect(get().cursorMs).toBe(100);
    a.seek(9999);
    expect(get().cursorMs).toBe(400);
    a.seek(Number.NaN);
    expect(get().cursorMs).toBe(0);
    a.toEnd();
    expect(get().cursorMs).toBe(250);
  });
  it('plays at the speed, stops at the end, and replays from 0 when started at the end', () => {
    const { a, get } = make();
    a.togglePlay();
    a.tick(100); // 1000 virtual ms per second → 100 ms
    expect(get()).toMatchObject({ cursorMs: 100, playing: true });
    a.tick(1000);
    expect(get()).toMatchObject({ cursorMs: 250, playing: false });
    a.togglePlay();
    expect(get()).toMatchObject({ cursorMs: 0, playing: true });
    a.tick(12.5);
    a.togglePlay();
    expect(get()).toMatchObject({ cursorMs: 12, playing: false });
    a.setSpeed(1e9);
    expect(get().speed).toBe(SPEED_MAX);
    a.setSpeed(Number.NaN);
    expect(get().speed).toBe(SPEED_MAX);
  });
});
