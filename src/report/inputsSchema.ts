import * as z from 'zod';
import type { ReviewInputs } from './types';

/**
 * The schema of `ReviewInputs` (a reviewer's inputs file), strict: an unknown field is an error
 * naming it, so a typo never silently becomes "unknown — ask".
 */
const ms = z.number().int().nonnegative().nullable();
export const reviewInputsSchema = z
  .object({
    transport: z.object({ kind: z.enum(['stdio', 'streamable-http', 'both']).optional(), revision: z.enum(['2026-07-28', '2025-11-25']).optional() }).strict().optional(),
    operation: z
      .object({
        name: z.string().optional(),
        tools: z.array(z.object({ name: z.string().min(1), sideEffect: z.boolean().optional(), idempotencyKey: z.enum(['required', 'optional', 'none']).optional() }).strict()).optional(),
      })
      .strict()
      .optional(),
    timeouts: z.object({ idleTimeoutMs: ms.optional(), maxTimeoutMs: ms.optional(), enforcedBy: z.string().optional() }).strict().optional(),
    progress: z.object({ token: z.enum(['always', 'sometimes', 'never']).optional(), resetsIdle: z.boolean().optional(), maxPerSecond: z.number().positive().nullable().optional(), rateLimit: z.string().optional() }).strict().optional(),
    retry: z
      .object({
        policy: z.enum(['none', 'timeout-only', 'classified']).optional(),
        ledger: z.enum(['process-local', 'shared-durable', 'upstream', 'none']).optional(),
        externalEffect: z.enum(['inside', 'outbox', 'upstream-key', 'outside', 'none']).optional(),
        resultsAliasStorage: z.boolean().optional(),
        backoff: z.string().optional(),
      })
      .strict()
      .optional(),
    sse: z
      .object({
        queueCapacityEvents: z.number().int().positive().nullable().optional(),
        queuePolicy: z.enum(['lesson', 'drop-oldest', 'disconnect', 'drop-silent', 'unbounded']).optional(),
        proxyHeaders: z.boolean().optional(),
        proxyIdleTimeoutMs: ms.optional(),
        keepAliveIntervalMs: ms.optional(),
        reconnect: z.object({ baseMs: z.number().int().nonnegative().optional(), capMs: z.number().int().nonnegative().optional(), jitter: z.enum(['none', 'full', 'equal', 'decorrelated']).optional() }).strict().optional(),
        refetchMethods: z.array(z.string().min(1)).optional(),
      })
      .strict()
      .optional(),
    tasks: z.object({ used: z.boolean().optional(), cancelWith: z.enum(['tasks/cancel', 'notifications/cancelled']).optional(), pollUntilTerminal: z.boolean().optional() }).strict().optional(),
  })
  .strict();

/** Validates a parsed inputs value. Returns the inputs, or one `field.path: what is wrong` line per problem. */
export function parseReviewInputs(value: unknown, prefix = 'inputs'): { ok: true; inputs: ReviewInputs } | { ok: false; errors: string[] } {
  const r = reviewInputsSchema.safeParse(value);
  if (r.success) return { ok: true, inputs: r.data as ReviewInputs };
  return { ok: false, errors: r.error.issues.map((i) => `${[prefix, ...i.path.map(String)].join('.')}: ${i.message}${i.code === 'unrecognized_keys' ? ' — not one of the reviewer\'s inputs; see src/report/types.ts' : ''}`) };
}
