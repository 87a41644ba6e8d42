import type { LabDefinition } from '../sim/lab';
import type { ResilienceTrace } from '../sim/resilience';
import { checkMessage } from '../wire/schemaCheck';
import { checkedAgainst, taskWireCheckPlan } from '../sim/resilience/taskWireSchema';
import { checkTaskExtSchema } from '../wire/ext-tasks';
import type { Revision } from '../sim/mcp';
import type { Json, Scenario } from '../sim/types';

/**
 * The CLI report of a resilience scenario (`npm run replay -- public/scenarios/resilience/….json`):
 * `{ scenario, requests[], summary, wire[], invariants[], steps, endAtMs, expectations? }`. Requests and
 * summary are the mechanism's own outcome (task, calls, or the user's action); every wire message
 * carries its check against the official schema of the scenario's revision; a task message also
 * says what it is checked against (`checkedAgainst`) and, under 2026-07-28, its check against the
 * official tasks extension schema (`extSchema`; the official 2026-07-28 core schema has no tasks;
 * vendored in src/wire/ext-tasks). Only the mechanism's invariants are
 * listed. Registered by lab id in `reports.ts`; `--expect` is added there.
 */
export function resilienceReport(definition: LabDefinition<unknown, unknown, ResilienceTrace>, scenario: Scenario): Record<string, Json> {
  const trace = definition.replay(scenario);
  const revision = ((scenario.config as { revision?: Revision }).revision ?? '2026-07-28') as Revision;
  const methods = new Map<string, string>();
  const wire: Json[] = trace.effects.map((e) => {
    const item: Record<string, Json> = { atMs: e.at, from: e.from, transport: e.transport };
    if (e.arrivesAt !== undefined) item.arrivesAtMs = e.arrivesAt;
    if (e.http !== undefined) item.http = e.http;
    if (e.message !== undefined) {
      const m = e.message as { id?: string | number; method?: string };
      if (m.method !== undefined && m.id !== undefined) methods.set(JSON.stringify(m.id), m.method);
      // A task-augmented tools/call is answered with CreateTaskResult, not CallToolResult: generic check.
      const respondsTo = m.method === undefined && m.id !== undefined && e.requestKey !== 'task' ? methods.get(JSON.stringify(m.id)) : undefined;
      const check = checkMessage(revision, e.message, respondsTo);
      item.message = e.message;
      item.schema = check.valid ? `valid ${check.def}` : `invalid ${check.def}: ${check.errors.join('; ')}`;
      if (e.requestKey === 'task') {
        const plan = taskWireCheckPlan(revision, e.message, m.method === undefined && m.id !== undefined ? methods.get(JSON.stringify(m.id)) : undefined);
        item.checkedAgainst = checkedAgainst(revision, plan);
        if (plan.ext.length) {
          const errors = checkTaskExtSchema(plan, e.message);
          const defs = plan.ext.map((x) => x.def).join(', ');
          item.extSchema = errors.length === 0 ? `valid ${defs}` : `invalid ${defs}: ${errors.join('; ')}`;
        }
      }
    }
    return item;
  });
  const mechanism = trace.initial.mechanism;
  const doc: Record<string, Json> = {
    scenario: { id: scenario.id, lab: scenario.lab, title: scenario.title, config: scenario.config as Json },
    requests: trace.outcome.requests as unknown as Json,
    summary: trace.outcome.summary as unknown as Json,
    wire,
    invariants: trace.invariants
      .filter((i) => i.description.startsWith(`${mechanism}:`))
      .map((i) => ({ name: i.name, holds: i.firstViolation === null, firstViolation: i.firstViolation })),
    steps: trace.stepCount,
    endAtMs: trace.endAt,
  };
  return doc;
}
