import { flowDefinition } from '../sim/flow/definition';
import { BACKOFF_STRATEGIES, type BackoffStrategy } from '../sim/retry/backoff';
import type { FlowTrace } from '../sim/flow';
import type { Json, Scenario } from '../sim/types';
import { loadBuiltins, type BuiltinLoad } from './builtins';
import { playheadSelectors, storeFromLink, type LabError, type LabStore, type LabStoreSpec, type LabStoreState } from './labStore';

export * from './labSelectors';

/**
 * The flow lab's store: the one lab store (`createLabStore`) over the flow definition, with the
 * herd plot's settings as its extra slice (plain numbers, recorded by undo with the scenario).
 * The drawn range ends at the horizon (or just after the last thing that happens); playing stops
 * at the end of the range.
 */

const files = import.meta.glob('/public/scenarios/flow/*.json', { eager: true, import: 'default' }) as Record<string, unknown>;

/** Built-in flow scenarios (validated; an invalid file is reported, never shown). */
export function loadBuiltinFlow(): BuiltinLoad {
  return loadBuiltins(files, flowDefinition.parse);
}

/** Settings of the herd plot. */
export interface HerdSettings {
  clients: number;
  strategies: BackoffStrategy[];
  outageMs: number;
  acceptPerSecond: number;
  baseMs: number;
  capMs: number;
  seed: number;
  maxAttempts: number;
  bucketMs: number;
}

export const DEFAULT_HERD: HerdSettings = {
  clients: 10000,
  strategies: ['exponential', 'full-jitter', 'lesson-sha256'],
  outageMs: 5000,
  acceptPerSecond: 2000,
  baseMs: 1000,
  capMs: 32000,
  seed: 42,
  maxAttempts: 8,
  bucketMs: 500,
};

/** Bounds of each herd field (the UI's inputs use them; `setHerd` clamps to them). */
export const HERD_LIMITS: Record<Exclude<keyof HerdSettings, 'strategies'>, [number, number]> = {
  clients: [10, 100000],
  outageMs: [0, 60000],
  acceptPerSecond: [1, 100000],
  baseMs: [1, 10000],
  capMs: [1, 120000],
  seed: [0, 0xffffffff],
  maxAttempts: [1, 8],
  bucketMs: [100, 5000],
};

export type FlowStoreState = LabStoreState<FlowTrace, HerdSettings>;
export type FlowStore = LabStore<FlowTrace, HerdSettings>;
export type FlowError = LabError;

const clamp = (v: number, [lo, hi]: [number, number]) => Math.min(hi, Math.max(lo, Math.round(v)));

/** Validates a patch of the herd settings: strategies must be known and at least one; numbers are clamped to `HERD_LIMITS`. */
export function checkHerd(current: HerdSettings, patch: Partial<HerdSettings>): { ok: true; value: HerdSettings } | { ok: false; error: LabError } {
  const next: HerdSettings = { ...current };
  for (const [k, v] of Object.entries(patch) as [keyof HerdSettings, unknown][]) {
    if (k === 'strategies') {
      const list = (v as string[]).filter((x): x is BackoffStrategy => (BACKOFF_STRATEGIES as readonly string[]).includes(x));
      if (list.length === 0) return { ok: false, error: { title: 'Pick at least one strategy for the herd plot', errors: [] } };
      next.strategies = BACKOFF_STRATEGIES.filter((x) => list.includes(x));
    } else if (typeof v === 'number' && Number.isFinite(v)) next[k] = clamp(v, HERD_LIMITS[k]);
    else return { ok: false, error: { title: `herd ${k}: must be a number`, errors: [] } };
  }
  if (next.capMs < next.baseMs) next.capMs = next.baseMs;
  return { ok: true, value: next };
}

/** The flow lab's store spec over `builtins`. */
export function flowSpec(builtins: readonly Scenario[], builtinErrors: readonly string[] = []): LabStoreSpec<FlowTrace['initial'], FlowTrace['outcome'], FlowTrace, HerdSettings> {
  return {
    definition: flowDefinition,
    builtins,
    builtinErrors,
    rangeEnd(scenario, trace) {
      const horizon = (scenario.config as { horizonMs?: number }).horizonMs ?? 0;
      const last = Math.max(trace.endAt, ...scenario.events.map((e) => e.at));
      return Math.max(100, Math.min(horizon || last, Math.ceil((last * 1.05) / 10) * 10) || 100);
    },
    playEnd: (s) => s.rangeEndMs,
    extra: DEFAULT_HERD,
    checkExtra: checkHerd,
  };
}

/** The flow store for a page opened at `init.hash` (the named scenario, or F1 with the link's problems). */
export function createFlowStore(init?: { hash?: string }): FlowStore {
  const { scenarios, errors } = loadBuiltinFlow();
  return storeFromLink(flowSpec(scenarios, errors), init?.hash ?? '');
}

/** State and outcome at the playhead, through the definition. */
export const { selectStateAt, selectOutcomeAt } = playheadSelectors(flowDefinition);
/** The herd settings (the store's extra slice). */
export const selectHerd = (s: FlowStoreState) => s.extra;
/** Checks a trace against a lesson row. */
export const checkFlowExpectation = flowDefinition.checkExpectation;

/** The flow lab's tie rule (same-millisecond order), for the page kit's tie-rule panel. */
export const FLOW_TIE_RULE = flowDefinition.tieRule;
/** Replays a scenario effects-only through the definition (the lesson rows' ticks). */
export const replayFlowEffects = (scenario: Scenario) => flowDefinition.replay(scenario, { keep: 'effects' });
export { withOverrides as withFlowOverrides } from '../sim/expectation';
export type { Json };
/** Values of the lab the page shows as text (policy choices, proxy and header facts, attempt limits). */
export { BUFFER_POLICIES } from '../sim/flow/buffer';
export { herdAttemptLimit } from '../sim/flow/herd';
/** The lesson's SHA-256 jitter constants (base and cap, ms), for the herd panel's ranking note. */
export { LESSON_JITTER } from '../sim/retry/backoff';
export { proxyBuffersConfig, sentSseHeaders } from '../sim/flow';

export { occExperiment } from '../sim/flow/herd';
export { reconnectPlan, streamDrop } from '../sim/flow/reconnect';
/** The flow state at a time, through the definition (timeline marks). */
export const flowStateAt = flowDefinition.stateAt;
export { BACKOFF_STRATEGIES };
/** Whole-trace readings for the views (every step's small record, the last state), without building `steps`. */
export { finalStateOf, stepRecords, traceView, type StepReading } from './traceScan';
