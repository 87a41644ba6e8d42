import type { Json } from './types';

/** The spec revisions the lab simulates. 2026-07-28 is the default (what the lesson teaches). */
export type Revision = '2026-07-28' | '2025-11-25';
export const REVISIONS: readonly Revision[] = ['2026-07-28', '2025-11-25'];

/** The transports the lab simulates. */
export type Transport = 'stdio' | 'streamable-http';
export const TRANSPORTS: readonly Transport[] = ['stdio', 'streamable-http'];

/** A JSON-RPC request id or MCP progress token: a string or an integer (MCP `RequestId`, `ProgressToken`). */
export type RequestId = string | number;

/**
 * Why `value` is not a valid MCP `RequestId` / `ProgressToken` (string or integer), or null when it is.
 * Booleans, floats, null, arrays and objects are rejected. Source: schema `$defs/RequestId`.
 */
export function idProblem(value: unknown): string | null {
  if (typeof value === 'string') return null;
  if (typeof value === 'number') {
    return Number.isInteger(value) ? null : `a non-integer number (${value})`;
  }
  if (value === null) return 'null';
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'boolean') return `a boolean (${value})`;
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** Name and version the simulated peers report in 2026-07-28 `_meta`. */
const CLIENT_INFO = { name: 'reliability-lab-client', version: '1.0.0' };
const SERVER_INFO = { name: 'reliability-lab-server', version: '1.0.0' };

/**
 * `tools/call` request. 2026-07-28 requires `_meta` with the protocol version and the per-request
 * client capabilities; 2025-11-25 carries `_meta` only for the progress token.
 * Source: schema `$defs/CallToolRequest`, `RequestMetaObject`.
 */
export function callToolRequest(revision: Revision, id: RequestId, tool: string, progressToken: RequestId | null, extra?: CallToolExtra): Json {
  const meta: Record<string, Json> = {};
  if (progressToken !== null) meta.progressToken = progressToken;
  if (revision === '2026-07-28') {
    meta['io.modelcontextprotocol/protocolVersion'] = revision;
    meta['io.modelcontextprotocol/clientCapabilities'] = extra?.clientCapabilities ?? {};
    meta['io.modelcontextprotocol/clientInfo'] = CLIENT_INFO;
  }
  const params: Record<string, Json> = { name: tool, arguments: extra?.idempotencyKey !== undefined ? { idempotencyKey: extra.idempotencyKey } : {} };
  if (Object.keys(meta).length > 0) params._meta = meta;
  if (extra?.inputResponses !== undefined) params.inputResponses = extra.inputResponses;
  if (extra?.requestState !== undefined) params.requestState = extra.requestState;
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}

/**
 * Optional parts of a `tools/call`: an idempotency key (a tool argument — MCP defines no key of its
 * own; the tool's server deduplicates on it), and on a 2026-07-28 MRTR retry the client's
 * `inputResponses` and the echoed `requestState`. Source: 2026-07-28 `basic/patterns/mrtr`;
 * schema `$defs/CallToolRequestParams` (`inputResponses`, `requestState`).
 */
export interface CallToolExtra {
  idempotencyKey?: string;
  /** 2026-07-28: what the client declares under `_meta["io.modelcontextprotocol/clientCapabilities"]` (omitted: `{}`, nothing). */
  clientCapabilities?: Json;
  inputResponses?: Json;
  requestState?: string;
}

/** `subscriptions/listen` request (2026-07-28 only), declaring `clientCapabilities`. Source: schema `$defs/SubscriptionsListenRequest`. */
export function listenRequest(id: RequestId, clientCapabilities: Json = {}): Json {
  return {
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': clientCapabilities,
        'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      },
      notifications: { toolsListChanged: true },
    },
  };
}

/** `notifications/progress`. Source: `progress` page; schema `$defs/ProgressNotification`. */
export function progressNotification(token: RequestId, progress: number, total: number | null, message: string | null): Json {
  let params: Record<string, Json>;
  if (total === null && message === null) params = { progressToken: token, progress };
  else if (message === null) params = { progressToken: token, progress, total };
  else if (total === null) params = { progressToken: token, progress, message };
  else params = { progressToken: token, progress, total, message };
  return { jsonrpc: '2.0', method: 'notifications/progress', params };
}

/** `notifications/cancelled {requestId, reason}`. Source: cancellation page; schema `$defs/CancelledNotification`. */
export function cancelledNotification(requestId: RequestId, reason: string): Json {
  return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason } };
}

/**
 * A side-effect-free liveness request, as a circuit breaker's half-open probe sends it: `ping` under
 * 2025-11-25 (`$defs/PingRequest`); under 2026-07-28, which removed `ping`, `server/discover`
 * (`$defs/DiscoverRequest`: "Servers **MUST** implement `server/discover`"), with the per-request
 * `_meta` every 2026-07-28 request carries.
 */
export function probeRequest(revision: Revision, id: RequestId): Json {
  if (revision === '2025-11-25') return { jsonrpc: '2.0', id, method: 'ping' };
  const _meta = { 'io.modelcontextprotocol/protocolVersion': revision, 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': CLIENT_INFO };
  return { jsonrpc: '2.0', id, method: 'server/discover', params: { _meta } };
}

/**
 * The server's answer to `probeRequest`: the empty ping result (2025-11-25), or a `DiscoverResult`
 * (2026-07-28: `resultType`, `supportedVersions`, `capabilities` with tools, `cacheScope`, `ttlMs`).
 */
export function probeResultResponse(revision: Revision, id: RequestId): Json {
  if (revision === '2025-11-25') return { jsonrpc: '2.0', id, result: {} };
  return { jsonrpc: '2.0', id, result: { resultType: 'complete', supportedVersions: [revision], capabilities: { tools: {} }, cacheScope: 'public', ttlMs: 0, _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } } };
}

/** A `tools/call` result response. 2026-07-28 results carry `resultType: "complete"`. */
export function toolResultResponse(revision: Revision, id: RequestId, text: string, isError: boolean): Json {
  const result: Record<string, Json> = { content: [{ type: 'text', text }] };
  if (isError) result.isError = true;
  if (revision === '2026-07-28') {
    result.resultType = 'complete';
    result._meta = { 'io.modelcontextprotocol/serverInfo': SERVER_INFO };
  }
  return { jsonrpc: '2.0', id, result };
}

/**
 * `notifications/subscriptions/acknowledged` for the listen stream `id`: the server's first message
 * on a subscription, carrying its id under `io.modelcontextprotocol/subscriptionId` and the filter
 * it agreed to honour (the lab's listen asks for `toolsListChanged` only, and gets it).
 * Source: 2026-07-28 `basic/patterns/subscriptions` (Acknowledgment); schema
 * `$defs/SubscriptionsAcknowledgedNotification`.
 */
export function listenAcknowledgedNotification(id: RequestId): Json {
  return {
    jsonrpc: '2.0',
    method: 'notifications/subscriptions/acknowledged',
    params: { _meta: { 'io.modelcontextprotocol/subscriptionId': id }, notifications: { toolsListChanged: true } },
  };
}

/** The graceful end of a `subscriptions/listen` stream (2026-07-28). Source: `$defs/SubscriptionsListenResult`. */
export function listenResultResponse(id: RequestId): Json {
  return {
    jsonrpc: '2.0',
    id,
    result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': id } },
  };
}

/**
 * A 2026-07-28 MRTR interim result: `InputRequiredResult` (`resultType: "input_required"`) whose
 * `inputRequests` holds one `elicitation/create` form request under `inputKey`, and an opaque
 * `requestState` when given. The request it answers is over; the client retries the original
 * request with a new id. Source: 2026-07-28 `basic/patterns/mrtr`; schema `$defs/InputRequiredResult`.
 */
export function inputRequiredResponse(id: RequestId, inputKey: string, message: string, requestState: string | undefined): Json {
  const result: Record<string, Json> = {
    resultType: 'input_required',
    inputRequests: {
      [inputKey]: {
        method: 'elicitation/create',
        params: { mode: 'form', message, requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] } },
      },
    },
    _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO },
  };
  if (requestState !== undefined) result.requestState = requestState;
  return { jsonrpc: '2.0', id, result };
}

/**
 * `MissingRequiredClientCapabilityError` (-32021) for `id`: processing the request needs
 * `requiredCapabilities`, which the client did not declare (on HTTP: 400 Bad Request). Source:
 * 2026-07-28 `basic/index` ("If processing a request requires a capability the client did not
 * include in io.modelcontextprotocol/clientCapabilities, the server MUST return a
 * MissingRequiredClientCapabilityError (-32021) whose data.requiredCapabilities lists the missing
 * capabilities"); schema `$defs/MissingRequiredClientCapabilityError`.
 */
/**
 * A 2026-07-28 `UnsupportedProtocolVersionError` (schema `$defs/UnsupportedProtocolVersionError`):
 * -32022 with `data.supported` (the server's versions) and `data.requested`. Over HTTP its status is
 * 400 Bad Request (`basic/versioning`).
 */
export function unsupportedVersionResponse(id: RequestId, supported: readonly string[], requested: string): Json {
  return { jsonrpc: '2.0', id, error: { code: ERROR_CODES.unsupportedProtocolVersion, message: 'Unsupported protocol version', data: { supported: [...supported], requested } } };
}

/** `message` (a 2026-07-28 request) declaring `version` in `_meta["io.modelcontextprotocol/protocolVersion"]` instead (a copy). */
export function declaringVersion(message: Json, version: string): Json {
  const m = message as { params?: { _meta?: Record<string, Json> } & Record<string, Json> } & Record<string, Json>;
  if (m.params?._meta === undefined) return message;
  return { ...m, params: { ...m.params, _meta: { ...m.params._meta, 'io.modelcontextprotocol/protocolVersion': version } } };
}

export function missingCapabilityResponse(id: RequestId, requiredCapabilities: Json, message: string): Json {
  return { jsonrpc: '2.0', id, error: { code: ERROR_CODES.missingRequiredClientCapability, message, data: { requiredCapabilities } } };
}

/** The `ElicitResult` a client puts under the input key in `inputResponses` (schema `$defs/ElicitResult`). */
export function elicitResult(action: 'accept' | 'decline' | 'cancel'): Json {
  return action === 'accept' ? { action, content: { confirm: true } } : { action };
}

/** Ways a `notifications/cancelled` can be malformed (the lab's faulty clients send them on purpose). */
export type MalformedCancel = 'no-jsonrpc' | 'bad-jsonrpc' | 'reason-not-string' | 'has-id';
export const MALFORMED_CANCELS: readonly MalformedCancel[] = ['no-jsonrpc', 'bad-jsonrpc', 'reason-not-string', 'has-id'];

/**
 * A deliberately malformed `notifications/cancelled` for `requestId`: `jsonrpc` missing, `jsonrpc`
 * not "2.0" ("1.0"), a non-string `reason` (a number), or an `id` (`requestIdOfCancel`), which
 * makes it a request. Source: schema `$defs/JSONRPCNotification` (`jsonrpc` const "2.0", no `id`),
 * `$defs/CancelledNotificationParams` (`reason` is a string); 2026-07-28 `basic/index`
 * ("Notifications MUST NOT include an ID").
 */
export function malformedCancelledNotification(requestId: RequestId, reason: string, how: MalformedCancel, requestIdOfCancel: RequestId): Json {
  switch (how) {
    case 'no-jsonrpc':
      return { method: 'notifications/cancelled', params: { requestId, reason } };
    case 'bad-jsonrpc':
      return { jsonrpc: '1.0', method: 'notifications/cancelled', params: { requestId, reason } };
    case 'reason-not-string':
      return { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: reason.length } };
    case 'has-id':
      return { jsonrpc: '2.0', id: requestIdOfCancel, method: 'notifications/cancelled', params: { requestId, reason } };
  }
}

/**
 * The headers a 2026-07-28 Streamable HTTP POST carries for `message`: `MCP-Protocol-Version` on
 * every POST, `Mcp-Method` on every request, `Mcp-Name` (from `params.name`) on `tools/call`
 * (also `resources/read`, `prompts/get`, which the lab does not draw). A notification POST gets
 * only the version: "header requirements for notification POSTs are not defined by this revision".
 * `omitName` drops `Mcp-Name` (a non-conforming client). Source: 2026-07-28
 * `basic/transports/streamable-http` (Request Metadata, Standard Request Headers).
 */
export function requestHeaders2026(message: Json, omitName = false): Record<string, string> {
  const headers: Record<string, string> = { 'MCP-Protocol-Version': '2026-07-28' };
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return headers;
  const m = message as Record<string, Json>;
  if (!('id' in m) || typeof m.method !== 'string') return headers;
  headers['Mcp-Method'] = m.method;
  const params = m.params as Record<string, Json> | undefined;
  // The header repeats the version the request declares in _meta (a client may declare another, mechanics/versions.ts).
  const declared = (params?._meta as Record<string, Json> | undefined)?.['io.modelcontextprotocol/protocolVersion'];
  if (typeof declared === 'string') headers['MCP-Protocol-Version'] = declared;
  if (!omitName && (m.method === 'tools/call' || m.method === 'prompts/get') && params && typeof params.name === 'string') headers['Mcp-Name'] = params.name;
  if (!omitName && m.method === 'resources/read' && params && typeof params.uri === 'string') headers['Mcp-Name'] = params.uri;
  return headers;
}

/**
 * The text line of a Streamable HTTP POST: the request line, the headers it carries (`Name: value`
 * joined by "; ", the same list and format as the wire panel's headers row, so the two cannot
 * disagree) and the answer. `headers` is what `requestHeaders2026` returned for the message under
 * 2026-07-28; under 2025-11-25 (no `headers` field) the POST carries its `MCP-Protocol-Version`.
 */
export function postLine(revision: Revision, headers: Record<string, string> | undefined, answer: string): string {
  const list = headers ?? { 'MCP-Protocol-Version': revision };
  return `POST /mcp (${headerText(list)}) → ${answer}`;
}

/** Headers as `Name: value` joined by "; " — the one text of a header list, for the `http` line and the wire panel. */
export function headerText(headers: Record<string, string>): string {
  return Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('; ');
}

/** The answer part of `postLine` for a request: the server opens the request's SSE response stream. */
export const POST_OPENS_STREAM = "200 Content-Type: text/event-stream; this request's SSE response stream opens";

/** A JSON-RPC error response. Source: JSON-RPC 2.0 §5.1; schema `$defs/JSONRPCErrorResponse`. */
export function errorResponse(id: RequestId, code: number, message: string): Json {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** JSON-RPC / SDK error codes the lab names. SDK-local codes never cross the wire. */
export const ERROR_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** TypeScript SDK v1 `ErrorCode.ConnectionClosed` (client-local). */
  connectionClosed: -32000,
  /** TypeScript SDK v1 `ErrorCode.RequestTimeout` (client-local). */
  requestTimeout: -32001,
  /**
   * 2026-07-28 `HeaderMismatch` (HTTP 400): headers missing or not matching the body. Renumbered
   * from -32001 (changelog minor item 12); `basic/transports/streamable-http` Server Validation.
   */
  headerMismatch: -32020,
  /** 2026-07-28 `MissingRequiredClientCapability` (was -32003); `basic/index` Error Codes. */
  missingRequiredClientCapability: -32021,
  /** 2026-07-28 `UnsupportedProtocolVersion` (was -32004); `basic/index` Error Codes. */
  unsupportedProtocolVersion: -32022,
} as const;
