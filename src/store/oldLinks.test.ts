import { beforeAll, describe, expect, it } from 'vitest';
import type { ParseResult } from '../sim/scenario';
import type { Scenario } from '../sim/types';
import { LAB_SCHEMAS, parseScenario } from '../sim/labs';
import { ledgerLengthProblem } from '../sim/ledger/schema';
import { racesPageCore } from '../sim/races/pageDefinition';
import { loadScenarios } from '../sim/ledger/__tests__/helpers';
import { builtinRaces } from './builtinRaces';
import { builtinResilience } from './builtinResilience';
import { loadBuiltinFlow } from './flowStore';
import { decodeLink, encodeLink, linkCodecReady } from './labLink';
import { configDiff, fromBase64Url, parseQueryValue, splitHash, toBase64Url } from './linkText';
import { racesParse } from './racesParser';

/**
 * Old share links still open (issue 26 item 4): the links every lab's address module wrote before
 * the one codec (`labLink.ts`) — `#/races/<id>?<config>&t=<ms>`, `#/<lab>/<id>`,
 * `#/<lab>?scenario=<base64url JSON>` — read through `decodeLink` with each lab's link options,
 * with every assertion of the deleted `url.test.ts`, `flowUrl.test.ts`, `ledgerUrl.test.ts` and
 * `resilienceUrl.test.ts` kept. The old modules' result shapes are rebuilt here, over the codec,
 * so the assertions read as they did.
 */

// The link codec (fflate) is a lazy chunk in the page; the tests wait for it like the pages do.
beforeAll(() => linkCodecReady);

const { scenarios: builtins, errors } = builtinRaces();
const A = builtins.find((s) => s.id === 'A-cancel-then-complete') as Scenario;
const flowScenarios = loadBuiltinFlow().scenarios;
const ledgerScenarios = loadScenarios();
const resilienceScenarios = builtinResilience().scenarios;
const RACES_LINK = { configParams: true, playhead: true } as const;

/** The old races form: config overrides and the playhead in the link; `#/races` alone is the first built-in; another page's address is an error. */
function encodeRacesHash(scenario: Scenario, all: readonly Scenario[], cursorMs: number | null = null): string {
  return encodeLink('races', scenario, all, { ...RACES_LINK, cursorMs });
}
function decodeRacesHash(hash: string, all: readonly Scenario[]) {
  const { path, query } = splitHash(hash);
  const bare = !query.has('scenario') && (path === '' || path === '/' || path === '/races' || path === '/races/');
  const parse = (value: unknown): ParseResult => {
    const parsed = racesParse(value);
    const problem = parsed.ok ? (racesPageCore.pageProblem?.(parsed.scenario) ?? null) : null;
    return problem ? { ok: false, errors: [problem] } : parsed;
  };
  const d = decodeLink('races', bare ? hash.replace(/^#?\/?(races\/?)?/, '#/races/' + encodeURIComponent(all[0]?.id ?? '')) : hash, all, parse, RACES_LINK);
  if (d.kind === 'none') return { ok: false as const, errors: [`(link): not a races lab address: ${JSON.stringify(path)}`] };
  if (d.kind === 'bad') return { ok: false as const, errors: d.errors };
  return { ok: true as const, scenario: d.scenario, original: d.original, cursorMs: d.cursorMs, builtinId: d.builtinId, warnings: d.warnings };
}

/** The old two-function form of the other labs: null scenario when the link names none. */
function decodeLabHash(lab: string, hash: string, all: readonly Scenario[], parse: (value: unknown) => ParseResult) {
  const d = decodeLink(lab, hash, all, parse);
  if (d.kind === 'none') return { ok: true as const, scenario: null };
  if (d.kind === 'bad') return { ok: false as const, errors: d.errors };
  return { ok: true as const, scenario: d.scenario, warnings: d.warnings };
}
const encodeFlowHash = (scenario: Scenario, all: readonly Scenario[]) => encodeLink('flow', scenario, all);
const decodeFlowHash = (hash: string, all: readonly Scenario[]) => decodeLabHash('flow', hash, all, (value) => parseScenario(value, 'flow', LAB_SCHEMAS.flow));
const encodeLedgerHash = (scenario: Scenario, all: readonly Scenario[]) => encodeLink('ledger', scenario, all);
/** `#/ledger` alone is the first built-in; another page's address is an error; the ledger's length limit applies. */
function decodeLedgerHash(hash: string, all: readonly Scenario[]): { ok: true; scenario: Scenario } | { ok: false; errors: string[] } {
  const { path } = splitHash(hash);
  if (path !== '/ledger' && !path.startsWith('/ledger/')) return { ok: false, errors: [`(link): not a ledger lab address: ${JSON.stringify(path)}`] };
  const d = decodeLabHash('ledger', hash, all, (value) => {
    const parsed = parseScenario(value, 'ledger', LAB_SCHEMAS.ledger);
    const tooLong = parsed.ok ? ledgerLengthProblem(parsed.scenario.events) : null;
    return tooLong ? { ok: false, errors: [tooLong] } : parsed;
  });
  if (!d.ok) return d;
  return { ok: true, scenario: d.scenario ?? all[0] };
}
const encodeResilienceHash = (scenario: Scenario, all: readonly Scenario[]) => encodeLink('resilience', scenario, all);
function decodeResilienceHash(hash: string, all: readonly Scenario[]) {
  const d = decodeLabHash('resilience', hash, all, (value) => parseScenario(value, 'resilience', LAB_SCHEMAS.resilience));
  if (!d.ok) return d;
  if (d.scenario === null) return { ok: 'none' as const };
  const scenario = d.scenario;
  return { ok: true as const, scenario, original: all.find((b) => b.id === scenario.id) ?? null };
}


describe('base64url', () => {
  it('round-trips UTF-8 text', () => {
    for (const text of ['', 'a', '{"title":"A · Cancel, then complete"}', '✓ ✗ — 日本語 🚀']) {
      const enc = toBase64Url(text);
      expect(enc).toMatch(/^[A-Za-z0-9_-]*$/);
      expect(fromBase64Url(enc)).toBe(text);
    }
  });
  it('rejects what is not base64url', () => {
    expect(fromBase64Url('ab+c')).toBeNull();
    expect(fromBase64Url('a')).toBeNull();
    expect(fromBase64Url('%%%')).toBeNull();
  });
});

describe('races hash', () => {
  it('loads every built-in scenario', () => {
    expect(errors).toEqual([]);
    expect(builtins.map((s) => s.id)).toContain('F5-fifty-timeouts');
    expect(builtins[0].id).toBe('A-cancel-then-complete');
  });

  it('uses the short form for an unmodified built-in', () => {
    expect(encodeRacesHash(A, builtins)).toBe('#/races/A-cancel-then-complete');
    const d = decodeRacesHash('#/races/A-cancel-then-complete', builtins);
    expect(d.ok && d.scenario).toBe(A);
  });

  it('carries config overrides as query parameters and reads them back', () => {
    const changed: Scenario = { ...A, config: { ...A.config, transport: 'streamable-http', policy: { ...(A.config.policy as object), respondAfterCancel: true } } };
    const hash = encodeRacesHash(changed, builtins, 1500);
    expect(hash).toBe('#/races/A-cancel-then-complete?transport=streamable-http&policy.respondAfterCancel=true&t=1500');
    const d = decodeRacesHash(hash, builtins);
    expect(d.ok).toBe(true);
    if (d.ok) {
      expect(d.scenario.config).toEqual(changed.config);
      expect(d.cursorMs).toBe(1500);
      expect(d.original).toBe(A);
    }
  });

  it('carries a modified scenario whole and reproduces it exactly', () => {
    const moved: Scenario = { ...A, events: A.events.map((e) => (e.id === 'cancel' ? { ...e, at: 700, label: '<b>not html</b>' } : e)) };
    const hash = encodeRacesHash(moved, builtins);
    expect(hash.startsWith('#/races?scenario=')).toBe(true);
    const d = decodeRacesHash(hash, builtins);
    expect(d.ok).toBe(true);
    if (d.ok) {
      expect(d.scenario).toEqual(moved);
      expect(d.original).toBe(A);
    }
  });

  it('names the field when the link is bad', () => {
    const bad = (hash: string) => {
      const d = decodeRacesHash(hash, builtins);
      expect(d.ok).toBe(false);
      return d.ok ? [] : d.errors;
    };
    expect(bad('#/races/nope')[0]).toMatch(/^scenario id/);
    expect(bad('#/races?scenario=!!!')[0]).toMatch(/^scenario \(in the link\)/);
    expect(bad(`#/races?scenario=${toBase64Url('{"oops"')}`)[0]).toMatch(/not valid JSON/);
    const wrongAt = { ...A, events: [{ ...A.events[0], at: -1 }] };
    expect(bad(`#/races?scenario=${toBase64Url(JSON.stringify(wrongAt))}`)[0]).toMatch(/^events\[0\]\.at:/);
  });

  it('keeps the scenario a link names and reports each bad setting in it as ignored (one rule in every lab)', () => {
    const ignored = (hash: string) => {
      const d = decodeRacesHash(hash, builtins);
      expect(d.ok && d.scenario.id).toBe('A-cancel-then-complete');
      expect(d.ok && d.scenario.config).toEqual(A.config);
      return d.ok ? d.warnings : [];
    };
    expect(ignored('#/races/A-cancel-then-complete?transport=carrier-pigeon')[0]).toMatch(/^config\.transport:.* \(ignored\)$/);
    // An unknown parameter (here a setting the policy does not have) is named as the link's parameter, in the one voice of every lab.
    expect(ignored('#/races/A-cancel-then-complete?policy.notAThing=true')).toEqual(['policy.notAThing: unknown link parameter — ignored; the scenario is kept']);
    expect(ignored('#/races/A-cancel-then-complete?latencyMs.clientToServer=-5')[0]).toMatch(/^config\.latencyMs\.clientToServer:/);
    expect(ignored('#/races/A-cancel-then-complete?latencyMs.clientToServer=1e20')).toContain('config.latencyMs.clientToServer: must be ≤ 1,000,000,000 ms — use a value up to 1,000,000,000 (ignored)');
    expect(ignored('#/races/A-cancel-then-complete?latencyMs.clientToServer=NaN')).toEqual(['config.latencyMs.clientToServer: must be a number of milliseconds — give a number (ignored)']);
    // A good setting next to a bad one still applies.
    const mixed = decodeRacesHash('#/races/A-cancel-then-complete?transport=stdio&frobnicate=1', builtins);
    expect(mixed.ok && mixed.scenario.config.transport).toBe('stdio');
    expect(mixed.ok && mixed.warnings).toEqual(['frobnicate: unknown link parameter — ignored; the scenario is kept']);
  });

  it('a bad playhead keeps the scenario and reports the ignored part', () => {
    const d = decodeRacesHash('#/races/A-cancel-then-complete?transport=stdio&t=abc', builtins);
    expect(d.ok && d.scenario.config.transport).toBe('stdio');
    expect(d.ok && d.cursorMs).toBe(null);
    expect(d.ok && d.warnings).toEqual(['t (playhead in the link): must be a whole number of milliseconds from 0 to 1,000,000,000, got "abc"; the playhead starts at 0']);
    const edited = { ...A, events: A.events.map((e, i) => (i === 0 ? { ...e, at: e.at + 1 } : e)) };
    const e2 = decodeRacesHash(`#/races?scenario=${toBase64Url(JSON.stringify(edited))}&t=-1`, builtins);
    expect(e2.ok && e2.scenario.events[0].at).toBe(edited.events[0].at);
    expect(e2.ok && e2.warnings[0]).toMatch(/^t \(playhead in the link\)/);
    expect(decodeRacesHash('#/races/A-cancel-then-complete?t=20', builtins)).toMatchObject({ ok: true, cursorMs: 20, warnings: [] });
  });

  it('gives the first built-in for a bare #/races', () => {
    const d = decodeRacesHash('#/races', builtins);
    expect(d.ok && d.scenario.id).toBe('A-cancel-then-complete');
  });

  it('helpers', () => {
    expect(splitHash('#/races/A?x=1').path).toBe('/races/A');
    expect(splitHash('').path).toBe('/');
    expect(parseQueryValue('true')).toBe(true);
    expect(parseQueryValue('20')).toBe(20);
    expect(parseQueryValue('2025-11-25')).toBe('2025-11-25');
    expect(configDiff({ a: 1, p: { x: false, y: false } }, { a: 1, p: { x: true, y: false } })).toEqual([['p.x', true]]);
  });
});




describe('flow lab address', () => {
  it('a built-in as shipped is just its id; an edited one carries the whole scenario and round-trips', () => {
    const r1 = flowScenarios.find((s) => s.id === 'R1-coalesce-one-token')!;
    expect(encodeFlowHash(r1, flowScenarios)).toBe('#/flow/R1-coalesce-one-token');
    const edited = { ...r1, config: { ...r1.config, policy: 'unbounded' } };
    const hash = encodeFlowHash(edited, flowScenarios);
    expect(hash).toMatch(/^#\/flow\?scenario=(z1|d1)\.[A-Za-z0-9_-]+$/);
    const back = decodeFlowHash(hash, flowScenarios);
    expect(back.ok && back.scenario?.config.policy).toBe('unbounded');
  });

  it('bad links come back as errors naming the problem, never a throw', () => {
    expect(decodeFlowHash('#/flow/nope', flowScenarios)).toEqual({ ok: false, errors: [expect.stringMatching(/^scenario id \(in the link\): no built-in scenario is called "nope"; known: /)] });
    expect(decodeFlowHash('#/flow?scenario=%%%', flowScenarios)).toMatchObject({ ok: false, errors: [expect.stringMatching(/base64url/)] });
    expect(decodeFlowHash('#/flow?scenario=garbage', flowScenarios)).toMatchObject({ ok: false, errors: [expect.stringMatching(/^scenario \(in the link\): /)] });
    expect(decodeFlowHash('#/flow/x?s=abc', flowScenarios)).toEqual({ ok: false, errors: [expect.stringMatching(/^scenario id \(in the link\): no built-in scenario is called "x"/), 's: unknown link parameter — ignored'] });
    const badCapacity = decodeFlowHash(`#/flow?scenario=${toBase64Url(JSON.stringify({ format: 1, lab: 'flow', id: 'x', title: 'x', config: { capacityEvents: 1 }, events: [] }))}`, flowScenarios);
    expect(badCapacity.ok ? [] : badCapacity.errors).toEqual([expect.stringMatching(/^config\.capacityEvents: /)]);
    expect(decodeFlowHash('#/races/A', flowScenarios)).toEqual({ ok: true, scenario: null });
  });
});

describe('a corrupted flow link quotes what was wrong visibly', () => {
  const errorsOf = (hash: string) => {
    const d = decodeFlowHash(hash, flowScenarios);
    expect(d.ok).toBe(false);
    return d.ok ? [] : d.errors;
  };

  it('NUL bytes in the payload are written as \\u0000, never as blank space', () => {
    // "AAAA" decodes to three NUL bytes: the JSON parser's own message quotes them raw.
    const [line] = errorsOf('#/flow?scenario=AAAA');
    expect(line).toMatch(/^scenario \(in the link\): not valid JSON — /);
    expect(line).toContain('\\u0000');
    expect(line).toContain('(\\u…: an invisible character, written as its code)');
    expect(line).not.toMatch(/[\u0000-\u001f]/);
  });

  it('a zero-width space in a scenario id is shown as \\u200B', () => {
    const [line] = errorsOf(`#/flow/${encodeURIComponent('F1-stalled\u200bsubscriber')}`);
    expect(line).toContain('no built-in scenario is called "F1-stalled\\u200Bsubscriber" (\\u…: an invisible character, written as its code)');
    expect(line).not.toContain('\u200b');
  });

  it('plain text is left alone', () => {
    // The parser's own wording varies by engine version (Chromium adds "(line 1 column 8)").
    const [line] = errorsOf(`#/flow?scenario=${toBase64Url('{"oops"')}`);
    expect(line).toMatch(/^scenario \(in the link\): not valid JSON — Expected ':' after property name in JSON at position 7.*; the link may be cut short or altered — copy it again$/);
    expect(line).not.toContain('\\u');
  });
});

describe('ledger links', () => {
  const builtins = ledgerScenarios;
  it('a built-in is its id; an edited scenario travels whole and round-trips', () => {
    expect(encodeLedgerHash(builtins[1], builtins)).toBe('#/ledger/B-race-interleaved');
    expect(decodeLedgerHash('#/ledger/B-race-interleaved', builtins)).toEqual({ ok: true, scenario: builtins[1] });
    expect(decodeLedgerHash('#/ledger', builtins)).toEqual({ ok: true, scenario: builtins[0] });
    const edited = { ...builtins[0], events: builtins[0].events.map((e) => (e.id === 'B-read' ? { ...e, at: 20 } : e)) };
    const hash = encodeLedgerHash(edited, builtins);
    expect(hash.startsWith('#/ledger?scenario=')).toBe(true);
    expect(decodeLedgerHash(hash, builtins)).toEqual({ ok: true, scenario: edited });
  });
  it('bad links name the problem', () => {
    expect(decodeLedgerHash('#/ledger/nope', builtins)).toEqual({ ok: false, errors: [expect.stringMatching(/^scenario id \(in the link\): no built-in scenario is called "nope"; known: A-race/)] });
    // One rule for links: the scenario the path names is kept; the extra parameter is ignored (and reported by the page).
    expect(decodeLedgerHash('#/ledger/B-race-interleaved?scenario=abc', builtins)).toEqual({ ok: true, scenario: builtins[1] });
    expect(decodeLedgerHash('#/ledger?scenario=%%%', builtins)).toEqual({ ok: false, errors: ['scenario (in the link): not valid base64url-encoded UTF-8 text — the link may be cut short; copy it again'] });
    const r = decodeLedgerHash(`#/ledger?scenario=${Buffer.from(JSON.stringify({ format: 1, lab: 'ledger', id: 'x', title: 'x', config: {}, events: [{ id: 'a', at: 1.5, actor: 'db', kind: 'read', conn: 'A' }] })).toString('base64url')}`, builtins);
    expect(r).toEqual({ ok: false, errors: ['events[0].at: must be an integer number of milliseconds — give an integer'] });
  });
});

describe('resilience URL', () => {
  const scenarios = resilienceScenarios;
  it('a built-in scenario is named by id; an edited one travels whole and comes back equal', () => {
    const b2 = scenarios.find((s) => s.id === 'B2-retry-composition')!;
    expect(encodeResilienceHash(b2, scenarios)).toBe('#/resilience/B2-retry-composition');
    const edited = { ...b2, events: b2.events.map((e) => (e.id === 'recover' ? { ...e, at: 9000 } : e)) };
    const hash = encodeResilienceHash(edited, scenarios);
    expect(hash).toMatch(/^#\/resilience\?scenario=/);
    const back = decodeResilienceHash(hash, scenarios);
    expect(back.ok === true && back.scenario).toEqual(edited);
    expect(back.ok === true && back.original?.id).toBe('B2-retry-composition');
  });
  it('bad links name the problem', () => {
    expect(decodeResilienceHash('#/resilience/nope', scenarios)).toEqual({ ok: false, errors: [expect.stringMatching(/^scenario id \(in the link\): no built-in scenario is called "nope"; known: /)] });
    expect(decodeResilienceHash('#/resilience/x?s=garbage', scenarios)).toEqual({ ok: false, errors: [expect.stringMatching(/^scenario id \(in the link\): no built-in scenario is called "x"/), 's: unknown link parameter — ignored'] });
    expect(decodeResilienceHash('#/resilience?scenario=garbage', scenarios)).toMatchObject({ ok: false, errors: [expect.stringMatching(/^scenario \(in the link\): /)] });
    expect(decodeResilienceHash(`#/resilience?scenario=${Buffer.from(JSON.stringify({ format: 1, lab: 'races' })).toString('base64url')}`, scenarios)).toEqual({ ok: false, errors: ['lab: this is a "races" scenario; open it in the Races lab (#/races)'] });
    const bad = decodeResilienceHash('#/resilience?scenario=!!!', scenarios);
    expect(bad.ok).toBe(false);
    const wrong = decodeResilienceHash(`#/resilience?scenario=${Buffer.from(JSON.stringify({ format: 1, lab: 'resilience', id: 'x', title: 'x', config: { mechanism: 'storm' }, events: [] })).toString('base64url')}`, scenarios);
    expect(wrong.ok === false && wrong.errors[0]).toMatch(/^config\.layers: /);
    expect(decodeResilienceHash('#/resilience', scenarios)).toEqual({ ok: 'none' });
  });
});
