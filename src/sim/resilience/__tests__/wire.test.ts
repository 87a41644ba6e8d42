import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import schema20251125 from '../../../wire/mcp-schema/2025-11-25.schema.json' with { type: 'json' };
import { checkMessage } from '../../../wire/schemaCheck';
import type { Json } from '../../types';
import { loadScenario, loadScenarios, run } from './helpers';

// The official 2025-11-25 schema defines the task messages; schemaCheck.ts picks $defs by method
// only for the races lab's messages, so the task types are checked here by name.
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: unknown) => void)(ajv);
ajv.addSchema(schema20251125, 'mcp-2025');
function valid2025(def: string, value: unknown): string[] {
  const v = ajv.getSchema(`mcp-2025#/$defs/${def}`);
  if (!v) throw new Error(`no $defs/${def}`);
  return v(value) ? [] : (v.errors ?? []).map((e) => `${def}${e.instancePath}: ${e.message}`);
}

type Msg = { id?: string | number; method?: string; result?: Record<string, Json>; error?: unknown };

/** Which $defs a 2025-11-25 task message must satisfy: by method, or by the request it answers. */
function defsFor(m: Msg, methodOfId: Map<string | number, string>): { def: string; value: unknown }[] {
  if (m.method === 'tools/call') return [{ def: 'CallToolRequest', value: m }];
  if (m.method === 'tasks/get') return [{ def: 'GetTaskRequest', value: m }];
  if (m.method === 'tasks/cancel') return [{ def: 'CancelTaskRequest', value: m }];
  if (m.method === 'tasks/result') return [{ def: 'GetTaskPayloadRequest', value: m }];
  if (m.error !== undefined) return [{ def: 'JSONRPCErrorResponse', value: m }];
  const answers = methodOfId.get(m.id as string | number);
  if (answers === 'tools/call') return [{ def: 'JSONRPCResultResponse', value: m }, { def: 'CreateTaskResult', value: m.result }];
  if (answers === 'tasks/get') return [{ def: 'JSONRPCResultResponse', value: m }, { def: 'GetTaskResult', value: m.result }];
  if (answers === 'tasks/cancel') return [{ def: 'JSONRPCResultResponse', value: m }, { def: 'CancelTaskResult', value: m.result }];
  if (answers === 'tasks/result') return [{ def: 'JSONRPCResultResponse', value: m }, { def: 'GetTaskPayloadResult', value: m.result }, { def: 'CallToolResult', value: m.result }];
  throw new Error(`unclassified message ${JSON.stringify(m)}`);
}

describe('task messages validate against the official schemas', () => {
  const taskFiles = loadScenarios().filter((s) => (s.scenario.config as { mechanism: string }).mechanism === 'tasks');

  for (const { file, scenario } of taskFiles) {
    for (const overrides of [{ revision: '2025-11-25' }, { revision: '2025-11-25', policy: { cancelOverwritesTerminal: true } }] as Record<string, Json>[]) {
      it(`${file} under ${JSON.stringify(overrides)}: every message matches its 2025-11-25 $defs type`, () => {
        const t = run(scenario, overrides);
        const methodOfId = new Map<string | number, string>();
        let checked = 0;
        for (const e of t.effects) {
          const m = e.message as Msg;
          if (m.method !== undefined && m.id !== undefined) methodOfId.set(m.id, m.method);
          expect(checkMessage('2025-11-25', e.message as Json).errors).toEqual([]);
          for (const { def, value } of defsFor(m, methodOfId)) {
            expect(valid2025(def, value), `${def} at ${e.at} ms`).toEqual([]);
            checked++;
          }
        }
        expect(checked).toBeGreaterThan(4);
      });
    }
    it(`${file} under 2026-07-28: generic JSON-RPC messages; tools/call as CallToolRequest`, () => {
      const t = run(scenario, { revision: '2026-07-28' });
      for (const e of t.effects) {
        const m = e.message as Msg;
        const r = checkMessage('2026-07-28', e.message as Json);
        expect(r.errors, JSON.stringify(m)).toEqual([]);
      }
    });
  }

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
