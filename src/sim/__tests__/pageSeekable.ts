import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isLabTrace, type LabDefinition, type LabTrace } from '../lab';
import type { ReplayResult } from '../replay';
import type { Scenario } from '../types';
import type { LabId } from '../labIds';
import { withOverrides } from '../expectation';
import { loadBuiltinScenarios } from './builtinScenarios';

/**
 * Agreement of a lab's page trace (`definition.seekable`, issue 10 item 4) with its full replay
 * (`definition.replay`, every step kept): the helpers the flow and resilience tests share.
 */

type Definition<S, O, T extends ReplayResult<S, O>> = Pick<LabDefinition<S, O, T>, 'replay' | 'seekable' | 'stateAt' | 'outcomeAt' | 'checkExpectation'>;

/**
 * Asserts that `seek` reads exactly as `full` (a full replay of the same scenario): summary
 * (outcome, invariant results, effects, end, step count, truncation); at every step its time,
 * entry, effects, ignored items, violations, rule, note and state (`stateAt(i)`, read forwards, as
 * a scrub does), and its outcome (`outcomeAt(i)`) against the definition's outcome at that step's
 * time on the full trace where the step is the last of its millisecond; the definition's
 * `stateAt` / `outcomeAt` at every step time and just before and after; and every expectation of
 * the scenario checked on both. `label` names the case in failures. `seen` maps a state to what
 * it holds (default: itself; the resilience breaker's states share append-only logs, cut to their
 * seen counts), so states are compared by what they have seen.
 */
export function expectSameTrace<S, O, T extends ReplayResult<S, O>>(definition: Definition<S, O, T>, seek: T & LabTrace<S, O>, full: T, label: string, seen: (state: S) => unknown = (x) => x): void {
  expect(isLabTrace(seek), label).toBe(true);
  expect(isLabTrace(full), label).toBe(false);
  const summary = (t: { outcome: unknown; invariants: unknown; effects: unknown; endAt: number; truncated: boolean }) => ({ outcome: t.outcome, invariants: t.invariants, effects: t.effects, endAt: t.endAt, truncated: t.truncated });
  expect(summary(seek), label).toEqual(summary(full as T & { truncated: boolean }));
  expect(seek.stepCount, label).toBe(full.steps.length);
  expect(seen(seek.initial), label).toEqual(seen(full.initial));
  const notes = seek.notes();
  for (let i = 0; i < full.steps.length; i++) {
    const step = full.steps[i];
    const at = `${label} step ${i}`;
    expect(seek.atOf(i), at).toBe(step.at);
    expect(seek.entryOf(i), at).toEqual(step.entry);
    expect(seek.effectsOf(i), at).toEqual(step.effects);
    expect(seek.ignoredOf(i), at).toEqual(step.ignored);
    expect(seek.violationsOf(i), at).toEqual(step.violations);
    expect(seek.ruleOf(i), at).toBe(step.rule);
    expect(notes[i], at).toBe(step.why);
    expect(seen(seek.stateAt(i)), at).toEqual(seen(step.state));
    const lastOfMs = i === full.steps.length - 1 || full.steps[i + 1].at !== step.at;
    if (lastOfMs) expect(seek.outcomeAt(i), at).toEqual(definition.outcomeAt(full, step.at));
  }
  // Every step time and the millisecond before it (each step's state and outcome were compared
  // above; this checks the page's by-time path). Long traces: every 16th time, and the last.
  const times = new Set<number>([-1, 0, full.endAt, full.endAt + 1]);
  const stride = full.steps.length > 2000 ? 16 : 1;
  for (let i = 0; i < full.steps.length; i += stride) times.add(full.steps[i].at).add(full.steps[i].at - 1);
  for (const t of times) {
    expect(seen(definition.stateAt(seek, t)), `${label} at ${t} ms`).toEqual(seen(definition.stateAt(full, t)));
    expect(definition.outcomeAt(seek, t), `${label} at ${t} ms`).toEqual(definition.outcomeAt(full, t));
  }
  for (const e of seek.scenario.expect ?? []) {
    const { overrides: _o, ...row } = e;
    void _o;
    expect(definition.checkExpectation(seek, row), `${label}: ${e.label}`).toEqual(definition.checkExpectation(full, row));
  }
}

/** The page trace of `scenario` through the definition (throws when the definition has none). */
export function pageTrace<S, O, T extends ReplayResult<S, O>>(definition: Definition<S, O, T>, scenario: Scenario): T & LabTrace<S, O> {
  if (!definition.seekable) throw new Error('pageTrace: the definition has no seekable trace');
  return definition.seekable(scenario) as T & LabTrace<S, O>;
}

/** The scenario with event `index` at `atMs` (a drag's edit). */
export const movedTo = (s: Scenario, index: number, atMs: number): Scenario => ({ ...s, events: s.events.map((e, i) => (i === index ? { ...e, at: atMs } : e)) });

/**
 * fast-check: for generated scenarios, a drag of 1–4 moves (each a fork of the previous trace, as
 * the store does on every pointer move) ends equal to a fresh full replay of the edited scenario
 * (`expectSameTrace`), and at least one fork resumed from a checkpoint (`reusedSteps` > 0 over the run).
 */
export function expectForksAgree<S, O, T extends ReplayResult<S, O>>(
  definition: Definition<S, O, T>,
  arb: fc.Arbitrary<Scenario>,
  options: { numRuns: number; seed: number; maxAtMs: number; seen?: (state: S) => unknown },
): void {
  let reused = 0;
  let runs = 0;
  fc.assert(
    fc.property(
      arb.filter((s) => s.events.length > 0),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: options.maxAtMs })), { minLength: 1, maxLength: 4 }),
      (s, moves) => {
        let trace = pageTrace(definition, s);
        let edited = s;
        for (const [pick, at] of moves) {
          edited = movedTo(edited, pick % s.events.length, at);
          trace = trace.fork(edited) as T & LabTrace<S, O>;
          reused += (trace as unknown as { reusedSteps?: number }).reusedSteps ?? 0;
        }
        expectSameTrace(definition, trace, definition.replay(edited), `${s.id} after ${JSON.stringify(moves)}`, options.seen);
        runs++;
      },
    ),
    { numRuns: options.numRuns, seed: options.seed },
  );
  expect(runs).toBe(options.numRuns);
  expect(reused).toBeGreaterThan(0);
}

/**
 * Declares the page-trace agreement tests of `lab`: every built-in (as shipped and with each
 * expectation's overrides) and a drag of its last event read as the full replay
 * (`expectSameTrace`), and `numRuns` generated drags (`expectForksAgree`). The page trace keeps a
 * checkpoint every `checkpointEvery` steps (asserted).
 */
export function describePageSeekable<S, O, T extends ReplayResult<S, O>>(
  lab: LabId,
  definition: Definition<S, O, T>,
  options: { checkpointEvery: number; minBuiltins: number; arb: fc.Arbitrary<Scenario>; numRuns: number; seed: number; maxAtMs: number; seen?: (state: S) => unknown },
): void {
  const builtins = loadBuiltinScenarios(lab).map((b) => b.scenario);
  describe(`${lab} page trace (seekable) = full replay`, () => {
    it(`keeps a checkpoint every 64 steps; ${options.minBuiltins}+ built-ins`, () => {
      expect(options.checkpointEvery).toBe(64);
      expect(builtins.length).toBeGreaterThanOrEqual(options.minBuiltins);
      const t = pageTrace(definition, builtins[0]) as unknown as { checkpointEvery: number };
      expect(t.checkpointEvery).toBe(options.checkpointEvery);
    });
    for (const s of builtins) {
      it(`${s.id}: every step, state and outcome, with every expectation's overrides, and after a drag of its last event`, () => {
        const variants = [s, ...(s.expect ?? []).filter((e) => e.overrides).map((e) => withOverrides(s, e.overrides))];
        for (const v of variants) expectSameTrace(definition, pageTrace(definition, v), definition.replay(v), v.id, options.seen);
        if (s.events.length > 0) {
          const last = s.events.length - 1;
          const edited = movedTo(s, last, s.events[last].at + 37);
          const base = pageTrace(definition, s);
          expectSameTrace(definition, base.fork(edited) as typeof base, definition.replay(edited), `${s.id} dragged`, options.seen);
        }
      }, 120_000);
    }
    it(`generated scenarios: a drag (1–4 forks) ends equal to a fresh replay of the edited scenario (${options.numRuns} runs)`, () => {
      expectForksAgree(definition, options.arb, options);
    }, 300_000);
  });
}
