import { describe, expect, it } from 'vitest';
import type { Scenario } from '../sim/types';
import { builtinRaces } from './builtinRaces';
import { configDiff, decodeRacesHash, encodeRacesHash, fromBase64Url, parseQueryValue, splitHash, toBase64Url } from './url';

const { scenarios: builtins, errors } = builtinRaces();
const A = builtins.find((s) => s.id === 'A-cancel-then-complete') as Scenario;

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
