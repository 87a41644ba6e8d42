import { modelLabCore, zeroEventProblem, type LabDefinition, type LabTrace } from '../lab';
import type { Scenario } from '../types';
import { checkExpectation, racesOutcomeAt, racesStateAt, replayRacesSeekable, type RacesTrace } from './api';
import { racesModel, type RacesOutcome, type RacesState } from './model';
import { racesLengthProblem } from './limits';
import { RACES_LINK_VALUE_ALIASES } from './sdkProfile';
import { racesNaturalOrderEvents, racesOrderClass } from './explore';

/**
 * Steps between checkpoints of the page's seekable trace: a drag re-runs at most this many steps
 * before the moved event, and a seek fewer than this many (the CLI and bench keep `DEFAULT_CHECKPOINT_EVERY`, 2,048).
 */
export const RACES_PAGE_CHECKPOINT_EVERY = 64;

/**
 * The races lab's contract as the page uses it, without the schemas and `parse` (request
 * lifecycle: cancellation, timeouts, progress): no zod, so the page replays its built-ins (parsed
 * at build time) before the schema library loads; `racesPageDefinition` (`./definition`) adds
 * them. The page refuses a scenario with no events (nothing would happen; the outcome would
 * only read "none") and draws at most 2,000 events. Its trace is seekable (checkpoints every
 * `RACES_PAGE_CHECKPOINT_EVERY` steps, entry records and request keys kept), so the store forks
 * it on each edit. It has no `explore.orders`: "All orders" runs in the panel's worker, which
 * uses `racesDefinition` (so the explorer's code is not in the page's first chunk).
 */
export const racesPageCore = {
  ...modelLabCore(racesModel, {
    id: 'races',
    title: 'Races',
    pageProblem: (s) => zeroEventProblem(s) ?? racesLengthProblem(s.events),
    outcomeAt: (trace, atMs) => racesOutcomeAt(trace as RacesTrace, atMs),
    checkExpectation: (trace, e) => checkExpectation(trace as RacesTrace, e),
    explore: {
      movable: (scenario) => scenario.events.map((e) => e.id),
      // No lane constraint: any scripted event may pass any other (the model decides what each order means).
      laneOf: (event) => event.id,
      classify: (outcome) => racesOrderClass(outcome, []),
      natural: racesNaturalOrderEvents,
    },
  }),
  link: { configParams: true, playhead: true, valueAliases: RACES_LINK_VALUE_ALIASES },
  stateAt: (trace: RacesTrace, atMs: number) => racesStateAt(trace, atMs),
  seekable: (scenario: Scenario) => {
    const trace: LabTrace<RacesState, RacesOutcome> = replayRacesSeekable(scenario, { checkpointEvery: RACES_PAGE_CHECKPOINT_EVERY, keepEntries: true, keyKind: 'request' });
    // Also a RacesTrace: its `steps` getter builds the historic steps on first read.
    return trace as unknown as RacesTrace & LabTrace<RacesState, RacesOutcome>;
  },
} as Omit<LabDefinition<RacesState, RacesOutcome, RacesTrace>, 'schemas' | 'parse'>;
