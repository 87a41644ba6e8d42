import { resilienceDefinition } from '../sim/resilience/definition';
import type { ResilienceTrace } from '../sim/resilience';
import type { Scenario } from '../sim/types';
import { createLabStore, playheadSelectors, storeFromLink, type LabData, type LabError, type LabStore, type LabStoreSpec, type LabStoreState } from './labStore';
import { labTexts } from './labTexts';

export * from './labSelectors';

/**
 * The resilience lab's store: the one lab store (`createLabStore`) over the resilience definition.
 * Playing stops at the last step. The timeouts panel's two settings are its extra slice.
 */
/** The timeouts panel's own settings (the lab's extra slice: undoable like every edit). */
export interface TimeoutSettings {
  staticTimeoutMs: number;
  timeoutCapMs: number;
}
export const DEFAULT_TIMEOUTS: TimeoutSettings = { staticTimeoutMs: 700, timeoutCapMs: 5000 };

export type ResilienceStoreState = LabStoreState<ResilienceTrace, TimeoutSettings>;
export type ResilienceStore = LabStore<ResilienceTrace, TimeoutSettings>;
export type ResilienceError = LabError;
export type ResilienceData = LabData<ResilienceTrace, TimeoutSettings>;

/** The resilience lab's store spec over `builtins`. */
export function resilienceSpec(builtins: readonly Scenario[], builtinErrors: readonly string[] = []): LabStoreSpec<ResilienceTrace['initial'], ResilienceTrace['outcome'], ResilienceTrace, TimeoutSettings> {
  return { definition: resilienceDefinition, builtins, builtinErrors, playEnd: (s) => s.trace.endAt, extra: DEFAULT_TIMEOUTS };
}

/** A store for the page opened at address `hash` (the named scenario, or the first built-in with the link's problems). */
export function storeFromHash(hash: string, builtins: readonly Scenario[], builtinErrors: string[] = []): ResilienceStore {
  return storeFromLink(resilienceSpec(builtins, builtinErrors), hash);
}

/** Creates one store for one lab page. `initialId` names a built-in (an unknown one shows the first with the error). */
export function createResilienceStore(options: { builtins: readonly Scenario[]; initialId?: string | null; initial?: Scenario; original?: Scenario | null; error?: ResilienceError | null }): ResilienceStore {
  const { builtins } = options;
  const named = options.initialId ? builtins.find((b) => b.id === options.initialId) : undefined;
  const unknownId =
    options.initialId && !named ? { title: labTexts('resilience').badLinkShown(builtins[0]?.title ?? ''), errors: [`scenario id: no built-in scenario is called ${JSON.stringify(options.initialId)}`] } : null;
  return createLabStore(resilienceSpec(builtins), { initial: options.initial ?? named, original: options.original ?? undefined, error: options.error ?? unknownId });
}

/** State and outcome at the playhead, through the definition. */
/** The timeouts panel's settings. */
export const selectTimeouts = (s: ResilienceStoreState) => s.extra;
export const { selectStateAt, selectOutcomeAt } = playheadSelectors(resilienceDefinition);

/** Whether the current trace meets the original's expectation `index` (the lesson's tick). */
export function expectationMet(s: ResilienceData, index: number): boolean {
  const e = s.original.expect?.[index];
  if (!e) return false;
  const { overrides: _o, ...rest } = e;
  void _o;
  return resilienceDefinition.checkExpectation(s.trace, rest).length === 0;
}

/** The tie rule the same-millisecond panel shows. */
export const RESILIENCE_TIE_RULE = resilienceDefinition.tieRule;
/** Checks the trace against a lesson row (the lesson panel's ticks). */
export const checkResilienceExpectation = resilienceDefinition.checkExpectation;
/** Values of the lab the page shows as text (retry classification, backoff choices). */
export { classifyRetry } from '../sim/retry/classify';
export { BACKOFF_STRATEGIES } from '../sim/retry/backoff';
export { downstreamOrigin, windowCounts } from '../sim/resilience/breaker';
export { compareTimeouts } from '../sim/resilience/timeouts';
export { checkedAgainst, taskWireCheckPlan } from '../sim/resilience/taskWireSchema';
export { checkTaskExtSchema } from '../wire/ext-tasks';
export { withOverrides } from '../sim/expectation';
/** The resilience state at a time, through the definition. */
export const resilienceStateAt = resilienceDefinition.stateAt;
/** Replays a scenario through the definition (the storm's fix rows in `resilienceStorm.ts`, and tests). */
export const replayResilience = (scenario: Scenario) => resilienceDefinition.replay(scenario);
/** Whole-trace readings for the views (every step's small record, the last state), without building `steps`. */
export { finalStateOf, stepRecords, traceView, type StepReading } from './traceScan';
