import { describe, expect, it } from 'vitest';
import { builtinResilience } from './builtinResilience';
import { decodeResilienceHash, encodeResilienceHash } from './resilienceUrl';

describe('resilience URL', () => {
  const { scenarios } = builtinResilience();
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
