import { checkLedgerExpectation, replayLedger, withLedgerOverrides, type OpenDatabase } from '../sim/ledger';
import type { Revision } from '../sim/mcp';
import type { Json, Scenario } from '../sim/types';
import { checkMessage } from '../wire/schemaCheck';

/**
 * The CLI report of a ledger scenario: each call's reply and receipt, the summary (executions,
 * records, connection replies), every wire message with its check against the official MCP
 * schema, the invariants, and with `--expect` the file's expectations (exit 3 when one is unmet).
 * `open` gives fresh sql.js databases (the entry point loads sql.js's Node build first).
 */
export function ledgerCli(scenario: Scenario, wantExpect: boolean, open: OpenDatabase): { code: number; stdout: string; stderr: string } {
  const trace = replayLedger(scenario, open);
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
  let code = 0;
  if (wantExpect) {
    doc.expectations = (scenario.expect ?? []).map((e) => {
      const mismatches = checkLedgerExpectation(replayLedger(withLedgerOverrides(scenario, e.overrides as Record<string, Json> | undefined), open), e);
      if (mismatches.length) code = 3;
      return { label: e.label, met: mismatches.length === 0, mismatches: mismatches as unknown as Json };
    });
  }
  return { code, stdout: JSON.stringify(doc, null, 2) + '\n', stderr: '' };
}
