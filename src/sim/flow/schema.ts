import * as z from 'zod';
import { BUFFER_POLICIES, LESSON_MIN_CAPACITY_EVENTS } from './buffer';
import { eventBase, eventObject, eventUnion, switchesField } from '../schemaParts';

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

/**
 * A reconnect loop of one client (issue 11; the thread numbers and figures come from the issue
 * text): every connection it opens succeeds (handshake / response headers after `handshakeMs`)
 * and then ends normally after `lifetimeMs` — a GET stream the server closes (python-sdk#3257), a
 * GET answered 200 with an empty body where the server should answer 405 (a client reconnected
 * every ~1.2 s for 11 hours), or a stdio server that exits with code 0 after the handshake
 * (oh-my-pi PR#1596: 127 spawns in 3 s, expectation ≤ 10). Computed by `simulateReconnectLoop`.
 */
export const reconnectLoopSchema = z
  .object({
    transport: z.enum(['streamable-http', 'stdio']).default('streamable-http').describe('streamable-http: a GET stream; stdio: a spawned server process.'),
    serverGet: z
      .enum(['stream-then-end', '200-empty', '405'])
      .default('stream-then-end')
      .describe('streamable-http: the server opens an SSE stream and later ends it; answers 200 with no stream (the bug: it should say 405); or answers 405 Method Not Allowed ("does not offer an SSE stream at this endpoint").'),
    handshakeMs: ms.default(0).describe('Time from connect (or spawn) to a successful handshake / response headers.'),
    lifetimeMs: ms.default(0).describe('Time the connection lives after the handshake before it ends normally (stream end, exit code 0).'),
    reconnectDelayMs: ms.default(1000).describe('Delay before reconnect attempt 1 (the base of the backoff).'),
    capMs: ms.default(30000).describe('Largest backoff delay (full-jitter).'),
    maxAttempts: z.number().int().min(0).max(1000).default(2).describe('Reconnect attempts without a healthy connection before the client gives up (python-sdk: MAX_RECONNECTION_ATTEMPTS = 2).'),
    counterResetsOn: z
      .enum(['stream-end', 'handshake', 'healthy-connection'])
      .default('healthy-connection')
      .describe('When the attempt counter goes back to 0: on every normal stream end or every successful handshake (the bugs: the limit never trips), or only after a connection stayed up healthyAfterMs (correct: the counter is kept across disconnects).'),
    healthyAfterMs: positiveMs.default(60000).describe('A connection that lived this long after its handshake counts as healthy.'),
    backoff: z.enum(['flat', 'full-jitter']).default('full-jitter').describe('flat: every reconnect waits reconnectDelayMs (no jitter, the bug); full-jitter: uniform in [0, min(capMs, reconnectDelayMs · 2^attempt)].'),
    burstCap: z
      .object({ max: z.number().int().min(1).max(1000), windowMs: positiveMs })
      .strict()
      .nullable()
      .default({ max: 5, windowMs: 10000 })
      .describe('At most `max` connects in any windowMs: a reconnect that would exceed it waits (null: no cap, the bug).'),
    horizonMs: z.number().int().min(1).max(100_000_000, 'must be ≤ 100,000,000 ms (about 28 hours)').default(60000).describe('The loop is followed until this time.'),
  })
  .strict();

/**
 * A 2025-11-25 request stream resumed with Last-Event-ID across two drops (typescript-sdk#2499,
 * cited in issue 11): computed by `resumeAfterDrops`.
 */
export const resumptionSchema = z
  .object({
    requestId: z.number().int().min(0).default(7).describe('The tools/call whose response stream drops.'),
    eventsAtMs: z.array(ms).max(1000).default([100, 200, 300]).describe('When the server writes the stream\'s SSE events (ids 1, 2, …), before the response.'),
    responseAtMs: ms.default(1500).describe('When the server writes the final response (the last event id).'),
    dropsAtMs: z.array(ms).max(20).default([350, 1400]).describe('When the stream drops (each drop: reconnect after reconnectDelayMs with GET + Last-Event-ID).'),
    reconnectDelayMs: ms.default(1000),
    cursor: z
      .enum(['carried', 'per-stream'])
      .default('carried')
      .describe('carried: the last event id seen survives a reconnect (correct); per-stream: each resumed stream starts its cursor undefined, so a drop before its first event sends no Last-Event-ID (the bug).'),
    horizonMs: positiveMs.default(60000),
  })
  .strict();

/** Flow lab configuration. */
export const flowConfigSchema = z
  .object({
    revision: z.enum(['2026-07-28', '2025-11-25']).default('2026-07-28').describe('MCP spec revision simulated.'),
    policy: z.enum(BUFFER_POLICIES as [string, ...string[]]).default('lesson').describe('What the SSE buffer does at capacity.'),
    capacityEvents: z
      .number()
      .int('must be an integer')
      .min(1, 'must be at least 1 event')
      .max(1_000_000)
      .default(3)
      .describe('The server\'s per-stream SSE buffer (events). 1 is a one-slot buffer (cpp-mcp before PR#53: each event overwrites the unread one); the lesson policy needs at least 2 (a progress and a final must fit together).'),
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
        tool: z.string().min(1, 'must be a non-empty string').max(64, 'must be at most 64 characters').default('long_job').describe('The watched operation\'s tool (tools/call params.name of a 2026-07-28 re-issue).'),
        sideEffect: z.boolean().default(false).describe('The watched tool has a side effect (sends an invoice, charges a card): each execution that completes performs it once.'),
        idempotencyKey: z.string().min(1, 'must be a non-empty string').max(64, 'must be at most 64 characters').nullable().default(null).describe('The idempotency key the watched call carries (arguments.idempotencyKey); the server deduplicates on it and answers a re-issue with the stored result.'),
      })
      .strict()
      .default({ operationToken: null, idleTimeoutMs: null, reconnectDelayMs: 1000, tool: 'long_job', sideEffect: false, idempotencyKey: null }),
    horizonMs: positiveMs.default(120000).describe('Periodic timers (keep-alives, flushes, retries) stop after this time.'),
    // Broken-policy switches beside the buffer policy; all false means the correct client.
    bugs: switchesField({
      keepAliveResetsIdle: 'Bug: the client treats keep-alive comments as activity and resets the operation\'s idle timeout.',
      omitAccelBufferingHeader: 'Bug: the server leaves out X-Accel-Buffering: no, so a proxy that honours the header (nginx-like) buffers the stream.',
      resumeUnder2026: 'Bug (the lab\'s old rule): under 2026-07-28 a broken stream does not lose the in-flight request — the client keeps waiting for the old id and the server keeps writing the old execution\'s events, as if the stream were resumed. 2026-07-28 has no resumption: the request is lost and MUST be re-issued with a new id.',
      idempotencyKeyOmitted: 'Bug: the client sends the watched call without its idempotency key (client.idempotencyKey), so the server cannot deduplicate a re-issue.',
    }),
    fleet: fleetSchema.nullable().default(null),
    reconnectLoop: reconnectLoopSchema.nullable().default(null).describe('One client\'s reconnect loop (counter resets, flat delays, burst caps); see simulateReconnectLoop.'),
    resumption: resumptionSchema.nullable().default(null).describe('2025-11-25: a response stream resumed with Last-Event-ID across two drops; see resumeAfterDrops. Under 2026-07-28 nothing is resumed (the first drop loses the request) unless the bug resumeUnder2026 is on.'),
  })
  .strict()
  .superRefine((c, ctx) => {
    if (c.policy === 'lesson' && c.capacityEvents < LESSON_MIN_CAPACITY_EVENTS) ctx.addIssue({ code: 'custom', path: ['capacityEvents'], message: `must be at least ${LESSON_MIN_CAPACITY_EVENTS} under the lesson policy (a progress and a final must fit together); a one-slot buffer needs policy drop-oldest, drop-silent, disconnect or unbounded` });
  });

const base = eventBase(ms);

const progress = eventObject(base, 'server', 'progress', { token });
const final = eventObject(base, 'server', 'final', { token });
const keepalive = eventObject(base, 'server', 'keepalive', {});
const stall = eventObject(base, 'client', 'stall', { durationMs: positiveMs });
const drop = eventObject(base, 'wire', 'drop', {});

/** One scripted event of the flow lab, discriminated by `kind`. */
export const flowEventSchema = eventUnion([progress, final, keepalive, stall, drop], 'kind must be one of progress, final, keepalive (server), stall (client) or drop (wire)');

export type FlowConfig = z.output<typeof flowConfigSchema>;
export type FleetConfig = z.output<typeof fleetSchema>;
export type ReconnectLoopConfig = z.output<typeof reconnectLoopSchema>;
export type ResumptionConfig = z.output<typeof resumptionSchema>;
export type FlowEvent = z.output<typeof flowEventSchema>;
