import * as z from 'zod';
import { eventBase, eventObject, eventUnion } from '../schemaParts';
import { MAX_CHARGE_CENTS } from './ledger';

const cents = z.number().int('must be an integer number of cents').max(MAX_CHARGE_CENTS, `must be at most ${MAX_CHARGE_CENTS} cents (this lab's cap for one charge)`);

const ms = z.number().int('must be an integer number of milliseconds').min(0, 'must be ≥ 0 ms').max(1_000_000_000, 'must be ≤ 1,000,000,000 ms');
const requestId = z.union([z.string().min(1, 'must not be empty').max(64), z.number().int()], { error: 'must be a string or an integer (a JSON-RPC id)' });

/** Who may race in the ledger lab: two connections to one database. */
export const CONNECTIONS = ['A', 'B'] as const;
export type ConnId = (typeof CONNECTIONS)[number];

/**
 * Most scripted events a ledger scenario may hold in the page: every step runs real SQL and keeps
 * a snapshot of the tables, so replay cost grows with the square of the length (≈0.5 s at 300).
 */
export const LEDGER_MAX_EVENTS = 300;

/** Why `events` is too long for the ledger lab, or null. */
export function ledgerLengthProblem(events: readonly unknown[]): string | null {
  return events.length > LEDGER_MAX_EVENTS
    ? `events: the ledger lab replays at most ${LEDGER_MAX_EVENTS} events (each step runs SQL on a real database); this scenario has ${events.length}`
    : null;
}

/** The five steps of one connection's attempt, in lane order. */
export const STEP_KINDS = ['begin', 'read', 'execute', 'write', 'commit'] as const;
export type StepKind = (typeof STEP_KINDS)[number];

/**
 * How the two connections run `charge` against the key (the lesson's three policies plus the
 * tempting deferred transaction):
 * - `naive`: check-then-act with separate autocommit statements (broken);
 * - `deferred`: `BEGIN` (deferred) — correct but the read-then-write upgrade fails with SQLITE_BUSY;
 * - `immediate`: `BEGIN IMMEDIATE` — the write lock is taken at begin, the second writer waits;
 * - `claim`: one statement `INSERT … ON CONFLICT(key) DO NOTHING RETURNING` claims the key.
 */
export const POLICIES = ['naive', 'deferred', 'immediate', 'claim'] as const;
export type LedgerPolicy = (typeof POLICIES)[number];

/** Ledger lab configuration. */
export const ledgerConfigSchema = z
  .object({
    revision: z.enum(['2026-07-28', '2025-11-25']).default('2026-07-28').describe('MCP spec revision of the emitted tools/call messages.'),
    dedupe: z.enum(['key', 'none']).default('key').describe('Server: deduplicate keyed calls in one transaction (key) or execute every call (none, the bug).'),
    clientKey: z.enum(['stable', 'per-attempt']).default('stable').describe('Client: a retry reuses the first attempt\'s key (stable) or makes a new one (per-attempt, the bug).'),
    onInUse: z
      .enum(['scripted', 'give-up', 'wait-retry'])
      .default('scripted')
      .describe(
        'Client, after a 409 idempotency_key_in_use: scripted (only the scenario\'s own retry events), give-up (the bug: the 409 is the call\'s final answer), wait-retry (waits inUseRetryMs and retries with the same key and a new JSON-RPC id until the stored result comes back).',
      ),
    inUseRetryMs: z.number().int('must be an integer number of milliseconds').min(1, 'must be ≥ 1 ms').max(1_000_000, 'must be ≤ 1,000,000 ms').default(1000).describe('wait-retry: the wait before each retry of a 409 (ms).'),
    inUseMaxRetries: z.number().int('must be an integer').min(1, 'must be ≥ 1').max(50, 'must be ≤ 50').default(10).describe('wait-retry: retries of one call after 409s before the client gives up.'),
    toolLayer: z
      .enum(['forwards-key', 'drops-key'])
      .default('forwards-key')
      .describe('The MCP tool layer between the client and the deduplicating upstream: forwards the idempotency key (correct) or drops it (the bug of agentmail-mcp#49: the upstream never sees the key and executes every repeat).'),
    policy: z.enum(POLICIES).default('immediate').describe('How connections A and B check and claim the key.'),
    busy: z.enum(['wait', 'error']).default('wait').describe('A writer that finds the lock taken waits (busy_timeout) or fails at once with SQLITE_BUSY.'),
    race: z
      .object({
        key: z.string().max(64).default('order-42'),
        account: z.string().min(1).max(64).default('acct-1'),
        cents: cents.default(500),
      })
      .strict()
      .default({ key: 'order-42', account: 'acct-1', cents: 500 })
      .describe('The key and arguments both connections charge with.'),
  })
  .strict();

const base = eventBase(ms);

/** A client calls `charge(account, cents)` (arrives at the server at `at`). */
const call = eventObject(base, 'client', 'call', {
  requestId,
  key: z.string().max(64).nullable().default(null).describe('Idempotency key; null or "" means none.'),
  account: z.string().max(64).default('acct-1'),
  cents: cents.default(500),
  durationMs: ms.default(0).describe('How long the server works before the charge commits.'),
  timeoutMs: z.number().int().min(1).max(1_000_000_000).nullable().default(null).describe('The client gives up (the response is lost to it) after this long.'),
});

/** The client retries call `of` with a new JSON-RPC id (same arguments; key per `clientKey`). */
const retry = eventObject(base, 'client', 'retry', { requestId, of: requestId.describe('requestId of the first attempt') });

/** One step of connection A or B. */
const step = z.object({ ...base, actor: z.literal('db'), kind: z.enum(STEP_KINDS), conn: z.enum(CONNECTIONS) }).strict();

/** One scripted event of the ledger lab. */
export const ledgerEventSchema = eventUnion([call, retry, step], 'kind must be call or retry (client) or begin, read, execute, write, commit (db, with conn A or B)');

export type LedgerConfig = z.output<typeof ledgerConfigSchema>;
export type LedgerEvent = z.output<typeof ledgerEventSchema>;
export type CallEvent = z.output<typeof call>;
export type RetryEvent = z.output<typeof retry>;
export type StepEvent = z.output<typeof step>;
