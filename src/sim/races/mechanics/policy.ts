import * as z from 'zod';

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
  hopIgnoresProgress: z.boolean().default(false).describe('Bug: the intermediary hop (config.hop) does not reset its idle timer when progress passes through it, so it cuts a long call that keeps reporting progress.'),
  duplicateResponseOnCancel: z.boolean().default(false).describe('Bug: a cancel that lands between the handler\'s return and its response write makes the server write an error response too: two responses for one request id.'),
  crashOnCancelInWriteWindow: z.boolean().default(false).describe('Bug: a cancel that lands between the handler\'s return and its response write crashes the server at the write; calls in flight and the next call fail.'),
};

/** The switches all off (the policy default's extra keys). */
export const MECHANICS_POLICY_OFF = { receiveLoopDiesOnCancel: false, progressAfterResult: false, strayProgressKillsConnection: false, lateResponseReconnects: false, silentRetryOnTimeout: false, hopIgnoresProgress: false, duplicateResponseOnCancel: false, crashOnCancelInWriteWindow: false };
