import { beforeAll, describe, expect, it } from 'vitest';
import { loadBuiltinFlow } from './flowStore';
import { decodeFlowHash, encodeFlowHash } from './flowUrl';
import { toBase64Url } from './url';
import { linkCodecReady } from './labLink';

const { scenarios } = loadBuiltinFlow();


// The link codec (fflate) is a lazy chunk in the page; the tests wait for it like the pages do.
beforeAll(() => linkCodecReady);

describe('flow lab address', () => {
  it('a built-in as shipped is just its id; an edited one carries the whole scenario and round-trips', () => {
    const r1 = scenarios.find((s) => s.id === 'R1-coalesce-one-token')!;
    expect(encodeFlowHash(r1, scenarios)).toBe('#/flow/R1-coalesce-one-token');
    const edited = { ...r1, config: { ...r1.config, policy: 'unbounded' } };
    const hash = encodeFlowHash(edited, scenarios);
    expect(hash).toMatch(/^#\/flow\?scenario=(z1|d1)\.[A-Za-z0-9_-]+$/);
    const back = decodeFlowHash(hash, scenarios);
    expect(back.ok && back.scenario?.config.policy).toBe('unbounded');
  });

  it('bad links come back as errors naming the problem, never a throw', () => {
    expect(decodeFlowHash('#/flow/nope', scenarios)).toEqual({ ok: false, errors: [expect.stringMatching(/^scenario id \(in the link\): no built-in scenario is called "nope"; known: /)] });
    expect(decodeFlowHash('#/flow?scenario=%%%', scenarios)).toMatchObject({ ok: false, errors: [expect.stringMatching(/base64url/)] });
    expect(decodeFlowHash('#/flow?scenario=garbage', scenarios)).toMatchObject({ ok: false, errors: [expect.stringMatching(/^scenario \(in the link\): /)] });
    expect(decodeFlowHash('#/flow/x?s=abc', scenarios)).toEqual({ ok: false, errors: [expect.stringMatching(/^scenario id \(in the link\): no built-in scenario is called "x"/), 's: unknown link parameter — ignored'] });
    const badCapacity = decodeFlowHash(`#/flow?scenario=${toBase64Url(JSON.stringify({ format: 1, lab: 'flow', id: 'x', title: 'x', config: { capacityEvents: 1 }, events: [] }))}`, scenarios);
    expect(badCapacity.ok ? [] : badCapacity.errors).toEqual([expect.stringMatching(/^config\.capacityEvents: /)]);
    expect(decodeFlowHash('#/races/A', scenarios)).toEqual({ ok: true, scenario: null });
  });
});

describe('a corrupted flow link quotes what was wrong visibly', () => {
  const errorsOf = (hash: string) => {
    const d = decodeFlowHash(hash, scenarios);
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
