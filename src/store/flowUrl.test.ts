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
