/**
 * The races lab's replay API without its zod schemas (`./schema`), so the page can replay and read
 * traces before any scenario text is parsed; `./index` re-exports it with the schemas.
 */
import type { ReplayResult } from '../replay';
import { coreReplays } from '../coreReplays';
import { subsetMismatches, violatesMismatch, type ExpectationMismatch } from '../expectation';
import type { Expectation, Json, Scenario } from '../types';
import { racesCore, racesModel, racesOutcome, type RacesCore, type RacesOutcome, type RacesState, type RacesTimer, type RequestState } from './model';
import type { SeekableTrace, SeekableOptions } from '../trace';
import type { RacesConfig } from './schema';


/** A replayed races trace. */
export type RacesTrace = ReplayResult<RacesState, RacesOutcome>;

const racesReplays = coreReplays(racesModel, racesCore);

/** A races trace that keeps per-step metadata and a checkpoint every K steps (see `trace.ts`). */
export type RacesSeekableTrace = SeekableTrace<RacesConfig, RacesCore, RacesState, RacesOutcome, RacesTimer>;

/** Replays a validated races scenario (full per-step trace; see `CoreReplays`). Pure and deterministic. */
export const replayRaces: (scenario: Scenario) => RacesTrace = racesReplays.replay;
/** Replays a validated races scenario keeping a seekable trace (see `CoreReplays`). Same results as `replayRaces`. */
export const replayRacesSeekable: (scenario: Scenario, options?: SeekableOptions) => RacesSeekableTrace = racesReplays.replaySeekable;
/** The races state with the playhead at `atMs` ms, for either trace kind (see `CoreReplays`). */
export const racesStateAt: (trace: RacesTrace | RacesSeekableTrace, atMs: number) => RacesState = racesReplays.stateAt;

/** The request with JSON-encoded id/instance key `key` in `state`, or undefined. */
export function requestByKey(state: RacesState, key: string): RequestState | undefined {
  const i = state.indexOf[key];
  return i === undefined ? undefined : state.requests[i];
}

/** The outcome at time `atMs` (for the outcome panel following the playhead). */
export function racesOutcomeAt(trace: RacesTrace | RacesSeekableTrace, atMs: number): RacesOutcome {
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
