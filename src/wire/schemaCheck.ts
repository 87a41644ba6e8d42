import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { ValidateFunction } from 'ajv';
import schema20251125 from './mcp-schema/2025-11-25.schema.json' with { type: 'json' };
import schema20260728 from './mcp-schema/2026-07-28.schema.json' with { type: 'json' };
import type { Revision } from '../sim/mcp';
import type { Json, WireEffect } from '../sim/types';

/**
 * Validation of emitted wire messages against the official MCP JSON Schemas (draft 2020-12),
 * vendored unchanged in `src/wire/mcp-schema/` from modelcontextprotocol/modelcontextprotocol
 * `schema/<revision>/schema.json` at commit b0f60ba. Used by tests and the CLI (Node only).
 */

const SCHEMAS: Record<Revision, object> = { '2025-11-25': schema20251125, '2026-07-28': schema20260728 };

const validators = new Map<string, ValidateFunction>();

/** The `$defs` types `checkMessage` validates against (the bundled CLI precompiles exactly these). */
export const CHECKED_DEFS = [
  'JSONRPCMessage',
  'CallToolRequest',
  'SubscriptionsListenRequest',
  'CancelledNotification',
  'ProgressNotification',
  'JSONRPCErrorResponse',
  'SubscriptionsListenResultResponse',
  'CallToolResultResponse',
  'JSONRPCResultResponse',
  'CallToolResult',
] as const;

/** The revisions and their vendored schemas (the CLI build precompiles validators from them). */
export const MCP_SCHEMAS: Readonly<Record<Revision, object>> = SCHEMAS;

/**
 * Installs validators compiled ahead of time (ajv standalone code, keyed `revision#Def`), so a
 * process does not compile the MCP schemas at startup (the bundled CLI does this). Types missing
 * from `precompiled` are still compiled on first use.
 */
export function installPrecompiledValidators(precompiled: Readonly<Record<string, ValidateFunction>>): void {
  for (const [key, v] of Object.entries(precompiled)) validators.set(key, v);
}

function validator(revision: Revision, def: string): ValidateFunction {
  const key = `${revision}#${def}`;
  let v = validators.get(key);
  if (!v) {
    const ajv = getAjv(revision);
    const found = ajv.getSchema(`mcp-${revision}#/$defs/${def}`);
    if (!found) throw new Error(`MCP schema ${revision} has no $defs/${def}`);
    v = found;
    validators.set(key, v);
  }
  return v;
}

const ajvs = new Map<Revision, InstanceType<typeof Ajv2020>>();
function getAjv(revision: Revision): InstanceType<typeof Ajv2020> {
  let ajv = ajvs.get(revision);
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: unknown) => void)(ajv);
    ajv.addSchema(SCHEMAS[revision], `mcp-${revision}`);
    ajvs.set(revision, ajv);
  }
  return ajv;
}

/** The `$defs` type a message must satisfy, chosen by method (requests/notifications) or by the request it answers. */
export function schemaDefFor(revision: Revision, message: Json, respondsTo?: string): string {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return 'JSONRPCMessage';
  const m = message as Record<string, Json>;
  if (typeof m.method === 'string') {
    switch (m.method) {
      case 'tools/call':
        return 'CallToolRequest';
      case 'subscriptions/listen':
        return 'SubscriptionsListenRequest';
      case 'notifications/cancelled':
        return 'CancelledNotification';
      case 'notifications/progress':
        return 'ProgressNotification';
      default:
        return 'JSONRPCMessage';
    }
  }
  if ('error' in m) return 'JSONRPCErrorResponse';
  if (respondsTo === 'subscriptions/listen') return 'SubscriptionsListenResultResponse';
  if (respondsTo === 'tools/call') return revision === '2026-07-28' ? 'CallToolResultResponse' : 'JSONRPCResultResponse';
  return 'JSONRPCResultResponse';
}

/** Result of checking one message: the `$defs` type used and the schema errors (empty when valid). */
export interface SchemaCheck {
  def: string;
  valid: boolean;
  errors: string[];
}

/**
 * Validates one JSON-RPC message of `revision` against the official schema: the generic
 * `JSONRPCMessage` and the specific type for its method (or for the request it answers).
 * In 2025-11-25 a `tools/call` result is also checked as `CallToolResult`.
 */
export function checkMessage(revision: Revision, message: Json, respondsTo?: string): SchemaCheck {
  const def = schemaDefFor(revision, message, respondsTo);
  const errors: string[] = [];
  for (const d of new Set(['JSONRPCMessage', def])) {
    const v = validator(revision, d);
    if (!v(message)) errors.push(...(v.errors ?? []).map((e) => `${d}${e.instancePath || ''}: ${e.message ?? 'invalid'}`));
  }
  if (revision === '2025-11-25' && respondsTo === 'tools/call' && message !== null && typeof message === 'object' && !Array.isArray(message) && 'result' in message) {
    const v = validator(revision, 'CallToolResult');
    if (!v((message as Record<string, Json>).result)) errors.push(...(v.errors ?? []).map((e) => `CallToolResult${e.instancePath || ''}: ${e.message ?? 'invalid'}`));
  }
  return { def, valid: errors.length === 0, errors };
}

/**
 * Checks every JSON-RPC message among `effects` (HTTP-only actions are skipped). `methodOf`
 * maps a request key to its method so responses are checked against the right result type.
 * Returns one entry per message, in order.
 */
export function checkEffects(
  revision: Revision,
  effects: readonly WireEffect[],
  methodOf: (requestKey: string | undefined) => string | undefined,
): (SchemaCheck & { effect: WireEffect })[] {
  return effects
    .filter((e) => e.message !== undefined)
    .map((e) => ({ effect: e, ...checkMessage(revision, e.message as Json, methodOf(e.requestKey)) }));
}
