import { replay, stepIndexAt, type ReplayOptions, type ReplayResult } from '../replay';
import { violatesMismatch, withOverrides, type ExpectationMismatch } from '../expectation';
import type { Expectation, Json, Scenario } from '../types';
import { createLedgerModel, type LedgerModel, type LedgerOutcome, type LedgerState } from './model';
import type { OpenDatabase } from './sql';

export * from './model';
export * from './schema';
export * from './ledger';
export * from './sql';
export * from './locks';
export * from './lanes';
export * from './bulk';
export * from './replicas';
export * from './trie';

/** A replayed ledger trace. */
export type LedgerTrace = ReplayResult<LedgerState, LedgerOutcome>;

/**
 * Replays a validated ledger scenario on fresh databases from `open` (sql.js: load it first, the
 * replay itself is synchronous and deterministic). Pass `model` to reuse one instance (and read its
 * `database()` afterwards); by default a new one is made.
 */
export function replayLedger(scenario: Scenario, open: OpenDatabase, options: ReplayOptions & { model?: LedgerModel } = {}): LedgerTrace {
  return replay(options.model ?? createLedgerModel(open), scenario, options);
}

/** The model state when the playhead is at `atMs`. */
export function ledgerStateAt(trace: LedgerTrace, atMs: number): LedgerState {
  const i = stepIndexAt(trace.steps, atMs);
  return i < 0 ? trace.initial : trace.steps[i].state;
}

/** The scenario with config overrides applied (same events); the generic `withOverrides`. */
export const withLedgerOverrides = withOverrides;

/** One difference between an expectation and a trace. */
export type LedgerMismatch = ExpectationMismatch;

/**
 * Checks a ledger trace against an expectation: `summary` fields (exact JSON equality per field),
 * `requests` (per JSON-encoded request id: fields of the outcome's call) and exactly which
 * invariants are violated. Returns every mismatch (empty = met).
 */
export function checkLedgerExpectation(trace: LedgerTrace, expectation: Expectation): LedgerMismatch[] {
  const out: LedgerMismatch[] = [];
  const summary = trace.outcome.summary as unknown as Record<string, Json>;
  for (const [k, v] of Object.entries(expectation.summary ?? {})) {
    if (JSON.stringify(summary[k]) !== JSON.stringify(v)) out.push({ field: `summary.${k}`, expected: v as Json, actual: summary[k] ?? null });
  }
  for (const [key, fields] of Object.entries(expectation.requests ?? {})) {
    const call = trace.outcome.calls.find((c) => c.key === key) as unknown as Record<string, Json> | undefined;
    for (const [k, v] of Object.entries(fields)) {
      const actual = call ? call[k] : undefined;
      if (JSON.stringify(actual) !== JSON.stringify(v)) out.push({ field: `requests[${key}].${k}`, expected: v as Json, actual: actual ?? null });
    }
  }
  violatesMismatch(expectation.violates, trace.invariants, out);
  return out;
}
