import type { LabDefinition } from '../sim/lab';
import type { FlowTrace } from '../sim/flow';
import { checkMessage } from '../wire/schemaCheck';
import type { Revision } from '../sim/mcp';
import type { Json, Scenario } from '../sim/types';

/** Wire items printed in full; the rest are counted (a stalled-subscriber scenario writes thousands). */
const WIRE_SHOWN = 50;

/**
 * The CLI report of a flow scenario (`npm run replay -- public/scenarios/flow/….json`):
 * `{ scenario, summary, errors[], wire: { total, messages, schemaInvalid, first[] }, invariants[],
 * steps, endAtMs, expectations? }`. Every JSON-RPC message is checked against the official schema of
 * the scenario's revision; the first 50 wire items are printed with their check. Registered by lab id in
 * `reports.ts`; `--expect` is added there.
 */
export function flowReport(definition: LabDefinition<unknown, unknown, FlowTrace>, scenario: Scenario): Record<string, Json> {
  const trace = definition.replay(scenario, { keep: 'effects' });
  const revision = ((scenario.config as { revision?: Revision }).revision ?? '2026-07-28') as Revision;
  let messages = 0;
  let schemaInvalid = 0;
  const first: Json[] = [];
  for (const e of trace.effects) {
    const item: Record<string, Json> = { atMs: e.at, from: e.from };
    if (e.http !== undefined) item.http = e.http;
    if (e.message !== undefined) {
      messages++;
      const m = e.message as { method?: string };
      const check = checkMessage(revision, e.message, m.method === undefined ? 'tools/call' : undefined);
      if (!check.valid) schemaInvalid++;
      item.message = e.message;
      item.schema = check.valid ? `valid ${check.def}` : `invalid ${check.def}: ${check.errors.join('; ')}`;
    }
    if (first.length < WIRE_SHOWN) first.push(item);
  }
  const doc: Record<string, Json> = {
    scenario: { id: scenario.id, lab: scenario.lab, title: scenario.title, config: scenario.config as Json },
    summary: trace.outcome.summary,
    errors: [...trace.outcome.errors],
    wire: { total: trace.effects.length, messages, schemaInvalid, first },
    invariants: trace.invariants.map((i) => ({ name: i.name, holds: i.firstViolation === null, firstViolation: i.firstViolation })),
    steps: trace.stepCount,
    endAtMs: trace.endAt,
  };
  return doc;
}
