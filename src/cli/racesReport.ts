import type { LabDefinition } from '../sim/lab';
import type { Revision } from '../sim/mcp';
import type { RacesTrace } from '../sim/races';
import type { Json, Scenario } from '../sim/types';
import { checkMessage } from '../wire/schemaCheck';

/**
 * The CLI report of a races scenario: `{ scenario, requests[], summary, wire[], invariants[], steps,
 * endAtMs }`, each wire message with its check against the official MCP schema of the revision.
 * Reads only the outcome, the wire effects (each carries its step's time) and the step count, so
 * an effects-only trace (`keep: 'effects'`, the fast path) gives the same document as a full one.
 */
export function report(scenario: Scenario, trace: Pick<RacesTrace, 'outcome' | 'effects' | 'invariants' | 'stepCount' | 'endAt'>): Record<string, Json> {
  const revision = (scenario.config as { revision: Revision }).revision;
  const methods = new Map(trace.outcome.requests.map((r) => [r.key, r.method]));
  const methodOf = (key: string | undefined) => (key === undefined ? undefined : methods.get(key));
  const wire: Json[] = [];
  for (const e of trace.effects) {
    const item: Record<string, Json> = { atMs: e.at, from: e.from, transport: e.transport };
    if (e.arrivesAt !== undefined) item.arrivesAtMs = e.arrivesAt;
    if (e.http !== undefined) item.http = e.http;
    if (e.headers !== undefined) item.headers = e.headers;
    if (e.message !== undefined) {
      item.message = e.message;
      const check = checkMessage(revision, e.message, methodOf(e.requestKey));
      item.schema = check.valid ? `valid ${check.def}` : `invalid ${check.def}: ${check.errors.join('; ')}`;
    }
    if (e.malformed) item.malformed = true;
    wire.push(item);
  }
  return {
    scenario: { id: scenario.id, lab: scenario.lab, title: scenario.title, config: scenario.config as Json },
    requests: trace.outcome.requests.map((r) => ({
      requestId: r.requestId,
      method: r.method,
      state: r.state,
      reason: r.reason,
      atMs: r.atMs,
      finalResponse: r.finalResponse,
      responseFate: r.responseFate,
      cancelSignal: r.cancelSignal,
      serverState: r.serverState,
    })),
    summary: trace.outcome.summary as unknown as Json,
    wire,
    invariants: trace.invariants.map((i) => ({ name: i.name, holds: i.firstViolation === null, firstViolation: i.firstViolation })),
    steps: trace.stepCount,
    endAtMs: trace.endAt,
  };
}


/** The races report over the lab's definition (registered by lab id in `reports.ts`). */
export function racesReport(definition: LabDefinition<unknown, unknown, RacesTrace>, scenario: Scenario): Record<string, Json> {
  return report(scenario, definition.replay(scenario, { keep: 'effects' }));
}
