import { outcomeKey } from '../labOrders';
import { stateAtStep, type LabDefinition, type LabTrace } from '../lab';
import { drawLimitProblem } from '../pageLimits';
import { modelLab } from '../modelLab';
import { checkExpectation, type ResilienceTrace } from './index';
import { resilienceModel, type ResilienceOutcome, type ResilienceState } from './model';
import { resilienceConfigSchema, resilienceEventSchema } from './schema';
import { replayResilienceSeekable } from './seekable';
import { resilienceChaos } from './chaos';
import { resilienceReview } from './review';
import type { Scenario } from '../types';

/** Most events the resilience lab page draws (as the races page; the CLI replays bigger files). */
export const RESILIENCE_PAGE_MAX_EVENTS = 2000;

/**
 * Steps between checkpoints of the page's seekable resilience trace: a drag re-runs at most this
 * many steps before the moved event, a seek fewer than this many.
 */
export const RESILIENCE_PAGE_CHECKPOINT_EVERY = 64;

/**
 * The resilience lab's contract (tasks, breakers, retry storms). The page refuses more than 2,000
 * events. Its page trace is seekable (`seekable`: checkpoints every `RESILIENCE_PAGE_CHECKPOINT_EVERY`
 * steps, entry records kept), so the store forks it on each edit.
 */
const resilienceBase = modelLab(resilienceModel, {
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
});

export const resilienceDefinition = {
  ...resilienceBase,
  chaos: resilienceChaos,
  review: resilienceReview,
  // Also a ResilienceTrace: its `steps` getter builds the historic steps on first read (views use the accessors).
  seekable: (scenario: Scenario) =>
    replayResilienceSeekable(scenario, { checkpointEvery: RESILIENCE_PAGE_CHECKPOINT_EVERY, keepEntries: true }) as unknown as ResilienceTrace & LabTrace<ResilienceState, ResilienceOutcome>,
} as LabDefinition<ResilienceState, ResilienceOutcome, ResilienceTrace>;
