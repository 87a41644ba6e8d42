import type { Revision } from '../mcp';
import { SDK_RULES } from './sdkProfile';
import { MECHANICS_RULES } from './mechanics/rules';

/**
 * A rule the races lab cites: what it says and where, per revision. `section` is the path under
 * `docs/specification/<revision>/` in modelcontextprotocol/modelcontextprotocol, or the
 * reference the rule comes from (TypeScript SDK, lesson).
 */
export interface Rule {
  id: string;
  text: string;
  section: Partial<Record<Revision, string>> | string;
}

const both = (s2025: string, s2026: string) => ({ '2025-11-25': s2025, '2026-07-28': s2026 });
const CANCEL = both('basic/utilities/cancellation', 'basic/patterns/cancellation');
const TIMEOUTS = both('basic/lifecycle#timeouts', 'basic/patterns/cancellation');
// 2026-07-28 moved progress under basic/patterns (was basic/utilities/progress).
const PROGRESS = both('basic/utilities/progress', 'basic/patterns/progress');

/** Every rule the races model cites, keyed by id. */
export const RULES: Record<string, Rule> = {
  'jsonrpc.id': {
    id: 'jsonrpc.id',
    text: 'A request id is a string or an integer, unique among the sender\'s active requests.',
    section: both('basic#requests', 'basic#requests'),
  },
  'progress.token': {
    id: 'progress.token',
    text: '_meta.progressToken is a string or an integer, unique among active requests.',
    section: PROGRESS,
  },
  'timeout.must-cover': {
    id: 'timeout.must-cover',
    text: 'Progress MAY reset the timeout clock, but a maximum timeout SHOULD always be enforced: an idle timeout needs a maximum beside it.',
    section: TIMEOUTS,
  },
  'timeout.idle': {
    id: 'timeout.idle',
    text: 'Senders SHOULD set timeouts; when one expires the sender cancels the request and stops waiting.',
    section: TIMEOUTS,
  },
  'timeout.max': {
    id: 'timeout.max',
    text: 'A maximum timeout SHOULD always be enforced, regardless of progress notifications.',
    section: TIMEOUTS,
  },
  'timeout.inclusive': {
    id: 'timeout.inclusive',
    text: 'Deadlines are inclusive: at the deadline millisecond the timeout fires before any arrival; the maximum wins over idle.',
    section: 'lesson: idle vs maximum timeouts',
  },
  'progress.resets-idle': {
    id: 'progress.resets-idle',
    text: 'Progress MAY reset the idle clock, and only for a request that carried a progressToken; it never moves the maximum.',
    section: TIMEOUTS,
  },
  'progress.increase': {
    id: 'progress.increase',
    text: 'The progress value MUST increase with every notification, even if the total is unknown.',
    section: PROGRESS,
  },
  'progress.after-end': {
    id: 'progress.after-end',
    text: 'Progress notifications MUST stop after the request completes.',
    section: PROGRESS,
  },
  'progress.needs-token': {
    id: 'progress.needs-token',
    text: 'The receiver can only send progress for a request that carried _meta.progressToken.',
    section: PROGRESS,
  },
  'sse.keepalive': {
    id: 'sse.keepalive',
    text: 'An SSE comment line (":") keeps proxies from closing a quiet stream; it is not an MCP message and never resets the idle timeout.',
    section: both('basic/transports#streamable-http', 'basic/transports/streamable-http'),
  },
  'cancel.stdio': {
    id: 'cancel.stdio',
    text: 'On stdio the client cancels with notifications/cancelled {requestId, reason}.',
    section: CANCEL,
  },
  'cancel.http-2026': {
    id: 'cancel.http-2026',
    text: 'On Streamable HTTP (2026-07-28) closing the request\'s SSE response stream is the cancellation signal; the server MUST treat the disconnect as cancellation; no notification is sent.',
    section: { '2026-07-28': 'basic/patterns/cancellation; basic/transports/streamable-http' },
  },
  'cancel.http-2025': {
    id: 'cancel.http-2025',
    text: 'On Streamable HTTP (2025-11-25) the client SHOULD POST notifications/cancelled; a disconnect SHOULD NOT be read as cancellation.',
    section: { '2025-11-25': 'basic/utilities/cancellation; basic/transports (Sending Messages to the Server)' },
  },
  'cancel.receiver-stops': {
    id: 'cancel.receiver-stops',
    text: 'On cancellation the receiver SHOULD stop the work, free its resources and not send a response (2025-11-25 and the 2026-07-28 cancellation page). 2026-07-28 makes it a MUST on both transport pages: the server "MUST NOT send any further messages for it".',
    // The MUST NOT is on the transport pages (Cancellation sections), not on basic/patterns/cancellation,
    // which keeps "Not send a response for the cancelled request" under a SHOULD.
    section: both('basic/utilities/cancellation', 'basic/transports/streamable-http#cancellation; basic/transports/stdio#cancellation; basic/patterns/cancellation'),
  },
  'cancel.ignore-invalid': {
    id: 'cancel.ignore-invalid',
    text: 'A cancellation that is malformed, names an unknown id or a request that already finished is ignored (fire and forget); the receiver MAY also ignore it for work that cannot be cancelled.',
    section: CANCEL,
  },
  'cancel.complete-first': {
    id: 'cancel.complete-first',
    text: 'If the request finished before the cancellation arrived, the response stands and the late cancellation is ignored.',
    section: CANCEL,
  },
  'cancel.late-response': {
    id: 'cancel.late-response',
    text: 'A sender that cancelled or timed out SHOULD ignore a response that arrives afterwards: log and drop it, never show it as success.',
    section: CANCEL,
  },
  'cancel.settle': {
    id: 'cancel.settle',
    text: 'The caller\'s own cancellation settles the call at once; it does not wait for the server.',
    section: 'lesson: cancellation vs completion',
  },
  'cancel.server-listen-only': {
    id: 'cancel.server-listen-only',
    text: 'A server never cancels the client\'s requests; it may only end a subscriptions/listen stream it serves (2026-07-28). How, the texts disagree: the cancellation page says "A server MUST send notifications/cancelled referencing a subscriptions/listen request ID when it tears down that subscription stream"; the subscriptions page says "it SHOULD send a successful subscriptions/listen response to signal a graceful end … then close the stream"; the schema\'s CancelledNotification says "On stdio, the server also sends this notification, solely to terminate a … subscriptions/listen stream". The lab follows the schema (the notification on stdio only; on HTTP the result or a closed stream).',
    section: { '2026-07-28': 'basic/patterns/cancellation; basic/patterns/subscriptions; schema CancelledNotification', '2025-11-25': 'basic/utilities/cancellation (requests in the same direction only)' },
  },
  'listen.2026-only': {
    id: 'listen.2026-only',
    text: 'subscriptions/listen exists from 2026-07-28; 2025-11-25 uses the HTTP GET stream instead.',
    section: { '2026-07-28': 'basic/transports/streamable-http', '2025-11-25': 'basic/transports' },
  },
  'disconnect.2025': {
    id: 'disconnect.2025',
    text: 'Under 2025-11-25 a dropped stream is not a cancellation: the server keeps working and its response has nowhere to go.',
    section: { '2025-11-25': 'basic/transports (Sending Messages to the Server)' },
  },
  'disconnect.2026': {
    id: 'disconnect.2026',
    text: 'Under 2026-07-28 a broken response stream loses the in-flight request (no resumption; the server treats the close as cancellation): the client MUST re-issue it as a new request with a new request id. A new id is a new request to the server: a side-effecting tool whose first execution already happened runs again unless the call carries an idempotency key the server deduplicates on — the ledger lab\'s lost response (scenario F).',
    // The MUST is in the changelog (major item 9); the transport page says only "Resumable SSE streams via Last-Event-ID are not supported."
    section: { '2026-07-28': 'changelog (major changes, item 9); basic/transports/streamable-http (Receiving Messages, Cancellation)' },
  },
  'cancel.malformed': {
    id: 'cancel.malformed',
    text: 'A notifications/cancelled without jsonrpc "2.0", with a non-string reason, or with an id is malformed and ignored; one with an id is a request, so the receiver answers JSON-RPC -32601 Method not found and cancels nothing.',
    section: both('basic/utilities/cancellation (Error Handling); basic#notifications; schema JSONRPCNotification, CancelledNotificationParams', 'basic/patterns/cancellation (Error Handling); basic/index (Notifications MUST NOT include an ID); schema JSONRPCNotification, CancelledNotificationParams'),
  },
  'cancel.http-2026-no-notification': {
    id: 'cancel.http-2026-no-notification',
    text: 'On Streamable HTTP under 2026-07-28 a POSTed notifications/cancelled is not the cancellation signal (closing the request\'s SSE stream is): "This revision of the core protocol defines no client-to-server notifications over Streamable HTTP"; the server ignores it.',
    section: { '2026-07-28': 'basic/transports/streamable-http (Sending Messages, note); basic/patterns/cancellation (Transport-Specific Cancellation)' },
  },
  'mrtr.retry-new-id': {
    id: 'mrtr.retry-new-id',
    text: 'MRTR: instead of sending its own request, the server answers with InputRequiredResult (resultType "input_required", inputRequests); the client retries the original request with inputResponses (and the echoed requestState). "The JSON-RPC id MUST be different between the initial request and the retry"; each round trip is an independent request, so a mutation retried this way needs an idempotency key.',
    section: { '2026-07-28': 'basic/patterns/mrtr; schema InputRequiredResult, CallToolRequestParams' },
  },
  'mrtr.2026-only': {
    id: 'mrtr.2026-only',
    text: 'Multi round-trip requests exist from 2026-07-28; under 2025-11-25 a server sends elicitation/create or sampling/createMessage as its own request.',
    section: { '2026-07-28': 'basic/patterns/mrtr', '2025-11-25': 'client/elicitation' },
  },
  'idempotency.key': {
    id: 'idempotency.key',
    text: 'MCP has no request-level deduplication: a re-issue or retry is a new request. A side-effecting tool is safe to re-issue only with an idempotency key (a tool argument) the server stores with the result and answers from.',
    section: 'lesson: the ledger lab (keys, the lost response); 2026-07-28 basic/patterns/mrtr ("independent requests")',
  },
  'http.headers-2026': {
    id: 'http.headers-2026',
    text: 'Every 2026-07-28 Streamable HTTP POST carries MCP-Protocol-Version; every request Mcp-Method; tools/call, resources/read and prompts/get also Mcp-Name. A server MUST reject a request that lacks one with 400 Bad Request and -32020 HeaderMismatch.',
    section: { '2026-07-28': 'basic/transports/streamable-http (Request Metadata, Server Validation); basic/index (Error Codes)' },
  },
  'transport.no-sse-on-stdio': {
    id: 'transport.no-sse-on-stdio',
    text: 'stdio carries newline-delimited JSON-RPC: there are no SSE streams, comments or per-request disconnects.',
    section: both('basic/transports#stdio', 'basic/transports/stdio'),
  },
  ...SDK_RULES,
  ...MECHANICS_RULES,
};

/** The spec section of a rule for a revision, as text (empty when the rule has none for it). */
export function ruleSection(rule: Rule, revision: Revision): string {
  if (typeof rule.section === 'string') return rule.section;
  return rule.section[revision] ?? '';
}
