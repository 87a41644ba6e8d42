import type { ValidateFunction } from 'ajv';
import type { Revision } from '../sim/mcp';
import type { Json, WireEffect } from '../sim/types';
import { mcpValidator } from './schemaValidators';
import { checkExtTasks, type ExtTasksDef } from './ext-tasks';

/**
 * Validation of emitted wire messages against the official MCP JSON Schemas (draft 2020-12),
 * vendored unchanged in `src/wire/mcp-schema/` from modelcontextprotocol/modelcontextprotocol
 * `schema/<revision>/schema.json` at commit b0f60ba. Used by tests and the CLI (Node only).
 * The validators come from `./schemaValidators` (ajv at run time; precompiled in the bundled CLI).
 */

/** The `$defs` types `checkMessage` validates against (the bundled CLI precompiles exactly these). */
export const CHECKED_DEFS = [
  'JSONRPCMessage',
  'CallToolRequest',
  'SubscriptionsListenRequest',
  'CancelledNotification',
  'ProgressNotification',
  'JSONRPCErrorResponse',
  'SubscriptionsListenResultResponse',
  'CallToolResultResponse',
  'JSONRPCResultResponse',
  'CallToolResult',
  // The result types of the methods a response answers (`resultDefFor`); each revision compiles those it has.
  'InitializeResult',
  'ListToolsResult',
  'ListResourcesResult',
  'ListResourceTemplatesResult',
  'ReadResourceResult',
  'ListPromptsResult',
  'GetPromptResult',
  'CompleteResult',
  'CreateMessageResult',
  'ElicitResult',
  'ListRootsResult',
  'GetTaskResult',
  'ListTasksResult',
  'CancelTaskResult',
  'GetTaskPayloadResult',
  'DiscoverResult',
  'InputRequiredResult',
] as const;

/** The result types both revisions have, by the method they answer. */
const SHARED_RESULT_DEFS: Record<string, string> = {
  'tools/list': 'ListToolsResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'completion/complete': 'CompleteResult',
};

/** The result type of each method's answer, by revision (`$defs` of the core schema). */
const RESULT_DEFS: Record<Revision, Record<string, string>> = {
  '2025-11-25': {
    ...SHARED_RESULT_DEFS,
    initialize: 'InitializeResult',
    'sampling/createMessage': 'CreateMessageResult',
    'elicitation/create': 'ElicitResult',
    'roots/list': 'ListRootsResult',
    'tasks/get': 'GetTaskResult',
    'tasks/list': 'ListTasksResult',
    'tasks/cancel': 'CancelTaskResult',
    'tasks/result': 'GetTaskPayloadResult',
  },
  '2026-07-28': { ...SHARED_RESULT_DEFS, 'server/discover': 'DiscoverResult', 'tools/call': 'CallToolResult' },
};

/**
 * Under 2026-07-28 the tasks extension's types (src/wire/ext-tasks): a `tasks/*` request, its
 * result, the status notification — `notifications/tasks` in the extension (its
 * TaskStatusNotification's method); a 2026 message under the 2025-11-25 name
 * `notifications/tasks/status` is checked against it too, and fails on its method.
 */
const EXT_REQUESTS: Record<string, ExtTasksDef> = { 'tasks/get': 'GetTaskRequest', 'tasks/update': 'UpdateTaskRequest', 'tasks/cancel': 'CancelTaskRequest', 'notifications/tasks': 'TaskStatusNotification', 'notifications/tasks/status': 'TaskStatusNotification' };
const EXT_RESULTS: Record<string, ExtTasksDef> = { 'tasks/get': 'GetTaskResult', 'tasks/update': 'UpdateTaskResult', 'tasks/cancel': 'CancelTaskResult' };
/** Methods whose 2026-07-28 answer may instead be an InputRequiredResult (MRTR) or a task handle. */
const MAY_ASK_OR_DEFER = new Set(['tools/call', 'resources/read', 'prompts/get']);

/**
 * The type the `result` of a response to `respondsTo` must satisfy, beyond the generic envelope:
 * the method's own result type (2025-11-25 `tools/call` keeps its `CallToolResult` check in
 * `checkMessage`); under 2026-07-28 `resultType: "input_required"` means `InputRequiredResult`,
 * `resultType: "task"` the extension's `CreateTaskResult`, and `tasks/*` the extension's results.
 * Null when the method has none the lab knows.
 */
export function resultDefFor(revision: Revision, respondsTo: string | undefined, result: Json): { schema: 'core' | 'ext-tasks'; def: string } | null {
  if (respondsTo === undefined) return null;
  if (revision === '2026-07-28') {
    const ext = EXT_RESULTS[respondsTo];
    if (ext) return { schema: 'ext-tasks', def: ext };
    const resultType = result !== null && typeof result === 'object' && !Array.isArray(result) ? (result as Record<string, Json>).resultType : undefined;
    if (MAY_ASK_OR_DEFER.has(respondsTo)) {
      if (resultType === 'input_required') return { schema: 'core', def: 'InputRequiredResult' };
      if (resultType === 'task') return { schema: 'ext-tasks', def: 'CreateTaskResult' };
    }
  } else if (respondsTo === 'tools/call') return null;
  const def = RESULT_DEFS[revision][respondsTo];
  return def ? { schema: 'core', def } : null;
}

const validators = new Map<string, ValidateFunction>();
/** The quick validators by revision and def, read without building a key per message. */
const quick: Partial<Record<Revision, Record<string, ValidateFunction>>> = {};

/** The quick (first problem only) validator of `$defs/<def>` of `revision`. */
function quickValidator(revision: Revision, def: string): ValidateFunction {
  const byDef = (quick[revision] ??= {});
  return (byDef[def] ??= mcpValidator(revision, def, false));
}

/**
 * Runs `$defs/<def>` on `value`: the quick validator (first problem only) decides, and only an
 * invalid value is run again through the all-errors validator for its messages
 * (`<def><instancePath>: <message>` each). Empty when valid.
 */
function problems(revision: Revision, def: string, value: unknown): string[] {
  if (quickValidator(revision, def)(value)) return [];
  const key = `${revision}#${def}`;
  let v = validators.get(key);
  if (!v) validators.set(key, (v = mcpValidator(revision, def, true)));
  v(value);
  return (v.errors ?? []).map((e) => `${def}${e.instancePath || ''}: ${e.message ?? 'invalid'}`);
}

/** The `$defs` type a message must satisfy, chosen by method (requests/notifications) or by the request it answers. */
export function schemaDefFor(revision: Revision, message: Json, respondsTo?: string): string {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return 'JSONRPCMessage';
  const m = message as Record<string, Json>;
  if (typeof m.method === 'string') {
    switch (m.method) {
      case 'tools/call':
        return 'CallToolRequest';
      case 'subscriptions/listen':
        return 'SubscriptionsListenRequest';
      case 'notifications/cancelled':
        return 'CancelledNotification';
      case 'notifications/progress':
        return 'ProgressNotification';
      default:
        return 'JSONRPCMessage';
    }
  }
  if ('error' in m) return 'JSONRPCErrorResponse';
  if (respondsTo === 'subscriptions/listen') return 'SubscriptionsListenResultResponse';
  if (respondsTo === 'tools/call') return revision === '2026-07-28' ? 'CallToolResultResponse' : 'JSONRPCResultResponse';
  return 'JSONRPCResultResponse';
}

/** Result of checking one message: the `$defs` type used and the schema errors (empty when valid). */
export interface SchemaCheck {
  def: string;
  valid: boolean;
  errors: string[];
}

/**
 * Validates one JSON-RPC message of `revision` against the official schema: the generic
 * `JSONRPCMessage` and the specific type for its method (or for the request it answers).
 * In 2025-11-25 a `tools/call` result is also checked as `CallToolResult`; every response's
 * `result` is also checked against the result type of the method it answers (`resultDefFor`), and
 * under 2026-07-28 `tasks/*` messages against the tasks extension schema.
 */
export function checkMessage(revision: Revision, message: Json, respondsTo?: string): SchemaCheck {
  const def = schemaDefFor(revision, message, respondsTo);
  // A valid message (nearly every one) needs the quick validators only: answer it without collecting problems.
  if (messageValid(revision, message, respondsTo, def)) return { def, valid: true, errors: [] };
  const errors = [...problems(revision, 'JSONRPCMessage', message), ...extRequestProblems(revision, message)];
  if (def !== 'JSONRPCMessage') errors.push(...problems(revision, def, message));
  if (revision === '2025-11-25' && respondsTo === 'tools/call' && message !== null && typeof message === 'object' && !Array.isArray(message) && 'result' in message) {
    errors.push(...problems(revision, 'CallToolResult', (message as Record<string, Json>).result));
  }
  errors.push(...resultProblems(revision, message, respondsTo));
  return { def, valid: errors.length === 0, errors };
}

/**
 * Whether `checkMessage` finds nothing, by the quick validators alone (each decides as its
 * all-errors twin would): the same validators in the same cases, none of the problems collected.
 */
function messageValid(revision: Revision, message: Json, respondsTo: string | undefined, def: string): boolean {
  if (!quickValidator(revision, 'JSONRPCMessage')(message)) return false;
  if (def !== 'JSONRPCMessage' && !quickValidator(revision, def)(message)) return false;
  if (revision === '2026-07-28' && extRequestProblems(revision, message).length > 0) return false;
  if (message === null || typeof message !== 'object' || Array.isArray(message) || !('result' in message)) return true;
  const result = (message as Record<string, Json>).result;
  if (revision === '2025-11-25' && respondsTo === 'tools/call' && !quickValidator(revision, 'CallToolResult')(result)) return false;
  if ('method' in message) return true;
  const target = resultDefFor(revision, respondsTo, result);
  if (!target) return true;
  if (target.schema === 'ext-tasks') return checkExtTasks(target.def as ExtTasksDef, result).length === 0;
  return quickValidator(revision, target.def)(result);
}

/** The problems of a response's `result` against `resultDefFor` (none for a request, an error, or a method without a known result type). */
function resultProblems(revision: Revision, message: Json, respondsTo: string | undefined): string[] {
  if (message === null || typeof message !== 'object' || Array.isArray(message) || !('result' in message) || 'method' in message) return [];
  const result = (message as Record<string, Json>).result;
  const target = resultDefFor(revision, respondsTo, result);
  if (!target) return [];
  if (target.schema === 'ext-tasks') return checkExtTasks(target.def as ExtTasksDef, result).map((e) => `result (tasks extension) ${e}`);
  if (quickValidator(revision, target.def)(result)) return [];
  return problems(revision, target.def, result).map((e) => `result ${e}`);
}

/** Under 2026-07-28, the problems of a `tasks/*` request or task status notification against the tasks extension schema. */
function extRequestProblems(revision: Revision, message: Json): string[] {
  if (revision !== '2026-07-28' || message === null || typeof message !== 'object' || Array.isArray(message)) return [];
  const method = (message as Record<string, Json>).method;
  const def = typeof method === 'string' ? EXT_REQUESTS[method] : undefined;
  return def ? checkExtTasks(def, message).map((e) => `tasks extension ${e}`) : [];
}

/**
 * Checks every JSON-RPC message among `effects` (HTTP-only actions are skipped). `methodOf`
 * maps a request key to its method so responses are checked against the right result type.
 * Returns one entry per message, in order.
 */
export function checkEffects(
  revision: Revision,
  effects: readonly WireEffect[],
  methodOf: (requestKey: string | undefined) => string | undefined,
): (SchemaCheck & { effect: WireEffect })[] {
  return effects
    .filter((e) => e.message !== undefined)
    .map((e) => ({ effect: e, ...checkMessage(revision, e.message as Json, methodOf(e.requestKey)) }));
}
