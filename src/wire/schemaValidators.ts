import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import schema20251125 from './mcp-schema/2025-11-25.schema.json' with { type: 'json' };
import schema20260728 from './mcp-schema/2026-07-28.schema.json' with { type: 'json' };
import type { Revision } from '../sim/mcp';

/**
 * Where `schemaCheck.ts` gets its validators: compiled at run time by ajv from the vendored MCP
 * schemas. The bundled CLI (`scripts/build-cli.mjs`) replaces this module with the same
 * validators compiled ahead of time (ajv standalone), so neither ajv's compiler nor the schemas
 * are loaded when a user runs it; a test compares the bundle's output with this module's.
 */

/** The revisions and their vendored schemas (the CLI build precompiles validators from them). */
export const MCP_SCHEMAS: Readonly<Record<Revision, object>> = { '2025-11-25': schema20251125, '2026-07-28': schema20260728 };

const ajvs = new Map<string, InstanceType<typeof Ajv2020>>();
function getAjv(revision: Revision, allErrors: boolean): InstanceType<typeof Ajv2020> {
  const key = `${revision}:${allErrors}`;
  let ajv = ajvs.get(key);
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors });
    (addFormats as unknown as (a: unknown) => void)(ajv);
    ajv.addSchema(MCP_SCHEMAS[revision], `mcp-${revision}`);
    ajvs.set(key, ajv);
  }
  return ajv;
}

/**
 * The validator of `$defs/<def>` of `revision`'s MCP schema. `allErrors: false` gives the quick
 * check (it stops at the first problem: the same valid/invalid answer, fewer errors), `true` the
 * one whose errors are reported. Throws when the schema has no such `$defs` type.
 */
export function mcpValidator(revision: Revision, def: string, allErrors: boolean): ValidateFunction {
  const found = getAjv(revision, allErrors).getSchema(`mcp-${revision}#/$defs/${def}`);
  if (!found) throw new Error(`MCP schema ${revision} has no $defs/${def}`);
  return found;
}
