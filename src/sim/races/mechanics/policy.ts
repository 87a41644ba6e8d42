import { z } from 'zod';

/**
 * The failure mechanics' broken-behaviour switches (issue 11), merged into `racesPolicySchema`.
 * Each defaults to false, the correct behaviour (and the behaviour of the races model before them).
 */
export const MECHANICS_POLICY = {
  receiveLoopDiesOnCancel: z.boolean().default(false).describe('Bug (python-sdk#2610): after a cancel the server answers it with error code 0 and its receive loop dies; later requests are never read.'),
  progressAfterResult: z.boolean().default(false).describe('Bug: the server still sends progress after the final response (claude-code#53617, server side).'),
  strayProgressKillsConnection: z.boolean().default(false).describe('Bug (claude-code#53617): a progress for a finished call makes the host kill the server; calls in flight fail.'),
  lateResponseReconnects: z.boolean().default(false).describe('Bug: a response for an abandoned id is taken as a protocol error; the client reconnects and every call in flight fails.'),
  silentRetryOnTimeout: z.boolean().default(false).describe('Bug (ruby-mcp-client PR#178): on timeout no cancel is sent and the call is re-sent under a new id; the tool runs twice.'),
};

/** The switches all off (the policy default's extra keys). */
export const MECHANICS_POLICY_OFF = { receiveLoopDiesOnCancel: false, progressAfterResult: false, strayProgressKillsConnection: false, lateResponseReconnects: false, silentRetryOnTimeout: false };
