import { outcomeKey } from '../labOrders';
import { replay } from '../engine';
import { parserFor, stateAtStep, type LabDefinition } from '../lab';
import { checkExpectation, type ResilienceTrace } from './index';
import { resilienceModel, type ResilienceOutcome, type ResilienceState } from './model';
import { resilienceConfigSchema, resilienceEventSchema } from './schema';

const schemas = { config: resilienceConfigSchema, event: resilienceEventSchema };

/** The resilience lab's contract (tasks, breakers, retry storms). */
export const resilienceDefinition: LabDefinition<ResilienceState, ResilienceOutcome, ResilienceTrace> = {
  id: 'resilience',
  title: 'Resilience',
  schemas,
  tieRule: resilienceModel.tieRule,
  invariants: resilienceModel.invariants.map(({ name, description }) => ({ name, description })),
  parse: parserFor('resilience', schemas),
  replay: (scenario, options) => replay(resilienceModel, scenario, options),
  stateAt: stateAtStep,
  outcomeAt: (trace, atMs) => resilienceModel.outcome(stateAtStep(trace, atMs), atMs),
  checkExpectation,
  explore: {
    movable: (scenario) => scenario.events.map((e) => e.id),
    // One actor's own steps keep their order (a worker checkpoints before it finishes; a client calls before it aborts).
    laneOf: (event) => event.actor,
    classify: (outcome) => outcomeKey(outcome),
  },
};
