import { describe, expect, it } from 'vitest';
import { LAB_DEFINITIONS, parseAnyScenarioText } from '../labs';
import { LAB_IDS } from '../labIds';
import { parseScenarioText } from '../scenario';
import { LAB_SCHEMAS } from '../labs';

/**
 * Every parse message is in the project's one voice: `field.path: what is wrong — what to do`,
 * zod's own texts included (no raw "Invalid input", "Too big", "Unrecognized key").
 */
const VOICE = /^(\(scenario\)|\(file\)|[A-Za-z_$][\w$]*|\[\d+\])(\.[A-Za-z_$][\w$-]*|\[\d+\])*: \S.* — \S.*$/;
const RAW = /Invalid input|Invalid option|Too big|Too small|Unrecognized key|expected .*, received/;

const noDatabase = (() => {
  throw new Error('parse needs no database');
}) as never;

/** Bad scenarios every lab must refuse, each problem in the voice. */
function badInputs(lab: string): unknown[] {
  const base = { format: 1, lab, id: 'bad', title: 'bad', seed: 1 };
  return [
    { ...base, config: { capacityEvents: 1e20, idleTimeoutMs: -5, retry: { maxAttempts: 1.5 }, policy: 'zzz', nonsense: true }, events: [] },
    { ...base, seed: 'one', config: {}, events: [{ id: 7, at: 1.5, actor: 'nobody', kind: 'explode' }] },
    { format: 2, lab, id: '', title: 3, config: [], events: {} },
    { ...base, config: {}, events: [{ id: 'e1', at: -1, actor: 'client', kind: 'start' }, { id: 'e1', at: 1e20, actor: 'client', kind: 'start' }] },
  ];
}

describe('error wording: field.path: what is wrong — what to do', () => {
  for (const lab of LAB_IDS) {
    it(`${lab}: every problem of a bad scenario names its field, what is wrong and what to do`, () => {
      const definition = LAB_DEFINITIONS[lab]({ open: noDatabase });
      let seen = 0;
      for (const bad of badInputs(lab)) {
        const r = definition.parse(bad);
        expect(r.ok, JSON.stringify(bad)).toBe(false);
        if (r.ok) continue;
        for (const e of r.errors) {
          seen++;
          expect(e, `${lab}: ${e}`).toMatch(VOICE);
          expect(e, `${lab}: ${e}`).not.toMatch(RAW);
        }
      }
      expect(seen).toBeGreaterThan(4);
    });
  }

  it('flow capacity 1e20 gets one message, the limit that applies (no raw "Too big", no second "must be an integer")', () => {
    const r = LAB_DEFINITIONS.flow({}).parse({ format: 1, lab: 'flow', id: 'x', title: 'x', seed: 1, config: { capacityEvents: 1e20 }, events: [] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toEqual(['config.capacityEvents: must be at most 1,000,000, got 100000000000000000000 — use a value up to 1,000,000']);
  });

  it('every lab: one message per field, however many rules a value breaks', () => {
    for (const lab of LAB_IDS) {
      const definition = LAB_DEFINITIONS[lab]({ open: noDatabase });
      for (const bad of badInputs(lab)) {
        const r = definition.parse(bad);
        if (r.ok) continue;
        const fields = r.errors.map((e) => e.slice(0, e.indexOf(': ')));
        expect(new Set(fields).size, `${lab}: ${r.errors.join(' | ')}`).toBe(fields.length);
      }
    }
  });

  it('a value that is not an integer and below the minimum names the kind first, once', () => {
    const r = LAB_DEFINITIONS.flow({}).parse({ format: 1, lab: 'flow', id: 'x', title: 'x', seed: 1, config: { capacityEvents: -1.5 }, events: [] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toBe('config.capacityEvents: must be an integer — give an integer');
  });

  it('text that is not JSON, or names no lab, is refused in the same voice', () => {
    for (const r of [parseAnyScenarioText('{ nope'), parseAnyScenarioText('{"lab":"chess"}'), parseScenarioText('[1,', 'races', LAB_SCHEMAS.races)]) {
      expect(r.ok).toBe(false);
      if (!r.ok) for (const e of r.errors) expect(e).toMatch(VOICE);
    }
  });
});
