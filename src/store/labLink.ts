import type { ParseResult } from '../sim/scenario';
import type { Json, Scenario, ScriptedEvent } from '../sim/types';
import { jsonEqual } from './stableJson';
import { base64UrlToBytes, bytesToBase64Url, configDiff, fromBase64Url, parseQueryValue, sameExceptConfig, setConfigPath, splitHash, toBase64Url } from './linkText';

/**
 * A lab's address (hash routing), the same codec for every lab:
 *
 * - `#/<lab>/<id>` — a built-in scenario; for a lab with `configParams`, config overrides follow
 *   as query parameters named by their config path (`?transport=stdio&policy.respondAfterCancel=true`).
 * - `#/<lab>?scenario=<payload>` — any other scenario. The payload is versioned:
 *   `z1.<base64url(deflate-raw(JSON))>` carries the whole scenario compressed;
 *   `d1.<base64url(deflate-raw(JSON))>` carries only its difference from the built-in of the same
 *   id (`{ base, set?, del?, ev?, events? }`); a payload without a marker is the first form
 *   (base64url of the JSON, uncompressed), so old links keep working.
 * - `t=<ms>` — the playhead, for a lab with `playhead`.
 *
 * One rule for parameters: a link keeps the scenario it names; every parameter that is unknown or
 * not valid is ignored and reported as a warning — an unknown one in every lab as
 * `foo: unknown link parameter — ignored; the scenario is kept` (`unknownLinkParameter`), a bad
 * value as its field's problem ending in "(ignored)". Decoding never throws.
 */

/**
 * `chaos=<seed>`: a chaos-swarm seed (src/sim/chaos/link.ts `CHAOS_PARAM`), read by the page's
 * Chaos panel, which rebuilds that seed's faulted scenario; the link decoder leaves it alone.
 */
export const CHAOS_LINK_PARAM = 'chaos';

/** The guided path's link parameter (`guide=<n>`: open the lab's path at exercise n), read by `guideProgress.ts`; the scenario's decoder skips it. */
export const GUIDE_LINK_PARAM = 'guide';

/** Which parts a lab's address carries beyond the scenario. */
export interface LinkOptions {
  /** Config overrides of a built-in as query parameters (races). */
  configParams?: boolean;
  /** The paused playhead as `t=<ms>` (races). */
  playhead?: boolean;
  /** Short values a link may use for a setting, by setting path: `{ 'client.profile': { 'sdk-v2': 'typescript-sdk-v2' } }` (races). Encoding writes the full value. */
  valueAliases?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

/** What an address resolves to. */
export type DecodedLink =
  /** Not this lab's address, or `#/<lab>` with nothing after it. */
  | { kind: 'none' }
  | { kind: 'ok'; scenario: Scenario; original: Scenario; builtinId: string | null; cursorMs: number | null; warnings: string[] }
  | { kind: 'bad'; errors: string[] };

/**
 * fflate (deflate-raw) loads as its own small chunk, so the landing page's initial JavaScript stays
 * within its budget; every lab page waits for `linkCodecReady` before it reads its address (a
 * fraction of a frame; the chunk is same-origin and precached). Before it has loaded, links are
 * written in the uncompressed form, which every version reads.
 */
let fflate: typeof import('fflate') | null = null;
export const linkCodecReady: Promise<void> = import('fflate').then((m) => {
  fflate = m;
});

/** Every invisible or blank character other than the plain space: controls, formatting marks (zero-width, bidi), separators, unassigned and private-use code points. */
const INVISIBLE = /(?! )[\p{C}\p{Z}]/gu;

/**
 * `text` with each invisible character written as its escape (`\u0000`, `\u200B`, `\u{E0001}`), and,
 * when there was one, a note saying what the escapes are — so an error that quotes a corrupted link
 * shows what was wrong instead of blank space.
 */
export function showInvisible(text: string): string {
  let found = false;
  const shown = text.replace(INVISIBLE, (c) => {
    found = true;
    const cp = c.codePointAt(0) as number;
    return cp > 0xffff ? `\\u{${cp.toString(16).toUpperCase()}}` : `\\u${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  });
  return found ? `${shown} (\\u…: an invisible character, written as its code)` : shown;
}

/**
 * `text` quoted as JSON with invisible characters shown (`showInvisible`), its first `max`
 * characters only when longer, then "… (N characters)" — so a 20,000-character id in a link does
 * not fill the banner (walkthrough).
 */
export function quoteClipped(text: string, max = 80): string {
  if (text.length <= max) return showInvisible(JSON.stringify(text));
  return `${showInvisible(JSON.stringify(text.slice(0, max)))}… (${text.length.toLocaleString('en-US')} characters)`;
}

/** "not valid JSON — <the parser's message, invisible characters shown>". */
const notJson = (err: unknown) => `scenario (in the link): not valid JSON — ${showInvisible((err as Error).message)}; the link may be cut short or altered — copy it again`;

const WHOLE = 'z1.';
const DIFF = 'd1.';

function pack(value: unknown, f: typeof import('fflate')): string {
  return bytesToBase64Url(f.deflateSync(f.strToU8(JSON.stringify(value)), { level: 9 }));
}

function unpack(encoded: string): { ok: true; value: unknown } | { ok: false; error: string } {
  const bytes = base64UrlToBytes(encoded);
  if (!bytes) return { ok: false, error: 'scenario (in the link): not valid base64url — the link may be cut short; copy it again' };
  if (!fflate) return { ok: false, error: 'scenario (in the link): the link decoder has not loaded yet — reload the page' };
  let text: string;
  try {
    text = fflate.strFromU8(fflate.inflateSync(bytes));
  } catch {
    return { ok: false, error: 'scenario (in the link): not valid compressed data — the link may be cut short; copy it again' };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (err) {
    return { ok: false, error: notJson(err) };
  }
}

/** The difference of `scenario` from `base`: changed top-level fields, removed ones, and changed events by index. */
function scenarioDiff(scenario: Scenario, base: Scenario): Record<string, Json> {
  const out: Record<string, Json> = { base: base.id };
  const set: Record<string, Json> = {};
  const del: string[] = [];
  const a = base as unknown as Record<string, Json>;
  const b = scenario as unknown as Record<string, Json>;
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (key === 'events') continue;
    if (!(key in b)) del.push(key);
    else if (!jsonEqual(a[key], b[key])) set[key] = b[key];
  }
  if (Object.keys(set).length) out.set = set;
  if (del.length) out.del = del;
  if (scenario.events.length === base.events.length) {
    const ev: Record<string, Json> = {};
    scenario.events.forEach((e, i) => {
      if (!jsonEqual(e as unknown as Json, base.events[i] as unknown as Json)) ev[String(i)] = e as unknown as Json;
    });
    if (Object.keys(ev).length) out.ev = ev;
  } else out.events = scenario.events as unknown as Json;
  return out;
}

/** Applies a `scenarioDiff` to its base; the result is validated by the caller like any scenario. */
function applyDiff(diff: Record<string, unknown>, builtins: readonly Scenario[]): { ok: true; value: unknown } | { ok: false; error: string } {
  const base = builtins.find((b) => b.id === diff.base);
  if (!base) return { ok: false, error: `scenario.base (in the link): no built-in scenario is called ${showInvisible(JSON.stringify(diff.base) ?? String(diff.base))} — the link was made by another version of the lab; ask for the scenario file` };
  const out: Record<string, unknown> = { ...(base as unknown as Record<string, unknown>), ...((diff.set as Record<string, unknown>) ?? {}) };
  for (const key of (diff.del as string[]) ?? []) delete out[key];
  if (Array.isArray(diff.events)) out.events = diff.events;
  else {
    const events: ScriptedEvent[] = base.events.slice();
    for (const [i, e] of Object.entries((diff.ev as Record<string, ScriptedEvent>) ?? {})) events[Number(i)] = e;
    out.events = events;
  }
  return { ok: true, value: out };
}

/** The `?scenario=` payload for `scenario`: the difference from its built-in when that is shorter, else the whole. */
export function encodeScenarioPayload(scenario: Scenario, builtins: readonly Scenario[]): string {
  if (!fflate) return toBase64Url(JSON.stringify(scenario));
  const whole = WHOLE + pack(scenario, fflate);
  const builtin = builtins.find((b) => b.id === scenario.id);
  if (!builtin) return whole;
  const diff = DIFF + pack(scenarioDiff(scenario, builtin), fflate);
  return diff.length < whole.length ? diff : whole;
}

/** Reads a `?scenario=` payload of any version and validates it with `parse`. Never throws. */
export function decodeScenarioPayload(encoded: string, builtins: readonly Scenario[], parse: (value: unknown) => ParseResult): ParseResult {
  if (encoded.startsWith(WHOLE) || encoded.startsWith(DIFF)) {
    const r = unpack(encoded.slice(3));
    if (!r.ok) return { ok: false, errors: [r.error] };
    if (encoded.startsWith(WHOLE)) return parse(r.value);
    if (r.value === null || typeof r.value !== 'object') return { ok: false, errors: ['scenario (in the link): not a scenario difference — copy the link again'] };
    const applied = applyDiff(r.value as Record<string, unknown>, builtins);
    return applied.ok ? parse(applied.value) : { ok: false, errors: [applied.error] };
  }
  // Version 0: base64url of the JSON, uncompressed (links made before compression).
  const text = fromBase64Url(encoded);
  if (text === null) return { ok: false, errors: ['scenario (in the link): not valid base64url-encoded UTF-8 text — the link may be cut short; copy it again'] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { ok: false, errors: [notJson(err)] };
  }
  return parse(value);
}

/** The address (with its leading `#`) that reproduces `scenario` in lab `lab`. */
export function encodeLink(lab: string, scenario: Scenario, builtins: readonly Scenario[], options: LinkOptions & { cursorMs?: number | null } = {}): string {
  const params = new URLSearchParams();
  const builtin = builtins.find((b) => b.id === scenario.id);
  let path = `/${lab}`;
  if (builtin && (options.configParams ? sameExceptConfig(scenario, builtin) : jsonEqual(builtin as unknown as Json, scenario as unknown as Json))) {
    path = `/${lab}/${encodeURIComponent(builtin.id)}`;
    if (options.configParams) {
      for (const [key, value] of configDiff(builtin.config as Record<string, Json>, scenario.config as Record<string, Json>)) params.set(key, typeof value === 'string' ? value : JSON.stringify(value));
    }
  } else params.set('scenario', encodeScenarioPayload(scenario, builtins));
  if (options.playhead && options.cursorMs != null && options.cursorMs > 0) params.set('t', String(Math.floor(options.cursorMs)));
  const query = params.toString();
  return `#${path}${query ? `?${query}` : ''}`;
}

const ignored = (line: string) => `${line} (ignored)`;

/**
 * The warning for a link parameter the page does not know, the same in every lab (issue 9: "keep
 * the named scenario, report the parameter as ignored"). `kept` is false when the link is refused
 * for another reason (an unknown scenario id), so the line does not claim the scenario was kept;
 * a string names what a page without scenarios keeps instead (`'the transcript'` →
 * `foo: unknown link parameter — ignored; the transcript is kept`).
 */
export function unknownLinkParameter(name: string, kept: boolean | string = true): string {
  const what = kept === true ? 'the scenario' : kept;
  return `${name}: unknown link parameter — ignored${what ? `; ${what} is kept` : ''}`;
}

/** What follows `/<lab>/` in an address's path (`''` for `/<lab>` itself), or null when the path is another page's. */
function pathAfter(lab: string, path: string): string | null {
  const base = `/${lab}`;
  if (path === base || path === `${base}/`) return '';
  return path.startsWith(`${base}/`) ? path.slice(base.length + 1) : null;
}

/**
 * The problems of an address of a page with no scenario of its own (the Traffic page, whose only
 * address is `#/<page>`), in the labs' wording: each query parameter as `unknownLinkParameter`
 * and anything after `#/<page>/` as a scenario id the page cannot have. `kept` names what the page
 * keeps showing (`'the transcript'`), or null when nothing is loaded (the lines then claim nothing
 * was kept). Null when `hash` is not this page's address; empty for `#/<page>` itself. Never throws.
 */
export function pageLinkWarnings(page: string, hash: string, kept: string | null): string[] | null {
  const { path, query } = splitHash(hash);
  const rest = pathAfter(page, path);
  if (rest === null) return null;
  const warnings: string[] = [];
  if (rest !== '') {
    let id = rest;
    try {
      id = decodeURIComponent(rest);
    } catch {
      // Shown as written.
    }
    warnings.push(`scenario id (in the link): the ${page.charAt(0).toUpperCase()}${page.slice(1)} page has no scenarios of its own, got ${quoteClipped(id)} — ignored; ${kept ? `${kept} is kept` : 'import a transcript or pick a sample'}`);
  }
  for (const k of new Set(query.keys())) warnings.push(unknownLinkParameter(k, kept ?? false));
  return warnings;
}

/** Whether `errors` (of a scenario with config path `key` set) say that the key itself is unknown: `config.policy: unknown field "x"` for `policy.x`. */
function namesUnknownKey(errors: readonly string[], key: string): boolean {
  const parts = `config.${key}`.split('.');
  const leaf = parts.pop();
  return errors.some((e) => e.startsWith(`${parts.join('.')}: unknown field "${leaf}"`));
}

/**
 * Reads an address of lab `lab`. `parse` validates a scenario for the page (schema, lab rules,
 * page limits). A good scenario with bad parameters is `ok` with each bad parameter in `warnings`.
 */
export function decodeLink(lab: string, hash: string, builtins: readonly Scenario[], parse: (value: unknown) => ParseResult, options: LinkOptions = {}): DecodedLink {
  const { path, query } = splitHash(hash);
  const rest = pathAfter(lab, path);
  if (rest === null) return { kind: 'none' };
  const warnings: string[] = [];
  let cursorMs: number | null = null;
  const rawT = query.get('t');
  if (options.playhead && rawT !== null) {
    if (/^\d+$/.test(rawT) && Number(rawT) <= 1_000_000_000) cursorMs = Number(rawT);
    else warnings.push(`t (playhead in the link): must be a whole number of milliseconds from 0 to 1,000,000,000, got ${JSON.stringify(rawT)}; the playhead starts at 0`);
  }
  const notAParameter = (k: string) => unknownLinkParameter(k);

  if (rest === '') {
    const encoded = query.get('scenario');
    if (encoded === null) return { kind: 'none' };
    const parsed = decodeScenarioPayload(encoded, builtins, parse);
    if (!parsed.ok) return { kind: 'bad', errors: parsed.errors };
    for (const k of new Set(query.keys())) if (k !== 'scenario' && k !== CHAOS_LINK_PARAM && k !== GUIDE_LINK_PARAM && !(k === 't' && options.playhead)) warnings.push(notAParameter(k));
    const original = builtins.find((b) => b.id === parsed.scenario.id) ?? parsed.scenario;
    return { kind: 'ok', scenario: parsed.scenario, original, builtinId: null, cursorMs, warnings };
  }

  let id: string;
  try {
    id = decodeURIComponent(rest);
  } catch {
    return { kind: 'bad', errors: [`scenario id (in the link): not valid percent-encoding: ${quoteClipped(rest)} — pick a scenario from the list`] };
  }
  const builtin = builtins.find((b) => b.id === id);
  if (!builtin) {
    const unknownId = `scenario id (in the link): no built-in scenario is called ${quoteClipped(id)}; known: ${builtins.map((b) => b.id).join(', ')}`;
    const params = options.configParams ? [] : [...new Set(query.keys())].filter((k) => k !== 'scenario' && k !== CHAOS_LINK_PARAM && k !== GUIDE_LINK_PARAM && !(k === 't' && options.playhead)).map((k) => unknownLinkParameter(k, false));
    return { kind: 'bad', errors: [unknownId, ...params] };
  }
  let scenario = builtin;
  for (const [key, raw] of query) {
    if (key === 't' && options.playhead) continue;
    if (key === CHAOS_LINK_PARAM || key === GUIDE_LINK_PARAM) continue;
    if (key === 'scenario') {
      warnings.push(ignored('scenario (in the link): give either a scenario id in the path or ?scenario=…, not both; the scenario the path names is shown'));
      continue;
    }
    if (!options.configParams) {
      warnings.push(notAParameter(key));
      continue;
    }
    if (key.startsWith('config.')) {
      // The page writes settings without the prefix (?transport=…); say so instead of "unknown field config" (walkthrough).
      warnings.push(ignored(`${key}: a setting in a link goes without "config." — write ${key.slice('config.'.length)}=${raw.length > 40 ? `${raw.slice(0, 40)}…` : raw}`));
      continue;
    }
    if (!/^[A-Za-z][A-Za-z0-9]*(\.[A-Za-z][A-Za-z0-9]*)*$/.test(key)) {
      warnings.push(ignored(`config.${key}: not a setting name`));
      continue;
    }
    const value = options.valueAliases?.[key]?.[raw] ?? raw;
    const candidate = parse({ ...scenario, config: setConfigPath(scenario.config as Record<string, Json>, key, parseQueryValue(value)) });
    if (candidate.ok) scenario = candidate.scenario;
    else if (namesUnknownKey(candidate.errors, key)) warnings.push(unknownLinkParameter(key));
    else warnings.push(...candidate.errors.map(ignored));
  }
  return { kind: 'ok', scenario, original: builtin, builtinId: builtin.id, cursorMs, warnings };
}
