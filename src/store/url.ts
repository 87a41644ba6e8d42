import type { ParseResult } from '../sim/scenario';
import { racesPageCore } from '../sim/races/pageDefinition';
import { RACES_LINK_VALUE_ALIASES } from '../sim/races/sdkProfile';
import { racesParse } from './racesParser';
import { decodeLink, encodeLink } from './labLink';
import type { Json, Scenario } from '../sim/types';
import { jsonEqual } from './stableJson';

/**
 * The races lab's URL (hash routing), as pure functions:
 *
 * - `#/races/<scenario-id>` — an unmodified built-in scenario; config overrides follow as query
 *   parameters named by their config path (`?transport=stdio&policy.respondAfterCancel=true`).
 * - `#/races?scenario=<base64url(JSON)>` — any other scenario, carried whole.
 * - `t=<ms>` (either form) — the playhead.
 *
 * Decoding never throws: problems come back as `"<field>: <problem>"` lines, like scenario files.
 */

export const RACES_PATH = '/races';

/** What a races URL resolves to. */
export type DecodedRacesHash =
  /** `warnings`: parts of the link that were ignored (a bad `t=`), the scenario itself is good. */
  | { ok: true; scenario: Scenario; original: Scenario; cursorMs: number | null; builtinId: string | null; warnings: string[] }
  | { ok: false; errors: string[] };

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

/** The hash (with its leading `#`) that reproduces `scenario` exactly, plus the playhead when given (the races form of `encodeLink`). */
export function encodeRacesHash(scenario: Scenario, builtins: readonly Scenario[], cursorMs: number | null = null): string {
  return encodeLink('races', scenario, builtins, { configParams: true, playhead: true, cursorMs });
}

/** Splits a hash into its path and query (`#/races/A?x=1` → `/races/A`, `x=1`). */
export function splitHash(hash: string): { path: string; query: URLSearchParams } {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const q = body.indexOf('?');
  const path = q < 0 ? body : body.slice(0, q);
  return { path: path === '' ? '/' : path, query: new URLSearchParams(q < 0 ? '' : body.slice(q + 1)) };
}

/**
 * Decodes a races hash (`decodeLink` with config overrides and the playhead). `#/races` alone (or no
 * lab in the address) gives the first built-in scenario. A good scenario with bad parameters is
 * `ok` with each ignored parameter in `warnings`; every problem names its field. Parses with
 * `racesParse` (await `loadRacesParser()` first).
 */
export function decodeRacesHash(hash: string, builtins: readonly Scenario[]): DecodedRacesHash {
  const { path, query } = splitHash(hash);
  const bare = !query.has('scenario') && (path === '' || path === '/' || path === RACES_PATH || path === `${RACES_PATH}/`);
  const d = decodeLink('races', bare ? hash.replace(/^#?\/?(races\/?)?/, '#/races/' + encodeURIComponent(builtins[0]?.id ?? '')) : hash, builtins, parseForRacesPage, { configParams: true, playhead: true, valueAliases: RACES_LINK_VALUE_ALIASES });
  if (d.kind === 'none') return { ok: false, errors: [`(link): not a races lab address: ${JSON.stringify(path)}`] };
  if (d.kind === 'bad') return { ok: false, errors: d.errors };
  return { ok: true, scenario: d.scenario, original: d.original, cursorMs: d.cursorMs, builtinId: d.builtinId, warnings: d.warnings };
}

function parseForRacesPage(value: unknown): ParseResult {
  const parsed = racesParse(value);
  const problem = parsed.ok ? (racesPageCore.pageProblem?.(parsed.scenario) ?? null) : null;
  return problem ? { ok: false, errors: [problem] } : parsed;
}
