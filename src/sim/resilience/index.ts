import { replay, type ReplayResult, type ReplayOptions } from '../replay';
import { stateAtStep } from '../lab';
import type { Expectation, Json, Scenario } from '../types';
import { subsetMismatches as subset, violatesMismatch, withOverrides, type ExpectationMismatch } from '../expectation';
import { resilienceModel, type ResilienceOutcome, type ResilienceState } from './model';

export * from './model';
export * from './schema';
export * from './seekable';
export { classifyRetry } from '../retry/classify';

/** A replayed resilience trace. */
export type ResilienceTrace = ReplayResult<ResilienceState, ResilienceOutcome>;

/** Replays a validated resilience scenario. Pure and deterministic. */
export function replayResilience(scenario: Scenario, options?: ReplayOptions): ResilienceTrace {
  return replay(resilienceModel, scenario, options);
}

/** The model state when the playhead is at `atMs`. A seekable trace answers from its checkpoints (no steps built). */
export function resilienceStateAt(trace: ResilienceTrace, atMs: number): ResilienceState {
  return stateAtStep(trace, atMs);
}

export { withOverrides, type ExpectationMismatch };

/** The state of request `key` at a time, for `expect[].at` checks: task status (the first task "task" or a further one by its key), call state, or action state. */
export function requestStateAt(trace: ResilienceTrace, atMs: number, key: string): string | null {
  const s = resilienceStateAt(trace, atMs);
  if (s.mechanism === 'tasks') return key === 'task' ? s.server.status : (s.more?.find((t) => t.key === key)?.server.status ?? null);
  if (s.mechanism === 'breaker') {
    if (key === 'breaker') return s.mode;
    const done = s.logs.calls.slice(0, s.callsSeen).find((c) => c.key === key);
    return done ? done.state : s.live.some((c) => c.key === key) ? 'in-flight' : null;
  }
  return key === 'action' ? s.user.state : null;
}

/**
 * Checks a trace against one of the lesson's expectations: request fields (subset), summary
 * (subset), states at given times (`request` "task", "breaker", "action" or a call key) and exactly
 * which invariants are violated. Returns every mismatch (empty = met).
 */
export function checkExpectation(trace: ResilienceTrace, expectation: Expectation): ExpectationMismatch[] {
  const out: ExpectationMismatch[] = [];
  const requests = trace.outcome.requests as unknown as { key: string }[];
  for (const [key, fields] of Object.entries(expectation.requests ?? {})) {
    const r = requests.find((x) => x.key === key);
    if (!r) out.push({ field: `requests[${key}]`, expected: 'present', actual: null });
    else subset(`requests[${key}]`, fields as Record<string, Json>, r as unknown as Record<string, unknown>, out);
  }
  if (expectation.summary) subset('summary', expectation.summary as Record<string, Json>, trace.outcome.summary as unknown as Record<string, unknown>, out);
  for (const check of expectation.at ?? []) {
    const actual = requestStateAt(trace, check.atMs, check.request);
    if (actual !== check.state) out.push({ field: `at ${check.atMs} ms ${check.request}`, expected: check.state, actual });
  }
  violatesMismatch(expectation.violates, trace.invariants, out);
  return out;
}
