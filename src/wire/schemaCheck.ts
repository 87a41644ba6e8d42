import type { ValidateFunction } from 'ajv';
import type { Revision } from '../sim/mcp';
import type { Json, WireEffect } from '../sim/types';
import { mcpValidator } from './schemaValidators';

/**
 * Validation of emitted wire messages against the official MCP JSON Schemas (draft 2020-12),
 * vendored unchanged in `src/wire/mcp-schema/` from modelcontextprotocol/modelcontextprotocol
 * `schema/<revision>/schema.json` at commit b0f60ba. Used by tests and the CLI (Node only).
 * The validators come from `./schemaValidators` (ajv at run time; precompiled in the bundled CLI).
 */

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

const validators = new Map<string, ValidateFunction>();
/** The quick validators by revision and def, read without building a key per message. */
const quick: Partial<Record<Revision, Record<string, ValidateFunction>>> = {};

/** The quick (first problem only) validator of `$defs/<def>` of `revision`. */
function quickValidator(revision: Revision, def: string): ValidateFunction {
  const byDef = (quick[revision] ??= {});
  return (byDef[def] ??= mcpValidator(revision, def, false));
}

/**
 * Runs `$defs/<def>` on `value`: the quick validator (first problem only) decides, and only an
 * invalid value is run again through the all-errors validator for its messages
 * (`<def><instancePath>: <message>` each). Empty when valid.
 */
function problems(revision: Revision, def: string, value: unknown): string[] {
  if (quickValidator(revision, def)(value)) return [];
  const key = `${revision}#${def}`;
  let v = validators.get(key);
  if (!v) validators.set(key, (v = mcpValidator(revision, def, true)));
  v(value);
  return (v.errors ?? []).map((e) => `${def}${e.instancePath || ''}: ${e.message ?? 'invalid'}`);
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
  const alsoResult = revision === '2025-11-25' && respondsTo === 'tools/call';
  // A valid message (nearly every one) needs the quick validators only: answer it without collecting problems.
  if (!alsoResult && quickValidator(revision, 'JSONRPCMessage')(message) && (def === 'JSONRPCMessage' || quickValidator(revision, def)(message))) return { def, valid: true, errors: [] };
  const errors = problems(revision, 'JSONRPCMessage', message);
  if (def !== 'JSONRPCMessage') errors.push(...problems(revision, def, message));
  if (revision === '2025-11-25' && respondsTo === 'tools/call' && message !== null && typeof message === 'object' && !Array.isArray(message) && 'result' in message) {
    errors.push(...problems(revision, 'CallToolResult', (message as Record<string, Json>).result));
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
