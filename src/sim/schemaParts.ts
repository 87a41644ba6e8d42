import * as z from 'zod';
import type { $ZodTypeDiscriminable } from 'zod/v4/core';

/**
 * Pieces the labs' scenario schemas share (the races, ledger, flow and resilience labs use them):
 * the fields each scripted event carries, one event's object, the event union keyed by `kind` with
 * one error naming every kind, and the boolean switch sets (bugs, fixes) that default to off. The
 * labs keep their own fields, kinds and wording.
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

/**
 * A lab's switches (broken behaviours, or fixes) as one strict object: each key of `descriptions`
 * becomes a boolean that defaults to false (the correct behaviour, or the fix off), described by
 * its text. Keys keep the table's order (the page lists the switches in it).
 */
export function switchesSchema<const D extends Record<string, string>>(descriptions: D) {
  const shape = {} as { [K in keyof D]: z.ZodDefault<z.ZodBoolean> };
  for (const key of Object.keys(descriptions) as (keyof D & string)[]) shape[key] = z.boolean().default(false).describe(descriptions[key]);
  return z.object(shape).strict();
}

/** `schema` (a `switchesSchema`) defaulting to every switch off, for the config field that holds it. */
export function switchesOff<T extends z.ZodObject<Record<string, z.ZodDefault<z.ZodBoolean>>, z.core.$strict>>(schema: T): z.ZodDefault<T> {
  const off: Record<string, false> = {};
  for (const key of Object.keys(schema.shape)) off[key] = false;
  return schema.default(off as z.util.NoUndefined<z.output<T>>) as z.ZodDefault<T>;
}

/** A config field of switches declared in place: `switchesSchema(descriptions)` defaulting to every switch off. */
export function switchesField<const D extends Record<string, string>>(descriptions: D) {
  return switchesOff(switchesSchema(descriptions));
}

/**
 * One scripted event's strict object schema: the shared `base` fields (see `eventBase`), the
 * `actor` and `kind` literals, then the kind's own `fields`.
 */
export function eventObject<B extends z.ZodRawShape, A extends string, K extends string, F extends z.ZodRawShape>(base: B, actor: A, kind: K, fields: F) {
  return z.object({ ...base, actor: z.literal(actor), kind: z.literal(kind), ...fields }).strict();
}
