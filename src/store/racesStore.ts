import { racesPageCore } from '../sim/races/pageDefinition';
import { labTraceView, type LabPageDefinition, type LabTraceView } from '../sim/lab';
import { racesParse, racesParserReady } from './racesParser';
import type { RacesConfig, RacesState, RacesTrace } from '../sim/races';
import type { Scenario } from '../sim/types';
import { decodeLink } from './labLink';
import { createLabStore, linkParses, playheadSelectors, storeFromLink, type LabError, type LabStore, type LabStoreSpec, type LabStoreState } from './labStore';

export { scenarioEquals } from './scenarioEquals';
export * from './labSelectors';
/** Races data the page shows as text (rule references, setting choices): plain values of the lab. */
export { RULES, ruleSection } from '../sim/races/rules';
/** The text of a header list (`Name: value; …`), the one the races `http` line is built with. */
export { headerText } from '../sim/mcp';
export { loadRacesParser } from './racesParser';
/** The settings panel's descriptions (from the races schema, generated at build time). */
export { RACES_SETTING_TEXTS } from './racesFirstPaint';

/**
 * The races lab's store: the one lab store (`createLabStore`) over the races definition, with
 * config overrides and the playhead in its address. No lab-specific slice.
 */
export type RacesStoreState = LabStoreState<RacesTrace, null>;
export type RacesStore = LabStore<RacesTrace, null>;
export type RacesError = LabError;

/** The races page's definition: `racesPageCore` with the parser loaded on first use (see `racesParser.ts`). */
const racesDefinition: LabPageDefinition<RacesState, RacesTrace['outcome'], RacesTrace> = { ...racesPageCore, parse: racesParse, parserReady: racesParserReady };

/** The races lab's store spec over `builtins`. */
export function racesSpec(builtins: readonly Scenario[], builtinErrors: readonly string[] = []): LabStoreSpec<RacesTrace['initial'], RacesTrace['outcome'], RacesTrace, null> {
  return { definition: racesDefinition, builtins, builtinErrors, link: racesDefinition.link, extra: null };
}

/** Options of `createRacesStore`. */
export interface CreateRacesStoreOptions {
  builtins: readonly Scenario[];
  /** First scenario shown; defaults to the first built-in. */
  initial?: Scenario;
  original?: Scenario;
  cursorMs?: number | null;
  error?: RacesError | null;
}

export function createRacesStore(options: CreateRacesStoreOptions): RacesStore {
  return createLabStore(racesSpec(options.builtins), options);
}

/** The races store for a page opened at `hash` (see `storeFromLink`). */
export function racesStoreFromLink(hash: string, builtins: readonly Scenario[], builtinErrors: readonly string[] = []): RacesStore {
  return storeFromLink(racesSpec(builtins, builtinErrors), hash);
}

/**
 * The races store for a plain visit (an address that names no scenario): made with `builtins` so
 * far (the first built-in), then given the whole list when `all` resolves (the scenario picker
 * fills in; what is shown does not change). The store reads its built-ins from this one list, so
 * picking, links and share links see every built-in from then on.
 */
export function racesStoreThenBuiltins(hash: string, builtins: readonly Scenario[], builtinErrors: readonly string[], all: Promise<{ scenarios: readonly Scenario[] }>): RacesStore {
  const list = [...builtins];
  const store = racesStoreFromLink(hash, list, builtinErrors);
  void all.then(({ scenarios }) => {
    for (const s of scenarios) if (!list.some((b) => b.id === s.id)) list.push(s);
    store.setState({ builtins: [...list] });
  });
  return store;
}

/** True when address `hash` names no races scenario (a plain visit: the first built-in is shown). */
export function racesLinkNamesNothing(hash: string): boolean {
  return decodeLink('races', hash, [], () => ({ ok: false, errors: [] }), racesSpec([]).link).kind === 'none';
}

/**
 * What the races page waits for before it reads address `hash`: null when the address needs no
 * parsing (a built-in, the playhead) or the parser is loaded; else the parser's loading promise.
 */
export function racesLinkParserReady(hash: string, builtins: readonly Scenario[]): Promise<void> | null {
  return linkParses(racesSpec(builtins), hash) ? racesParserReady() : null;
}

/** The config as the races model reads it. */
export const selectConfig = (s: RacesStoreState) => s.scenario.config as unknown as RacesConfig;
/** State and outcome at the playhead, through the definition. */
export const { selectStateAt, selectOutcomeAt } = playheadSelectors(racesDefinition);
/** The tie rule the same-millisecond panel shows. */
export const RACES_TIE_RULE = racesDefinition.tieRule;
/** Checks the trace against a lesson row (the lesson panel's ticks). */
export const checkRacesExpectation = racesDefinition.checkExpectation;
/** State and outcome at a time, through the definition (timeline marks and panels that read a deferred trace). */
export const racesStateAt = racesDefinition.stateAt;
export const racesOutcomeAt = racesDefinition.outcomeAt;
export { stepIndexAt } from '../sim/replay';
/** Per step, how many wire effects it and the steps before it sent (the wire panel's counts). */
export { stepEffectEnds } from './traceScan';

/**
 * The store's trace read through the accessors (`LabTraceView`): the seekable trace the races store
 * keeps, or an adapter over a trace with `steps`. Views read only the steps they draw through it.
 */
export function racesTraceView(trace: RacesTrace): LabTraceView<RacesState> {
  return labTraceView(trace, (step) => step.state.touched[0] ?? null);
}
