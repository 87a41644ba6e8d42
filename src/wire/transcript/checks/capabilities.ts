import type { Json } from '../../../sim/types';
import type { MessageEntry } from '../types';
import { fmtId, isObject, ruleText, teach, type Call, type CheckModule } from './core';

/**
 * Checks of what a 2026-07-28 client declared per request (`_meta` clientCapabilities) and asked
 * for (a `subscriptions/listen` filter), against what the server sent back: MRTR input requests and
 * task handles the client did not declare, notifications a subscription did not request, and the
 * extension's ban on cancelling a task with `notifications/cancelled`. Each judges only messages
 * of 2026-07-28 (capabilities per request, MRTR, subscriptions and the tasks extension exist there).
 */

/** The tasks extension's identifier (ext-tasks, "Extension Identifier"). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The requests whose answer may be an InputRequiredResult (basic/patterns/mrtr, Supported Requests) or a task handle (ext-tasks, Supported Methods: tools/call). */
const ASKING = new Set(['tools/call', 'resources/read', 'prompts/get']);

/** The clientCapabilities a request's `_meta` declares (absent: `{}`, "an empty object means the client supports no optional capabilities"). */
export function declaredCapabilities(m: Record<string, Json>): Record<string, Json> {
  const params = isObject(m.params) ? m.params : {};
  const meta = isObject(params._meta) ? params._meta : {};
  const caps = meta['io.modelcontextprotocol/clientCapabilities'];
  return isObject(caps) ? caps : {};
}

/**
 * The capability an input request of an InputRequiredResult needs and `caps` does not declare, or
 * null when it is declared (or the method is not one the capabilities govern). client/elicitation:
 * "an empty capabilities object is equivalent to declaring support for form mode only" and
 * "Servers MUST NOT send elicitation requests with modes that are not supported by the client";
 * client/sampling: "Servers MUST NOT send tool-enabled sampling requests to Clients that have not
 * declared support for tool use via the sampling.tools capability"; roots needs `roots`.
 */
export function undeclaredFor(request: Json, caps: Record<string, Json>): string | null {
  if (!isObject(request)) return null;
  const params = isObject(request.params) ? request.params : {};
  switch (request.method) {
    case 'elicitation/create': {
      const e = caps.elicitation;
      if (!isObject(e)) return 'elicitation';
      if (params.mode === 'url') return isObject(e.url) ? null : 'elicitation.url';
      return Object.keys(e).length === 0 || isObject(e.form) ? null : 'elicitation.form';
    }
    case 'sampling/createMessage': {
      const s = caps.sampling;
      if (!isObject(s)) return 'sampling';
      return Array.isArray(params.tools) && params.tools.length > 0 && !isObject(s.tools) ? 'sampling.tools' : null;
    }
    case 'roots/list':
      return isObject(caps.roots) ? null : 'roots';
    default:
      return null;
  }
}

/** Whether `caps` declares the tasks extension. */
const declaresTasks = (caps: Record<string, Json>) => isObject(caps.extensions) && isObject(caps.extensions[TASKS_EXTENSION]);

/**
 * An InputRequiredResult whose `inputRequests` need a capability the request did not declare, or a
 * task handle (`resultType: "task"`) answering a request that did not declare the tasks extension.
 */
export const capabilityUndeclared: CheckModule = {
  def: {
    id: 'capability-undeclared',
    title: 'The server asked for input, or created a task, the request did not declare support for (2026-07-28)',
    rule: 'mrtr.capabilities',
    ruleText: `${ruleText('mrtr.capabilities')} Likewise a task handle: "A server MUST NOT return CreateTaskResult to a client that did not include the extension capability on its request, regardless of prior declarations" (ext-tasks, Capability Negotiation).`,
    severity: 'error',
    teaches: teach('races', 'M1-mrtr-confirm-transfer', 'clientElicitation=none&policy.inputRequestsUndeclared=true'),
  },
  create() {
    /** The open asking calls' declared capabilities, until their response. */
    const declared = new Map<Call, Record<string, Json>>();
    return {
      visit(e, m, o, ctx) {
        if (ctx.revision !== '2026-07-28' || !m || e.type !== 'message') return;
        if (o.kind === 'request') {
          if (o.call.direction === 'c2s' && ASKING.has(o.call.method)) declared.set(o.call, declaredCapabilities(m));
          return;
        }
        if (o.kind !== 'response' || !o.call) return;
        const caps = declared.get(o.call);
        if (!caps) return;
        declared.delete(o.call);
        const result = m.result;
        if (!isObject(result)) return;
        const call = o.call;
        const where = `The server answers ${call.method} ${call.idKey} at ${e.atMs} ms (line ${e.line})`;
        const declaredText = `the request declared clientCapabilities ${JSON.stringify(caps)}`;
        if (result.resultType === 'input_required' && isObject(result.inputRequests)) {
          const missing = Object.entries(result.inputRequests).flatMap(([key, req]) => {
            const need = undeclaredFor(req, caps);
            return need ? [`${key} (${isObject(req) ? String(req.method) : '?'} needs ${need})`] : [];
          });
          if (missing.length) ctx.add('capability-undeclared', `${where} with inputRequests the client did not declare support for: ${missing.join(', ')}; ${declaredText}. The server MUST NOT send them (the answer for a client that cannot give the input is -32021 MissingRequiredClientCapability).`, [call.entry, e], [call.id], undefined, e);
        } else if (result.resultType === 'task' && call.method === 'tools/call' && !declaresTasks(caps)) {
          ctx.add('capability-undeclared', `${where} with a task handle (resultType "task"), but ${declaredText}, without the ${TASKS_EXTENSION} extension: the server MUST NOT return CreateTaskResult to it (-32021 if it can serve the call only as a task).`, [call.entry, e], [call.id], undefined, e);
        }
      },
    };
  },
};

/** `notifications/cancelled` for a request whose answer was a task handle, beyond the allowance after it: ext-tasks "MUST NOT be used for task cancellation". */
export const taskCancelNotification: CheckModule = {
  def: {
    id: 'task-cancel-notification',
    title: 'A task cancelled with notifications/cancelled instead of tasks/cancel (2026-07-28 tasks extension)',
    rule: 'tasks.cancel-with-tasks-cancel',
    ruleText: 'ext-tasks, Task Cancellation: "A client sends a tasks/cancel request to signal its intent to cancel an in-progress task. The notifications/cancelled notification MUST NOT be used for task cancellation." Once a request is answered with a task handle, the request is over; the task goes on.',
    severity: 'error',
    teaches: teach('resilience', 'T1-abort-before-task-id'),
  },
  create() {
    return {
      visit(e, _m, o, ctx) {
        if (ctx.revision !== '2026-07-28' || o.kind !== 'cancel' || !o.call || e.type !== 'message' || e.direction !== 'c2s' || o.call.direction !== 'c2s') return;
        const call = o.call;
        const handle = call.response;
        if (!call.taskHandle || handle === null || e.atMs <= handle.atMs + ctx.opts.allowanceMs) return;
        ctx.add(
          'task-cancel-notification',
          `The client sends notifications/cancelled for ${call.method} ${call.idKey} at ${e.atMs} ms (line ${e.line}), ${e.atMs - handle.atMs} ms after that request was answered with a task handle: a task is cancelled with tasks/cancel naming its taskId; the notification MUST NOT be used for it, and the task keeps running.`,
          [call.entry, handle, e],
          [call.id],
          undefined,
          e,
        );
      },
    };
  },
};

/** What a `subscriptions/listen` request asked for (basic/patterns/subscriptions, Notification Filter; ext-tasks adds `taskIds`). */
interface ListenFilter {
  call: Call;
  flags: Set<string>;
  uris: Set<string>;
  taskIds: Set<string>;
}

/** The filter flag each list-change notification needs. */
const FLAG_OF: Record<string, string> = {
  'notifications/tools/list_changed': 'toolsListChanged',
  'notifications/prompts/list_changed': 'promptsListChanged',
  'notifications/resources/list_changed': 'resourcesListChanged',
};

/** Why `m` (a notification on the subscription) was not requested by `f`, or null when it was (or is not a notification type the filter governs). */
function unrequested(m: Record<string, Json>, f: ListenFilter): { key: string; why: string } | null {
  const method = String(m.method);
  const params = isObject(m.params) ? m.params : {};
  const flag = FLAG_OF[method];
  if (flag) return f.flags.has(flag) ? null : { key: method, why: `${method} (its filter has no "${flag}": true)` };
  if (method === 'notifications/resources/updated') {
    const uri = typeof params.uri === 'string' ? params.uri : '';
    return f.uris.has(uri) ? null : { key: `${method} ${uri}`, why: `${method} for ${JSON.stringify(uri)} (not among its resourceSubscriptions ${JSON.stringify([...f.uris])})` };
  }
  if (method === 'notifications/tasks') {
    const id = typeof params.taskId === 'string' ? params.taskId : '';
    return f.taskIds.has(id) ? null : { key: `${method} ${id}`, why: `${method} for task ${JSON.stringify(id)} (not among its taskIds ${JSON.stringify([...f.taskIds])})` };
  }
  return null;
}

/** A notification on a subscription of a type (or for a resource or task) its `subscriptions/listen` did not request. One finding per subscription and kind. */
export const subscriptionUnrequested: CheckModule = {
  def: {
    id: 'subscription-unrequested',
    title: 'A notification the subscription did not request (2026-07-28 subscriptions/listen)',
    rule: 'listen.requested-only',
    ruleText: 'basic/patterns/subscriptions, Opening a Stream: "The server MUST NOT send notification types the client has not explicitly requested" — list changes need their flag (toolsListChanged, promptsListChanged, resourcesListChanged), resources/updated a URI among resourceSubscriptions, and (ext-tasks) notifications/tasks a task among taskIds. A notification belongs to the subscription its _meta io.modelcontextprotocol/subscriptionId names.',
    severity: 'error',
    teaches: teach('races', 'L-listen-teardown'),
  },
  create() {
    /** The open subscriptions, by the listen request's id as the reader writes it. */
    const open = new Map<string, ListenFilter>();
    const reported = new Set<string>();
    const strings = (v: Json | undefined) => new Set(Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
    return {
      visit(e, m, o, ctx) {
        if (ctx.revision !== '2026-07-28' || !m || e.type !== 'message') return;
        if (o.kind === 'request') {
          if (o.call.direction !== 'c2s' || o.call.method !== 'subscriptions/listen') return;
          const params = isObject(m.params) ? m.params : {};
          const n = isObject(params.notifications) ? params.notifications : {};
          const flags = new Set(Object.keys(FLAG_OF).map((k) => FLAG_OF[k]).filter((flag) => n[flag] === true));
          open.set(o.call.idKey, { call: o.call, flags, uris: strings(n.resourceSubscriptions), taskIds: strings(n.taskIds) });
          return;
        }
        if (o.kind === 'response') {
          if (o.call && o.call.method === 'subscriptions/listen' && open.get(o.call.idKey)?.call === o.call) open.delete(o.call.idKey);
          return;
        }
        if (e.kind !== 'notification' || e.direction !== 's2c') return;
        const params = isObject(m.params) ? m.params : {};
        const meta = isObject(params._meta) ? params._meta : {};
        const sub = meta['io.modelcontextprotocol/subscriptionId'];
        if (sub === undefined) return;
        const f = open.get(fmtId(sub));
        if (!f) return;
        const hit = unrequested(m, f);
        if (!hit || reported.has(`${f.call.idKey}\u0000${hit.key}`)) return;
        reported.add(`${f.call.idKey}\u0000${hit.key}`);
        ctx.add('subscription-unrequested', `On subscription ${f.call.idKey} (subscriptions/listen at ${f.call.entry.atMs} ms) the server sends ${hit.why} at ${e.atMs} ms (line ${e.line}): the listen request did not ask for it, and the server MUST NOT send notification types the client has not explicitly requested.`, [f.call.entry, e as MessageEntry], [f.call.id], undefined, e);
      },
    };
  },
};
