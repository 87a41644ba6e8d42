import { modelLab, zeroEventProblem, type LabDefinition } from '../lab';
import { checkExpectation, racesOutcomeAt, type RacesTrace } from './index';
import { racesModel, type RacesOutcome, type RacesState } from './model';
import { RACES_SCHEMAS, racesLengthProblem } from './schema';
import { exploreRacesOrders, racesNaturalOrderEvents, racesOrderClass } from './explore';

/**
 * The races lab's contract (request lifecycle: cancellation, timeouts, progress). The page refuses
 * a scenario with no events (nothing would happen; the outcome would only read "none") and draws at
 * most 2,000 events.
 */
export const racesDefinition = modelLab(racesModel, {
  id: 'races',
  title: 'Races',
  schemas: RACES_SCHEMAS,
  pageProblem: (s) => zeroEventProblem(s) ?? racesLengthProblem(s.events),
  outcomeAt: (trace, atMs) => racesOutcomeAt(trace as RacesTrace, atMs),
  checkExpectation: (trace, e) => checkExpectation(trace as RacesTrace, e),
  explore: {
    movable: (scenario) => scenario.events.map((e) => e.id),
    // No lane constraint: any scripted event may pass any other (the model decides what each order means).
    laneOf: (event) => event.id,
    classify: (outcome) => racesOrderClass(outcome, []),
    natural: racesNaturalOrderEvents,
    orders: (scenario, events, hooks) => exploreRacesOrders(scenario, events, { ...hooks, prune: true }),
  },
}) as LabDefinition<RacesState, RacesOutcome, RacesTrace>;
