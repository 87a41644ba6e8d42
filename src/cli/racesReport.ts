import type { LabDefinition } from '../sim/lab';
import type { Revision } from '../sim/mcp';
import type { RacesTrace } from '../sim/races';
import type { Json, Scenario } from '../sim/types';
import { checkMessage } from '../wire/schemaCheck';

/**
 * The CLI report of a races scenario: `{ scenario, requests[], summary, wire[], invariants[], steps,
 * endAtMs }`, each wire message with its check against the official MCP schema of the revision.
 */
export function report(scenario: Scenario, trace: RacesTrace): Record<string, Json> {
  const revision = (scenario.config as { revision: Revision }).revision;
  const final = trace.steps.length ? trace.steps[trace.steps.length - 1].state : trace.initial;
  const methodOf = (key: string | undefined) => (key === undefined ? undefined : final.requests[final.indexOf[key]]?.method);
  const wire: Json[] = [];
  for (const step of trace.steps) {
    for (const e of step.effects) {
      const item: Record<string, Json> = { atMs: step.at, from: e.from, transport: e.transport };
      if (e.arrivesAt !== undefined) item.arrivesAtMs = e.arrivesAt;
      if (e.http !== undefined) item.http = e.http;
      if (e.message !== undefined) {
        item.message = e.message;
        const check = checkMessage(revision, e.message, methodOf(e.requestKey));
        item.schema = check.valid ? `valid ${check.def}` : `invalid ${check.def}: ${check.errors.join('; ')}`;
      }
      if (e.malformed) item.malformed = true;
      wire.push(item);
    }
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
    steps: trace.steps.length,
    endAtMs: trace.endAt,
  };
}


/** The races report over the lab's definition (registered by lab id in `reports.ts`). */
export function racesReport(definition: LabDefinition<unknown, unknown, RacesTrace>, scenario: Scenario): Record<string, Json> {
  return report(scenario, definition.replay(scenario));
}
