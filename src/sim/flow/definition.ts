import { modelLab, type LabDefinition } from '../lab';
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
}) as LabDefinition<FlowState, FlowOutcome, FlowTrace>;
