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
export function callToolRequest(revision: Revision, id: RequestId, tool: string, progressToken: RequestId | null): Json {
  const meta: Record<string, Json> = {};
  if (progressToken !== null) meta.progressToken = progressToken;
  if (revision === '2026-07-28') {
    meta['io.modelcontextprotocol/protocolVersion'] = revision;
    meta['io.modelcontextprotocol/clientCapabilities'] = {};
    meta['io.modelcontextprotocol/clientInfo'] = CLIENT_INFO;
  }
  const params: Record<string, Json> = { name: tool, arguments: {} };
  if (Object.keys(meta).length > 0) params._meta = meta;
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}

/** `subscriptions/listen` request (2026-07-28 only). Source: schema `$defs/SubscriptionsListenRequest`. */
export function listenRequest(id: RequestId): Json {
  return {
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: {
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
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

/** The graceful end of a `subscriptions/listen` stream (2026-07-28). Source: `$defs/SubscriptionsListenResult`. */
export function listenResultResponse(id: RequestId): Json {
  return {
    jsonrpc: '2.0',
    id,
    result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': id } },
  };
}

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
} as const;
