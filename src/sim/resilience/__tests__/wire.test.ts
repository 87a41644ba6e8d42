import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import schema20251125 from '../../../wire/mcp-schema/2025-11-25.schema.json' with { type: 'json' };
import { checkMessage } from '../../../wire/schemaCheck';
import type { Json } from '../../types';
import { loadScenario, loadScenarios, run } from './helpers';

import schema20260728 from '../../../wire/mcp-schema/2026-07-28.schema.json' with { type: 'json' };
import { checkedAgainst, EXT_TASKS_COMMIT, partOf, taskWireCheckPlan } from '../taskWireSchema';
import { checkExtTasks, checkTaskExtSchema, EXT_TASKS_SCHEMA, EXT_TASKS_SCHEMA_SOURCE } from '../../../wire/ext-tasks';
import type { Revision } from '../../mcp';

// schemaCheck.ts picks $defs by method only for the races lab's messages, so each task message is
// checked here by the $defs names its plan gives (taskWireSchema.ts): the official core schema of
// its revision and, under 2026-07-28, the official tasks extension schema (src/wire/ext-tasks,
// vendored from modelcontextprotocol/ext-tasks). The extension schema is checked twice — with the
// zod validators the lab runs in the browser and with ajv — and both must agree.
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: unknown) => void)(ajv);
ajv.addSchema(schema20251125, 'mcp-2025-11-25');
ajv.addSchema(schema20260728, 'mcp-2026-07-28');
ajv.addSchema(EXT_TASKS_SCHEMA, 'ext-tasks');
function validOfficial(revision: Revision, def: string, value: unknown): string[] {
  const v = ajv.getSchema(`mcp-${revision}#/$defs/${def}`);
  if (!v) throw new Error(`no $defs/${def} in ${revision}`);
  return v(value) ? [] : (v.errors ?? []).map((e) => `${def}${e.instancePath}: ${e.message}`);
}
function ajvExt(def: string, value: unknown): boolean {
  const v = ajv.getSchema(`ext-tasks#/$defs/${def}`);
  if (!v) throw new Error(`no $defs/${def} in ext-tasks`);
  return v(value) as boolean;
}

type Msg = { id?: string | number; method?: string; result?: Record<string, Json>; error?: unknown };

describe('task messages validate: the official core schema, and under 2026-07-28 the official tasks extension schema', () => {
  const taskFiles = loadScenarios().filter((s) => (s.scenario.config as { mechanism: string }).mechanism === 'tasks');
  const variants: Record<string, Json>[] = [
    { revision: '2025-11-25' },
    { revision: '2025-11-25', policy: { cancelOverwritesTerminal: true } },
    { revision: '2025-11-25', policy: { cancelWithNotification: true } },
    { revision: '2026-07-28' },
    { revision: '2026-07-28', policy: { cancelOverwritesTerminal: true } },
    { revision: '2026-07-28', policy: { cancelWithNotification: true } },
    { revision: '2026-07-28', transport: 'streamable-http' },
    { revision: '2026-07-28', durableWriteMs: 300, serverCrashAtMs: 250, policy: { handleBeforeDurable: true } },
  ];
  for (const { file, scenario } of taskFiles) {
    for (const overrides of variants) {
      const revision = overrides.revision as Revision;
      it(`${file} under ${JSON.stringify(overrides)}: every message passes JSONRPCMessage and its planned checks`, () => {
        const t = run(scenario, overrides);
        const methodOfId = new Map<string | number, string>();
        let official = 0;
        let ext = 0;
        for (const e of t.effects) {
          const m = e.message as Msg;
          if (m.method !== undefined && m.id !== undefined) methodOfId.set(m.id, m.method);
          expect(checkMessage(revision, e.message as Json).errors).toEqual([]);
          const plan = taskWireCheckPlan(revision, e.message as Json, m.method === undefined ? methodOfId.get(m.id as string | number) : undefined);
          for (const { def, part } of plan.official) {
            expect(validOfficial(revision, def, partOf(e.message as Json, part)), `${def} at ${e.at} ms`).toEqual([]);
            official++;
          }
          expect(checkTaskExtSchema(plan, e.message as Json), `${plan.ext.map((x) => x.def)} at ${e.at} ms`).toEqual([]);
          for (const { def, part } of plan.ext) expect(ajvExt(def, partOf(e.message as Json, part)), `ajv ${def} at ${e.at} ms`).toBe(true);
          ext += plan.ext.length;
        }
        if (revision === '2025-11-25') {
          expect(official).toBeGreaterThan(4);
          expect(ext).toBe(0);
        } else if (scenario.config.clientTasksExtension === false) {
          // T5: the client did not declare the extension, so no tasks/* message exists; the refusal is the official -32021 error.
          const refusal = t.effects.find((e) => (e.message as { error?: { code?: number } }).error?.code === -32021);
          expect(refusal === undefined ? ['no -32021'] : validOfficial(revision, 'MissingRequiredClientCapabilityError', refusal.message as Json)).toEqual([]);
        } else expect(ext).toBeGreaterThan(1);
      });
    }
  }

  it('the vendored schema is the one the label names', () => {
    expect(EXT_TASKS_SCHEMA_SOURCE.commit).toBe(EXT_TASKS_COMMIT);
    expect((EXT_TASKS_SCHEMA as { $id: string }).$id).toBe('https://modelcontextprotocol.io/ext-tasks/schema.json');
  });

  it('the extension schema can fail, and zod and ajv agree on each case: the old nested CreateTaskResult, a missing resultType, a tasks/get without taskId, a tasks/update without inputResponses, a completed task without its result', () => {
    const task = { taskId: 't', status: 'working', createdAt: '2026-01-01T00:00:00.100Z', lastUpdatedAt: '2026-01-01T00:00:00.100Z', ttlMs: 600000, pollIntervalMs: 1000 };
    const cases: [Parameters<typeof checkExtTasks>[0], unknown, boolean][] = [
      ['CreateTaskResult', { resultType: 'task', ...task }, true],
      ['CreateTaskResult', { resultType: 'task', task }, false], // the lab's old nested shape
      ['CreateTaskResult', { resultType: 'complete', ...task }, false],
      ['CancelTaskResult', { resultType: 'complete' }, true],
      ['CancelTaskResult', {}, false],
      ['GetTaskRequest', { jsonrpc: '2.0', id: 1, method: 'tasks/get', params: {} }, false],
      ['UpdateTaskRequest', { jsonrpc: '2.0', id: 1, method: 'tasks/update', params: { taskId: 't' } }, false],
      ['GetTaskResult', { resultType: 'complete', ...task, status: 'completed' }, false],
      ['GetTaskResult', { resultType: 'complete', ...task, status: 'completed', result: { content: [], isError: false } }, true],
    ];
    for (const [def, value, valid] of cases) {
      expect(checkExtTasks(def, value).length === 0, `${def} ${JSON.stringify(value)}`).toBe(valid);
      expect(ajvExt(def, value), `ajv ${def} ${JSON.stringify(value)}`).toBe(valid);
    }
    // The official schema does not forbid extra fields on the empty acknowledgement (Result allows
    // any property): the lab's own schema used to reject { resultType, status }; the official one accepts it.
    expect(checkExtTasks('CancelTaskResult', { resultType: 'complete', status: 'cancelled' })).toEqual([]);
  });

  it('says what each message was checked against; tasks/result and tasks/list have no plan under 2026-07-28', () => {
    const get = { jsonrpc: '2.0', id: 'get-2', method: 'tasks/get', params: { taskId: 't' } } as Json;
    expect(checkedAgainst('2025-11-25', taskWireCheckPlan('2025-11-25', get, undefined))).toBe('official 2025-11-25 schema ($defs/GetTaskRequest)');
    expect(checkedAgainst('2026-07-28', taskWireCheckPlan('2026-07-28', get, undefined))).toBe('official 2026-07-28 schema ($defs/JSONRPCRequest) + official tasks extension schema (ext-tasks e434597) ($defs/GetTaskRequest)');
    const done = { jsonrpc: '2.0', id: 'get-2', result: { status: 'completed' } } as Json;
    expect(checkedAgainst('2026-07-28', taskWireCheckPlan('2026-07-28', done, 'tasks/get'))).toBe('official 2026-07-28 schema ($defs/JSONRPCResultResponse, CallToolResult on result.result) + official tasks extension schema (ext-tasks e434597) ($defs/GetTaskResult)');
    expect(() => taskWireCheckPlan('2026-07-28', { jsonrpc: '2.0', id: 1, method: 'tasks/list' }, undefined)).toThrow(/no check for method tasks\/list/);
    expect(() => taskWireCheckPlan('2026-07-28', { jsonrpc: '2.0', id: 1, method: 'tasks/result', params: { taskId: 't' } }, undefined)).toThrow(/tasks\/result does not exist under the 2026-07-28 tasks extension/);
    expect(() => taskWireCheckPlan('2025-11-25', { jsonrpc: '2.0', id: 1, method: 'tasks/update', params: { taskId: 't' } }, undefined)).toThrow(/tasks\/update does not exist under 2025-11-25/);
  });

  it('a 2025-11-25 Task carries ttl and pollInterval under result.task; a 2026-07-28 CreateTaskResult is flat, resultType "task", ttlMs and pollIntervalMs', () => {
    const old = run(loadScenario('T1-abort-before-task-id'), { revision: '2025-11-25' });
    const created = old.effects.find((e) => e.from === 'server')?.message as { result: { task: Record<string, unknown> } };
    expect(created.result.task).toMatchObject({ taskId: 'task-1', status: 'working', ttl: 600000, pollInterval: 1000, createdAt: '2026-01-01T00:00:00.120Z' });
    const now = run(loadScenario('T1-abort-before-task-id'));
    const created26 = now.effects.find((e) => e.from === 'server')?.message as { result: Record<string, unknown> };
    expect(created26.result).toEqual({ resultType: 'task', taskId: 'task-1', status: 'working', createdAt: '2026-01-01T00:00:00.120Z', lastUpdatedAt: '2026-01-01T00:00:00.120Z', ttlMs: 600000, pollIntervalMs: 1000 });
  });

  it('2026-07-28: the tools/call carries no params.task (the server decides); the client declares the extension per request, on tasks/* too', () => {
    const t = run(loadScenario('T1-abort-before-task-id'));
    const requests = t.effects.filter((e) => (e.message as Msg).method !== undefined).map((e) => e.message as { method: string; params: Record<string, Json> });
    expect(requests.map((r) => r.method)).toEqual(['tools/call', 'tasks/cancel', 'tasks/get', 'tasks/get']);
    expect(requests[0].params.task).toBeUndefined();
    for (const r of requests) expect(r.params._meta).toMatchObject({ 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } });
    const old = run(loadScenario('T1-abort-before-task-id'), { revision: '2025-11-25' });
    expect((old.effects[0].message as { params: { task: unknown } }).params.task).toEqual({ ttl: 600000 });
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
