import type { LabDefinition } from '../sim/lab';
import type { LedgerTrace } from '../sim/ledger';
import type { Revision } from '../sim/mcp';
import type { Json, Scenario } from '../sim/types';
import { checkMessage } from '../wire/schemaCheck';

/**
 * The CLI report of a ledger scenario: each call's reply and receipt, the summary (executions,
 * records, connection replies), every wire message with its check against the official MCP
 * schema and the invariants. The definition replays on sql.js databases (the entry point loads
 * sql.js's Node build first). Registered by lab id in `reports.ts`.
 */
export function ledgerReport(definition: LabDefinition<unknown, unknown, LedgerTrace>, scenario: Scenario): Record<string, Json> {
  const trace = definition.replay(scenario);
  const revision = (scenario.config as { revision: Revision }).revision;
  const wire: Json[] = trace.effects.map((e) => {
    const item: Record<string, Json> = { atMs: e.at, from: e.from, transport: e.transport };
    if (e.arrivesAt !== undefined) item.arrivesAtMs = e.arrivesAt;
    else if (e.from === 'server') item.lost = true;
    if (e.message !== undefined) {
      const check = checkMessage(revision, e.message, e.from === 'server' ? 'tools/call' : undefined);
      item.message = e.message;
      item.schema = check.valid ? `valid ${check.def}` : `invalid ${check.def}: ${check.errors.join('; ')}`;
    }
    return item;
  });
  const doc: Record<string, Json> = {
    scenario: { id: scenario.id, lab: scenario.lab, title: scenario.title, config: scenario.config as Json },
    calls: trace.outcome.calls as unknown as Json,
    summary: trace.outcome.summary as unknown as Json,
    wire,
    invariants: trace.invariants.map((i) => ({ name: i.name, holds: i.firstViolation === null, firstViolation: i.firstViolation })),
    steps: trace.stepCount,
    endAtMs: trace.endAt,
  };
  return doc;
}
