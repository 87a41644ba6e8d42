import { outcomeKey } from '../labOrders';
import type { LabDefinition, LabTrace } from '../lab';
import { modelLab } from '../modelLab';
import type { Scenario } from '../types';
import { checkFlowExpectation, flowOutcomeAt, replayFlowSeekable, type FlowTrace } from './index';
import { flowModel, type FlowOutcome, type FlowState } from './model';
import { flowConfigSchema, flowEventSchema } from './schema';
import { flowChaos } from './chaos';
import { flowReview } from './review';

/**
 * Steps between checkpoints of the page's seekable flow trace: a drag re-runs at most this many
 * steps before the moved event, a seek fewer than this many (the CLI and bench keep the default, `DEFAULT_CHECKPOINT_EVERY`).
 */
export const FLOW_PAGE_CHECKPOINT_EVERY = 64;

/**
 * The flow lab's contract (SSE buffers, proxies, reconnects). Config-only scenarios (no events)
 * are valid here. Its page trace is seekable (`seekable`: checkpoints every
 * `FLOW_PAGE_CHECKPOINT_EVERY` steps, entry records kept), so the store forks it on each edit.
 */
const flowBase = modelLab(flowModel, {
  id: 'flow',
  title: 'Flow',
  schemas: { config: flowConfigSchema, event: flowEventSchema },
  outcomeAt: (trace, atMs) => flowOutcomeAt(trace as FlowTrace, atMs),
  checkExpectation: (trace, e) => checkFlowExpectation(trace as FlowTrace, e),
  explore: {
    movable: (scenario) => scenario.events.map((e) => e.id),
    // The server's own stream events keep their order (they are numbered as emitted); a client stall or a wire drop may move anywhere.
    laneOf: (event) => (event.actor === 'server' ? 'server' : event.id),
    classify: (outcome) => flowOrderClass(outcome),
  },
});

export const flowDefinition = {
  ...flowBase,
  chaos: flowChaos,
  review: flowReview,
  // Also a FlowTrace: its `steps` getter builds the historic steps on first read (views use the accessors).
  seekable: (scenario: Scenario) => replayFlowSeekable(scenario, { checkpointEvery: FLOW_PAGE_CHECKPOINT_EVERY, keepEntries: true }) as unknown as FlowTrace & LabTrace<FlowState, FlowOutcome>,
} as LabDefinition<FlowState, FlowOutcome, FlowTrace>;

/** The outcome class of a flow order: the buffer and delivery counts (not the config echoed in the summary), then the errors. */
export function flowOrderClass(outcome: FlowOutcome): string {
  const { policy: _policy, capacityEvents: _capacity, ...counts } = outcome.summary;
  return `${outcomeKey(counts)}${outcome.errors.length ? ` · errors: ${outcome.errors.join('; ')}` : ''}`;
}
