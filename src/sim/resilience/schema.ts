import * as z from 'zod';
import { eventBase, eventObject, eventUnion, switchesField } from '../schemaParts';
import { BACKOFF_STRATEGIES, type BackoffStrategy } from '../retry/backoff';

/**
 * Scenario schemas of the resilience lab. One lab, four mechanisms picked by `config.mechanism`:
 * `tasks` (durable tasks and tasks/cancel), `breaker` (circuit breaker with a retry policy and
 * retry budgets), `storm` (retries across client → MCP server → upstream layers).
 */

const ms = z.number().int('must be an integer number of milliseconds').min(0, 'must be ≥ 0 ms').max(1_000_000_000, 'must be ≤ 1,000,000,000 ms');
const positiveMs = z.number().int('must be an integer number of milliseconds').min(1, 'must be ≥ 1 ms').max(1_000_000_000, 'must be ≤ 1,000,000,000 ms');
const revision = z.enum(['2026-07-28', '2025-11-25']).default('2026-07-28').describe('MCP spec revision simulated.');
const latency = z
  .object({ clientToServer: ms.default(0), serverToClient: ms.default(0) })
  .strict()
  .default({ clientToServer: 0, serverToClient: 0 })
  .describe('One-way message latency, each direction (ms).');

// ───────────────────────────── tasks ─────────────────────────────

export const tasksConfigSchema = z
  .object({
    mechanism: z.literal('tasks'),
    revision,
    latencyMs: latency,
    pollIntervalMs: positiveMs.default(1000).describe('Poll interval the server suggests (pollInterval / pollIntervalMs), ms — for every task whose created event names no pollIntervalMs of its own.'),
    minPollIntervalMs: ms
      .optional()
      .describe('The user\'s minimum poll interval, ms (MCPJam inspector PR#3518: "a preferred minimum, never permission to go faster"): the client polls each task every max(its server\'s pollIntervalMs, this) ms. Omitted or 0: no minimum.'),
    ttlMs: positiveMs.default(600_000).describe('Task retention the client requests (ttl / ttlMs), ms.'),
    transport: z
      .enum(['stdio', 'streamable-http'])
      .default('stdio')
      .describe('Transport the client and server speak; over Streamable HTTP every 2026-07-28 tasks/* request carries Mcp-Method and Mcp-Name: <taskId>.'),
    durableWriteMs: ms.default(0).describe('Time the task store takes to make a new task durable (until a tasks/get for it would resolve), ms.'),
    serverCrashAtMs: ms.nullable().default(null).describe('The server process crashes at this time and restarts at once: every task not yet durable is lost, and so is an unanswered tools/call; null = no crash.'),
    clientTasksExtension: z
      .boolean()
      .optional()
      .describe('2026-07-28: the client declares the tasks extension in its per-request capabilities (true, the default, omitted). false: it does not, so a server that can answer the call only with a task MUST refuse it with -32021 MissingRequiredClientCapability.'),
    clientElicitation: z
      .enum(['form', 'none'], { error: 'must be one of form, none' })
      .optional()
      .describe("2026-07-28: what the client declares under clientCapabilities.elicitation on every request. 'form' (the default, omitted): it answers the task's form elicitations with tasks/update. 'none': it declares none; a correct server then may not ask it for input (the task fails with -32021 MissingRequiredClientCapability)."),
    // Broken-policy switches of the tasks mechanism; all false is the correct client and server.
    policy: switchesField({
      cancelOverwritesTerminal: 'Bug: the task store writes "cancelled" over a task that already completed or failed.',
      forgetEarlyAbort: 'Bug: a user abort before the task id is known is dropped instead of remembered.',
      cancelWithNotification: 'Bug: the client cancels the task with notifications/cancelled for the tools/call id instead of tasks/cancel ("The notifications/cancelled notification MUST NOT be used for task cancellation").',
      handleBeforeDurable: 'Bug: the server returns the task handle before the task is durably created ("A server MUST NOT return CreateTaskResult until the task is durably created").',
      taskToUndeclaredClient: 'Bug: the server answers with CreateTaskResult a client that did not declare the tasks extension ("A server MUST NOT return CreateTaskResult to a client that did not include the extension capability on its request").',
      inputRequestsUndeclared: 'Bug: the task asks a client that declared no elicitation for elicitation/create in inputRequests ("Servers MUST NOT send an inputRequests that the client has not declared support for"); the client cannot answer.',
      pollAtMinimumAcrossTasks:
        'Bug (MCPJam inspector PR#3518): the client polls every task it is polling at the minimum pollIntervalMs across them (its tasks tab took one Math.min over the active tasks\' intervals), so one task whose server asks for 500 ms drags a task whose server asks for 30 000 ms down to 500 ms — 60× that task\'s tasks/get load. Corrected: each task is polled at its own max(the server\'s pollIntervalMs for that task, the user\'s minimum) ("Clients SHOULD respect the pollIntervalMs provided in responses when determining polling frequency"; 2025-11-25: "Requestors SHOULD respect the pollInterval provided in responses").',
    }),
  })
  .strict();

// ───────────────────────────── breaker + retry ─────────────────────────────

const failWith = z
  .enum(['http-503', 'http-429', 'http-500', 'http-502', 'http-504', 'http-408', 'http-400', 'http-422', 'jsonrpc-32603', 'jsonrpc-32602', 'tool-error', 'network', 'partial-stream', 'client-timeout'])
  .default('http-503')
  .describe('How the failing downstream fails each attempt (the retry classifier reads it).');

export const breakerConfigSchema = z
  .object({
    mechanism: z.literal('breaker'),
    revision,
    composition: z
      .enum(['retry-around-breaker', 'breaker-around-retry'])
      .default('retry-around-breaker')
      .describe('retry-around-breaker: every wire attempt passes the breaker and counts; breaker-around-retry: the breaker sees one result per exhausted retry loop.'),
    breaker: z
      .object({
        failureThreshold: z.number().int().min(1).max(1000).default(5).describe('Failures (naive: consecutive; corrected: minimum calls in the window) that open the breaker.'),
        failureRateThreshold: z.number().min(0.01).max(1).default(0.5).describe('Corrected: the window failure rate that opens it, once the window holds failureThreshold calls.'),
        windowMs: positiveMs.default(60_000).describe('Corrected: sliding time window the failure rate is computed over (ms).'),
        cooldownMs: positiveMs.default(10_000).describe('Open → half-open after this long (ms).'),
        halfOpenPermits: z.number().int().min(1).max(100).default(1).describe('Probes admitted in half-open; all must succeed to close.'),
      })
      .strict()
      .default({ failureThreshold: 5, failureRateThreshold: 0.5, windowMs: 60_000, cooldownMs: 10_000, halfOpenPermits: 1 }),
    retry: z
      .object({
        maxAttempts: z.number().int().min(1).max(20).default(1).describe('Attempts per call, the first included (1 = no retry).'),
        strategy: z.enum(BACKOFF_STRATEGIES as [BackoffStrategy, ...BackoffStrategy[]]).default('fixed').describe('Backoff strategy (flow lab, src/sim/flow/backoff.ts).'),
        baseMs: ms.default(100),
        capMs: ms.default(10_000),
        budget: z.enum(['none', 'token-bucket', 'ratio']).default('none').describe('Retry budget: gRPC-style token bucket or a per-client retry ratio.'),
        maxTokens: z.number().int().min(1).max(1000).default(10).describe('Token bucket size; retries stop once tokens ≤ maxTokens / 2 (gRPC retryThrottling).'),
        tokenRatio: z.number().min(0.001).max(10).default(0.1).describe('Tokens a success puts back (a failure takes 1).'),
        retryRatio: z.number().min(0).max(1).default(0.1).describe('Per-client ratio: retries ≤ retryRatio × calls.'),
        onRejection: z
          .enum(['fail-fast', 'wait-for-reset', 'backoff'])
          .default('wait-for-reset')
          .describe(
            'retry-around-breaker only: what the retry policy does when the breaker rejects an attempt. fail-fast: end the call at once; wait-for-reset: retry no sooner than the breaker\'s reset time (nothing reached the downstream, so it is safe; bounded by maxAttempts and the budget); backoff: retry on the normal backoff (naive: burns the attempts against the open breaker). Under breaker-around-retry a rejection comes before the retry loop and is final.',
          ),
      })
      .strict()
      .default({ maxAttempts: 1, strategy: 'fixed', baseMs: 100, capMs: 10_000, budget: 'none', maxTokens: 10, tokenRatio: 0.1, retryRatio: 0.1, onRejection: 'wait-for-reset' }),
    downstream: z
      .object({
        latencyMs: positiveMs.default(100).describe('How long each attempt takes to succeed or fail (ms).'),
        failingAtStart: z.boolean().default(true).describe('Whether the downstream fails from 0 ms until a "recover" event.'),
        failWith,
        retryAfterMs: ms.nullable().default(null).describe('Retry-After the downstream sends with 429 / 503 (ms), or null.'),
      })
      .strict()
      .default({ latencyMs: 100, failingAtStart: true, failWith: 'http-503', retryAfterMs: null }),
    operation: z
      .object({
        sideEffect: z.boolean().default(false).describe('Whether the tool changes state.'),
        idempotencyKey: z.string().max(64).default('').describe('Idempotency key sent with every attempt; empty = none.'),
      })
      .strict()
      .default({ sideEffect: false, idempotencyKey: '' }),
    // Broken-policy switches of the breaker; all false is the corrected breaker.
    policy: switchesField({
      consecutiveNeverDecays: 'Naive: a consecutive failure count with no time window (old failures never expire).',
      halfOpenAdmitsAll: 'Naive: half-open lets every caller through instead of the permitted probes.',
      staleResultsCounted: 'Naive: results of calls admitted before a state change still move the state (no generation).',
      resetTimerLostOnRepeatOpen: 'Library bug: a failure arriving while already open clears the reset timer and never re-arms it.',
      toolErrorsCounted: 'Bug (hermes-agent#11113): a tools/call result with isError: true counts as a breaker failure, so a healthy server that answers "not found" three times is marked unreachable. Corrected: only transport failures count (timeouts, connection errors, HTTP and JSON-RPC errors); a completed round trip, even isError, counts as a success.',
      halfOpenProbeIsRealCall: 'Bug (hermes-agent#11113): the half-open probe is the next real tools/call even when the tool has a side effect, so every probe repeats the side effect (and, answering isError again, re-trips the breaker). Corrected: a tool with a side effect is probed with a side-effect-free request — ping (2025-11-25) or server/discover (2026-07-28, which has no ping); a read-only tool\'s call is its own probe.',
    }),
  })
  .strict();

// ───────────────────────────── storm ─────────────────────────────

const layerSchema = z
  .object({
    name: z.string().min(1).max(32),
    timeoutMs: positiveMs.nullable().default(null).describe('Per-attempt timeout of this layer (ms); null = waits forever.'),
    maxRetries: z.number().int().min(0).max(10).default(3).describe('Retries after the first attempt.'),
    backoffMs: ms.default(0).describe('Fixed delay before each retry (ms).'),
    process: z
      .string()
      .min(1)
      .max(32)
      .nullable()
      .default(null)
      .describe('The process this layer runs in; layers naming the same process are retry layers stacked inside one client, each unaware of the other (nanobot#2760: the application\'s retries around its SDK\'s retries). null = a process of its own.'),
  })
  .strict();

export const stormConfigSchema = z
  .object({
    mechanism: z.literal('storm'),
    layers: z.array(layerSchema).min(1).max(5).describe('Retrying layers, outermost (client) first; the last calls the upstream API.'),
    upstream: z
      .object({
        runMs: positiveMs.default(100).describe('How long one upstream execution takes (ms).'),
        failingAtStart: z.boolean().default(true).describe('Executions fail (503) until a "recover" event.'),
        failStatus: z.union([z.literal(429), z.literal(500), z.literal(502), z.literal(503), z.literal(504)], { error: 'must be 429, 500, 502, 503 or 504' }).default(503).describe('The HTTP status a failing execution answers (429: rate limited, as in nanobot#2760).'),
        duplicateGuardMaxRuns: z.number().int().min(1).max(100).nullable().default(null).describe('A duplicate guard kills a new run of the same action when this many already run; null = no guard.'),
        receiptAfterMs: positiveMs.nullable().default(null).describe('Answer with a receipt after this long and let the caller poll, instead of holding the request (ms).'),
        pollIntervalMs: positiveMs.default(5000),
      })
      .strict()
      .default({ runMs: 100, failingAtStart: true, failStatus: 503, duplicateGuardMaxRuns: null, receiptAfterMs: null, pollIntervalMs: 5000 }),
    cancelPropagationMs: ms.default(320).describe('Time a cancellation takes to cross the whole chain from the client to the upstream, split evenly over the hops (the postmortem: 320 ms on average "to cross the whole call chain").'),
    retryBudgetRatio: z.number().min(0).max(1).default(0.1),
    // The fixes of the storm, each off by default (the storm as it happens).
    fixes: switchesField({
      retryAtOneLayerOnly: 'Only the outermost layer retries.',
      deadlinePropagation: 'Each layer passes its remaining deadline down; inner attempts never outlive it.',
      retryBudget: 'Each layer caps retries at retryBudgetRatio × attempts it received (at least 1).',
      cancelPropagation: 'A cancel travels down the chain, crossing it in cancelPropagationMs (one even share per hop); inner layers stop.',
      idempotencyKeys: 'Upstream deduplicates by key: a repeat joins the running or finished execution.',
      oneRetryLayerPerProcess: 'Inside one process only the outermost layer retries (the application turns its SDK\'s own retries off); layers in other processes keep theirs.',
    }),
  })
  .strict();

/** Resilience lab configuration, by mechanism. */
export const resilienceConfigSchema = z.discriminatedUnion('mechanism', [tasksConfigSchema, breakerConfigSchema, stormConfigSchema], {
  error: (issue) => (issue.code === 'invalid_union' ? 'mechanism must be one of "tasks", "breaker", "storm"' : undefined),
});

// ───────────────────────────── events ─────────────────────────────

const base = eventBase(ms);

/**
 * Tasks: which task of the scenario an event is about — its key in the outcome (`requests[key]`).
 * Omitted: "task", the first (every scenario before T6 has that one task). A `call` naming another
 * key starts a further task (MCPJam inspector PR#3518: a client polling several tasks at once).
 */
const taskKey = { task: z.string().min(1).max(32).regex(/^[A-Za-z][A-Za-z0-9_-]*$/, 'must start with a letter and hold only letters, digits, _ and -').optional().describe('Which task this event is about (its outcome key); omitted: "task", the first.') };
/** Tasks: the client sends a task-augmented tools/call. */
const taskCall = eventObject(base, 'client', 'call', { tool: z.string().min(1).max(64).default('long_report'), requestId: z.union([z.string(), z.number().int()]).default(1), ...taskKey });
/** Tasks: the server creates the task and answers with CreateTaskResult (carrying its own `pollIntervalMs` when given). */
const taskCreated = eventObject(base, 'server', 'created', {
  taskId: z.string().min(1).max(64).default('task-1'),
  pollIntervalMs: positiveMs.optional().describe("The server's pollIntervalMs for this task (in its CreateTaskResult and every Task it sends), ms; omitted: config.pollIntervalMs."),
  ...taskKey,
});
/** Tasks: the user aborts (the client cancels the task, now or as soon as its id is known). */
const taskAbort = eventObject(base, 'client', 'abort', { ...taskKey });
/** Tasks: the worker reaches a checkpoint where it can stop. */
const checkpoint = eventObject(base, 'worker', 'checkpoint', { ...taskKey });
/** Tasks: the work finishes. */
const finish = eventObject(base, 'worker', 'finish', { outcome: z.enum(['completed', 'failed']).default('completed'), text: z.string().max(200).default('report ready'), ...taskKey });
/** Tasks: the worker needs input / gets it. */
const needInput = eventObject(base, 'worker', 'input-required', { ...taskKey });
const resume = eventObject(base, 'worker', 'resume', { ...taskKey });
/** Breaker: one or more concurrent logical calls. Storm: the user action. */
const call = eventObject(base, 'client', 'request', { count: z.number().int().min(1).max(10_000).default(1) });
/** Breaker / storm: the downstream (upstream API) recovers or starts failing. */
const recover = eventObject(base, 'upstream', 'recover', {});
const outage = eventObject(base, 'upstream', 'outage', {});
/** Storm: the user cancels the action. */
const userCancel = eventObject(base, 'client', 'cancel', {});

/** One scripted event of the resilience lab, discriminated by `kind`. */
export const resilienceEventSchema = eventUnion(
  [taskCall, taskCreated, taskAbort, checkpoint, finish, needInput, resume, call, recover, outage, userCancel],
  'kind must be one of call, abort, request, cancel (client), created (server), checkpoint, finish, input-required, resume (worker), recover, outage (upstream)',
);

export type ResilienceConfig = z.output<typeof resilienceConfigSchema>;
export type TasksConfig = z.output<typeof tasksConfigSchema>;
export type BreakerConfig = z.output<typeof breakerConfigSchema>;
export type StormConfig = z.output<typeof stormConfigSchema>;
export type ResilienceEvent = z.output<typeof resilienceEventSchema>;
