import * as z from 'zod';
import type { $ZodTypeDiscriminable } from 'zod/v4/core';

/**
 * Pieces every lab's scenario event schema shares (the races, ledger and resilience labs use them):
 * the fields each scripted event carries, and the event union keyed by `kind` with one error
 * naming every kind. The labs keep their own fields, kinds and wording.
 */

/**
 * The fields of every scripted event: `id` (1–64 characters), `at` (virtual ms, validated by the
 * lab's own `ms` schema) and an optional `label` (≤ 120 characters).
 */
export function eventBase<M extends z.ZodType<number>>(ms: M) {
  return {
    id: z.string().min(1, 'must be a non-empty string').max(64, 'must be at most 64 characters'),
    at: ms,
    label: z.string().max(120, 'must be at most 120 characters').optional(),
  };
}

/**
 * The union of a lab's event schemas, discriminated by `kind`; an event of no known kind fails
 * with `unknownKind` (e.g. "kind must be one of start, cancel (client) or progress (server)").
 */
export function eventUnion<const Types extends readonly [$ZodTypeDiscriminable, ...$ZodTypeDiscriminable[]]>(options: Types, unknownKind: string) {
  return z.discriminatedUnion('kind', options, { error: (issue) => (issue.code === 'invalid_union' ? unknownKind : undefined) });
}
