import { parseScenario, type ParseResult } from '../sim/scenario';
import { RACES_SCHEMAS, racesLengthProblem } from '../sim/races/schema';
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

export function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Decodes base64url to text; null when it is not base64url or not UTF-8. */
export function fromBase64Url(encoded: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(encoded) || encoded.length % 4 === 1) return null;
  const padded = encoded.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (encoded.length % 4)) % 4);
  try {
    const binary = atob(padded);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
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

function formatQueryValue(value: Json): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
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

/** The hash (with its leading `#`) that reproduces `scenario` exactly, plus the playhead when given. */
export function encodeRacesHash(scenario: Scenario, builtins: readonly Scenario[], cursorMs: number | null = null): string {
  const params = new URLSearchParams();
  const builtin = builtins.find((b) => b.id === scenario.id);
  let path = RACES_PATH;
  if (builtin && sameExceptConfig(scenario, builtin)) {
    path = `${RACES_PATH}/${encodeURIComponent(builtin.id)}`;
    for (const [key, value] of configDiff(builtin.config as Record<string, Json>, scenario.config as Record<string, Json>)) {
      params.set(key, formatQueryValue(value));
    }
  } else {
    params.set('scenario', toBase64Url(JSON.stringify(scenario)));
  }
  if (cursorMs !== null && cursorMs > 0) params.set('t', String(Math.floor(cursorMs)));
  const query = params.toString();
  return `#${path}${query ? `?${query}` : ''}`;
}

/**
 * Decodes a link's `?scenario=` value (base64url of the scenario's JSON) and validates it with
 * `parse`. Never throws: a cut-short or non-JSON value is one `scenario (in the link): …` problem.
 */
export function decodeScenarioParam(encoded: string, parse: (value: unknown) => ParseResult): ParseResult {
  const text = fromBase64Url(encoded);
  if (text === null) return { ok: false, errors: ['scenario (in the link): not valid base64url-encoded UTF-8 text — the link may be cut short'] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, errors: [`scenario (in the link): not valid JSON — ${(err as Error).message}`] };
  }
  return parse(value);
}

/** Splits a hash into its path and query (`#/races/A?x=1` → `/races/A`, `x=1`). */
export function splitHash(hash: string): { path: string; query: URLSearchParams } {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const q = body.indexOf('?');
  const path = q < 0 ? body : body.slice(0, q);
  return { path: path === '' ? '/' : path, query: new URLSearchParams(q < 0 ? '' : body.slice(q + 1)) };
}

function parseCursor(query: URLSearchParams, errors: string[]): number | null {
  const raw = query.get('t');
  if (raw === null) return null;
  if (!/^\d+$/.test(raw) || Number(raw) > 1_000_000_000) {
    errors.push(`t (playhead in the link): must be a whole number of milliseconds from 0 to 1,000,000,000, got ${JSON.stringify(raw)}; the playhead starts at 0`);
    return null;
  }
  return Number(raw);
}

/**
 * Decodes a races hash. `#/races` alone gives the first built-in scenario. Every problem names
 * its field: `scenario` (the link's payload), a config path, `t`, or a field inside the scenario.
 */
export function decodeRacesHash(hash: string, builtins: readonly Scenario[]): DecodedRacesHash {
  const { path, query } = splitHash(hash);
  const errors: string[] = [];
  const warnings: string[] = [];
  const schemas = RACES_SCHEMAS;
  const cursorMs = parseCursor(query, warnings);
  // No lab in the address (first visit: '', '#', '#/') is the landing page, not a bad link.
  if (path === '' || path === '/') return decodeRacesHash(`#${RACES_PATH}`, builtins);
  const rest = path === RACES_PATH || path === `${RACES_PATH}/` ? '' : path.startsWith(`${RACES_PATH}/`) ? path.slice(RACES_PATH.length + 1) : null;
  if (rest === null) return { ok: false, errors: [`(link): not a races lab address: ${JSON.stringify(path)}`] };

  if (rest === '' && query.has('scenario')) {
    const parsed = decodeScenarioParam(query.get('scenario') ?? '', (value) => {
      const r = parseScenario(value, 'races', schemas);
      const tooLong = r.ok ? racesLengthProblem(r.scenario.events) : null;
      return tooLong ? { ok: false, errors: [tooLong] } : r;
    });
    if (!parsed.ok) return parsed;
    const original = builtins.find((b) => b.id === parsed.scenario.id) ?? parsed.scenario;
    return { ok: true, scenario: parsed.scenario, original, cursorMs, builtinId: null, warnings };
  }

  let id: string;
  try {
    id = decodeURIComponent(rest);
  } catch {
    return { ok: false, errors: [`scenario id (in the link): not valid percent-encoding: ${JSON.stringify(rest)}`] };
  }
  const builtin = id === '' ? builtins[0] : builtins.find((b) => b.id === id);
  if (!builtin) {
    return { ok: false, errors: [`scenario id (in the link): no built-in scenario is called ${JSON.stringify(id)}; known: ${builtins.map((b) => b.id).join(', ')}`] };
  }
  let config = builtin.config as Record<string, Json>;
  for (const [key, raw] of query) {
    if (key === 't') continue;
    if (key === 'scenario') {
      errors.push('scenario (in the link): give either a scenario id in the path or ?scenario=…, not both');
      continue;
    }
    if (!/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/.test(key)) {
      errors.push(`config.${key}: not a setting name`);
      continue;
    }
    config = setConfigPath(config, key, parseQueryValue(raw));
  }
  if (errors.length > 0) return { ok: false, errors };
  if (config === builtin.config) return { ok: true, scenario: builtin, original: builtin, cursorMs, builtinId: builtin.id, warnings };
  const parsed = parseScenario({ ...builtin, config }, 'races', schemas);
  if (!parsed.ok) return { ok: false, errors: parsed.errors };
  return { ok: true, scenario: parsed.scenario, original: builtin, cursorMs, builtinId: builtin.id, warnings };
}
