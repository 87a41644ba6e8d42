import type { CoreContext } from '../core';
import type { Json } from '../types';
import type { RequestId } from '../mcp';
import { ERROR_CODES } from '../mcp';
import { cancelledNotification, cancelTaskRequest, createTaskResponse, getTaskPayloadRequest, isTerminalStatus, labInputRequests, type TaskDetail, type TaskStatus, type TaskView } from './taskWire';
import { TASKS_RANK, type TaskServerState, type TasksCore, type TasksTimer } from './tasksTypes';

/**
 * Shared steps of the tasks mechanism on the checkpointed core: each mutates the one `TasksCore`
 * in place (arrays inside are replaced, never changed) and puts messages on the wire through the
 * core's context. Rules and citations are in `tasksTypes.ts`.
 */

/** The core context of the tasks mechanism. */
export type TasksCtx = CoreContext<TasksTimer>;

/** The task as the wire shows it (`Task`), with an optional status message. */
export function taskView(s: TasksCore, statusMessage?: string): TaskView {
  const sv = s.server;
  return {
    taskId: sv.taskId ?? '',
    status: sv.status ?? 'working',
    createdAt: sv.createdAt ?? 0,
    updatedAt: sv.statusAt ?? 0,
    ttlMs: s.config.ttlMs,
    pollIntervalMs: sv.pollIntervalMs ?? s.config.pollIntervalMs,
    statusMessage,
  };
}

/** What a 2026-07-28 `tasks/get` inlines for the stored status (result, error, input requests). */
export function detail(s: TasksCore): TaskDetail {
  const sv = s.server;
  if (sv.status === 'completed' && sv.result !== null) return { resultText: sv.result };
  if (sv.status === 'failed') return { error: sv.errorCode === undefined ? { code: ERROR_CODES.internalError, message: sv.errorMessage ?? 'Tool execution failed' } : { code: sv.errorCode, message: sv.errorMessage ?? 'Tool execution failed', data: (sv.errorData ?? {}) as Json } };
  if (sv.status === 'input_required' && sv.inputOutstanding.length) return { inputRequests: Object.assign({}, ...sv.inputOutstanding.map((k) => labInputRequests(k))) };
  return {};
}

/** Sets the stored status (recording an overwrite of a terminal one, which the invariant flags). */
export function setStatus(s: TasksCore, status: TaskStatus, now: number, extra: Partial<TaskServerState> = {}): void {
  const sv = s.server;
  const overwrite = isTerminalStatus(sv.status) && sv.status !== status ? 1 : 0;
  sv.status = status;
  sv.statusAt = now;
  sv.history = sv.history.concat({ status, at: now });
  sv.terminalOverwrites += overwrite;
  Object.assign(sv, extra);
}

/** The next client request id with `prefix` (`get-3`, `cancel-2`, …). */
export function clientRequestId(s: TasksCore, prefix: string): string {
  return `${prefix}-${s.client.nextRequest++}`;
}

/**
 * Puts one message on the wire. Over Streamable HTTP a client request is a POST whose headers the
 * effect names: under 2026-07-28 `Mcp-Method` on every request and `Mcp-Name` — the tool name on
 * `tools/call` (`basic/transports/streamable-http`, Standard Request Headers) and `params.taskId` on
 * `tasks/get`, `tasks/update`, `tasks/cancel` (extension: "the client MUST set the `Mcp-Name` header
 * to the value of `params.taskId`").
 */
export function send(s: TasksCore, ctx: TasksCtx, from: 'client' | 'server', message: Json, arrivesAt: number): void {
  const { transport, revision } = s.config;
  if (from === 'client' && revision === '2026-07-28') message = declaringCapabilities(message, tasksClientCapabilities(s.config));
  if (transport === 'stdio') {
    ctx.emit({ from, transport, message, arrivesAt, requestKey: 'task' });
    return;
  }
  const m = message as { method?: string; id?: unknown; params?: { name?: string; taskId?: string } };
  let http: string;
  if (from === 'server') http = 'HTTP 200 Content-Type: application/json';
  else if (m.id === undefined) http = `POST /mcp (MCP-Protocol-Version: ${revision}) — a notification`;
  else if (revision === '2025-11-25') http = `POST /mcp (MCP-Protocol-Version: ${revision})`;
  else {
    const name = m.method === 'tools/call' ? m.params?.name : m.method?.startsWith('tasks/') ? m.params?.taskId : undefined;
    http = `POST /mcp (MCP-Protocol-Version: ${revision}; Mcp-Method: ${m.method}${name !== undefined ? `; Mcp-Name: ${name}` : ''})`;
  }
  ctx.emit({ from, transport, message, arrivesAt, requestKey: 'task', http });
}

/**
 * What the tasks client declares under `_meta["io.modelcontextprotocol/clientCapabilities"]` on
 * every 2026-07-28 request: the tasks extension, and `elicitation: { form: {} }` unless
 * `clientElicitation` is "none" (it answers the task's form elicitations with `tasks/update`).
 * Source: 2026-07-28 `client/elicitation` ("Clients that support elicitation MUST declare the
 * elicitation capability … on each request"); the extension's Capability Negotiation.
 */
export function tasksClientCapabilities(config: TasksCore['config']): Json {
  // the tasks extension unless `clientTasksExtension` is false (issue 23: T5)
  const tasks: Record<string, Json> = config.clientTasksExtension === false ? {} : { extensions: { 'io.modelcontextprotocol/tasks': {} } };
  return config.clientElicitation === 'none' ? tasks : { elicitation: { form: {} }, ...tasks };
}

/** `message` with its request `_meta` declaring `capabilities` (messages without that `_meta` unchanged). */
function declaringCapabilities(message: Json, capabilities: Json): Json {
  const m = message as { params?: { _meta?: Record<string, Json> } };
  const meta = m.params?._meta;
  if (meta === undefined || !('io.modelcontextprotocol/clientCapabilities' in meta)) return message;
  return { ...(message as Record<string, Json>), params: { ...m.params, _meta: { ...meta, 'io.modelcontextprotocol/clientCapabilities': capabilities } } } as Json;
}

/** The client cancels the task: `tasks/cancel` (or, bug `cancelWithNotification`, `notifications/cancelled`). */
export function sendCancel(s: TasksCore, ctx: TasksCtx): void {
  const arrivesAt = ctx.now + s.config.latencyMs.clientToServer;
  if (s.config.policy.cancelWithNotification) {
    send(s, ctx, 'client', cancelledNotification(s.client.requestId as RequestId, 'User aborted'), arrivesAt);
    ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'server', 'notifications/cancelled arrives', { kind: 'arrive.cancelled-notification', requestId: s.client.requestId as RequestId });
    s.client.cancelNotificationSentAt = ctx.now;
    return;
  }
  const id = clientRequestId(s, 'cancel');
  send(s, ctx, 'client', cancelTaskRequest(s.config.revision, id, s.client.taskId as string), arrivesAt);
  ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'server', `tasks/cancel ${id} arrives`, { kind: 'arrive.cancel', requestId: id });
  s.client.cancelSentAt = ctx.now;
}

/** 2025-11-25: the client saw `completed` and fetches the result with `tasks/result`. */
export function requestResult(s: TasksCore, ctx: TasksCtx): void {
  const id = clientRequestId(s, 'result');
  const arrivesAt = ctx.now + s.config.latencyMs.clientToServer;
  send(s, ctx, 'client', getTaskPayloadRequest(id, s.client.taskId as string), arrivesAt);
  ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'server', `tasks/result ${id} arrives`, { kind: 'arrive.result-request', requestId: id });
  s.client.resultRequestedAt = ctx.now;
}

/** The `pollIntervalMs` the client holds for this task: its CreateTaskResult's own, else the config's (ms). */
export function pollHintOf(config: TasksCore['config'], client: TasksCore['client']): number {
  return client.pollHintMs ?? config.pollIntervalMs;
}

/**
 * The shortest wait the client may leave between an answer for this task and its next `tasks/get`
 * (ms): max(the server's pollIntervalMs for the task, the user's minimum `config.minPollIntervalMs`).
 * Rule: 2026-07-28 tasks extension, Task Polling: "Clients SHOULD respect the `pollIntervalMs`
 * provided in responses when determining polling frequency" (2025-11-25 `basic/utilities/tasks`:
 * "Requestors SHOULD respect the `pollInterval` provided in responses when determining polling
 * frequency"); MCPJam inspector PR#3518: "max(server pollIntervalMs, user minimum, retry backoff,
 * Retry-After), applied per task" — the lab's tasks client has no back-off of its own.
 */
export function pollFloorMs(s: TasksCore): number {
  return Math.max(pollHintOf(s.config, s.client), s.config.minPollIntervalMs ?? 0);
}

/**
 * The interval the client waits before this task's next `tasks/get` (ms): its own floor
 * (`pollFloorMs`). Bug `pollAtMinimumAcrossTasks` (MCPJam inspector PR#3518): the minimum of the
 * pollIntervalMs of every task the client is polling now (it holds the handle, has seen no terminal
 * status and no "not found"; this one included), raised to the user's minimum.
 */
export function pollEveryMs(s: TasksCore): number {
  const floor = pollFloorMs(s);
  if (!s.config.policy.pollAtMinimumAcrossTasks) return floor;
  const root = s.root ?? s;
  let least = pollHintOf(s.config, s.client);
  for (const c of [root.client, ...(root.more ?? []).map((t) => t.client)]) {
    if (c.knownAt !== null && c.terminalObservedAt === null && c.taskNotFoundAt === null) least = Math.min(least, pollHintOf(s.config, c));
  }
  return Math.max(least, s.config.minPollIntervalMs ?? 0);
}

/**
 * Schedules the next `tasks/get` one poll interval (`pollEveryMs`) after `from`, unless the task's
 * ttl has run out. A poll that waits less than the task's floor carries both numbers (the poll
 * records it for the invariant `poll-interval-respected`).
 */
export function schedulePoll(s: TasksCore, ctx: TasksCtx, from: number): void {
  const every = pollEveryMs(s);
  const at = from + every;
  const created = s.client.knownAt ?? from;
  if (at > created + s.config.ttlMs) {
    s.client.pollHandle = -1;
    return;
  }
  if (s.client.pollHintMs !== undefined) s.client.pollEveryMs = every;
  const floor = pollFloorMs(s);
  s.client.pollHandle = ctx.schedule(at, TASKS_RANK.poll, 'client', `poll #${s.client.polls + 1}`, every < floor ? { kind: 'poll', everyMs: every, floorMs: floor } : { kind: 'poll' });
}

/** The server hands out the task: `CreateTaskResult` to the waiting `tools/call`. */
export function sendHandle(s: TasksCore, ctx: TasksCtx): void {
  const arrivesAt = ctx.now + s.config.latencyMs.serverToClient;
  send(s, ctx, 'server', createTaskResponse(s.config.revision, s.client.requestId as RequestId, taskView(s)), arrivesAt);
  const own = s.server.pollIntervalMs;
  ctx.schedule(arrivesAt, TASKS_RANK.arrival, 'client', 'CreateTaskResult arrives', own === undefined ? { kind: 'arrive.created', taskId: s.server.taskId as string } : { kind: 'arrive.created', taskId: s.server.taskId as string, pollIntervalMs: own });
  s.server.handleSentAt = ctx.now;
}
