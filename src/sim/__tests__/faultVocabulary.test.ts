/**
 * Every live fault's lesson names a real built-in scenario, an invariant of that lab, and bug
 * switches the lab's parser accepts (and that change the built-in's config), so `serve --help`,
 * the fault tools and the findings never point at something that does not exist.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIVE_FAULT_NAMES, LIVE_FAULTS, parseFaultList, CHAOS_TO_LIVE } from '../faultVocabulary';
import { LAB_DEFINITIONS } from '../labs';
import { FAULT_KINDS } from '../chaos/faults';
import { loadSqlJsNode } from '../../db/node';
import { memoryOpener } from '../../db/sqljs';

const root = path.resolve(__dirname, '../../..');

/** `{ 'policy.x': v }` → `{ policy: { x: v } }`, merged into `config`. */
function withSwitches(config: Record<string, unknown>, switches: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(config);
  for (const [dotted, value] of Object.entries(switches)) {
    const keys = dotted.split('.');
    let at = out;
    for (const k of keys.slice(0, -1)) at = (at[k] ??= {}) as Record<string, unknown>;
    at[keys[keys.length - 1]] = value;
  }
  return out;
}

describe('the fault vocabulary', () => {
  it.each(LIVE_FAULT_NAMES.filter((n) => LIVE_FAULTS[n].lesson !== null))('%s: its lesson is a real built-in, invariant and bug switch', async (name) => {
    const lesson = LIVE_FAULTS[name].lesson!;
    const dir = path.join(root, 'public/scenarios', lesson.lab);
    const file = readdirSync(dir).find((f) => f.startsWith(`${lesson.scenario}-`) && f.endsWith('.json'));
    expect(file, `${lesson.lab}/${lesson.scenario}`).toBeDefined();
    const SQL = await loadSqlJsNode();
    const definition = LAB_DEFINITIONS[lesson.lab]({ open: memoryOpener(SQL) });
    expect(definition.invariants.map((i) => i.name)).toContain(lesson.invariant);
    const scenario = JSON.parse(readFileSync(path.join(dir, file!), 'utf8'));
    const switched = { ...scenario, config: withSwitches(scenario.config, lesson.bugSwitch) };
    const parsed = definition.parse(switched);
    expect(parsed.ok ? [] : parsed.errors).toEqual([]);
    if (Object.keys(lesson.bugSwitch).length > 0 && parsed.ok) {
      // The switch is a real config key: it survives parsing with the value given (an unknown key is stripped or refused).
      for (const [dotted, value] of Object.entries(lesson.bugSwitch)) {
        const got = dotted.split('.').reduce<unknown>((at, k) => (at as Record<string, unknown>)?.[k], parsed.scenario.config);
        expect(got, dotted).toEqual(value);
      }
    }
  });

  it('maps every chaos kind onto a live fault, and parses fault lists with one clear error', () => {
    for (const kind of FAULT_KINDS) expect(LIVE_FAULT_NAMES).toContain(CHAOS_TO_LIVE[kind]);
    expect(parseFaultList('ignore-cancel, big-result,ignore-cancel')).toEqual(['ignore-cancel', 'big-result']);
    expect(() => parseFaultList('ignore-cancel,nope')).toThrow(/unknown fault "nope"/);
  });
});
