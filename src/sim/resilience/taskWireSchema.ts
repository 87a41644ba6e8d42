import type { Revision } from '../mcp';
import type { Json } from '../types';

/**
 * Which schema checks each durable-task wire message.
 *
 * 2025-11-25 defines every task message in the official core schema (`$defs` CreateTaskResult,
 * GetTaskRequest, CancelTaskRequest, GetTaskPayloadRequest, …).
 *
 * 2026-07-28: the official core schema (`src/wire/mcp-schema/2026-07-28.schema.json`) has no tasks
 * definitions; tasks live in the `io.modelcontextprotocol/tasks` extension, whose official JSON
 * Schema is vendored in `src/wire/ext-tasks/` (modelcontextprotocol/ext-tasks
 * `schema/draft/schema.json`, commit e434597). Task requests are checked against its `$defs`
 * (`GetTaskRequest`, `UpdateTaskRequest`, `CancelTaskRequest`) and task results against
 * `CreateTaskResult`, `GetTaskResult`, `UpdateTaskResult`, `CancelTaskResult`; the JSON-RPC
 * envelope, `tools/call`, `notifications/cancelled`, errors and the `CallToolResult` a completed
 * task inlines are checked against the official 2026-07-28 core schema. (Until this round the lab
 * checked them against a schema of its own written from SPEC-NOTES; the official one replaces it.)
 * `tasks/result` and `tasks/list` do not exist under the extension: a plan for them throws.
 */

/**
 * The `$defs` of the official tasks extension schema the lab checks messages against (the validators
 * live in `src/wire/ext-tasks/`, above this layer).
 */
export type ExtTasksDef =
  | 'CreateTaskResult'
  | 'GetTaskRequest'
  | 'GetTaskResult'
  | 'UpdateTaskRequest'
  | 'UpdateTaskResult'
  | 'CancelTaskRequest'
  | 'CancelTaskResult'
  | 'TaskStatusNotification';

/** Commit of modelcontextprotocol/ext-tasks the vendored schema comes from (a test checks it against `src/wire/ext-tasks`). */
export const EXT_TASKS_COMMIT = 'e4345978be1f602f1fc48d89051e8559dd5302a6';

/** Where a part of a message sits: the whole message, its `result`, or the `result.result` a completed task inlines. */
export type MessagePart = 'message' | 'result' | 'result.result';

/** How one task message is checked: official core `$defs` and, under 2026-07-28, extension `$defs`. */
export interface TaskWireCheckPlan {
  /** `$defs` of the official core schema of the revision the message must satisfy (besides JSONRPCMessage). */
  official: { def: string; part: MessagePart }[];
  /** `$defs` of the official tasks extension schema (2026-07-28 only). */
  ext: { def: ExtTasksDef; part: MessagePart }[];
}

type Msg = { id?: unknown; method?: string; result?: { status?: string }; error?: unknown };

/** The value at `part` of a message (undefined when absent). */
export function partOf(message: Json, part: MessagePart): unknown {
  const m = message as { result?: { result?: unknown } };
  return part === 'message' ? message : part === 'result' ? m.result : m.result?.result;
}

/**
 * The checks for one message of the tasks mechanism. `answers` is the method of the request a
 * response answers (look it up by id). Throws on a message that is none of the task messages of
 * the revision (so a new message type — or a removed one such as 2026-07-28 `tasks/result` —
 * cannot slip past unchecked).
 */
export function taskWireCheckPlan(revision: Revision, message: Json, answers: string | undefined): TaskWireCheckPlan {
  const m = message as Msg;
  const old = revision === '2025-11-25';
  const plan = (official: TaskWireCheckPlan['official'], ext: TaskWireCheckPlan['ext'] = []): TaskWireCheckPlan => ({ official, ext });
  const removed = (method: string) => new Error(`taskWireCheckPlan: ${method} does not exist under the 2026-07-28 tasks extension (removed; the result comes in tasks/get)`);
  if (m.error !== undefined) return plan([{ def: 'JSONRPCErrorResponse', part: 'message' }]);
  switch (m.method) {
    case 'tools/call':
      return plan([{ def: 'CallToolRequest', part: 'message' }]);
    case 'notifications/cancelled':
      return plan([{ def: 'CancelledNotification', part: 'message' }]);
    case 'tasks/get':
      return old ? plan([{ def: 'GetTaskRequest', part: 'message' }]) : plan([{ def: 'JSONRPCRequest', part: 'message' }], [{ def: 'GetTaskRequest', part: 'message' }]);
    case 'tasks/cancel':
      return old ? plan([{ def: 'CancelTaskRequest', part: 'message' }]) : plan([{ def: 'JSONRPCRequest', part: 'message' }], [{ def: 'CancelTaskRequest', part: 'message' }]);
    case 'tasks/update':
      if (old) throw new Error('taskWireCheckPlan: tasks/update does not exist under 2025-11-25');
      return plan([{ def: 'JSONRPCRequest', part: 'message' }], [{ def: 'UpdateTaskRequest', part: 'message' }]);
    case 'tasks/result':
      if (!old) throw removed('tasks/result');
      return plan([{ def: 'GetTaskPayloadRequest', part: 'message' }]);
    case undefined:
      break;
    default:
      throw new Error(`taskWireCheckPlan: no check for method ${m.method}`);
  }
  const ok = { def: 'JSONRPCResultResponse', part: 'message' } as const;
  switch (answers) {
    case 'tools/call':
      return old ? plan([ok, { def: 'CreateTaskResult', part: 'result' }]) : plan([ok], [{ def: 'CreateTaskResult', part: 'result' }]);
    case 'tasks/get':
      if (old) return plan([ok, { def: 'GetTaskResult', part: 'result' }]);
      return plan(m.result?.status === 'completed' ? [ok, { def: 'CallToolResult', part: 'result.result' }] : [ok], [{ def: 'GetTaskResult', part: 'result' }]);
    case 'tasks/cancel':
      return old ? plan([ok, { def: 'CancelTaskResult', part: 'result' }]) : plan([ok], [{ def: 'CancelTaskResult', part: 'result' }]);
    case 'tasks/update':
      if (old) throw new Error('taskWireCheckPlan: tasks/update does not exist under 2025-11-25');
      return plan([ok], [{ def: 'UpdateTaskResult', part: 'result' }]);
    case 'tasks/result':
      if (!old) throw removed('tasks/result');
      return plan([ok, { def: 'GetTaskPayloadResult', part: 'result' }, { def: 'CallToolResult', part: 'result' }]);
    default:
      throw new Error(`taskWireCheckPlan: a response to ${answers ?? 'an unknown request'} is not a task message`);
  }
}

/** The short name of the extension schema, for labels: "official tasks extension schema (ext-tasks e434597)". */
export const EXT_TASKS_LABEL = `official tasks extension schema (ext-tasks ${EXT_TASKS_COMMIT.slice(0, 7)})`;

/** One line for the UI and the CLI: what a message was checked against. */
export function checkedAgainst(revision: Revision, plan: TaskWireCheckPlan): string {
  const parts: string[] = [];
  const where = (p: MessagePart) => (p === 'result.result' ? ' on result.result' : '');
  if (plan.official.length) parts.push(`official ${revision} schema ($defs/${plan.official.map((o) => `${o.def}${where(o.part)}`).join(', ')})`);
  if (plan.ext.length) parts.push(`${EXT_TASKS_LABEL} ($defs/${plan.ext.map((o) => o.def).join(', ')})`);
  return parts.join(' + ');
}
