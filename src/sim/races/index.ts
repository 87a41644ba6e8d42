import { replay, type ReplayResult } from '../engine';
import { stateAtStep } from '../lab';
import { subsetMismatches, violatesMismatch, type ExpectationMismatch } from '../expectation';
import type { Expectation, Json, Scenario } from '../types';
import { racesModel, racesOutcome, type RacesOutcome, type RacesState, type RequestState } from './model';

export * from './model';
export * from './schema';
export * from './rules';

/** A replayed races trace. */
export type RacesTrace = ReplayResult<RacesState, RacesOutcome>;

/** Replays a validated races scenario. Pure and deterministic. */
export function replayRaces(scenario: Scenario): RacesTrace {
  return replay(racesModel, scenario);
}

/** The model state when the playhead is at `atMs` (after every step at or before it). */
export function racesStateAt(trace: RacesTrace, atMs: number): RacesState {
  return stateAtStep(trace, atMs);
}

/** The request with JSON-encoded id/instance key `key` in `state`, or undefined. */
export function requestByKey(state: RacesState, key: string): RequestState | undefined {
  const i = state.indexOf[key];
  return i === undefined ? undefined : state.requests[i];
}

/** The outcome at time `atMs` (for the outcome panel following the playhead). */
export function racesOutcomeAt(trace: RacesTrace, atMs: number): RacesOutcome {
  return racesOutcome(racesStateAt(trace, atMs));
}

export { withOverrides, type ExpectationMismatch } from '../expectation';

/**
 * Checks a trace against an expectation of the lesson: request fields, summary counts, states at
 * given times, and exactly which invariants are violated. Returns every mismatch (empty = met).
 */
export function checkExpectation(trace: RacesTrace, expectation: Expectation): ExpectationMismatch[] {
  const out: ExpectationMismatch[] = [];
  for (const [key, fields] of Object.entries(expectation.requests ?? {})) {
    const r = trace.outcome.requests.find((x) => x.key === key);
    if (!r) {
      out.push({ field: `requests[${key}]`, expected: 'present', actual: null });
      continue;
    }
    subsetMismatches(`requests[${key}]`, fields as Record<string, Json>, r as unknown as Record<string, unknown>, out);
  }
  if (expectation.summary) subsetMismatches('summary', expectation.summary as Record<string, Json>, trace.outcome.summary, out);
  for (const check of expectation.at ?? []) {
    const r = requestByKey(racesStateAt(trace, check.atMs), check.request);
    const actual = r ? r.client.state : null;
    if (actual !== check.state) out.push({ field: `at ${check.atMs} ms requests[${check.request}].state`, expected: check.state, actual });
  }
  violatesMismatch(expectation.violates, trace.invariants, out);
  return out;
}
