import { z } from 'zod';
import type { Revision } from '../mcp';
import type { Json } from '../types';

/**
 * Which schema checks each durable-task wire message, and — for the 2026-07-28 tasks extension —
 * the schema itself.
 *
 * 2025-11-25 defines every task message in the official schema (`$defs` CreateTaskResult,
 * GetTaskRequest, CancelTaskRequest, GetTaskPayloadRequest, …). The official 2026-07-28 schema
 * (`shared/mcp-schema/2026-07-28.schema.json`, commit b0f60ba) has NO tasks definitions: tasks live
 * in the `io.modelcontextprotocol/tasks` extension (SEP-2663), whose schema is not published there.
 * So the messages below are checked against a LAB SCHEMA — ours, not the MCP project's — written
 * from the text of SPEC-NOTES §Tasks (table "Tasks", column "2026-07-28 tasks extension"):
 * statuses working / input_required / completed / failed / cancelled; fields `ttlMs` and
 * `pollIntervalMs`; `tasks/cancel` answered with an empty acknowledgement. Method names
 * (`tasks/get`, `tasks/cancel`, `tasks/result`) and the `taskId` param are those of 2025-11-25
 * (SPEC-NOTES names no change to them); every 2026-07-28 result carries `resultType` (official
 * `$defs/Result`). Messages the official 2026-07-28 schema does define (the `tools/call` request,
 * error responses, the `CallToolResult` returned by `tasks/result`) are still checked against it.
 */

/** Where the lab schema comes from (shown in the UI next to each message it checks). */
export const TASKS_LAB_SCHEMA_SOURCE = 'SPEC-NOTES §Tasks';

const requestId = z.union([z.string(), z.number().int()]);
const status = z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']);

/** A Task under the 2026-07-28 extension: 2025-11-25's Task with `ttlMs` / `pollIntervalMs` (strict: the old names are errors). */
const task2026 = z.strictObject({
  taskId: z.string().min(1),
  status,
  createdAt: z.iso.datetime(),
  lastUpdatedAt: z.iso.datetime(),
  ttlMs: z.number().int().nonnegative().nullable(),
  pollIntervalMs: z.number().int().positive().optional(),
  statusMessage: z.string().optional(),
});

const taskIdParams = z.strictObject({ taskId: z.string().min(1), _meta: z.record(z.string(), z.unknown()).optional() });
const request = (method: string) => z.strictObject({ jsonrpc: z.literal('2.0'), id: requestId, method: z.literal(method), params: taskIdParams });
const response = (result: z.ZodType) => z.strictObject({ jsonrpc: z.literal('2.0'), id: requestId, result });

/** The lab's 2026-07-28 task message types, by name. */
export const TASKS_2026_LAB_SCHEMAS = {
  /** `params.task` of a task-augmented `tools/call` (the rest of the request is official CallToolRequest). */
  TaskAugmentation: z.strictObject({ ttlMs: z.number().int().positive() }),
  CreateTaskResultResponse: response(z.strictObject({ resultType: z.string().min(1), task: task2026, _meta: z.record(z.string(), z.unknown()).optional() })),
  GetTaskRequest: request('tasks/get'),
  GetTaskResultResponse: response(task2026.extend({ resultType: z.literal('complete') })),
  CancelTaskRequest: request('tasks/cancel'),
  /** SPEC-NOTES: "empty acknowledgement" — nothing but the `resultType` every 2026-07-28 result must carry. */
  CancelTaskAckResponse: response(z.strictObject({ resultType: z.literal('complete') })),
  GetTaskPayloadRequest: request('tasks/result'),
} as const;

/** A lab schema type name. */
export type Tasks2026LabDef = keyof typeof TASKS_2026_LAB_SCHEMAS;

/** How one task message is checked: official `$defs` names and/or one lab schema type. */
export interface TaskWireCheckPlan {
  /** `$defs` of the official schema of the revision the message must satisfy (besides JSONRPCMessage). */
  official: { def: string; part: 'message' | 'result' }[];
  /** The lab schema type (2026-07-28 only), or null. */
  lab: { def: Tasks2026LabDef; part: 'message' | 'params.task' } | null;
}

type Msg = { id?: unknown; method?: string; result?: unknown; error?: unknown };

/**
 * The checks for one message of the tasks mechanism. `answers` is the method of the request a
 * response answers (look it up by id). Throws on a message that is none of the task messages
 * (so a new message type cannot slip past unchecked).
 */
export function taskWireCheckPlan(revision: Revision, message: Json, answers: string | undefined): TaskWireCheckPlan {
  const m = message as Msg;
  const old = revision === '2025-11-25';
  if (m.error !== undefined) return { official: [{ def: 'JSONRPCErrorResponse', part: 'message' }], lab: null };
  switch (m.method) {
    case 'tools/call':
      return { official: [{ def: 'CallToolRequest', part: 'message' }], lab: old ? null : { def: 'TaskAugmentation', part: 'params.task' } };
    case 'tasks/get':
      return old ? { official: [{ def: 'GetTaskRequest', part: 'message' }], lab: null } : { official: [], lab: { def: 'GetTaskRequest', part: 'message' } };
    case 'tasks/cancel':
      return old ? { official: [{ def: 'CancelTaskRequest', part: 'message' }], lab: null } : { official: [], lab: { def: 'CancelTaskRequest', part: 'message' } };
    case 'tasks/result':
      return old ? { official: [{ def: 'GetTaskPayloadRequest', part: 'message' }], lab: null } : { official: [], lab: { def: 'GetTaskPayloadRequest', part: 'message' } };
    case undefined:
      break;
    default:
      throw new Error(`taskWireCheckPlan: no check for method ${m.method}`);
  }
  const ok = { def: 'JSONRPCResultResponse', part: 'message' } as const;
  switch (answers) {
    case 'tools/call':
      return old ? { official: [ok, { def: 'CreateTaskResult', part: 'result' }], lab: null } : { official: [], lab: { def: 'CreateTaskResultResponse', part: 'message' } };
    case 'tasks/get':
      return old ? { official: [ok, { def: 'GetTaskResult', part: 'result' }], lab: null } : { official: [], lab: { def: 'GetTaskResultResponse', part: 'message' } };
    case 'tasks/cancel':
      return old ? { official: [ok, { def: 'CancelTaskResult', part: 'result' }], lab: null } : { official: [], lab: { def: 'CancelTaskAckResponse', part: 'message' } };
    case 'tasks/result':
      return { official: old ? [ok, { def: 'GetTaskPayloadResult', part: 'result' }, { def: 'CallToolResult', part: 'result' }] : [ok, { def: 'CallToolResult', part: 'result' }], lab: null };
    default:
      throw new Error(`taskWireCheckPlan: a response to ${answers ?? 'an unknown request'} is not a task message`);
  }
}

/**
 * Validates `message` against the lab schema its plan names; returns "path: problem" lines (empty
 * when valid; also empty when the plan has no lab schema).
 */
export function checkTaskLabSchema(plan: TaskWireCheckPlan, message: Json): string[] {
  if (!plan.lab) return [];
  const value = plan.lab.part === 'params.task' ? (message as { params?: { task?: unknown } }).params?.task : message;
  const r = TASKS_2026_LAB_SCHEMAS[plan.lab.def].safeParse(value);
  if (r.success) return [];
  const prefix = plan.lab.part === 'params.task' ? 'params.task' : '';
  return r.error.issues.map((i) => `${plan.lab!.def}: ${[prefix, ...i.path.map(String)].filter(Boolean).join('.') || '(message)'}: ${i.message}`);
}

/** One line for the UI: what a message was checked against. */
export function checkedAgainst(revision: Revision, plan: TaskWireCheckPlan): string {
  const parts: string[] = [];
  if (plan.official.length) parts.push(`official ${revision} schema ($defs/${plan.official.map((o) => o.def).join(', ')})`);
  if (plan.lab) parts.push(`lab schema ${plan.lab.def}${plan.lab.part === 'params.task' ? ' (params.task)' : ''} (ours, from ${TASKS_LAB_SCHEMA_SOURCE})`);
  return parts.join(' + ');
}
