/**
 * Retry classification: may a failed (or about to be repeated) request be sent again?
 *
 * Pure and total: no clock, no randomness; every input gets a verdict and a one-line reason.
 * Used by the resilience lab's retry policy and by the ledger lab's classification panel.
 *
 * Sources of the rules:
 * - the lesson's classification (issue 3 §5, issue 5 §2): SAFE = no side effect; CONDITIONAL =
 *   side effect with a non-empty idempotency key and identical arguments; UNSAFE = side effect
 *   without a key (an empty key counts as none) or with a key reused for different arguments;
 * - SPEC-NOTES "JSON-RPC error codes worth classifying": -32700, -32600, -32601, -32602 never
 *   retry; -32603 only if idempotent or keyed; SDK-local -32001 (request timeout) and -32000
 *   (connection closed) leave the outcome unknown, so retry only with an idempotency key;
 * - SPEC-NOTES "Tool annotations": tool execution errors come back as `CallToolResult.isError`,
 *   not as JSON-RPC errors, so the classifier takes both paths; hints never decide alone;
 * - HTTP semantics (RFC 9110 §15): 408/429/503 mean the request was not processed (429 and 503
 *   may carry `Retry-After`, honoured as a floor for the next delay); 500/502/504 leave the
 *   outcome unknown; 400/401/403/404/422 fail the same way again;
 * - the retry-storm postmortem's five error origins ("错误溯源" `ErrorOrigin`: USER_CANCEL,
 *   CLIENT_TIMEOUT, SERVER_OVERLOAD, NETWORK_ISSUE, PARTIAL_SUCCESS): every classification names
 *   the one its failure belongs to (`failureOrigin`, worded by `FAILURE_ORIGIN_WORDS`), so the
 *   ledger, races and resilience labs say "user cancel", "client timeout", "server overload",
 *   "network issue" and "partial success" alike.
 */

export { FAILURE_ORIGINS, FAILURE_ORIGIN_WORDS, failureOriginOf, type FailureOrigin } from './origins';
import { failureOriginOf, type FailureOrigin } from './origins';

/** The verdict shown in the lab: safe to repeat, safe only under a condition, or not safe. */
export type RetryVerdict = 'SAFE' | 'CONDITIONAL' | 'UNSAFE';

/**
 * Why the previous attempt ended without a usable result. Omit it to classify the operation alone
 * (the ledger's panel): then only side effect and key decide.
 */
export type ErrorOrigin =
  /** The user (or the application on their behalf) cancelled: never retry. */
  | { kind: 'user-cancel' }
  /** The client's own timeout fired (SDK -32001): the server may or may not have executed. */
  | { kind: 'client-timeout' }
  /** An HTTP status from the server or a gateway; `retryAfterMs` is a parsed `Retry-After`. */
  | { kind: 'http'; status: number; retryAfterMs?: number }
  /** A JSON-RPC error response (`error.code`). */
  | { kind: 'jsonrpc'; code: number }
  /** A tool result with `isError: true`: the tool ran and reported a failure. */
  | { kind: 'tool-error' }
  /**
   * A network error before any response arrived. `requestSent: false` means the request provably
   * never left (connection refused, DNS failure); otherwise the outcome is unknown.
   */
  | { kind: 'network'; requestSent?: boolean }
  /**
   * The server said it is overloaded (the postmortem's SERVER_OVERLOAD): 503 by default, or 429
   * when rate limited; not executed, so a repeat duplicates nothing (`Retry-After` as a floor).
   */
  | { kind: 'server-overload'; status?: 429 | 503; retryAfterMs?: number }
  /**
   * A streamed response broke after partial output (the postmortem's PARTIAL_SUCCESS, "部分成功
   * (流式特有)"): the work started, its end is unknown. `streamedFraction` (0–1) is how much
   * arrived, when known.
   */
  | { kind: 'partial-success'; streamedFraction?: number }
  /** The earlier name of `partial-success`, kept for scenarios and models that still use it. */
  | { kind: 'partial-stream' };

/** What the classifier needs about one request. */
export interface RetryQuestion {
  /** Whether the operation changes state anywhere (false = read-only, no side effect). */
  sideEffect: boolean;
  /** The idempotency key sent with the request. `undefined`, `null`, '' or whitespace = none. */
  idempotencyKey?: string | null;
  /**
   * Whether a repeat carries business arguments identical to the first attempt (default true).
   * A key reused with different arguments is rejected by a correct ledger and is UNSAFE.
   */
  sameArguments?: boolean;
  /** Why the last attempt failed (see `ErrorOrigin`); omitted = classify the operation only. */
  origin?: ErrorOrigin;
}

/** How the origin of a failure bears on a repeat. */
export type OriginClass =
  /** No failure given: the operation alone decides. */
  | 'none'
  /** Never retry: the user asked to stop. */
  | 'cancelled'
  /** The same request fails the same way again (4xx, malformed JSON-RPC). */
  | 'permanent'
  /** The server did not execute (429, 503, 408, request never sent): repeating duplicates nothing. */
  | 'not-executed'
  /** The server may have executed (timeouts, 5xx, -32603, broken streams). */
  | 'unknown'
  /** The tool executed and reported an error (`isError: true`). */
  | 'executed';

/** The classifier's answer. */
export interface RetryClassification {
  verdict: RetryVerdict;
  /** One plain sentence naming what decided the verdict. */
  reason: string;
  /** Whether the lab's retry policy repeats the request automatically. */
  retry: boolean;
  /** How the error origin was read. */
  originClass: OriginClass;
  /** Lower bound for the next delay (ms) from `Retry-After`, when the server sent one. */
  retryAfterFloorMs?: number;
  /** Which of the postmortem's five origins the failure is; null without a failure or for one outside the five (a 4xx, a tool error, …). */
  failureOrigin: FailureOrigin | null;
}

/** HTTP statuses whose repeat fails the same way (the issue's list). */
export const PERMANENT_HTTP = [400, 401, 403, 404, 422] as const;
/** HTTP statuses meaning the server did not process the request. */
export const NOT_EXECUTED_HTTP = [408, 429, 503] as const;
/** HTTP statuses leaving the outcome unknown. */
export const UNKNOWN_HTTP = [500, 502, 504] as const;
/** JSON-RPC codes that never succeed on repeat (SPEC-NOTES). */
export const PERMANENT_JSONRPC = [-32700, -32600, -32601, -32602] as const;

const JSONRPC_NAMES: Record<number, string> = {
  [-32700]: 'parse error',
  [-32600]: 'invalid request',
  [-32601]: 'method not found',
  [-32602]: 'invalid params',
  [-32603]: 'internal error',
  [-32001]: 'request timeout (SDK)',
  [-32000]: 'connection closed (SDK)',
};

const HTTP_NAMES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** True when `key` is a usable idempotency key (non-empty after trimming). */
export function hasIdempotencyKey(key: string | null | undefined): boolean {
  return typeof key === 'string' && key.trim() !== '';
}

/** Describes an origin in a few words, e.g. `HTTP 503 Service Unavailable` or `JSON-RPC -32602 invalid params`. */
export function describeOrigin(origin: ErrorOrigin): string {
  switch (origin.kind) {
    case 'user-cancel':
      return 'user cancel';
    case 'client-timeout':
      return 'client timeout';
    case 'http':
      return `HTTP ${origin.status}${HTTP_NAMES[origin.status] ? ` ${HTTP_NAMES[origin.status]}` : ''}`;
    case 'jsonrpc':
      return `JSON-RPC ${origin.code}${JSONRPC_NAMES[origin.code] ? ` ${JSONRPC_NAMES[origin.code]}` : ''}`;
    case 'tool-error':
      return 'tool result with isError: true';
    case 'network':
      return origin.requestSent === false ? 'network error before the request was sent' : 'network error before any response';
    case 'server-overload':
      return `server overload (HTTP ${origin.status ?? 503}${HTTP_NAMES[origin.status ?? 503] ? ` ${HTTP_NAMES[origin.status ?? 503]}` : ''})`;
    case 'partial-success':
      return origin.streamedFraction === undefined
        ? 'partial success: stream broken after partial output'
        : `partial success: stream broken after ${Math.round(origin.streamedFraction * 1000) / 10} % of its output`;
    case 'partial-stream':
      return 'stream broken after partial output';
  }
}

/**
 * Reads the origin's bearing on a repeat. Unlisted HTTP 4xx count as permanent, unlisted 5xx as
 * unknown; unlisted JSON-RPC codes (server-defined) as unknown, the cautious reading.
 */
export function originClass(origin: ErrorOrigin | undefined): OriginClass {
  if (origin === undefined) return 'none';
  switch (origin.kind) {
    case 'user-cancel':
      return 'cancelled';
    case 'client-timeout':
    case 'partial-stream':
    case 'partial-success':
      return 'unknown';
    case 'server-overload':
      return 'not-executed';
    case 'tool-error':
      return 'executed';
    case 'network':
      return origin.requestSent === false ? 'not-executed' : 'unknown';
    case 'http': {
      const s = origin.status;
      if ((NOT_EXECUTED_HTTP as readonly number[]).includes(s)) return 'not-executed';
      if (s >= 400 && s < 500) return 'permanent';
      return 'unknown';
    }
    case 'jsonrpc':
      return (PERMANENT_JSONRPC as readonly number[]).includes(origin.code) ? 'permanent' : 'unknown';
  }
}

/**
 * Classifies one request for a retry.
 *
 * Without an origin: SAFE when there is no side effect, CONDITIONAL with a side effect and a
 * non-empty key and identical arguments, otherwise UNSAFE. With an origin:
 * - user cancellation, 4xx in the permanent list, -32700/-32600/-32601/-32602: UNSAFE, no retry;
 * - 408/429/503, a server overload or a request that never left: SAFE (nothing executed),
 *   `Retry-After` as a floor;
 * - client timeout, network error after sending, 500/502/504, -32603, -32001, -32000, a broken
 *   stream (partial success): the operation's own verdict; retried only when SAFE or CONDITIONAL
 *   (keyed) — whether to hand back the partial result instead is the postmortem's decision tree
 *   (src/sim/seeds/origins.ts `decideByOriginTree`);
 * Every answer names its postmortem origin (`failureOrigin`, see `failureOriginOf`).
 * - `isError: true`: the tool ran; its own verdict, but never retried automatically (the error
 *   goes back to the model, a blind repeat sends the same arguments again).
 *
 * Never throws.
 */
export function classifyRetry(question: RetryQuestion): RetryClassification {
  const c = classifyWithoutWord(question);
  return { ...c, failureOrigin: failureOriginOf(question.origin) };
}

function classifyWithoutWord(question: RetryQuestion): Omit<RetryClassification, 'failureOrigin'> {
  const base = classifyOperation(question);
  const cls = originClass(question.origin);
  const origin = question.origin;
  if (origin === undefined) return { ...base, retry: base.verdict !== 'UNSAFE', originClass: cls };
  const what = describeOrigin(origin);
  switch (cls) {
    case 'cancelled':
      return { verdict: 'UNSAFE', reason: `${what}: never retry — the user asked to stop`, retry: false, originClass: cls };
    case 'permanent':
      return { verdict: 'UNSAFE', reason: `${what}: the same request fails the same way again — fix it, do not retry`, retry: false, originClass: cls };
    case 'not-executed': {
      const floor = (origin.kind === 'http' || origin.kind === 'server-overload') && origin.retryAfterMs !== undefined && origin.retryAfterMs >= 0 ? Math.ceil(origin.retryAfterMs) : undefined;
      const wait = floor === undefined ? '' : `, not before Retry-After (${floor} ms)`;
      return {
        verdict: 'SAFE',
        reason: `${what}: the server did not execute the request, so a repeat duplicates nothing${wait}`,
        retry: true,
        originClass: cls,
        ...(floor === undefined ? {} : { retryAfterFloorMs: floor }),
      };
    }
    case 'unknown':
      return {
        verdict: base.verdict,
        reason: `${what}: the outcome is unknown — ${base.reason}`,
        retry: base.verdict !== 'UNSAFE',
        originClass: cls,
      };
    case 'executed':
      return {
        verdict: base.verdict,
        reason: `${what}: the tool ran and reported a failure; the error goes back to the model, no automatic repeat — ${base.reason}`,
        retry: false,
        originClass: cls,
      };
    default:
      return { ...base, retry: base.verdict !== 'UNSAFE', originClass: cls };
  }
}

function classifyOperation(q: RetryQuestion): { verdict: RetryVerdict; reason: string } {
  if (!q.sideEffect) return { verdict: 'SAFE', reason: 'no side effect: repeating it changes nothing' };
  if (!hasIdempotencyKey(q.idempotencyKey)) {
    const none = typeof q.idempotencyKey === 'string' ? 'an empty idempotency key counts as none' : 'no idempotency key';
    return { verdict: 'UNSAFE', reason: `side effect with ${none}: a repeat may execute it twice` };
  }
  if (q.sameArguments === false) {
    return { verdict: 'UNSAFE', reason: 'side effect with a key reused for different arguments: a correct server rejects it' };
  }
  return { verdict: 'CONDITIONAL', reason: 'side effect with an idempotency key and identical arguments: safe only if the server deduplicates by that key' };
}
