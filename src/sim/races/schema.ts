import { z } from 'zod';
import type { LabSchemas } from '../scenario';

/** JSON values (for fields the model validates itself, such as a request id a learner may break on purpose). */
const json: z.ZodType<unknown> = z.unknown();
const ms = z.number({ error: 'must be a number of milliseconds' }).int('must be an integer number of milliseconds').min(0, 'must be ≥ 0 ms').max(1_000_000_000, 'must be ≤ 1,000,000,000 ms');
const positiveMs = z.number({ error: 'must be a number of milliseconds' }).int('must be an integer number of milliseconds').min(1, 'must be ≥ 1 ms').max(1_000_000_000, 'must be ≤ 1,000,000,000 ms');
const idOrInt = z.union([z.string(), z.number().int()], { error: 'must be a string or an integer' });

/** Broken-policy switches; all false means the correct client and server. */
export const racesPolicySchema = z
  .object({
    progressResetsMaximum: z.boolean().default(false).describe('Bug: progress also pushes the maximum deadline out.'),
    idleTimeoutOnly: z.boolean().default(false).describe('Bug: the client enforces only the idle timeout; no maximum.'),
    maximumCheckedOnProgress: z.boolean().default(false).describe('Bug (TS SDK v1): the maximum is checked only when progress arrives.'),
    progressTokenOmitted: z.boolean().default(false).describe('Bug: the request goes out without its progressToken, so progress can never reset idle.'),
    respondAfterCancel: z.boolean().default(false).describe('Bug: the server still sends a response after accepting a cancellation.'),
    clientNeverSettles: z.boolean().default(false).describe('Bug: the client sends its cancellation but never settles its own call.'),
    timeoutWithoutCancel: z.boolean().default(false).describe('Bug: on timeout the client stops waiting but sends no cancellation signal.'),
    httpPostsCancel: z.boolean().default(false).describe('Bug: under 2026-07-28 the Streamable HTTP client also POSTs notifications/cancelled.'),
  })
  .strict();

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
    policy: racesPolicySchema.default({
      progressResetsMaximum: false,
      idleTimeoutOnly: false,
      maximumCheckedOnProgress: false,
      progressTokenOmitted: false,
      respondAfterCancel: false,
      clientNeverSettles: false,
      timeoutWithoutCancel: false,
      httpPostsCancel: false,
    }),
  })
  .strict();

const base = {
  id: z.string().min(1, 'must be a non-empty string').max(64, 'must be at most 64 characters'),
  at: ms,
  label: z.string().max(120, 'must be at most 120 characters').optional(),
};

/** Client starts a request (the model validates `requestId` and `progressToken` itself, to teach the rule). */
const start = z
  .object({
    ...base,
    actor: z.literal('client'),
    kind: z.literal('start'),
    requestId: json.describe('JSON-RPC id: a string or an integer (anything else is rejected by the client, visibly).'),
    method: z.enum(['tools/call', 'subscriptions/listen']).default('tools/call'),
    tool: z.string().min(1).max(64).default('slow_task'),
    progressToken: json.optional().describe('_meta.progressToken: a string or an integer; absent means no progress requested.'),
    idleTimeoutMs: positiveMs.nullable().default(null),
    maxTimeoutMs: positiveMs.nullable().default(null),
    cancellable: z.boolean().default(true).describe('false: the server may ignore cancellation of this request (work it cannot stop).'),
  })
  .strict();
const cancel = z
  .object({ ...base, actor: z.literal('client'), kind: z.literal('cancel'), requestId: idOrInt, reason: z.string().max(200).default('User requested cancellation') })
  .strict();
const disconnect = z.object({ ...base, actor: z.literal('client'), kind: z.literal('disconnect'), requestId: idOrInt }).strict();
const inject = z
  .object({ ...base, actor: z.literal('client'), kind: z.literal('inject'), message: json.describe('A raw JSON-RPC message a faulty client sends as-is.') })
  .strict();
const progress = z
  .object({
    ...base,
    actor: z.literal('server'),
    kind: z.literal('progress'),
    requestId: idOrInt,
    progress: z.number().finite(),
    total: z.number().finite().nullable().default(null),
    message: z.string().max(200).nullable().default(null),
  })
  .strict();
const keepalive = z.object({ ...base, actor: z.literal('server'), kind: z.literal('keepalive'), requestId: idOrInt }).strict();
const complete = z
  .object({
    ...base,
    actor: z.literal('server'),
    kind: z.literal('complete'),
    requestId: idOrInt,
    isError: z.boolean().default(false),
    text: z.string().max(200).default('done'),
  })
  .strict();
const error = z
  .object({
    ...base,
    actor: z.literal('server'),
    kind: z.literal('error'),
    requestId: idOrInt,
    code: z.number().int(),
    message: z.string().max(200),
  })
  .strict();
const serverCancel = z
  .object({ ...base, actor: z.literal('server'), kind: z.literal('server-cancel'), requestId: idOrInt, reason: z.string().max(200).default('Server shutting down the stream') })
  .strict();

/** One scripted event of the races lab, discriminated by `kind`. */
export const racesEventSchema = z.discriminatedUnion('kind', [start, cancel, disconnect, inject, progress, keepalive, complete, error, serverCancel], {
  error: (issue) =>
    issue.code === 'invalid_union'
      ? 'kind must be one of start, cancel, disconnect, inject (client) or progress, keepalive, complete, error, server-cancel (server)'
      : undefined,
});

export type RacesConfig = z.output<typeof racesConfigSchema>;
export type RacesPolicy = z.output<typeof racesPolicySchema>;
export type RacesEvent = z.output<typeof racesEventSchema>;
export type RacesEventKind = RacesEvent['kind'];

/** Event kinds each actor may script, for the editor and for errors. */
export const RACES_EVENT_KINDS: Record<'client' | 'server', RacesEventKind[]> = {
  client: ['start', 'cancel', 'disconnect', 'inject'],
  server: ['progress', 'keepalive', 'complete', 'error', 'server-cancel'],
};

/** The races lab's scenario schemas (config + events), for `parseScenario(value, 'races', RACES_SCHEMAS)`. */
export const RACES_SCHEMAS: LabSchemas = { config: racesConfigSchema, event: racesEventSchema };

export { RACES_PAGE_MAX_EVENTS, racesLengthProblem } from './limits';
