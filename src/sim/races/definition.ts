import type { LabDefinition, LabExplorer } from '../lab';
import { parserFor } from '../modelLab';
import type { RacesTrace } from './api';
import type { RacesOutcome, RacesState } from './model';
import { RACES_SCHEMAS } from './schema';
import { exploreRacesOrders } from './explore';
import { racesPageCore } from './pageDefinition';
import { racesChaos } from './chaos';
import { racesReview } from './review';

export { RACES_PAGE_CHECKPOINT_EVERY, racesPageCore } from './pageDefinition';

/**
 * The races lab's contract as the page uses it (`racesPageCore`) with the schemas and `parse`
 * (the schema, no extra limits; the page store loads this module when it first parses).
 */
export const racesPageDefinition = {
  ...racesPageCore,
  schemas: RACES_SCHEMAS,
  parse: parserFor('races', RACES_SCHEMAS),
} as LabDefinition<RacesState, RacesOutcome, RacesTrace>;

/** The definition plus its chaos and review parts and every order of the selected events on the core's fast path (pruning on unless `prune: false`). */
function withOrders(page: LabDefinition<RacesState, RacesOutcome, RacesTrace>): LabDefinition<RacesState, RacesOutcome, RacesTrace> {
  const explore: LabExplorer<RacesOutcome> = { ...page.explore!, orders: (scenario, events, hooks) => exploreRacesOrders(scenario, events, { ...hooks, prune: hooks.prune ?? true }) };
  return { ...page, explore, chaos: racesChaos, review: racesReview };
}

/**
 * The races lab's whole contract (CLI, the All orders worker, `LAB_DEFINITIONS`): the page's
 * definition with `explore.orders`.
 */
export const racesDefinition = /* @__PURE__ */ withOrders(racesPageDefinition);
