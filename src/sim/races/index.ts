import { replay, stepIndexAt, mergeConfig, type ReplayResult } from '../engine';
import type { Expectation, Json, Scenario } from '../types';
import { racesCore, racesModel, racesOutcome, type RacesCore, type RacesOutcome, type RacesState, type RacesTimer, type RequestState } from './model';
import { SeekableTrace, type SeekableOptions } from '../trace';
import type { RacesConfig } from './schema';

export * from './model';
export * from './schema';
export * from './rules';

/** A replayed races trace. */
export type RacesTrace = ReplayResult<RacesState, RacesOutcome>;

/** Replays a validated races scenario. Pure and deterministic. */
export function replayRaces(scenario: Scenario): RacesTrace {
  return replay(racesModel, scenario);
}

/** A races trace that keeps per-step metadata and a checkpoint every K steps (see `trace.ts`). */
export type RacesSeekableTrace = SeekableTrace<RacesConfig, RacesCore, RacesState, RacesOutcome, RacesTimer>;

/**
 * Replays a validated races scenario keeping a seekable trace: states and notes are rebuilt from
 * the nearest checkpoint (`stateAt`, `stateAtMs`, `stepAt`); `fork(edited)` resumes an edit from
 * the last checkpoint before the first time it changes. Same results as `replayRaces`.
 */
export function replayRacesSeekable(scenario: Scenario, options?: SeekableOptions): RacesSeekableTrace {
  return SeekableTrace.replay(racesCore, scenario, options);
}

/** The model state when the playhead is at `atMs` (after every step at or before it). Accepts either trace kind. */
export function racesStateAt(trace: RacesTrace | RacesSeekableTrace, atMs: number): RacesState {
  if (trace instanceof SeekableTrace) return trace.stateAtMs(atMs);
  const i = stepIndexAt(trace.steps, atMs);
  return i < 0 ? trace.initial : trace.steps[i].state;
}

/** The request with JSON-encoded id/instance key `key` in `state`, or undefined. */
export function requestByKey(state: RacesState, key: string): RequestState | undefined {
  const i = state.indexOf[key];
  return i === undefined ? undefined : state.requests[i];
}

/** The outcome at time `atMs` (for the outcome panel following the playhead). */
export function racesOutcomeAt(trace: RacesTrace | RacesSeekableTrace, atMs: number): RacesOutcome {
  return racesOutcome(racesStateAt(trace, atMs));
}

/** The scenario with an expectation's config overrides applied (same events). */
export function withOverrides(scenario: Scenario, overrides: Record<string, Json> | undefined): Scenario {
  return { ...scenario, config: mergeConfig(scenario.config, overrides) };
}

/** One mismatch between an expectation and a trace. */
export interface ExpectationMismatch {
  field: string;
  expected: Json;
  actual: Json;
}

function subsetMismatches(prefix: string, expected: Record<string, Json>, actual: Record<string, unknown>, out: ExpectationMismatch[]) {
  for (const [k, v] of Object.entries(expected)) {
    const a = actual[k] as Json | undefined;
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && a !== null && typeof a === 'object' && !Array.isArray(a)) {
      subsetMismatches(`${prefix}.${k}`, v, a as Record<string, unknown>, out);
    } else if (JSON.stringify(a) !== JSON.stringify(v)) {
      out.push({ field: `${prefix}.${k}`, expected: v, actual: a === undefined ? null : a });
    }
  }
}

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
  if (expectation.violates) {
    const violated = trace.invariants.filter((i) => i.firstViolation !== null).map((i) => i.name).sort();
    const expected = [...expectation.violates].sort();
    if (JSON.stringify(violated) !== JSON.stringify(expected)) out.push({ field: 'violated invariants', expected, actual: violated });
  }
  return out;
}
export * from './explore';
