import type { Rule } from '../rules';

/** The rules the failure mechanics cite (issue 11): the spec sentence they break and the incident. */
export const MECHANICS_RULES: Record<string, Rule> = {
  'mech.receive-loop': {
    id: 'mech.receive-loop',
    text: 'A cancellation ends only its own request: the server sends nothing more for it ("MUST NOT send any further messages for it") and keeps reading every other message. Incident: python-sdk#2610 (a cancel at a few ms, {"id":2,"error":{"code":0}}, then request 3 never answered).',
    section: { '2026-07-28': 'basic/transports/stdio (Cancellation); basic/patterns/cancellation', '2025-11-25': 'basic/utilities/cancellation' },
  },
  'mech.stray-progress': {
    id: 'mech.stray-progress',
    text: 'Progress notifications MUST stop after completion; a receiver drops a progress for a call that already ended and keeps the connection. Incident: claude-code#53617 (the host tore down a healthy stdio server over a progress that arrived after the result).',
    section: { '2026-07-28': 'basic/patterns/progress', '2025-11-25': 'basic/utilities/progress' },
  },
  'mech.late-response': {
    id: 'mech.late-response',
    text: 'A sender that cancelled or timed out SHOULD ignore a response that arrives afterwards (log and drop it); it is not a protocol error, and reconnecting for it fails every other call in flight.',
    section: { '2026-07-28': 'basic/patterns/cancellation', '2025-11-25': 'basic/utilities/cancellation' },
  },
  'mech.silent-resend': {
    id: 'mech.silent-resend',
    text: 'On timeout the sender SHOULD issue a cancellation and stop waiting; a timed-out call that is not idempotent is never re-sent silently under a new id. Incident: ruby-mcp-client PR#178 (no cancel, a silent re-send, the tool ran twice).',
    section: { '2026-07-28': 'basic/patterns/cancellation (Timeouts)', '2025-11-25': 'basic/lifecycle#timeouts' },
  },
  'mech.hop': {
    id: 'mech.hop',
    text: 'An intermediary hop (gateway, relay, host process) with its own timer is middleware that times requests: progress passing through it resets its idle timer as it would a client\'s ("Implementations MAY choose to reset the timeout clock when receiving a progress notification … SHOULD always enforce a maximum timeout"), and its maximum, if any, is reported in its error. When it cuts a call it cancels upstream with the transport\'s signal and answers the client with an error for the id, then forwards nothing more for it.',
    section: { '2026-07-28': 'basic/patterns/cancellation (Timeouts, Transport-Specific Cancellation)', '2025-11-25': 'basic/lifecycle#timeouts; basic/utilities/cancellation' },
  },
  'mech.write-window': {
    id: 'mech.write-window',
    text: 'A cancellation that lands after the handler returned but before its response is written refers to completed processing: "Servers MAY ignore cancellation notifications if: … Processing has already completed" (2025-11-25: "Receivers MAY ignore …"), and "The client SHOULD ignore any response to the cancelled request that arrives afterward". The server writes exactly one response per request (JSON-RPC 2.0 §5; "Responses are sent in reply to requests"): never a second one, and a late cancel must not crash it.',
    section: { '2026-07-28': 'basic/patterns/cancellation (Behavior Requirements, Timing Considerations); basic/index (Responses)', '2025-11-25': 'basic/utilities/cancellation (Behavior Requirements, Timing Considerations); basic/index (Responses)' },
  },
};
