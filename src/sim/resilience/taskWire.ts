import type { Json } from '../types';
import type { Revision, RequestId } from '../mcp';

/**
 * Wire messages of durable tasks under both revisions.
 *
 * 2025-11-25 (`basic/utilities/tasks`): a task-augmented request carries `params.task {ttl}`; the
 * server answers `CreateTaskResult {task}`; `tasks/get` and `tasks/cancel` answer with the Task
 * itself (`GetTaskResult`, `CancelTaskResult`); fields `ttl`, `pollInterval` (ms). These validate
 * against `$defs` of the official 2025-11-25 schema.
 *
 * 2026-07-28: tasks live in the `io.modelcontextprotocol/tasks` extension (SEP-2663), which has no
 * `$defs` in the official 2026-07-28 schema. The lab uses the field names of SPEC-NOTES (`ttlMs`,
 * `pollIntervalMs`) and an empty `tasks/cancel` acknowledgement. Every 2026-07-28 result MUST carry
 * `resultType` (schema `$defs/Result`), so the empty acknowledgement is `result: {resultType:
 * "complete"}` and task payloads carry `resultType: "complete"` too, except `CreateTaskResult`,
 * which the lab marks `resultType: "task"` (an assumption: the field is a free string and the
 * extension has no official schema here). These messages are checked as generic JSON-RPC messages.
 */

/** Task statuses (both revisions). Terminal: completed, failed, cancelled. */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** True for the statuses that never change again. */
export function isTerminalStatus(s: TaskStatus | null): boolean {
  return s === 'completed' || s === 'failed' || s === 'cancelled';
}

/**
 * An ISO 8601 timestamp for virtual time `ms` (origin 2026-01-01T00:00:00.000Z). Computed by hand
 * (src/sim never touches Date); valid for the first 28 days of virtual time.
 */
export function isoAt(ms: number): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const day = Math.floor(ms / 86_400_000);
  const h = Math.floor(ms / 3_600_000) % 24;
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `2026-01-${pad(1 + Math.min(day, 27))}T${pad(h)}:${pad(m)}:${pad(s)}.${pad(ms % 1000, 3)}Z`;
}

/** The Task object a server reports. */
export interface TaskView {
  taskId: string;
  status: TaskStatus;
  createdAt: number;
  updatedAt: number;
  ttlMs: number;
  pollIntervalMs: number;
  statusMessage?: string;
}

/** The Task object in the revision's field names. */
export function taskObject(revision: Revision, t: TaskView): Record<string, Json> {
  const out: Record<string, Json> = { taskId: t.taskId, status: t.status, createdAt: isoAt(t.createdAt), lastUpdatedAt: isoAt(t.updatedAt) };
  if (revision === '2025-11-25') {
    out.ttl = t.ttlMs;
    out.pollInterval = t.pollIntervalMs;
  } else {
    out.ttlMs = t.ttlMs;
    out.pollIntervalMs = t.pollIntervalMs;
  }
  if (t.statusMessage !== undefined) out.statusMessage = t.statusMessage;
  return out;
}

/** A task-augmented `tools/call` (2025-11-25 `params.task.ttl`; 2026-07-28 extension `ttlMs`). */
export function taskCallRequest(revision: Revision, id: RequestId, tool: string, ttlMs: number): Json {
  const params: Record<string, Json> = { name: tool, arguments: {} };
  if (revision === '2025-11-25') params.task = { ttl: ttlMs };
  else {
    params.task = { ttlMs };
    params._meta = {
      'io.modelcontextprotocol/protocolVersion': revision,
      'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      'io.modelcontextprotocol/clientInfo': { name: 'reliability-lab-client', version: '1.0.0' },
    };
  }
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}

/** The server's answer to a task-augmented request: `CreateTaskResult {task}`. */
export function createTaskResponse(revision: Revision, id: RequestId, t: TaskView): Json {
  const result: Record<string, Json> = { task: taskObject(revision, t) };
  if (revision === '2026-07-28') result.resultType = 'task';
  return { jsonrpc: '2.0', id, result };
}

/** `tasks/get {taskId}` (2025-11-25 `GetTaskRequest`). */
export function getTaskRequest(id: RequestId, taskId: string): Json {
  return { jsonrpc: '2.0', id, method: 'tasks/get', params: { taskId } };
}

/** `tasks/cancel {taskId}` (2025-11-25 `CancelTaskRequest`). */
export function cancelTaskRequest(id: RequestId, taskId: string): Json {
  return { jsonrpc: '2.0', id, method: 'tasks/cancel', params: { taskId } };
}

/** `tasks/result {taskId}` (2025-11-25 `GetTaskPayloadRequest`): the client fetches a completed task's result. */
export function getTaskPayloadRequest(id: RequestId, taskId: string): Json {
  return { jsonrpc: '2.0', id, method: 'tasks/result', params: { taskId } };
}

/**
 * The answer to `tasks/result` for a completed `tools/call` task: the original request's result
 * type, a `CallToolResult` (2025-11-25 `GetTaskPayloadResult`), tied to the task with
 * `_meta["io.modelcontextprotocol/related-task"]`; under 2026-07-28 with `resultType: "complete"`.
 */
export function taskPayloadResponse(revision: Revision, id: RequestId, taskId: string, text: string): Json {
  const result: Record<string, Json> = { content: [{ type: 'text', text }], isError: false, _meta: { 'io.modelcontextprotocol/related-task': { taskId } } };
  if (revision === '2026-07-28') result.resultType = 'complete';
  return { jsonrpc: '2.0', id, result };
}

/** A result carrying the Task itself (`GetTaskResult`, 2025-11-25 `CancelTaskResult`). */
export function taskResultResponse(revision: Revision, id: RequestId, t: TaskView): Json {
  const result = taskObject(revision, t);
  if (revision === '2026-07-28') result.resultType = 'complete';
  return { jsonrpc: '2.0', id, result };
}

/** The 2026-07-28 extension's empty `tasks/cancel` acknowledgement (only the required `resultType`). */
export function emptyAckResponse(id: RequestId): Json {
  return { jsonrpc: '2.0', id, result: { resultType: 'complete' } };
}
