import * as z from 'zod';
import { eventBase, eventObject, eventUnion, switchesOff, switchesSchema } from '../schemaParts';
import type { LabSchemas } from '../scenario';
import { RACES_CLIENT_PROFILES } from './sdkProfile';
import { MECHANICS_POLICY } from './mechanics/policy';

/** JSON values (for fields the model validates itself, such as a request id a learner may break on purpose). */
const json: z.ZodType<unknown> = z.unknown();
const ms = z.number({ error: 'must be a number of milliseconds' }).int('must be an integer number of milliseconds').min(0, 'must be ≥ 0 ms').max(1_000_000_000, 'must be ≤ 1,000,000,000 ms');
const positiveMs = z.number({ error: 'must be a number of milliseconds' }).int('must be an integer number of milliseconds').min(1, 'must be ≥ 1 ms').max(1_000_000_000, 'must be ≤ 1,000,000,000 ms');
const bytes = z.number({ error: 'must be a number of bytes' }).int('must be an integer number of bytes').min(1, 'must be ≥ 1 byte').max(1_073_741_824, 'must be ≤ 1,073,741,824 bytes (1 GiB)');
const idOrInt = z.union([z.string(), z.number().int()], { error: 'must be a string or an integer' });

/** Broken-policy switches; all false means the correct client and server. */
export const racesPolicySchema = switchesSchema({
  progressResetsMaximum: 'Bug: progress also pushes the maximum deadline out.',
  idleTimeoutOnly: 'Bug: the client enforces only the idle timeout; no maximum.',
  maximumCheckedOnProgress: 'Bug (TS SDK v1): the maximum is checked only when progress arrives.',
  progressTokenOmitted: 'Bug: the request goes out without its progressToken, so progress can never reset idle.',
  respondAfterCancel: 'Bug: the server still sends a response after accepting a cancellation.',
  clientNeverSettles: 'Bug: the client sends its cancellation but never settles its own call.',
  timeoutWithoutCancel: 'Bug: on timeout the client stops waiting but sends no cancellation signal.',
  httpPostsCancel: 'Bug: under 2026-07-28 the Streamable HTTP client also POSTs notifications/cancelled.',
  ...MECHANICS_POLICY,
  retrySameId: 'Bug: the re-issue after a broken 2026-07-28 response stream, or an MRTR retry, reuses the old request id (both MUST use a new one).',
  idempotencyKeyOmitted: 'Bug: the client sends a side-effecting call without its idempotency key, so a re-issue or retry executes it again.',
  mcpNameHeaderOmitted: 'Bug: the 2026-07-28 HTTP client omits the Mcp-Name header; the server rejects the request with -32020 HeaderMismatch.',
  listenAckOmitted: 'Bug: the server opens a subscriptions/listen stream without sending notifications/subscriptions/acknowledged as its first message.',
  inputRequestsUndeclared: 'Bug: the server puts elicitation/create in inputRequests although the client did not declare elicitation (it MUST NOT); the client cannot answer.',
  listenTeardownSilent: 'Bug: the server tears a listen stream down without notifications/cancelled or a result (what the lab did on HTTP before it modelled the teardown): the client\'s stream stays pending.',
});

/**
 * How a server ends a `subscriptions/listen` stream it tears down (2026-07-28). The texts disagree
 * (modelcontextprotocol#3348): the cancellation page's MUST ("A server MUST send
 * notifications/cancelled referencing a subscriptions/listen request ID when it tears down that
 * subscription stream") is the default; the subscriptions page's SHOULD ("it SHOULD send a
 * successful subscriptions/listen response to signal a graceful end") is `listen-result`.
 */
export const LISTEN_TEARDOWNS = ['notifications/cancelled', 'listen-result'] as const;
export type ListenTeardown = (typeof LISTEN_TEARDOWNS)[number];

/** Races lab configuration. */
export const racesConfigSchema = z
  .object({
    revision: z.enum(['2026-07-28', '2025-11-25']).default('2026-07-28').describe('MCP spec revision simulated.'),
    transport: z.enum(['stdio', 'streamable-http']).default('stdio'),
    latencyMs: z
      .object({ clientToServer: ms.default(0), serverToClient: ms.default(0) })
      .strict()
      .default({ clientToServer: 0, serverToClient: 0 })
      .describe('One-way message latency, each direction (ms).'),
    progressResetsIdleTimeout: z.boolean().default(true).describe('Progress resets the idle timeout (the reset-timeout-on-progress request option of the TypeScript SDK).'),
    client: z
      .object({
        profile: z
          .enum(RACES_CLIENT_PROFILES, { error: `must be one of ${RACES_CLIENT_PROFILES.join(', ')}` })
          .default('lab')
          .describe("'lab': the spec-correct client and server. 'typescript-sdk-v1': the official TypeScript SDK v1 Client and McpServer, as the differential oracle observes them (sdkProfile.ts). 'typescript-sdk-v2': the official TypeScript SDK v2 pair pinned to 2026-07-28, likewise."),
      })
      .strict()
      .optional()
      .describe('Which implementation the client (and its server) behaves like; omitted: the lab.'),
    clientElicitation: z
      .enum(['form', 'none'], { error: 'must be one of form, none' })
      .optional()
      .describe("What the lab's client declares under clientCapabilities.elicitation on every 2026-07-28 request. 'form' (the default, omitted): it answers form elicitations, so it declares { form: {} }. 'none': it supports no elicitation and declares none; a correct server then answers a call that needs input with -32021 MissingRequiredClientCapability."),
    listenTeardown: z
      .enum(LISTEN_TEARDOWNS, { error: `must be one of ${LISTEN_TEARDOWNS.join(', ')}` })
      .optional()
      .describe("How the server ends a listen stream it tears down (2026-07-28; the texts disagree, modelcontextprotocol#3348). 'notifications/cancelled' (the default, omitted): the cancellation page's MUST. 'listen-result': the subscriptions page's SHOULD (a successful subscriptions/listen result, then the stream closes)."),
    protocolVersions: z
      .object({
        client: z.array(z.string().min(1).max(40)).min(1, 'must list at least one version').max(8, 'must list at most 8 versions').describe('The versions the client speaks, preferred first: every request carries the first, until the server names what it supports.'),
        server: z.array(z.string().min(1).max(40)).min(1, 'must list at least one version').max(8, 'must list at most 8 versions').describe('The versions the server implements: a request that carries another gets -32022 UnsupportedProtocolVersion listing these.'),
      })
      .strict()
      .optional()
      .describe('2026-07-28 only (every request declares its version in _meta; mechanics/versions.ts): which versions each side speaks; omitted: both speak the revision.'),
    hop: z
      .object({
        name: z.string().min(1, 'must be a non-empty string').max(40, 'must be at most 40 characters').default('gateway').describe('What the hop is, for the notes (gateway, relay, host process).'),
        idleTimeoutMs: positiveMs.describe('The hop\'s own idle timer per call: it cuts a call when nothing passes through it for this long.'),
        maxTimeoutMs: positiveMs.nullable().default(null).describe('The hop\'s maximum per call, progress or not (null: none).'),
      })
      .strict()
      .optional()
      .describe('An intermediary hop between client and server with its own timers (mechanics/hop.ts); omitted: client and server talk directly.'),
    stdioReader: z
      .object({
        maxMessageBytes: bytes.optional().describe("The client's limit on one message it reads from the server's stdout (bytes, the newline included); omitted: no limit."),
        chunkBytes: bytes.describe('How many bytes one read from the pipe returns (the last read of a line may return fewer).'),
        largeResponses: z
          .array(z.object({ requestId: idOrInt, messageBytes: bytes.describe("The size of this call's response line (bytes, the newline included).") }).strict())
          .max(16, 'must list at most 16 responses')
          .default([])
          .describe('The responses whose line is large enough to matter (a complete event\'s resultBytes says it too); every other message is small (within one read and the limit).'),
      })
      .strict()
      .optional()
      .describe('stdio only: how the client reads the server\'s stdout, for a size limit (mechanics/stdioLimit.ts); omitted: every message is small.'),
    policy: switchesOff(racesPolicySchema),
  })
  .strict();

const base = eventBase(ms);

/** Client starts a request (the model validates `requestId` and `progressToken` itself, to teach the rule). */
const start = eventObject(base, 'client', 'start', {
  requestId: json.describe('JSON-RPC id: a string or an integer (anything else is rejected by the client, visibly).'),
  method: z.enum(['tools/call', 'subscriptions/listen']).default('tools/call'),
  tool: z.string().min(1).max(64).default('slow_task'),
  progressToken: json.optional().describe('_meta.progressToken: a string or an integer; absent means no progress requested.'),
  idleTimeoutMs: positiveMs.nullable().default(null),
  maxTimeoutMs: positiveMs.nullable().default(null),
  cancellable: z.boolean().default(true).describe('false: the server may ignore cancellation of this request (work it cannot stop).'),
  sideEffect: z.boolean().optional().describe('true: the tool changes the world when its work completes (a payment, an email); the server counts executions per operation.'),
  idempotencyKey: z.string().min(1).max(64).optional().describe('A tool argument the server deduplicates on: a re-issue or MRTR retry with the same key gets the stored result instead of a second execution.'),
});
const cancel = eventObject(base, 'client', 'cancel', {
  requestId: idOrInt,
  reason: z.string().max(200).default('User requested cancellation'),
  malformed: z
    .enum(['no-jsonrpc', 'bad-jsonrpc', 'reason-not-string', 'has-id'], { error: 'must be one of no-jsonrpc, bad-jsonrpc, reason-not-string, has-id' })
    .optional()
    .describe('A faulty client: its notifications/cancelled lacks jsonrpc, has jsonrpc other than "2.0", a non-string reason, or an id (a request). The server ignores it.'),
});
const disconnect = eventObject(base, 'client', 'disconnect', {
  requestId: idOrInt,
  reissueId: idOrInt.optional().describe('2026-07-28 HTTP: the new request id the client re-issues the lost request with (default: the next free integer id).'),
});
/** 2026-07-28 MRTR: the client answers an InputRequiredResult by retrying the original request with inputResponses under a new id. */
const inputResponse = eventObject(base, 'client', 'input-response', {
  requestId: idOrInt.describe('The request that was answered with InputRequiredResult.'),
  newRequestId: idOrInt.optional().describe('The retry\'s request id (default: the next free integer id); it MUST differ from the original.'),
  action: z.enum(['accept', 'decline', 'cancel']).default('accept').describe('The user\'s answer to the elicitation (ElicitResult.action).'),
});
const inject = eventObject(base, 'client', 'inject', { message: json.describe('A raw JSON-RPC message a faulty client sends as-is.') });
const progress = eventObject(base, 'server', 'progress', {
  requestId: idOrInt,
  progress: z.number().finite(),
  total: z.number().finite().nullable().default(null),
  message: z.string().max(200).nullable().default(null),
});
const keepalive = eventObject(base, 'server', 'keepalive', { requestId: idOrInt });
const complete = eventObject(base, 'server', 'complete', {
  requestId: idOrInt,
  isError: z.boolean().default(false),
  text: z.string().max(200).default('done'),
  writeDelayMs: ms.optional().describe('The handler returns at `at`; its response is written this many ms later (the window a cancel can land in, mechanics/writeWindow.ts). Omitted or 0: at once.'),
  resultBytes: bytes.optional().describe("The size of this response's line on the wire (bytes, the newline included), read by the stdio client's reader (config.stdioReader, mechanics/stdioLimit.ts); omitted: a small message. `text` stays a short summary of it."),
});
const error = eventObject(base, 'server', 'error', {
  requestId: idOrInt,
  code: z.number().int(),
  message: z.string().max(200),
});
/** 2026-07-28 MRTR: the server answers a tools/call with InputRequiredResult (an elicitation/create under inputKey) instead of sending its own request. */
const inputRequired = eventObject(base, 'server', 'input-required', {
  requestId: idOrInt,
  inputKey: z.string().min(1).max(64).default('confirm').describe('The server-assigned key of the input request (unique within the request).'),
  message: z.string().max(200).default('Please confirm'),
  requestState: z.string().max(200).optional().describe('Opaque state the client MUST echo on its retry.'),
});
const serverCancel = eventObject(base, 'server', 'server-cancel', { requestId: idOrInt, reason: z.string().max(200).default('Server shutting down the stream') });

/** One scripted event of the races lab, discriminated by `kind`. */
export const racesEventSchema = eventUnion(
  [start, cancel, disconnect, inject, inputResponse, progress, keepalive, complete, error, serverCancel, inputRequired],
  'kind must be one of start, cancel, disconnect, inject, input-response (client) or progress, keepalive, complete, error, server-cancel, input-required (server)',
);

export type RacesConfig = z.output<typeof racesConfigSchema>;
export type RacesPolicy = z.output<typeof racesPolicySchema>;
export type RacesEvent = z.output<typeof racesEventSchema>;
export type RacesEventKind = RacesEvent['kind'];
/** The events the test-only oracle (`oracle/`, the model before issue 11) knows: all but the MRTR kinds. */
export type RacesEventBeforeMrtr = Exclude<RacesEvent, { kind: 'input-response' | 'input-required' }>;

/** Event kinds each actor may script, for the editor and for errors. */
export const RACES_EVENT_KINDS: Record<'client' | 'server', RacesEventKind[]> = {
  client: ['start', 'cancel', 'disconnect', 'inject', 'input-response'],
  server: ['progress', 'keepalive', 'complete', 'error', 'server-cancel', 'input-required'],
};

/** The races lab's scenario schemas (config + events), for `parseScenario(value, 'races', RACES_SCHEMAS)`. */
export const RACES_SCHEMAS: LabSchemas = { config: racesConfigSchema, event: racesEventSchema };

export { RACES_PAGE_MAX_EVENTS, racesLengthProblem } from './limits';
