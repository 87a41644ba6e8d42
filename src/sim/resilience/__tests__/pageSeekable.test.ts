import { resilienceDefinition, RESILIENCE_PAGE_CHECKPOINT_EVERY } from '../definition';
import { describePageSeekable } from '../../__tests__/pageSeekable';
import { resilienceScenarioArb } from './resilienceArb';
import type { ResilienceState } from '../model';

/**
 * What a resilience state has seen: a breaker state's logs are append-only and shared between the
 * steps of one run (each state records how far it has seen), so they are cut to its seen counts.
 */
function seen(state: ResilienceState): unknown {
  if (state.mechanism !== 'breaker') return state;
  const l = state.logs;
  return { ...state, logs: { attempts: l.attempts.slice(0, state.attemptsSeen), calls: l.calls.slice(0, state.callsSeen), transitions: l.transitions.slice(0, state.transitionsSeen) } };
}

/**
 * The resilience page's seekable trace (`resilienceDefinition.seekable`, which the store keeps and
 * forks on every drag move) reads exactly as the full replay: every built-in (with each
 * expectation's overrides), its forks after a drag, and 200 generated scenarios with generated drags.
 */
describePageSeekable('resilience', resilienceDefinition, { checkpointEvery: RESILIENCE_PAGE_CHECKPOINT_EVERY, minBuiltins: 11, arb: resilienceScenarioArb, numRuns: 200, seed: 1011, maxAtMs: 6000, seen });
