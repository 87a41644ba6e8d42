import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import schema20251125 from '../../../wire/mcp-schema/2025-11-25.schema.json' with { type: 'json' };
import { checkMessage } from '../../../wire/schemaCheck';
import type { Json } from '../../types';
import { loadScenario, loadScenarios, run } from './helpers';

import schema20260728 from '../../../wire/mcp-schema/2026-07-28.schema.json' with { type: 'json' };
import { checkedAgainst, checkTaskLabSchema, taskWireCheckPlan, TASKS_2026_LAB_SCHEMAS } from '../taskWireSchema';
import type { Revision } from '../../mcp';

// schemaCheck.ts picks $defs by method only for the races lab's messages, so each task message is
// checked here by the $defs names its plan gives (taskWireSchema.ts), and under 2026-07-28 also
// against the lab schema written from SPEC-NOTES (the official 2026-07-28 schema has no tasks).
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: unknown) => void)(ajv);
ajv.addSchema(schema20251125, 'mcp-2025-11-25');
ajv.addSchema(schema20260728, 'mcp-2026-07-28');
function validOfficial(revision: Revision, def: string, value: unknown): string[] {
  const v = ajv.getSchema(`mcp-${revision}#/$defs/${def}`);
  if (!v) throw new Error(`no $defs/${def} in ${revision}`);
  return v(value) ? [] : (v.errors ?? []).map((e) => `${def}${e.instancePath}: ${e.message}`);
}

type Msg = { id?: string | number; method?: string; result?: Record<string, Json>; error?: unknown };

describe('task messages validate: official schema where it defines them, else the lab schema from SPEC-NOTES', () => {
  const taskFiles = loadScenarios().filter((s) => (s.scenario.config as { mechanism: string }).mechanism === 'tasks');
  const variants: Record<string, Json>[] = [
    { revision: '2025-11-25' },
    { revision: '2025-11-25', policy: { cancelOverwritesTerminal: true } },
    { revision: '2026-07-28' },
    { revision: '2026-07-28', policy: { cancelOverwritesTerminal: true } },
  ];
  for (const { file, scenario } of taskFiles) {
    for (const overrides of variants) {
      const revision = overrides.revision as Revision;
      it(`${file} under ${JSON.stringify(overrides)}: every message passes JSONRPCMessage and its planned checks`, () => {
        const t = run(scenario, overrides);
        const methodOfId = new Map<string | number, string>();
        let official = 0;
        let lab = 0;
        for (const e of t.effects) {
          const m = e.message as Msg;
          if (m.method !== undefined && m.id !== undefined) methodOfId.set(m.id, m.method);
          expect(checkMessage(revision, e.message as Json).errors).toEqual([]);
          const plan = taskWireCheckPlan(revision, e.message as Json, m.method === undefined ? methodOfId.get(m.id as string | number) : undefined);
          for (const { def, part } of plan.official) {
            expect(validOfficial(revision, def, part === 'result' ? m.result : m), `${def} at ${e.at} ms`).toEqual([]);
            official++;
          }
          expect(checkTaskLabSchema(plan, e.message as Json), `${plan.lab?.def} at ${e.at} ms`).toEqual([]);
          if (plan.lab) lab++;
        }
        if (revision === '2025-11-25') {
          expect(official).toBeGreaterThan(4);
          expect(lab).toBe(0);
        } else expect(lab).toBeGreaterThan(3);
      });
    }
  }

  it('the lab schema can fail: 2025 field names in a 2026 Task, a non-empty cancel ack, a missing taskId', () => {
    const created = run(loadScenario('T1-abort-before-task-id'), { revision: '2025-11-25' }).effects.find((e) => e.from === 'server')!.message as { result: { task: Record<string, Json> } };
    const as2026 = { ...(created as object), result: { resultType: 'task', task: created.result.task } } as unknown as Json;
    const plan = taskWireCheckPlan('2026-07-28', as2026, 'tools/call');
    expect(plan.lab?.def).toBe('CreateTaskResultResponse');
    const errors = checkTaskLabSchema(plan, as2026);
    expect(errors.some((e) => /task/.test(e) && /ttl/.test(e))).toBe(true);
    const ack = { jsonrpc: '2.0', id: 'cancel-1', result: { resultType: 'complete', status: 'cancelled' } } as Json;
    expect(checkTaskLabSchema(taskWireCheckPlan('2026-07-28', ack, 'tasks/cancel'), ack)).toEqual([expect.stringMatching(/^CancelTaskAckResponse: result: /)]);
    expect(TASKS_2026_LAB_SCHEMAS.GetTaskRequest.safeParse({ jsonrpc: '2.0', id: 1, method: 'tasks/get', params: {} }).success).toBe(false);
    const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', task: { ttl: 5 } } } as Json;
    expect(checkTaskLabSchema(taskWireCheckPlan('2026-07-28', call, undefined), call)[0]).toMatch(/^TaskAugmentation: params\.task/);
  });

  it('says what each message was checked against', () => {
    const get = { jsonrpc: '2.0', id: 'get-2', method: 'tasks/get', params: { taskId: 't' } } as Json;
    expect(checkedAgainst('2025-11-25', taskWireCheckPlan('2025-11-25', get, undefined))).toBe('official 2025-11-25 schema ($defs/GetTaskRequest)');
    expect(checkedAgainst('2026-07-28', taskWireCheckPlan('2026-07-28', get, undefined))).toBe('lab schema GetTaskRequest (ours, from SPEC-NOTES §Tasks)');
    expect(() => taskWireCheckPlan('2026-07-28', { jsonrpc: '2.0', id: 1, method: 'tasks/list' }, undefined)).toThrow(/no check for method tasks\/list/);
  });

  it('a 2025-11-25 Task carries ttl and pollInterval; a 2026-07-28 one ttlMs and pollIntervalMs', () => {
    const old = run(loadScenario('T1-abort-before-task-id'), { revision: '2025-11-25' });
    const created = old.effects.find((e) => e.from === 'server')?.message as { result: { task: Record<string, unknown> } };
    expect(created.result.task).toMatchObject({ taskId: 'task-1', status: 'working', ttl: 600000, pollInterval: 1000, createdAt: '2026-01-01T00:00:00.120Z' });
    const now = run(loadScenario('T1-abort-before-task-id'));
    const created26 = now.effects.find((e) => e.from === 'server')?.message as { result: { task: Record<string, unknown> } };
    expect(created26.result.task).toMatchObject({ ttlMs: 600000, pollIntervalMs: 1000 });
  });
});

describe('breaker attempts validate', () => {
  for (const revision of ['2025-11-25', '2026-07-28'] as const) {
    it(`tools/call attempts and tool results under ${revision}`, () => {
      const t = run(loadScenario('B2-retry-composition'), { revision });
      let n = 0;
      for (const e of t.effects) {
        if (e.message === undefined) continue;
        const m = e.message as Msg;
        const r = checkMessage(revision, e.message as Json, m.method === undefined ? 'tools/call' : undefined);
        expect(r.errors, JSON.stringify(m)).toEqual([]);
        n++;
      }
      expect(n).toBeGreaterThan(8);
    });
  }
});
