import type { Json } from '../types';
import type { Revision, RequestId } from '../mcp';

/**
 * Wire messages of durable tasks under both revisions.
 *
 * 2025-11-25 (`basic/utilities/tasks`): a task-augmented request carries `params.task {ttl}`; the
 * server answers `CreateTaskResult {task}`; `tasks/get` and `tasks/cancel` answer with the Task
 * itself (`GetTaskResult`, `CancelTaskResult`); the result of a completed task is fetched with
 * `tasks/result`; fields `ttl`, `pollInterval` (ms). These validate against `$defs` of the
 * official 2025-11-25 schema.
 *
 * 2026-07-28: tasks live in the `io.modelcontextprotocol/tasks` extension (ext-tasks
 * `specification/draft/tasks.md`, SEP-2663; JSON Schema vendored in `src/wire/ext-tasks/`):
 * - "The server is the sole decider; clients do not signal task preference on the request itself":
 *   the `tools/call` carries no `params.task`, only the extension in
 *   `_meta["io.modelcontextprotocol/clientCapabilities"]`.
 * - "`type CreateTaskResult = Result & Task;`" with `resultType: "task"`: the Task fields sit flat in
 *   `result` (no `result.task`).
 * - `tasks/get` answers `Result & DetailedTask` with `resultType: "complete"`: a completed task
 *   carries `result` (the `CallToolResult`), a failed one `error`, an `input_required` one
 *   `inputRequests`. There is no `tasks/result` and no `tasks/list`.
 * - `tasks/update {taskId, inputResponses}` carries the client's input; `tasks/update` and
 *   `tasks/cancel` are answered with an empty acknowledgement (`resultType: "complete"` only).
 * - Every 2026-07-28 request carries its protocol version and client capabilities in `_meta`
 *   (changelog item 2); the extension also requires the capability on `tasks/*` ("Servers MUST
 *   return this error for non-declaring clients issuing `tasks/get`, `tasks/update`, and
 *   `tasks/cancel` requests"), so every 2026-07-28 task request carries it.
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

/** The `_meta` every 2026-07-28 request of the lab's client carries (protocol version, capabilities with the tasks extension, identity). */
export function requestMeta2026(): Record<string, Json> {
  return {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
    'io.modelcontextprotocol/clientInfo': { name: 'reliability-lab-client', version: '1.0.0' },
  };
}

/**
 * The `tools/call` that may become a task. 2025-11-25: task-augmented with `params.task {ttl}`.
 * 2026-07-28: no opt-in on the request ("clients do not signal task preference on the request
 * itself"); the client only declares the extension in its per-request capabilities.
 */
export function taskCallRequest(revision: Revision, id: RequestId, tool: string, ttlMs: number): Json {
  const params: Record<string, Json> = { name: tool, arguments: {} };
  if (revision === '2025-11-25') params.task = { ttl: ttlMs };
  else params._meta = requestMeta2026();
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}

/**
 * The server's answer that hands out the task: 2025-11-25 `CreateTaskResult {task}`; 2026-07-28 the
 * flat `CreateTaskResult = Result & Task` with `resultType: "task"` ("Servers MUST set `resultType`
 * to `"task"` when returning a `CreateTaskResult`").
 */
export function createTaskResponse(revision: Revision, id: RequestId, t: TaskView): Json {
  if (revision === '2025-11-25') return { jsonrpc: '2.0', id, result: { task: taskObject(revision, t) } };
  return { jsonrpc: '2.0', id, result: { resultType: 'task', ...taskObject(revision, t) } };
}

function taskRequest(revision: Revision, id: RequestId, method: string, params: Record<string, Json>): Json {
  return { jsonrpc: '2.0', id, method, params: revision === '2025-11-25' ? params : { ...params, _meta: requestMeta2026() } };
}

/** `tasks/get {taskId}` (2025-11-25 `GetTaskRequest`; 2026-07-28 extension `GetTaskRequest`, with the request `_meta`). */
export function getTaskRequest(revision: Revision, id: RequestId, taskId: string): Json {
  return taskRequest(revision, id, 'tasks/get', { taskId });
}

/** `tasks/cancel {taskId}` (2025-11-25 `CancelTaskRequest`; 2026-07-28 extension `CancelTaskRequest`). */
export function cancelTaskRequest(revision: Revision, id: RequestId, taskId: string): Json {
  return taskRequest(revision, id, 'tasks/cancel', { taskId });
}

/**
 * 2026-07-28 `tasks/update {taskId, inputResponses}` (extension `UpdateTaskRequest`): "The client
 * provides responses via the `inputResponses` field in one or more subsequent `tasks/update` requests."
 */
export function updateTaskRequest(id: RequestId, taskId: string, inputResponses: Record<string, Json>): Json {
  return taskRequest('2026-07-28', id, 'tasks/update', { taskId, inputResponses });
}

/**
 * `notifications/cancelled {requestId}` — what a buggy client sends to cancel a task. The
 * extension: "The `notifications/cancelled` notification MUST NOT be used for task cancellation"
 * (2025-11-25 `basic/utilities/cancellation`: "the `tasks/cancel` request MUST be used instead").
 */
export function cancelledNotification(requestId: RequestId, reason: string): Json {
  return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } };
}

/**
 * The key of the lab worker's `n`-th input request (1-based). "Each request key in `inputRequests`
 * MUST be unique over the lifetime of a single task", so each round gets a new key.
 */
export function labInputKey(n: number): string {
  return `publish-${n}`;
}

/** `inputRequests` of an `input_required` task (2026-07-28; the extension's `InputRequests`: one `elicitation/create` under `key`). */
export function labInputRequests(key: string): Record<string, Json> {
  return {
    [key]: {
      method: 'elicitation/create',
      params: { mode: 'form', message: 'Publish the report?', requestedSchema: { type: 'object', properties: { publish: { type: 'boolean' } }, required: ['publish'] } },
    },
  };
}

/** The client's answer to `labInputRequests(key)` (an accepted `ElicitResult`). */
export function labInputResponses(key: string): Record<string, Json> {
  return { [key]: { action: 'accept', content: { publish: true } } };
}

/** `tasks/result {taskId}` (2025-11-25 `GetTaskPayloadRequest` only; removed in the 2026-07-28 extension): the client fetches a completed task's result. */
export function getTaskPayloadRequest(id: RequestId, taskId: string): Json {
  return { jsonrpc: '2.0', id, method: 'tasks/result', params: { taskId } };
}

/**
 * The answer to `tasks/result` for a completed `tools/call` task: the original request's result
 * type, a `CallToolResult` (2025-11-25 `GetTaskPayloadResult`), tied to the task with
 * `_meta["io.modelcontextprotocol/related-task"]`. 2025-11-25 only.
 */
export function taskPayloadResponse(id: RequestId, taskId: string, text: string): Json {
  return { jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }], isError: false, _meta: { 'io.modelcontextprotocol/related-task': { taskId } } } };
}

/** The `CallToolResult` a completed `tools/call` task holds (2026-07-28 results carry `resultType`). */
export function callToolResult(revision: Revision, text: string): Record<string, Json> {
  const result: Record<string, Json> = { content: [{ type: 'text', text }], isError: false };
  if (revision === '2026-07-28') result.resultType = 'complete';
  return result;
}

/** What a 2026-07-28 `tasks/get` inlines for the task's status (DetailedTask): the result, the error or the input requests. */
export interface TaskDetail {
  /** Completed: the tool's result text. */
  resultText?: string;
  /** Failed: the JSON-RPC error the underlying request ended with. */
  error?: { code: number; message: string; data?: Json };
  /** input_required: the outstanding input requests. */
  inputRequests?: Record<string, Json>;
}

/**
 * A result carrying the Task itself (`GetTaskResult`, 2025-11-25 `CancelTaskResult`). Under
 * 2026-07-28 it is the extension's `GetTaskResult = Result & DetailedTask` ("The `resultType` field
 * MUST be set to `"complete"` on this object"), with `detail` inlined by status.
 */
export function taskResultResponse(revision: Revision, id: RequestId, t: TaskView, detail: TaskDetail = {}): Json {
  const result = taskObject(revision, t);
  if (revision === '2026-07-28') {
    result.resultType = 'complete';
    if (t.status === 'completed' && detail.resultText !== undefined) result.result = callToolResult(revision, detail.resultText);
    if (t.status === 'failed' && detail.error !== undefined) result.error = detail.error;
    if (t.status === 'input_required' && detail.inputRequests !== undefined) result.inputRequests = detail.inputRequests;
  }
  return { jsonrpc: '2.0', id, result };
}

/** The 2026-07-28 extension's empty acknowledgement of `tasks/cancel` and `tasks/update` (only the required `resultType`). */
export function emptyAckResponse(id: RequestId): Json {
  return { jsonrpc: '2.0', id, result: { resultType: 'complete' } };
}
