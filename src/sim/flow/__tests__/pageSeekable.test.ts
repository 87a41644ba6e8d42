import { describe, expect, it } from 'vitest';
import { flowDefinition, FLOW_PAGE_CHECKPOINT_EVERY } from '../definition';
import { loadBuiltinScenarios } from '../../__tests__/builtinScenarios';
import { expectForksAgree, expectSameTrace, movedTo, pageTrace } from '../../__tests__/pageSeekable';
import { withOverrides } from '../../expectation';
import { flowScenarioArb } from './flowArb';

/**
 * The flow page's seekable trace (`flowDefinition.seekable`, which the store keeps and forks on
 * every drag move) reads exactly as the full replay: every built-in (with each expectation's
 * overrides), its forks after a drag, and generated scenarios with generated drags.
 */
const builtins = loadBuiltinScenarios('flow').map((b) => b.scenario);

describe('flow page trace (seekable) = full replay', () => {
  it(`keeps a checkpoint every ${FLOW_PAGE_CHECKPOINT_EVERY} steps`, () => {
    expect(FLOW_PAGE_CHECKPOINT_EVERY).toBe(64);
    expect(builtins.length).toBeGreaterThanOrEqual(12);
  });

  for (const s of builtins) {
    it(`${s.id}: every step, state and outcome, with every expectation's overrides, and after a drag of its last event`, () => {
      const variants = [s, ...(s.expect ?? []).filter((e) => e.overrides).map((e) => withOverrides(s, e.overrides))];
      for (const v of variants) expectSameTrace(flowDefinition, pageTrace(flowDefinition, v), flowDefinition.replay(v), v.id);
      if (s.events.length > 0) {
        const last = s.events.length - 1;
        const edited = movedTo(s, last, s.events[last].at + 37);
        const base = pageTrace(flowDefinition, s);
        const forked = base.fork(edited) as typeof base;
        expectSameTrace(flowDefinition, forked, flowDefinition.replay(edited), `${s.id} dragged`);
      }
    }, 120_000);
  }

  it('generated scenarios: a drag (1–4 forks) ends equal to a fresh replay of the edited scenario (200 runs)', () => {
    expectForksAgree(flowDefinition, flowScenarioArb, { numRuns: 200, seed: 1010, maxAtMs: 3000 });
  }, 300_000);
});
