import type { Json } from '../types';
import type { Rule } from './rules';
import type { RacesConfig } from './schema';
import type { RequestState } from './types';

/**
 * The "TypeScript SDK v1" profile of the races lab (`config.client.profile: 'typescript-sdk-v1'`):
 * the official `@modelcontextprotocol/sdk` 1.x `Client` talking to an SDK 1.x `McpServer`, as the
 * differential oracle (`src/sdk-oracle`) pairs them. With the profile on, the model follows what
 * SDK 1.32 does (read in `dist/esm/shared/protocol.js` and confirmed on fake timers), point by point:
 *
 * - `sdk.default-timeout`: every request arms an idle timer; `timeout` omitted is 60 000 ms
 *   (`DEFAULT_REQUEST_TIMEOUT_MSEC`), so "no timeout at all" does not exist and an idle timeout
 *   without a maximum is not refused.
 * - `sdk.maximum-on-progress`: `maxTotalTimeout` has no timer of its own; it is checked only when
 *   progress arrives *and* the reset-timeout-on-progress option is on (Protocol's timer reset). No progress, or the
 *   option off: the maximum is never enforced.
 * - `sdk.no-cancel-at-maximum`: when that check trips, the call is rejected ("Maximum total timeout
 *   exceeded") but no `notifications/cancelled` is sent and the idle timer is not cleared; the
 *   cancel goes out only when that old idle timer fires (F2: rejected at 180 000 ms, cancel at
 *   220 000 ms).
 * - `sdk.abort-after-end`: the caller's AbortSignal listener stays attached after the call ended, so
 *   aborting a finished call still sends `notifications/cancelled` (for a request the server
 *   already answered).
 * - `sdk.cancel-id-zero` (typescript-sdk#2283): the server's `_oncancel` returns on a falsy
 *   `requestId`, so a cancel for request id 0 (or "") is ignored; the handler runs on and answers.
 * - the server acts only on a cancel that passes its schema: `jsonrpc: "2.0"`, no `id` (that is a
 *   request: the SDK answers -32601), `requestId` a string or an integer, `reason` a string.
 *
 * Pure: reads the config and the message only.
 */

/** The client profiles of the races lab. 'lab' is the lab's own, spec-correct client and server. */
export const RACES_CLIENT_PROFILES = ['lab', 'typescript-sdk-v1', 'typescript-sdk-v2'] as const;
export type RacesClientProfile = (typeof RACES_CLIENT_PROFILES)[number];

/**
 * The "TypeScript SDK v2" profile (`config.client.profile: 'typescript-sdk-v2'`): the official SDK
 * v2 (`@modelcontextprotocol/client` / `server` 2.4) pinned to 2026-07-28, as `src/sdk-oracle`
 * drives it (`harnessV2.ts`). Read in the package's bundled source (`core-internal/src/shared/
 * protocol.ts`, `Protocol`) and confirmed on fake timers, it keeps the v1 timer rules
 * (`sdk.default-timeout`, `sdk.maximum-on-progress`, `sdk.progress-not-checked`,
 * `sdk.maximum-optional`, `sdk.aborts-any-handler`) and differs from v1 in four places:
 *
 * - `sdk.cancel-id-zero` is fixed: `_oncancel` returns only when `requestId === undefined`.
 * - `sdk.abort-after-end` is fixed: the request's `finally` removes the caller's abort listener.
 * - `sdk.v2-no-cancel-after-maximum`: when the maximum trips on progress, the response handler is
 *   called with the error and sets `responseReceived = true` before it rejects, so the idle timer
 *   left armed later runs `cancel()`, which returns at once: no `notifications/cancelled` is ever sent.
 * - the cancel a timeout sends has the reason `String(SdkError)`: "SdkError: Request timed out".
 * - `sdk.broken-stream-pending`: over Streamable HTTP a cut response stream neither fails nor
 *   re-issues the call; it waits for its timeout (v1 has the same transport code, typescript-sdk#2739,
 *   but the v1 profile does not model it).
 */
export type SdkMajor = 1 | 2;

/** The SDK a scenario's client profile runs (1 or 2), or null for the lab's own client. */
export function sdkMajor(config: RacesConfig): SdkMajor | null {
  const p = (config as { client?: { profile?: string } }).client?.profile;
  return p === 'typescript-sdk-v1' ? 1 : p === 'typescript-sdk-v2' ? 2 : null;
}

/** True when the scenario runs either TypeScript SDK profile (the timer rules both keep). */
export function isSdk(config: RacesConfig): boolean {
  return sdkMajor(config) !== null;
}

/** The `reason` of the cancel the SDK v2 client sends when its idle timer fires (`String(SdkError)`). */
export const SDK_V2_TIMEOUT_CANCEL_REASON = 'SdkError: Request timed out';

/** The reason an SDK profile's timeout cancel carries (v1: `String(McpError)`, v2: `String(SdkError)`). */
export function sdkTimeoutCancelReason(config: RacesConfig): string {
  return sdkMajor(config) === 2 ? SDK_V2_TIMEOUT_CANCEL_REASON : SDK_TIMEOUT_CANCEL_REASON;
}

/** Short forms a share link may use for `client.profile` (`?client.profile=sdk-v2`); links are written with the full value. */
export const RACES_LINK_VALUE_ALIASES: Readonly<Record<string, Readonly<Record<string, RacesClientProfile>>>> = {
  'client.profile': { 'sdk-v1': 'typescript-sdk-v1', 'sdk-v2': 'typescript-sdk-v2' },
};

/** TypeScript SDK v1 `DEFAULT_REQUEST_TIMEOUT_MSEC` (ms): the idle timeout of a request with no `timeout` option. */
export const SDK_DEFAULT_TIMEOUT_MS = 60_000;

/** The `reason` the SDK client puts in `notifications/cancelled` when its idle timer fires (`String(McpError)`). */
export const SDK_TIMEOUT_CANCEL_REASON = 'McpError: MCP error -32001: Request timed out';

/** True when the scenario runs the TypeScript SDK v1 profile. */
export function isSdkV1(config: RacesConfig): boolean {
  return (config as { client?: { profile?: string } }).client?.profile === 'typescript-sdk-v1';
}

/** One named SDK v1 behaviour the profile reproduces where the lab's correct policy differs. */
export interface SdkBehaviour {
  /** Rule id cited by the model's notes and settle reasons (`sdk.*`). */
  id: string;
  title: string;
  /** What the SDK does, and what the spec (the lab's default) says instead. */
  text: string;
  /** The upstream thread that explains it, when there is one. */
  thread?: string;
  /** What SDK v2 (2.4, 2026-07-28) does here: the same, fixed (with the evidence), a v2-only behaviour, or one the oracle asserts on the real SDK that no lab profile models yet. */
  v2: { status: 'same' | 'fixed' | 'v2-only' | 'not-modelled'; evidence: string };
}

/** The SDK v1 behaviours, by rule id. */
export const SDK_BEHAVIOURS: Record<string, SdkBehaviour> = {
  'sdk.default-timeout': {
    id: 'sdk.default-timeout',
    title: 'SDK v1: a 60 s timeout is always armed',
    text: 'The SDK client arms a 60 000 ms idle timer on every request whose timeout option is omitted; the lab\'s client waits without one (its F4 scenario has no timeout at all).',
    thread: 'modelcontextprotocol/typescript-sdk#245',
    v2: { status: 'same', evidence: 'core-internal/src/shared/protocol.ts: DEFAULT_REQUEST_TIMEOUT_MSEC = 60_000, used by Protocol._requestWithSchemaViaCodec when options.timeout is omitted' },
  },
  'sdk.maximum-on-progress': {
    id: 'sdk.maximum-on-progress',
    title: 'SDK v1: the maximum is checked only when progress resets the timer',
    text: 'maxTotalTimeout has no timer: the SDK compares elapsed time with it only inside its timer reset, i.e. when progress arrives and the reset-timeout-on-progress option is on. The spec: "implementations SHOULD always enforce a maximum timeout, regardless of progress notifications".',
    thread: 'modelcontextprotocol/typescript-sdk#2695',
    v2: { status: 'same', evidence: 'core-internal/src/shared/protocol.ts: Protocol._setupTimeout arms only the idle timer; the timeout reset called from Protocol._onprogress (when the request asks to reset its timeout on progress) is the only maxTotalTimeout check; typescript-sdk#2695 (open) carries the labels v1 and v2' },
  },
  'sdk.no-cancel-at-maximum': {
    id: 'sdk.no-cancel-at-maximum',
    title: 'SDK v1: no cancel when the maximum trips; it waits for the old idle timer',
    text: 'When the maximum is noticed the call is rejected but no notifications/cancelled is sent and the idle timer is left armed: the cancel goes out when that timer fires (seen 40 s late with progress every 20 s and a 180 s maximum).',
    v2: { status: 'fixed', evidence: 'replaced by sdk.v2-no-cancel-after-maximum: v2 never sends the late cancel (see there)' },
  },
  'sdk.abort-after-end': {
    id: 'sdk.abort-after-end',
    title: 'SDK v1: aborting a finished call still sends notifications/cancelled',
    text: 'The AbortSignal listener is never removed, so an abort after the response (or a timeout) sends a cancel for a request that is no longer in flight; the lab\'s client sends nothing.',
    v2: { status: 'fixed', evidence: 'core-internal/src/shared/protocol.ts: the finally of Protocol._requestWithSchemaViaCodec removes the signal listener (removeEventListener(\'abort\', onAbort)); cancel() also returns once a response was received; upstream: typescript-sdk#1672 (the abort-listener leak in _requestWithSchema)' },
  },
  'sdk.maximum-optional': {
    id: 'sdk.maximum-optional',
    title: 'SDK v1: an idle timeout needs no maximum',
    text: 'The SDK sends a request with timeout and no maxTotalTimeout; the lab\'s client refuses it (timeout.must-cover), because progress could then keep the call alive forever.',
    v2: { status: 'same', evidence: 'core-internal/src/shared/protocol.ts: RequestOptions.maxTotalTimeout is optional and nothing requires it beside timeout' },
  },
  'sdk.progress-not-checked': {
    id: 'sdk.progress-not-checked',
    title: 'SDK v1: progress that does not increase still resets the timer',
    text: 'Protocol._onprogress never compares the value with the last one: a repeated or lower progress restarts the idle timer and reaches onprogress. The spec requires the progress value to increase with every notification (rule progress.increase); the lab\'s client ignores such progress.',
    v2: { status: 'same', evidence: 'core-internal/src/shared/protocol.ts: Protocol._onprogress resets the timer and calls the handler without comparing the value with the last one' },
  },
  'sdk.aborts-any-handler': {
    id: 'sdk.aborts-any-handler',
    title: 'SDK v1 server: every cancel aborts the handler and drops its result',
    text: 'The SDK server has no work that cannot be stopped: a cancel aborts the handler\'s signal and the server never writes the aborted request\'s response, even when the handler runs on. The lab\'s server MAY ignore a cancel for uncancellable work and answer (the client then drops the late result).',
    v2: { status: 'same', evidence: 'core-internal/src/shared/protocol.ts: Protocol._oncancel aborts the handler\'s controller and _onrequest returns without a response when the signal is aborted; over Streamable HTTP the closed request stream does the same' },
  },
  'sdk.cancel-id-zero': {
    id: 'sdk.cancel-id-zero',
    title: 'SDK v1 server: a cancel for request id 0 is ignored (typescript-sdk#2283)',
    text: 'Protocol._oncancel returns when !requestId, so id 0 (and "") cannot be cancelled: the handler is not aborted and its response is sent. The lab is right: 0 is a valid JSON-RPC id.',
    thread: 'modelcontextprotocol/typescript-sdk#2283',
    v2: { status: 'fixed', evidence: 'core-internal/src/shared/protocol.ts: Protocol._oncancel returns only when params.requestId === undefined (0 and "" are legal ids); upstream: typescript-sdk#2283 (closed), its duplicate #2115' },
  },
  'sdk.v2-no-cancel-after-maximum': {
    id: 'sdk.v2-no-cancel-after-maximum',
    title: 'SDK v2: when the maximum trips, no cancel is ever sent',
    text: 'As in v1 the maximum is noticed only when progress arrives and the call is rejected there; v2 marks the request answered (responseReceived) on that error, so the idle timer left armed later calls cancel(), which returns at once: no notifications/cancelled at all, and the server works on (F2: progress keeps arriving after 220 000 ms). The spec (basic/lifecycle, Timeouts): when no response arrives within the timeout, "the sender SHOULD issue a cancellation notification for that request and stop waiting for a response".',
    v2: { status: 'v2-only', evidence: 'core-internal/src/shared/protocol.ts: Protocol._requestWithSchemaViaCodec, the response handler sets responseReceived = true before it rejects an Error; cancel() returns when responseReceived; the timeout reset of Protocol._onprogress deletes the timeout info without clearing its timer; no upstream thread found for it (searched the typescript-sdk issues; the root, the maximum checked only on progress, is typescript-sdk#2695)' },
  },
  'sdk.broken-stream-pending': {
    id: 'sdk.broken-stream-pending',
    title: 'SDK: a broken response stream leaves the call pending until its timeout',
    text: 'Over Streamable HTTP, when the network cuts a call\'s SSE response stream before its result, the SDK client reports "SSE stream disconnected" through onerror but neither fails the call nor re-issues it: the call waits for its idle timeout (R1: the lab\'s client fails it with -32000 at the cut and, under 2026-07-28, re-issues it under a new id; flow RI1 and RI2: the call waits on its first request, whose result the proxy held when the stream was cut or the stopped execution never wrote, while the lab re-issues it). The server side sees the close as cancellation at once. The lab\'s "TypeScript SDK v2" profile reproduces it (the v1 profile, under 2025-11-25, does not).',
    thread: 'modelcontextprotocol/typescript-sdk#2739',
    v2: { status: 'v2-only', evidence: 'client/src/client/streamableHttp.ts: StreamableHTTPClientTransport._handleSseStream, on a stream error without a priming event, calls onerror and options.onRequestStreamEnd, which Protocol._requestWithSchemaViaCodec never passes to transport.send for an ordinary request (only subscriptions/listen does); nothing in the client re-issues it (the races probes and the flow lab\'s RI1, RI2 on the real SDK: src/sdk-oracle/flowV2.test.ts); open fix: typescript-sdk#2830' },
  },
};

/** The SDK behaviours as races rules (for `RULES`, so notes citing them resolve). Section: the SDK source. */
export const SDK_RULES: Record<string, Rule> = Object.fromEntries(
  Object.values(SDK_BEHAVIOURS).map((b) => [b.id, { id: b.id, text: `${b.title}. ${b.text}`, section: `${b.v2.status === 'v2-only' || b.v2.status === 'not-modelled' ? 'TypeScript SDK v2 (@modelcontextprotocol/core-internal 2.x, shared/protocol.ts)' : 'TypeScript SDK v1 (@modelcontextprotocol/sdk 1.x, shared/protocol.ts)'}${b.thread ? `; ${b.thread}` : ''}` }]),
);

/** The idle timeout the SDK client arms for a `tools/call` started with `idleTimeoutMs` (ms). */
export function sdkIdleTimeoutMs(idleTimeoutMs: number | null): number {
  return idleTimeoutMs ?? SDK_DEFAULT_TIMEOUT_MS;
}

/** True when the SDK's progress handler checks the maximum for `req` at `now` (ms) and finds it passed. */
export function sdkMaximumTripsOnProgress(config: RacesConfig, req: RequestState, now: number): boolean {
  return config.progressResetsIdleTimeout && req.maxTimeoutMs !== null && now - req.startAt >= req.maxTimeoutMs;
}

/** True when `req` was rejected by the SDK's maximum check and its old idle timer is still armed. */
export function sdkStaleIdleTimer(req: RequestState): boolean {
  return req.client.state === 'timeout-max' && req.client.rule === 'sdk.no-cancel-at-maximum' && req.idleHandle !== -1;
}

const isRequestId = (v: unknown) => typeof v === 'string' || (typeof v === 'number' && Number.isInteger(v));

/**
 * Why the SDK v1 server does not act on this `notifications/cancelled`, or null when it aborts the
 * named request's handler (the lab's own checks then run as usual). `message` is the raw JSON;
 * `major` 2: the SDK v2 server, which accepts a cancel for id 0 (`sdk.cancel-id-zero` fixed).
 */
export function sdkServerIgnoresCancel(message: Json, major: SdkMajor = 1): { reason: string; rule: string } | null {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return null; // the lab's own check says why
  if (message.jsonrpc !== '2.0') return { reason: 'the SDK\'s JSONRPCNotificationSchema needs jsonrpc "2.0" ("Unknown message type" via onerror)', rule: 'cancel.ignore-invalid' };
  if ('id' in message) return { reason: 'with an id it is a request, not a notification: the SDK answers it -32601 (method not found)', rule: 'cancel.ignore-invalid' };
  const params = message.params;
  if (params !== null && typeof params === 'object' && !Array.isArray(params)) {
    const p = params as Record<string, Json>;
    if ('reason' in p && typeof p.reason !== 'string') return { reason: 'reason is not a string: the SDK\'s CancelledNotificationSchema rejects it (onerror)', rule: 'cancel.ignore-invalid' };
    if (major === 1 && isRequestId(p.requestId) && !p.requestId) return { reason: `requestId ${JSON.stringify(p.requestId)} is falsy and Protocol._oncancel returns on !requestId (typescript-sdk#2283)`, rule: 'sdk.cancel-id-zero' };
  }
  return null;
}

/**
 * The rules an SDK idle timeout at `now` (ms) cites: `sdk.maximum-on-progress` when the maximum
 * deadline passed unenforced, `sdk.default-timeout` when the idle timeout is the SDK's default
 * (the settle cites the first that applies, the note the other), with a text to append.
 */
export function sdkIdleTimeoutRules(req: RequestState, now: number, major: SdkMajor = 1): { settleRule: string; noteRule: string; text: string } {
  const maxPassed = req.maxDeadlineAt !== null && now > req.maxDeadlineAt;
  const parts: string[] = [];
  if (req.sdkDefaultIdle) parts.push(`the ${SDK_DEFAULT_TIMEOUT_MS} ms idle timeout is the TypeScript SDK v${major} default`);
  if (maxPassed) parts.push(`the maximum deadline ${req.maxDeadlineAt} ms passed unenforced (the SDK checks it only when progress resets the timer)`);
  const first = maxPassed ? 'sdk.maximum-on-progress' : req.sdkDefaultIdle ? 'sdk.default-timeout' : 'timeout.idle';
  const second = maxPassed && req.sdkDefaultIdle ? 'sdk.default-timeout' : first;
  return { settleRule: first, noteRule: second, text: parts.length ? ` — ${parts.join('; ')}` : '' };
}
