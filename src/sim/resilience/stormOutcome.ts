import type { StormCore, StormOutcome, StormState } from './stormTypes';
import type { MechanismCheck } from './mechanism';

/** The storm's outcome. */
export function stormOutcome(s: StormState | StormCore): StormOutcome {
  const perLayer = s.config.layers.map(() => 0);
  for (const id of s.attemptOrder) perLayer[s.attempts[id].layer]++;
  const cancelAt = s.user.cancelAt;
  const ends = s.executions.filter((e) => e.endAt !== null && e.state !== 'killed').map((e) => e.endAt as number);
  return {
    requests: [{ key: 'action', state: s.user.state, atMs: s.user.atMs }],
    summary: {
      attemptsPerLayer: perLayer,
      upstreamAttempts: perLayer[perLayer.length - 1],
      executions: s.executions.length,
      killedByGuard: s.executions.filter((e) => e.state === 'killed').length,
      executionsCompleted: s.executions.filter((e) => e.state === 'ok').length,
      duplicateWorkAfterCancel: cancelAt === null ? 0 : s.executions.filter((e) => e.state !== 'killed' && (e.endAt === null || e.endAt > cancelAt)).length,
      executionsRunningAtEnd: s.executions.filter((e) => e.state === 'running').length,
      lastExecutionEndAtMs: ends.length === 0 ? null : Math.max(...ends),
    },
  };
}

/**
 * Invariants of the storm, each over the one user action (entity kind 'action'; the mechanism's
 * whole state is that entity). `model.ts` runs them on the core.
 */
export const stormInvariants: MechanismCheck<StormState | StormCore>[] = [
  {
    name: 'one-execution-per-action',
    description: 'One user action executes upstream at most once (killed duplicates aside).',
    check: (s) => {
      const n = s.executions.filter((e) => e.state !== 'killed').length;
      return n > 1 ? `${n} upstream executions for one action` : null;
    },
  },
  {
    name: 'no-work-after-cancel',
    description: 'After the user cancels, no new upstream execution starts.',
    check: (s) => {
      const at = s.user.cancelAt;
      if (at === null) return null;
      const late = s.executions.filter((e) => e.startAt > at && e.state !== 'killed').length;
      return late > 0 ? `${late} upstream execution(s) started after the user cancelled at ${at} ms` : null;
    },
  },
  {
    name: 'one-retry-layer-per-process',
    description: 'Inside one process at most one layer retries (stacked loops multiply: 4 application attempts × 3 SDK attempts = 12 requests, nanobot#2760).',
    check: (s) => {
      const byProcess = new Map<string, string[]>();
      s.config.layers.forEach((l, i) => {
        if (l.process !== null && s.layerRetries[i] > 0) byProcess.set(l.process, [...(byProcess.get(l.process) ?? []), `${l.name} (${s.layerRetries[i]} retries)`]);
      });
      const stacked = [...byProcess.entries()].filter(([, names]) => names.length > 1);
      return stacked.length ? stacked.map(([p, names]) => `process ${p}: ${names.join(' and ')} both retried, each unaware of the other`).join('; ') : null;
    },
  },
];
