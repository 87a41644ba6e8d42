import { flowDefinition, FLOW_PAGE_CHECKPOINT_EVERY } from '../definition';
import { describePageSeekable } from '../../__tests__/pageSeekable';
import { flowScenarioArb } from './flowArb';

/**
 * The flow page's seekable trace (`flowDefinition.seekable`, which the store keeps and forks on
 * every drag move) reads exactly as the full replay: every built-in (with each expectation's
 * overrides), its forks after a drag, and 200 generated scenarios with generated drags.
 */
describePageSeekable('flow', flowDefinition, { checkpointEvery: FLOW_PAGE_CHECKPOINT_EVERY, minBuiltins: 12, arb: flowScenarioArb, numRuns: 200, seed: 1010, maxAtMs: 3000 });
