import { replay } from '../../replay';
import type { Scenario } from '../../types';
import { flowModel } from '../model';
import type { FlowConfig } from '../schema';

/**
 * What the flow oracle (`oracle/flow`, the flow model of main at 377217e) cannot know, kept out of
 * the comparison explicitly and narrowly so it still proves everything else (issue 11):
 *
 * - The rule "a broken 2026-07-28 response stream loses the in-flight request; clients MUST
 *   re-issue it as a new request with a new request ID" (2026-07-28 changelog item 9). The oracle
 *   continued the old operation. A 2026-07-28 scenario whose stream breaks (the only place the
 *   rule acts) is compared with `bugs.resumeUnder2026` on — the old rule, kept as the named bug —
 *   so every other rule on its path is still compared step by step; the new rule itself is pinned
 *   by the golden traces and `reissue.test.ts`.
 * - The record and counters added with it: the state's `reissue` record, the summary's
 *   `operationRequestId`, `reissues`, `operationExecutions`, `sideEffectExecutions`, and the
 *   invariants `retry-new-id` and `side-effect-once` (in the trace's list and in step violations):
 *   dropped from both sides' JSON.
 * - A one-slot buffer (`capacityEvents` 1 under a policy other than 'lesson'; cpp-mcp PR#53,
 *   built-in SB1): the oracle's buffer refuses a capacity below 2, so such a scenario is not
 *   compared (`oracleRefuses`); its trace is pinned by the golden traces and `sseBuffer.test.ts`.
 */
export const NEW_KEYS: ReadonlySet<string> = new Set(['reissue', 'operationRequestId', 'reissues', 'operationExecutions', 'sideEffectExecutions']);
export const NEW_INVARIANTS: ReadonlySet<string> = new Set(['retry-new-id', 'side-effect-once']);

/** Whether `v` is an invariant result or a step violation of an invariant the oracle predates. */
export function isNewInvariant(v: unknown): boolean {
  if (v === null || typeof v !== 'object') return false;
  const o = v as { name?: unknown; invariant?: unknown; description?: unknown };
  return NEW_INVARIANTS.has(o.invariant as string) || (typeof o.description === 'string' && NEW_INVARIANTS.has(o.name as string));
}

/** `scenario` with the old rule (`bugs.resumeUnder2026`) on when it is a 2026-07-28 scenario; others unchanged. */
export function withOldRule(scenario: Scenario): Scenario {
  const config = scenario.config as unknown as FlowConfig;
  if (config.revision !== '2026-07-28') return scenario;
  return { ...scenario, config: { ...scenario.config, bugs: { ...config.bugs, resumeUnder2026: true } } };
}

/** The scenario the oracle is compared on: `withOldRule` when the 2026-07-28 stream breaks in it, else itself; `scoped` says which. */
export function oracleScoped(scenario: Scenario): { scenario: Scenario; scoped: boolean } {
  const config = scenario.config as unknown as FlowConfig;
  if (config.revision !== '2026-07-28' || replay(flowModel, scenario, { keep: 'effects' }).outcome.summary.disconnects === 0) return { scenario, scoped: false };
  return { scenario: withOldRule(scenario), scoped: true };
}

/** Whether the oracle cannot run `scenario` at all: a capacity below its minimum of 2 (the one-slot buffer it predates). */
export function oracleRefuses(scenario: Scenario): boolean {
  return (scenario.config as unknown as FlowConfig).capacityEvents < 2;
}
