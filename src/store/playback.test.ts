import { describe, expect, it } from 'vitest';
import { nextStepTime, prevStepTime, sliderToSpeed, speedToSlider, SPEED_MAX, SPEED_MIN, SPEED_SLIDER_MAX, suggestedSpeed, timeRangeEnd } from './playback';

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
    expect(suggestedSpeed(500)).toBe(50);
    expect(suggestedSpeed(460000)).toBe(50000);
    expect(suggestedSpeed(0)).toBe(SPEED_MIN);
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
  it('pads the range end to a round number', () => {
    expect(timeRangeEnd(500)).toBe(530);
    expect(timeRangeEnd(460000)).toBe(490000);
    expect(timeRangeEnd(0)).toBe(1000);
  });
});
