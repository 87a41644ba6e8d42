import * as z from 'zod';
import type { LabSchemas } from '../sim/scenario';

/**
 * The JSON Schema (draft 2020-12) of one scripted event of a lab, exported by zod from the lab's
 * own event schema, with the options of the published `public/scenario.schema.json`
 * (`src/sim/jsonSchema.ts`). The quick scenario parse (`fastScenario.ts`) validates events with
 * it: ajv at run time (`scenarioValidators.ts`), or compiled ahead of time in the bundled CLI
 * (`scripts/build-cli.mjs`).
 */
export function eventJsonSchema(schemas: LabSchemas): Record<string, unknown> {
  const schema = z.toJSONSchema(schemas.event, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;
  // The events are a union discriminated by `kind` (src/sim/schemaParts.ts eventUnion): said so, ajv checks only the option of an
  // event's kind instead of every option (a oneOf must prove that exactly one matches).
  // (ajv applies the keyword to objects only: the type says a non-object is no event.)
  return Array.isArray(schema.oneOf) ? { type: 'object', ...schema, discriminator: { propertyName: 'kind' } } : schema;
}

/** ajv's options for the event validators: valid or not only, lengths in code points like zod's, regular expressions without the `u` flag like zod's, the `discriminator` keyword on. */
export const EVENT_VALIDATOR_OPTIONS = { strict: false, allErrors: false, messages: false, unicodeRegExp: false, discriminator: true } as const;
