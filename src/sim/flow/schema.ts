import { z } from 'zod';
import { BUFFER_POLICIES } from './buffer';

const ms = z.number().int('must be an integer number of milliseconds').min(0, 'must be ≥ 0 ms').max(1_000_000_000, 'must be ≤ 1,000,000,000 ms');
const positiveMs = z.number().int('must be an integer number of milliseconds').min(1, 'must be ≥ 1 ms').max(1_000_000_000, 'must be ≤ 1,000,000,000 ms');
const token = z.string().min(1, 'must be a non-empty string').max(40, 'must be at most 40 characters');

/** A server-side producer: `count` progress events of `token` every `intervalMs` from `startMs`, then optionally the final response. */
const producerSchema = z
  .object({
    token,
    startMs: ms.default(0),
    intervalMs: positiveMs.describe('Time between two progress events (ms); 10 = 100 events per second.'),
    count: z.number().int().min(0).max(200_000, 'must be at most 200,000 events'),
    final: z.boolean().default(false).describe('Send the final response one interval after the last progress.'),
  })
  .strict();

/** Broken-policy switches beside the buffer policy; all false means the correct client. */
export const flowBugsSchema = z
  .object({
    keepAliveResetsIdle: z.boolean().default(false).describe('Bug: the client treats keep-alive comments as activity and resets the operation\'s idle timeout.'),
    omitAccelBufferingHeader: z.boolean().default(false).describe('Bug: the server leaves out X-Accel-Buffering: no, so a proxy that honours the header (nginx-like) buffers the stream.'),
  })
  .strict();

/** The fleet of clients holding streams to one server (connection-cap and restart cases). */
export const fleetSchema = z
  .object({
    clients: z.number().int().min(1).max(2000, 'must be at most 2000 clients (use the herd plot for more)'),
    connectAtMs: ms.nullable().default(0).describe('When every client opens its stream (in client order); null: already connected before 0.'),
    maxStreams: z.number().int().min(1).nullable().default(null).describe('Streams the server holds at most; null: no cap.'),
    atCap: z.enum(['evict-oldest', 'reject']).default('reject').describe('What the server does when a stream arrives at the cap.'),
    evictedReconnectMs: ms.default(3000).describe('An evicted client reconnects after this delay.'),
    retryAfterS: z.number().int().min(1).max(3600).default(5).describe('Retry-After (seconds) sent with a 503 at the cap.'),
    restart: z.object({ atMs: ms, durationMs: ms }).strict().nullable().default(null).describe('Server restart: every stream drops at atMs; the server is down for durationMs.'),
    reconnectDelayMs: ms.default(5000).describe('After a drop, a client reconnects after this delay …'),
    jitterMs: ms.default(0).describe('… plus a uniform offset in [−jitterMs, +jitterMs], a hash of (seed, client, attempt).'),
  })
  .strict();

/** Flow lab configuration. */
export const flowConfigSchema = z
  .object({
    revision: z.enum(['2026-07-28', '2025-11-25']).default('2026-07-28').describe('MCP spec revision simulated.'),
    policy: z.enum(BUFFER_POLICIES as [string, ...string[]]).default('lesson').describe('What the SSE buffer does at capacity.'),
    capacityEvents: z.number().int('must be an integer').min(2, 'must be at least 2 (a progress and a final must fit together)').max(1_000_000).default(3),
    producers: z.array(producerSchema).max(8).default([]),
    consumer: z
      .object({ readIntervalMs: ms.default(0).describe('Time the client needs per event; 0 keeps up with any rate.') })
      .strict()
      .default({ readIntervalMs: 0 }),
    proxy: z
      .object({
        enabled: z.boolean().default(false),
        buffering: z.boolean().default(false).describe('The proxy holds the response and flushes it every flushIntervalMs.'),
        flushIntervalMs: positiveMs.default(10000),
        readTimeoutMs: positiveMs.nullable().default(null).describe('The proxy closes the stream after this long without a byte from the server.'),
        honoursAccelBuffering: z
          .boolean()
          .default(false)
          .describe('nginx-like: the response header X-Accel-Buffering: no turns buffering off for this stream (nginx\'s proxy_buffering stays on for every other response).'),
        bufferEvents: z
          .number()
          .int('must be an integer')
          .min(1, 'must be at least 1 event')
          .max(1_000_000)
          .nullable()
          .default(null)
          .describe('While buffering, the proxy also flushes as soon as it holds this many events (its buffer is full); null: only every flushIntervalMs.'),
      })
      .strict()
      .default({ enabled: false, buffering: false, flushIntervalMs: 10000, readTimeoutMs: null, honoursAccelBuffering: false, bufferEvents: null }),
    keepAliveIntervalMs: positiveMs.nullable().default(null).describe('The server writes an SSE comment line (":") this often.'),
    client: z
      .object({
        operationToken: token.nullable().default(null).describe('The operation whose idle timeout is watched (default: the first producer\'s token).'),
        idleTimeoutMs: positiveMs.nullable().default(null).describe('Reset only by progress of the operation; never by keep-alive comments.'),
        reconnectDelayMs: ms.default(1000).describe('After the stream drops, the client reconnects (and resyncs) after this delay, once it is not stalled.'),
      })
      .strict()
      .default({ operationToken: null, idleTimeoutMs: null, reconnectDelayMs: 1000 }),
    horizonMs: positiveMs.default(120000).describe('Periodic timers (keep-alives, flushes, retries) stop after this time.'),
    bugs: flowBugsSchema.default({ keepAliveResetsIdle: false, omitAccelBufferingHeader: false }),
    fleet: fleetSchema.nullable().default(null),
  })
  .strict();

const base = {
  id: z.string().min(1, 'must be a non-empty string').max(64, 'must be at most 64 characters'),
  at: ms,
  label: z.string().max(120, 'must be at most 120 characters').optional(),
};

const progress = z.object({ ...base, actor: z.literal('server'), kind: z.literal('progress'), token }).strict();
const final = z.object({ ...base, actor: z.literal('server'), kind: z.literal('final'), token }).strict();
const keepalive = z.object({ ...base, actor: z.literal('server'), kind: z.literal('keepalive') }).strict();
const stall = z.object({ ...base, actor: z.literal('client'), kind: z.literal('stall'), durationMs: positiveMs }).strict();
const drop = z.object({ ...base, actor: z.literal('wire'), kind: z.literal('drop') }).strict();

/** One scripted event of the flow lab, discriminated by `kind`. */
export const flowEventSchema = z.discriminatedUnion('kind', [progress, final, keepalive, stall, drop], {
  error: (issue) =>
    issue.code === 'invalid_union' ? 'kind must be one of progress, final, keepalive (server), stall (client) or drop (wire)' : undefined,
});

export type FlowConfig = z.output<typeof flowConfigSchema>;
export type FleetConfig = z.output<typeof fleetSchema>;
export type FlowEvent = z.output<typeof flowEventSchema>;
