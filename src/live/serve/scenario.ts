/**
 * `serve --scenario FILE`: the server side of a races lab scenario, run live. What maps:
 * - the first `tools/call` start and its `complete` → `slow_job`'s default `durationMs` (complete
 *   at − start at − clientToServer latency);
 * - its `progress` events → the default `progressEveryMs` (the first progress's offset from the
 *   request's arrival);
 * - `cancellable: false` → `ignore-cancel` (the server MAY ignore a cancel of work it cannot stop);
 * - its `complete` event's `resultBytes` → `big-result` with a result text of that many bytes (the
 *   line on the wire is that plus the JSON-RPC envelope, about 60 bytes more);
 * - the server bug switches → faults: `policy.respondAfterCancel` → ignore-cancel,
 *   `policy.progressAfterResult` → progress-after-result, `policy.duplicateResponseOnCancel` →
 *   duplicate-response, `policy.crashOnCancelInWriteWindow` → crash-on-cancel.
 * Client-side fields (timeouts, cancel times, client bug switches) are the client's to play: they
 * are listed as notes. Only the races lab maps: the others model a ledger, a flow of streams or a
 * resilience stack, not one server's answers to one call.
 */
import { parseAnyScenarioText } from '../../sim/labs';
import { LAB_IDS } from '../../sim/labIds';
import { racesPageDefinition } from '../../sim/races/definition';
import type { LiveFaultName } from '../../sim/faultVocabulary';

/** The races bug switches that are a live server fault. */
export const SCENARIO_SWITCH_FAULTS: Readonly<Record<string, LiveFaultName>> = {
  respondAfterCancel: 'ignore-cancel',
  progressAfterResult: 'progress-after-result',
  duplicateResponseOnCancel: 'duplicate-response',
  crashOnCancelInWriteWindow: 'crash-on-cancel',
};

/** What a scenario file gives `serve`. */
export type ScenarioMapping =
  | { ok: true; faults: LiveFaultName[]; job: { durationMs?: number; progressEveryMs?: number; resultBytes?: number }; notes: string[] }
  | { ok: false; error: string };

interface RacesEventLike {
  at: number;
  kind: string;
  actor: string;
  requestId?: unknown;
  method?: string;
  cancellable?: boolean;
  resultBytes?: number;
  idleTimeoutMs?: number | null;
  maxTimeoutMs?: number | null;
}

/** The one lab whose scenarios serve plays: the races lab's model is one server answering calls. */
const SERVED_LAB: string = racesPageDefinition.id;

/** Maps a scenario file's text (never throws: a bad or foreign file gives one line). */
export function scenarioFaults(text: string): ScenarioMapping {
  let lab: unknown;
  try {
    lab = (JSON.parse(text) as { lab?: unknown } | null)?.lab;
  } catch {
    /* parseAnyScenarioText names the JSON problem */
  }
  if (typeof lab === 'string' && lab !== SERVED_LAB && (LAB_IDS as readonly string[]).includes(lab)) return { ok: false, error: `is a ${lab} lab scenario — serve maps only the races lab's scenarios (one server's answers to a call: delays, progress cadence, completion, server bug switches)` };
  const parsed = parseAnyScenarioText(text);
  if (!parsed.ok) return { ok: false, error: parsed.errors[0] ?? 'not a scenario' };
  const scenario = parsed.scenario as unknown as { config: { latencyMs?: { clientToServer?: number }; policy?: Record<string, boolean> }; events: RacesEventLike[] };
  const faults: LiveFaultName[] = [];
  const notes: string[] = [];
  for (const [key, on] of Object.entries(scenario.config.policy ?? {})) {
    if (!on) continue;
    const fault = SCENARIO_SWITCH_FAULTS[key];
    if (fault) {
      if (!faults.includes(fault)) faults.push(fault);
      notes.push(`policy.${key} → --fault ${fault}`);
    } else notes.push(`policy.${key} is the client's (or the network's) bug: not played by the server`);
  }
  const start = scenario.events.find((e) => e.kind === 'start' && (e.method ?? 'tools/call') === 'tools/call');
  const job: { durationMs?: number; progressEveryMs?: number; resultBytes?: number } = {};
  if (start) {
    const id = JSON.stringify(start.requestId);
    const arrive = start.at + (scenario.config.latencyMs?.clientToServer ?? 0);
    const done = scenario.events.find((e) => e.actor === 'server' && (e.kind === 'complete' || e.kind === 'error') && JSON.stringify(e.requestId) === id);
    if (done) job.durationMs = Math.max(0, done.at - arrive);
    if (done?.resultBytes !== undefined) {
      job.resultBytes = done.resultBytes;
      if (!faults.includes('big-result')) faults.push('big-result');
      notes.push(`resultBytes ${done.resultBytes} → --fault big-result with a ${done.resultBytes}-byte result text`);
    }
    const progress = scenario.events.filter((e) => e.kind === 'progress' && JSON.stringify(e.requestId) === id).map((e) => e.at);
    if (progress.length > 0) job.progressEveryMs = Math.max(1, progress[0] - arrive);
    else job.progressEveryMs = 0;
    if (start.cancellable === false && !faults.includes('ignore-cancel')) {
      faults.push('ignore-cancel');
      notes.push('cancellable: false → --fault ignore-cancel');
    }
    notes.push(`slow_job defaults: durationMs ${job.durationMs ?? 'its own'}, progressEveryMs ${job.progressEveryMs}`);
    notes.push(`the client's part (idle timeout ${start.idleTimeoutMs ?? 'none'} ms, maximum ${start.maxTimeoutMs ?? 'none'} ms, its cancels) is the client's to play`);
  }
  return { ok: true, faults, job, notes };
}
