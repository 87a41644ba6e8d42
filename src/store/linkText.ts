import type { Json, Scenario } from '../sim/types';
import { jsonEqual } from './stableJson';

/**
 * The text pieces of a share link, as pure functions, for the one link codec (`labLink.ts`):
 * base64url over UTF-8, a config's changed fields as dotted query parameters, and a hash split into
 * its path and query. Never throws.
 */

// ───────────── base64url (UTF-8) ─────────────

/** Bytes → base64url (no padding). */
export function bytesToBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** base64url → bytes; null when it is not base64url. */
export function base64UrlToBytes(encoded: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(encoded) || encoded.length % 4 === 1) return null;
  const padded = encoded.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (encoded.length % 4)) % 4);
  try {
    const binary = atob(padded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes;
  } catch {
    return null;
  }
}

/** UTF-8 text → base64url. */
export function toBase64Url(text: string): string {
  return bytesToBase64Url(new TextEncoder().encode(text));
}

/** Decodes base64url to text; null when it is not base64url or not UTF-8. */
export function fromBase64Url(encoded: string): string | null {
  const bytes = base64UrlToBytes(encoded);
  if (!bytes) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

// ───────────── config overrides as query parameters ─────────────

/** Scalar config fields of `current` that differ from `base`, as `[dotted.path, value]`, in key order. */
export function configDiff(base: Record<string, Json>, current: Record<string, Json>, prefix = ''): [string, Json][] {
  const out: [string, Json][] = [];
  const keys = new Set([...Object.keys(base), ...Object.keys(current)]);
  for (const key of keys) {
    const a = base[key];
    const b = current[key];
    const path = prefix + key;
    if (isObject(a) && isObject(b)) out.push(...configDiff(a, b, `${path}.`));
    else if (!jsonEqual(a, b) && b !== undefined) out.push([path, b]);
  }
  return out;
}

function isObject(v: Json | undefined): v is Record<string, Json> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Reads a query value: `true`/`false` → boolean, a plain number → number, anything else → string. */
export function parseQueryValue(raw: string): Json {
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  if (/^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(raw)) return Number(raw);
  return raw;
}

/** Returns a copy of `config` with the dotted `path` set to `value` (creating objects on the way). */
export function setConfigPath(config: Record<string, Json>, path: string, value: Json): Record<string, Json> {
  const [head, ...rest] = path.split('.');
  if (rest.length === 0) return { ...config, [head]: value };
  const child = isObject(config[head]) ? (config[head] as Record<string, Json>) : {};
  return { ...config, [head]: setConfigPath(child, rest.join('.'), value) };
}

// ───────────── encode / decode ─────────────

/** True when `scenario` equals `builtin` in everything but its config. */
export function sameExceptConfig(scenario: Scenario, builtin: Scenario): boolean {
  return jsonEqual({ ...scenario, config: null }, { ...builtin, config: null });
}

/** Splits a hash into its path and query (`#/races/A?x=1` → `/races/A`, `x=1`). */
export function splitHash(hash: string): { path: string; query: URLSearchParams } {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const q = body.indexOf('?');
  const path = q < 0 ? body : body.slice(0, q);
  return { path: path === '' ? '/' : path, query: new URLSearchParams(q < 0 ? '' : body.slice(q + 1)) };
}
