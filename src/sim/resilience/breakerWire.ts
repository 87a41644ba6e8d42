import type { Json } from '../types';
import { callToolRequest, errorResponse, probeRequest, probeResultResponse, toolResultResponse, ERROR_CODES } from '../mcp';
import type { BreakerConfig } from './schema';

/**
 * The breaker mechanism's wire messages (`tools/call` per attempt, the downstream's reply). All
 * but the JSON-RPC id depend on the config and the attempt number alone, so each such part is
 * built once per config from the `mcp.ts` builders, deep-frozen, and shared by every message that
 * carries it: 100,000 calls hold one `params` per attempt number, not one each (issue 10: the
 * fast path's cost was allocation per attempt). The messages equal, key for key and in order, what
 * `callToolRequest` / `toolResultResponse` / `errorResponse` build for the same id.
 */

/** A deep copy of `value`, every object and array in it frozen (the copy is shared, never mutated). */
function frozenCopy(value: Json): Json {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return Object.freeze(value.map(frozenCopy)) as Json;
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(value)) out[k] = frozenCopy(v);
  return Object.freeze(out);
}

/** The downstream's failure as the wire shows it: an HTTP line, or a JSON-RPC reply's member and body. */
type Failure = { http: string; member?: undefined; body?: undefined } | { http?: undefined; member: 'result' | 'error'; body: Json };

interface WireTemplates {
  /** `params` of the `tools/call` of attempt n (index n), built on first use. */
  params: Json[];
  /** The `result` of the success reply. */
  ok: Json;
  failure: Failure;
}

const TEMPLATES = new WeakMap<BreakerConfig, WireTemplates>();

/** A reply's member (`result` or `error`) other than `jsonrpc` and `id`. */
function replyBody(reply: Json, member: 'result' | 'error'): Json {
  return frozenCopy((reply as Record<string, Json>)[member]);
}

function failureOf(c: BreakerConfig): Failure {
  const f = c.downstream.failWith;
  if (f.startsWith('http-')) {
    const ra = c.downstream.retryAfterMs;
    const status = f.slice(5);
    return { http: `HTTP ${status}${ra !== null && (status === '429' || status === '503') ? ` Retry-After: ${Math.ceil(ra / 1000)}` : ''}` };
  }
  if (f === 'jsonrpc-32603') return { member: 'error', body: replyBody(errorResponse('', ERROR_CODES.internalError, 'Internal error'), 'error') };
  if (f === 'jsonrpc-32602') return { member: 'error', body: replyBody(errorResponse('', ERROR_CODES.invalidParams, 'Invalid params'), 'error') };
  if (f === 'tool-error') return { member: 'result', body: replyBody(toolResultResponse(c.revision, '', 'downstream unavailable', true), 'result') };
  if (f === 'network') return { http: 'connection reset before any response' };
  if (f === 'partial-stream') return { http: 'SSE response stream broken after partial output (no final result)' };
  return { http: `client timeout (${ERROR_CODES.requestTimeout} locally), outcome unknown` };
}

function templatesOf(c: BreakerConfig): WireTemplates {
  let t = TEMPLATES.get(c);
  if (t === undefined) {
    t = { params: [], ok: replyBody(toolResultResponse(c.revision, '', 'ok', false), 'result'), failure: failureOf(c) };
    TEMPLATES.set(c, t);
  }
  return t;
}

/**
 * The `tools/call` of attempt `attempt` (1-based) with JSON-RPC id `id`: `flaky_lookup`, no
 * progress token, `_meta` carrying the attempt number (`lab.mcp-reliability/attempt`) and the
 * operation's idempotency key when it has one (`lab.mcp-reliability/idempotency-key`).
 */
export function attemptRequest(c: BreakerConfig, id: string, attempt: number): Json {
  const t = templatesOf(c);
  let params = t.params[attempt];
  if (params === undefined) {
    const meta: Record<string, Json> = { 'lab.mcp-reliability/attempt': attempt };
    if (c.operation.idempotencyKey.trim() !== '') meta['lab.mcp-reliability/idempotency-key'] = c.operation.idempotencyKey;
    const message = callToolRequest(c.revision, id, 'flaky_lookup', null) as { params: { _meta?: Record<string, Json> } };
    message.params._meta = { ...(message.params._meta ?? {}), ...meta };
    params = t.params[attempt] = frozenCopy(message.params as unknown as Json);
  }
  return { jsonrpc: '2.0', id, method: 'tools/call', params };
}

/** The downstream's success reply to `id` (a `tools/call` result with the text "ok"). */
export function attemptSuccess(c: BreakerConfig, id: string): Json {
  return { jsonrpc: '2.0', id, result: templatesOf(c).ok };
}

/**
 * The downstream's failure of `id` by `downstream.failWith`: an HTTP line (`http-*` with its
 * `Retry-After`, network, partial stream, client timeout) or a JSON-RPC reply (error, tool error);
 * the other field is undefined.
 */
export function attemptFailure(c: BreakerConfig, id: string): { message: Json | undefined; http: string | undefined } {
  const f = templatesOf(c).failure;
  if (f.http !== undefined) return { message: undefined, http: f.http };
  return { message: f.member === 'error' ? { jsonrpc: '2.0', id, error: f.body } : { jsonrpc: '2.0', id, result: f.body }, http: undefined };
}

/** A half-open probe without side effect, id `id`: `ping` (2025-11-25) or `server/discover` (2026-07-28). */
export function probeMessage(c: BreakerConfig, id: string): Json {
  return probeRequest(c.revision, id);
}

/** The server's answer to a half-open probe `id` (the empty ping result, or a DiscoverResult). */
export function probeAnswer(c: BreakerConfig, id: string): Json {
  return probeResultResponse(c.revision, id);
}
