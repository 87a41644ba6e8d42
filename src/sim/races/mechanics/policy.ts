/**
 * The failure mechanics' broken-behaviour switches (issue 11) and their descriptions, merged into
 * `racesPolicySchema` (by `switchesSchema`: each defaults to false, the correct behaviour and the
 * behaviour of the races model before them).
 */
export const MECHANICS_POLICY = {
  receiveLoopDiesOnCancel: 'Bug (python-sdk#2610): after a cancel the server answers it with error code 0 and its receive loop dies; later requests are never read.',
  progressAfterResult: 'Bug: the server still sends progress after the final response (claude-code#53617, server side).',
  strayProgressKillsConnection: 'Bug (claude-code#53617): a progress for a finished call makes the host kill the server; calls in flight fail.',
  lateResponseReconnects: 'Bug: a response for an abandoned id is taken as a protocol error; the client reconnects and every call in flight fails.',
  silentRetryOnTimeout: 'Bug (ruby-mcp-client PR#178): on timeout no cancel is sent and the call is re-sent under a new id; the tool runs twice.',
  hopIgnoresProgress: 'Bug: the intermediary hop (config.hop) does not reset its idle timer when progress passes through it, so it cuts a long call that keeps reporting progress.',
  duplicateResponseOnCancel: 'Bug: a cancel that lands between the handler\'s return and its response write makes the server write an error response too: two responses for one request id.',
  cancelKillsServerProcess: 'Bug (qwen-code#11272, claude-code#49479): on stdio the user\'s cancel ends the server process instead of sending notifications/cancelled; calls in flight fail, and every later call fails with -32000 (the transport is closed). No effect on Streamable HTTP (the client owns no server process).',
  crashOnCancelInWriteWindow: 'Bug: a cancel that lands between the handler\'s return and its response write crashes the server at the write; calls in flight and the next call fail.',
  replyIsFirstMessageRead: 'Bug (agent-os#894): the stdio client takes the first message it reads after writing a request as that request\'s reply instead of matching responses by id: a notification sent first (progress) becomes an empty success, and every later call gets the previous call\'s response. No effect on Streamable HTTP.',
  contentLengthFraming: 'Bug (agent-os#894): the stdio client frames messages LSP-style (Content-Length: N, a blank line, the JSON with no newline after it) instead of one JSON-RPC message per line: a newline-delimited server never reads a complete message, so no request or cancel is received and every call ends at its timeout. No effect on Streamable HTTP.',
  unsupportedVersionNotRetried: 'Bug (2026-07-28 basic/versioning): on -32022 UnsupportedProtocolVersion the client shows the error as the tool call\'s failure instead of retrying with a version from the server\'s supported list, and keeps declaring its first version, so every call fails. Needs config.protocolVersions.',
  incompleteTailDropped: 'Bug (one reader that shows claude-code#65413): the stdio client parses each read from the pipe on its own and drops the bytes after its last newline, so a response line longer than stdioReader.chunkBytes is never reassembled: the result is never processed and its call hangs until a timeout or the user cancels. No effect on Streamable HTTP.',
  limitCheckedOnPrefix: 'Bug (XcodeMCPKit#204): the stdio client checks stdioReader.maxMessageBytes on the incomplete prefix left after each read, not on complete lines: a large line read whole passes, the same line split by the pipe stops the server process (calls in flight and later calls fail with -32000).',
};
