import type { ReplayResult } from '../replay';
import { coreReplays } from '../coreReplays';
import type { SeekableTrace, SeekableOptions } from '../trace';
import { subsetMismatches as subset, violatesMismatch, withOverrides, type ExpectationMismatch } from '../expectation';
import type { Expectation, Json, Scenario } from '../types';
import { flowCore, flowModel, flowOutcome, type FlowCore, type FlowOutcome, type FlowState, type FlowTimer } from './model';
import { simulateReconnectLoop, type ReconnectLoopResult } from './herd';
import { resumeAfterDrops, type ResumptionResult } from './reconnect';
import type { Revision } from '../mcp';
import type { FlowConfig } from './schema';

export * from '../retry/backoff';
export * from './buffer';
export * from './model';
export * from './schema';

/** A replayed flow trace. */
export type FlowTrace = ReplayResult<FlowState, FlowOutcome>;

const flowReplays = coreReplays(flowModel, flowCore);

/** A flow trace that keeps per-step metadata and a checkpoint every K steps (see `trace.ts`). */
export type FlowSeekableTrace = SeekableTrace<FlowConfig, FlowCore, FlowState, FlowOutcome, FlowTimer>;

/** Replays a validated flow scenario (full per-step trace, on the checkpointed core; see `CoreReplays`). */
export const replayFlow: (scenario: Scenario) => FlowTrace = flowReplays.replay;
/** Replays a validated flow scenario keeping a seekable trace (see `CoreReplays`). Same results as `replayFlow`. */
export const replayFlowSeekable: (scenario: Scenario, options?: SeekableOptions) => FlowSeekableTrace = flowReplays.replaySeekable;
/** The flow state with the playhead at `atMs` ms, for either trace kind (see `CoreReplays`). */
export const flowStateAt: (trace: FlowTrace | FlowSeekableTrace, atMs: number) => FlowState = flowReplays.stateAt;

/** The outcome as of the playhead. Accepts either trace kind. */
export function flowOutcomeAt(trace: FlowTrace | FlowSeekableTrace, atMs: number): FlowOutcome {
  return flowOutcome(flowStateAt(trace, atMs));
}

/** The scenario with an expectation's config overrides applied (same events); the generic `withOverrides`. */
export const withFlowOverrides = withOverrides;

/** One mismatch between an expectation and a trace. */
export type FlowMismatch = ExpectationMismatch;

/**
 * The single-client mechanics computed beside the trace from the scenario's config (issue 11):
 * `reconnectLoop` (simulateReconnectLoop) and `resumption` (resumeAfterDrops); null when the
 * config has none. Pure.
 */
export function flowMechanics(trace: FlowTrace): { reconnectLoop: ReconnectLoopResult | null; resumption: ResumptionResult | null } {
  const config = trace.scenario.config as unknown as FlowConfig;
  return {
    reconnectLoop: config.reconnectLoop ? simulateReconnectLoop(config.reconnectLoop, trace.scenario.seed ?? 1) : null,
    resumption: config.resumption ? resumeAfterDrops(config.resumption, config.revision as Revision, config.bugs.resumeUnder2026) : null,
  };
}

/**
 * Checks a trace against an expectation: summary counts (subset, nested for `fleet`, and for
 * `reconnectLoop` / `resumption` from `flowMechanics`) and exactly which invariants are violated
 * (the trace's and the mechanics'). Returns every mismatch (empty = met). `requests` and `at` are
 * races-lab fields and are reported as unsupported here.
 */
export function checkFlowExpectation(trace: FlowTrace, expectation: Expectation): FlowMismatch[] {
  const out: FlowMismatch[] = [];
  const mech = flowMechanics(trace);
  const summary: Record<string, Json | undefined> = { ...trace.outcome.summary };
  if (mech.reconnectLoop) summary.reconnectLoop = mech.reconnectLoop.summary as unknown as Json;
  if (mech.resumption) summary.resumption = mech.resumption.summary as unknown as Json;
  if (expectation.summary) subset('summary', expectation.summary as Record<string, Json>, summary as Record<string, unknown>, out);
  if (expectation.requests || expectation.at) out.push({ field: 'expect', expected: 'summary and violates only', actual: 'requests/at (races-lab fields)' });
  violatesMismatch(expectation.violates, [...trace.invariants, ...(mech.reconnectLoop?.invariants ?? []), ...(mech.resumption?.invariants ?? [])], out);
  return out;
}
