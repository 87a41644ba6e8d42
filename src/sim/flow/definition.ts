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
};
