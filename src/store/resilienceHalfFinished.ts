import { simulateHalfFinished, type HalfFinishedResult } from '../sim/seeds/cancelChain';

export type { HalfFinishedResult };

/**
 * The postmortem's "half-finished result" (issue 13 item 5) for the resilience page: the user stops
 * at 8 000 ms; the cancel takes 320 ms across the whole chain (client → MCP server → upstream API →
 * model cluster, one third per hop); the MCP server cuts the upstream with 73 % of the response
 * transferred; the upstream silently re-queues the request and the client's retry fires in the same
 * millisecond — unless the postmortem's fixes are on (a priority channel for cancel signals, a
 * request fingerprint at the gateway). Pure (src/sim/seeds/cancelChain.ts).
 */
export function halfFinished(fix: { priorityCancelChannel: boolean; gatewayFingerprint: boolean }): HalfFinishedResult {
  return simulateHalfFinished({ cancelAtMs: 8_000, fix });
}
