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
const PROGRESS = both('basic/utilities/progress', 'basic/utilities/progress');

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
    text: 'On cancellation the receiver SHOULD stop the work, free its resources and send no response (2026-07-28: MUST NOT send further messages for that request).',
    section: CANCEL,
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
    text: 'A server sends notifications/cancelled only on stdio, only to end a subscriptions/listen stream that is still open (2026-07-28); otherwise it never cancels the client\'s requests.',
    section: { '2026-07-28': 'basic/patterns/cancellation', '2025-11-25': 'basic/utilities/cancellation (requests in the same direction only)' },
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
    text: 'Under 2026-07-28 a closed response stream is a cancellation: the server stops, and the client MUST re-issue with a new request id if it still wants the result.',
    section: { '2026-07-28': 'basic/transports/streamable-http' },
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
