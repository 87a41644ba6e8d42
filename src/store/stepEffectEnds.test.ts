import { describe, expect, it } from 'vitest';
import { bigRacesScenario } from '../../bench/scenarios';
import { createRacesStore, stepEffectEnds } from './racesStore';
import type { LabTraceView } from '../sim/lab';

/** Per-step effect counts (the races wire panel's "n of m messages") over forks of a drag, reused before the fork's checkpoint. */
describe('stepEffectEnds', () => {
  const fresh = (view: LabTraceView<unknown>) => {
    const out: number[] = [];
    let n = 0;
    for (let i = 0; i < view.stepCount; i++) out.push((n += view.effectsOf(i).length));
    return out;
  };

  it('equals a count from scratch after each of 30 moves of a drag', () => {
    const scenario = bigRacesScenario(400, 4);
    const store = createRacesStore({ builtins: [scenario] });
    const target = scenario.events.find((e) => e.kind === 'cancel')!;
    const first = store.getState().trace as unknown as LabTraceView<unknown>;
    expect(Array.from(stepEffectEnds(first))).toEqual(fresh(first));
    store.getState().beginDrag();
    for (let i = 1; i <= 30; i++) {
      store.getState().moveEvent(target.id, target.at + (i % 2 ? 10 : -20));
      const view = store.getState().trace as unknown as LabTraceView<unknown> & { reusedSteps: number };
      expect(Array.from(stepEffectEnds(view))).toEqual(fresh(view));
      expect(view.reusedSteps).toBeGreaterThan(0);
    }
    store.getState().endDrag();
  });

  it('a fork reads effectsOf only for the steps after its checkpoint when its base was counted', () => {
    const scenario = bigRacesScenario(400, 4);
    const store = createRacesStore({ builtins: [scenario] });
    const base = store.getState().trace as unknown as LabTraceView<unknown>;
    stepEffectEnds(base);
    const target = scenario.events.filter((e) => e.kind === 'complete').at(-1)!;
    store.getState().moveEvent(target.id, target.at + 10);
    const fork = store.getState().trace as unknown as LabTraceView<unknown> & { reusedSteps: number };
    const read: number[] = [];
    const original = fork.effectsOf;
    fork.effectsOf = (s: number) => (read.push(s), original.call(fork, s));
    try {
      expect(Array.from(stepEffectEnds(fork))).toEqual(fresh({ ...fork, stepCount: fork.stepCount, effectsOf: (s: number) => original.call(fork, s) } as LabTraceView<unknown>));
    } finally {
      fork.effectsOf = original;
    }
    expect(fork.reusedSteps).toBeGreaterThan(100);
    expect(read.length).toBe(fork.stepCount - fork.reusedSteps);
    expect(Math.min(...read)).toBe(fork.reusedSteps);
  });
});

describe('rememberFork', () => {
  it('keeps one level: after the next edit, the previous trace no longer leads to the one before it', () => {
    const scenario = bigRacesScenario(400, 4);
    const store = createRacesStore({ builtins: [scenario] });
    const target = scenario.events.filter((e) => e.kind === 'complete').at(-1)!;
    const a = store.getState().trace as unknown as LabTraceView<unknown>;
    stepEffectEnds(a);
    store.getState().moveEvent(target.id, target.at + 10);
    const b = store.getState().trace as unknown as LabTraceView<unknown> & { reusedSteps: number };
    store.getState().moveEvent(target.id, target.at + 20);
    // b was counted after its own fork (c) was made: its link to a is gone, so every step is read.
    const read: number[] = [];
    const original = b.effectsOf;
    b.effectsOf = (s: number) => (read.push(s), original.call(b, s));
    try {
      stepEffectEnds(b);
    } finally {
      b.effectsOf = original;
    }
    expect(b.reusedSteps).toBeGreaterThan(100);
    expect(read.length).toBe(b.stepCount);
  });
});
