import { outcomeKey } from '../labOrders';
import type { LabDefinition } from '../lab';
import { modelLab } from '../modelLab';
import { checkFlowExpectation, flowOutcomeAt, type FlowTrace } from './index';
import { flowModel, type FlowOutcome, type FlowState } from './model';
import { flowConfigSchema, flowEventSchema } from './schema';

/** The flow lab's contract (SSE buffers, proxies, reconnects). Config-only scenarios (no events) are valid here. */
export const flowDefinition = modelLab(flowModel, {
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
}) as LabDefinition<FlowState, FlowOutcome, FlowTrace>;

/** The outcome class of a flow order: the buffer and delivery counts (not the config echoed in the summary), then the errors. */
export function flowOrderClass(outcome: FlowOutcome): string {
  const { policy: _policy, capacityEvents: _capacity, ...counts } = outcome.summary;
  return `${outcomeKey(counts)}${outcome.errors.length ? ` · errors: ${outcome.errors.join('; ')}` : ''}`;
}
