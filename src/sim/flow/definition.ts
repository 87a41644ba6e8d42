import { outcomeKey } from '../labOrders';
import { replay } from '../engine';
import { parserFor, stateAtStep, type LabDefinition } from '../lab';
import { checkFlowExpectation, flowOutcomeAt, type FlowTrace } from './index';
import { flowModel, type FlowOutcome, type FlowState } from './model';
import { flowConfigSchema, flowEventSchema } from './schema';

const schemas = { config: flowConfigSchema, event: flowEventSchema };

/** The flow lab's contract (SSE buffers, proxies, reconnects). Config-only scenarios (no events) are valid here. */
export const flowDefinition: LabDefinition<FlowState, FlowOutcome, FlowTrace> = {
  id: 'flow',
  title: 'Flow',
  schemas,
  tieRule: flowModel.tieRule,
  invariants: flowModel.invariants.map(({ name, description }) => ({ name, description })),
  parse: parserFor('flow', schemas),
  replay: (scenario, options) => replay(flowModel, scenario, options),
  stateAt: stateAtStep,
  outcomeAt: flowOutcomeAt,
  checkExpectation: checkFlowExpectation,
  explore: {
    movable: (scenario) => scenario.events.map((e) => e.id),
    // The server's own stream events keep their order (they are numbered as emitted); a client stall or a wire drop may move anywhere.
    laneOf: (event) => (event.actor === 'server' ? 'server' : event.id),
    classify: flowOrderClass,
  },
};

/** The outcome class of a flow order: the buffer and delivery counts (not the config echoed in the summary), then the errors. */
export function flowOrderClass(outcome: FlowOutcome): string {
  const { policy: _policy, capacityEvents: _capacity, ...counts } = outcome.summary;
  return `${outcomeKey(counts)}${outcome.errors.length ? ` · errors: ${outcome.errors.join('; ')}` : ''}`;
}
