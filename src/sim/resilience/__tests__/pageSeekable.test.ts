import { describe, expect, it } from 'vitest';
import { resilienceDefinition, RESILIENCE_PAGE_CHECKPOINT_EVERY } from '../definition';
import { loadBuiltinScenarios } from '../../__tests__/builtinScenarios';
import { expectForksAgree, expectSameTrace, movedTo, pageTrace } from '../../__tests__/pageSeekable';
import { withOverrides } from '../../expectation';
import { resilienceScenarioArb } from './resilienceArb';
import type { ResilienceState } from '../model';

/**
 * The resilience page's seekable trace (`resilienceDefinition.seekable`, which the store keeps and forks on
 * every drag move) reads exactly as the full replay: every built-in (with each expectation's
 * overrides), its forks after a drag, and generated scenarios with generated drags.
 */
const builtins = loadBuiltinScenarios('resilience').map((b) => b.scenario);

/**
 * What a resilience state has seen: a breaker state's logs are append-only and shared between the
 * steps of one run (each state records how far it has seen), so they are cut to its seen counts.
 */
function seen(state: ResilienceState): unknown {
  if (state.mechanism !== 'breaker') return state;
  const l = state.logs;
  return { ...state, logs: { attempts: l.attempts.slice(0, state.attemptsSeen), calls: l.calls.slice(0, state.callsSeen), transitions: l.transitions.slice(0, state.transitionsSeen) } };
}

describe('resilience page trace (seekable) = full replay', () => {
  it(`keeps a checkpoint every ${RESILIENCE_PAGE_CHECKPOINT_EVERY} steps`, () => {
    expect(RESILIENCE_PAGE_CHECKPOINT_EVERY).toBe(64);
    expect(builtins.length).toBeGreaterThanOrEqual(11);
  });

  for (const s of builtins) {
    it(`${s.id}: every step, state and outcome, with every expectation's overrides, and after a drag of its last event`, () => {
      const variants = [s, ...(s.expect ?? []).filter((e) => e.overrides).map((e) => withOverrides(s, e.overrides))];
      for (const v of variants) expectSameTrace(resilienceDefinition, pageTrace(resilienceDefinition, v), resilienceDefinition.replay(v), v.id, seen);
      if (s.events.length > 0) {
        const last = s.events.length - 1;
        const edited = movedTo(s, last, s.events[last].at + 37);
        const base = pageTrace(resilienceDefinition, s);
        const forked = base.fork(edited) as typeof base;
        expectSameTrace(resilienceDefinition, forked, resilienceDefinition.replay(edited), `${s.id} dragged`, seen);
      }
    }, 120_000);
  }

  it('generated scenarios: a drag (1–4 forks) ends equal to a fresh replay of the edited scenario (200 runs)', () => {
    expectForksAgree(resilienceDefinition, resilienceScenarioArb, { numRuns: 200, seed: 1011, maxAtMs: 6000, seen });
  }, 300_000);
});
