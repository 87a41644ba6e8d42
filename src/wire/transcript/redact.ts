import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { Json } from '../../sim/types';
import type { MessageEntry, Transcript, WireRecord } from './types';

/**
 * "Redact arguments and results" for exports and reports: every value the user's tools carry
 * (tool arguments, results, error data, progress and log text) is replaced by
 * `sha256:<first 16 hex digits of SHA-256 of its JSON text>`, while keys, JSON-RPC ids, methods,
 * tool names, progress tokens, progress numbers and the protocol's own fields are kept — so the
 * checks still see the same structure (equal arguments hash equal, so duplicate calls stay visible).
 * Everything runs locally (SHA-256 from @noble/hashes); nothing leaves the browser.
 */

/** Hash of one value: `sha256:` + the first 16 hex digits of SHA-256 of `JSON.stringify(value)`. */
export function hashValue(value: Json): string {
  return `sha256:${bytesToHex(sha256(utf8ToBytes(JSON.stringify(value)))).slice(0, 16)}`;
}

/** Every leaf value hashed, keys and array shapes kept. */
function hashLeaves(value: Json): Json {
  if (Array.isArray(value)) return value.map(hashLeaves);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [k, v] of Object.entries(value)) out[k] = hashLeaves(v);
    return out;
  }
  return hashValue(value);
}

/** Keys of a result whose values are protocol fields, not user data (kept as they are). */
const PROTOCOL_RESULT_KEYS = new Set(['resultType', 'isError', '_meta', 'protocolVersion', 'capabilities', 'serverInfo', 'nextCursor']);
/** Keys of a content block kept as they are (the block's type and MIME type; the schema needs them). */
const CONTENT_KEPT = new Set(['type', 'mimeType']);

function redactResult(result: Json): Json {
  if (result === null || typeof result !== 'object' || Array.isArray(result)) return hashLeaves(result);
  const out: Record<string, Json> = {};
  for (const [k, v] of Object.entries(result)) {
    if (PROTOCOL_RESULT_KEYS.has(k)) out[k] = v;
    else if (k === 'content' && Array.isArray(v)) {
      out[k] = v.map((block) => {
        if (block === null || typeof block !== 'object' || Array.isArray(block)) return hashLeaves(block);
        const b: Record<string, Json> = {};
        for (const [bk, bv] of Object.entries(block)) b[bk] = CONTENT_KEPT.has(bk) ? bv : hashLeaves(bv);
        return b;
      });
    } else out[k] = hashLeaves(v);
  }
  return out;
}

/**
 * One JSON-RPC message with its user data hashed: `params.arguments` of requests, the `result`
 * of responses (protocol fields such as `resultType`, `isError`, `_meta` and content `type` kept),
 * `error.message`/`error.data`, and `params.message`/`params.data`/`params.reason` of notifications.
 * Kept as they are: `jsonrpc`, `id`, `method`, `params.name` (the tool), `params._meta`,
 * `progressToken`, `progress`, `total`, `requestId`, `error.code`, and every key. Pure; returns a new value.
 */
export function redactMessage(message: Json): Json {
  if (message === null || typeof message !== 'object' || Array.isArray(message)) return message;
  const out: Record<string, Json> = { ...message };
  const params = message.params;
  if (params !== null && typeof params === 'object' && !Array.isArray(params)) {
    const p: Record<string, Json> = { ...params };
    if ('arguments' in p) p.arguments = hashLeaves(p.arguments);
    if (typeof message.method === 'string' && message.method.startsWith('notifications/')) {
      if ('message' in p) p.message = hashValue(p.message);
      if ('data' in p) p.data = hashLeaves(p.data);
      if ('reason' in p) p.reason = hashValue(p.reason);
    }
    out.params = p;
  }
  if ('result' in message) out.result = redactResult(message.result);
  const error = message.error;
  if (error !== null && typeof error === 'object' && !Array.isArray(error)) {
    const e: Record<string, Json> = { ...error };
    if ('message' in e) e.message = hashValue(e.message);
    if ('data' in e) e.data = hashLeaves(e.data);
    out.error = e;
  }
  return out;
}

/** Wire records with every message redacted (meta and stderr text are kept: they hold no payload). */
export function redactRecords(records: readonly WireRecord[]): WireRecord[] {
  return records.map((r) => (r.type === 'message' ? { ...r, message: redactMessage(r.message) } : r));
}

/** A transcript with every message redacted (its `raw` text rewritten from the redacted message) and stderr lines hashed. */
export function redactTranscript(t: Transcript): Transcript {
  return {
    ...t,
    entries: t.entries.map((e) => {
      if (e.type === 'message') {
        const message = redactMessage(e.message);
        return { ...e, message, raw: JSON.stringify(message) } satisfies MessageEntry;
      }
      if (e.type === 'stderr') return { ...e, text: hashValue(e.text) };
      return e;
    }),
  };
}
