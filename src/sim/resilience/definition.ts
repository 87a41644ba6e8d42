import { outcomeKey } from '../labOrders';
import { stateAtStep, type LabDefinition } from '../lab';
import { drawLimitProblem } from '../pageLimits';
import { modelLab } from '../modelLab';
import { checkExpectation, type ResilienceTrace } from './index';
import { resilienceModel, type ResilienceOutcome, type ResilienceState } from './model';
import { resilienceConfigSchema, resilienceEventSchema } from './schema';

/** Most events the resilience lab page draws (as the races page; the CLI replays bigger files). */
export const RESILIENCE_PAGE_MAX_EVENTS = 2000;

/** The resilience lab's contract (tasks, breakers, retry storms). The page refuses more than 2,000 events. */
export const resilienceDefinition = modelLab(resilienceModel, {
  id: 'resilience',
  title: 'Resilience',
  schemas: { config: resilienceConfigSchema, event: resilienceEventSchema },
  pageProblem: (s) => drawLimitProblem('resilience', RESILIENCE_PAGE_MAX_EVENTS, s.events.length),
  outcomeAt: (trace, atMs) => resilienceModel.outcome(stateAtStep(trace, atMs), atMs),
  checkExpectation: (trace, e) => checkExpectation(trace as ResilienceTrace, e),
  explore: {
    movable: (scenario) => scenario.events.map((e) => e.id),
    // One actor's own steps keep their order (a worker checkpoints before it finishes; a client calls before it aborts).
    laneOf: (event) => event.actor,
    classify: (outcome) => outcomeKey(outcome),
  },
}) as LabDefinition<ResilienceState, ResilienceOutcome, ResilienceTrace>;
