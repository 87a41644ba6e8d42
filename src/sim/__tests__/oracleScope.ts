import type { Scenario } from '../types';

/**
 * What the test-only oracle (`oracle/`, the races model of main at 3802fb5) knows: a scenario
 * that uses anything newer cannot agree with it, by design, and is compared with its golden trace
 * instead (`golden.test.ts`). New model features add their config keys, policy switches and event
 * kinds here only by being absent from these lists; their defaults keep the oracle's behaviour,
 * so scenarios that leave them off (all generated ones) still agree. The one new event field,
 * `complete.writeDelayMs` (the write window), is beyond the oracle when it is above 0.
 */

const ORACLE_CONFIG_KEYS = new Set(['revision', 'transport', 'latencyMs', 'progressResetsIdleTimeout', 'policy']);
const ORACLE_POLICY_KEYS = new Set(['progressResetsMaximum', 'idleTimeoutOnly', 'maximumCheckedOnProgress', 'progressTokenOmitted', 'respondAfterCancel', 'clientNeverSettles', 'timeoutWithoutCancel', 'httpPostsCancel']);
const ORACLE_EVENT_KINDS = new Set(['start', 'cancel', 'disconnect', 'inject', 'progress', 'keepalive', 'complete', 'error', 'server-cancel']);

/** Why `scenario` (overrides applied) is outside the oracle's model, or null when the oracle can replay it. */
export function beyondOracle(scenario: Scenario): string | null {
  const config = scenario.config as Record<string, unknown>;
  for (const [k, v] of Object.entries(config)) {
    if (ORACLE_CONFIG_KEYS.has(k)) continue;
    if (k === 'client' && (v as { profile?: string } | undefined)?.profile === 'lab') continue;
    if (v !== undefined && v !== false && v !== null) return `config.${k}`;
  }
  for (const [k, v] of Object.entries((config.policy ?? {}) as Record<string, unknown>)) if (!ORACLE_POLICY_KEYS.has(k) && v !== false && v !== undefined) return `config.policy.${k}`;
  const kind = scenario.events.find((e) => !ORACLE_EVENT_KINDS.has(e.kind));
  if (kind) return `event kind ${kind.kind}`;
  // The write window (issue 11): a complete whose response is written later; 0 or absent is the oracle's at-once write.
  const windowed = scenario.events.find((e) => e.kind === 'complete' && typeof e.writeDelayMs === 'number' && e.writeDelayMs > 0);
  return windowed ? 'event field complete.writeDelayMs' : null;
}
