import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parseAnyScenarioTextQuick, parseScenarioQuick } from '../fastScenario';
import { eventValidator } from '../scenarioValidators';
import { LAB_KITS } from '../reports';
import { LAB_IDS, type LabId } from '../../sim/labIds';
import { parseAnyScenarioTextWith, parseScenario, type LabSchemas } from '../../sim/scenario';
import { bigRacesScenario } from '../../../bench/scenarios';

const root = path.resolve(import.meta.dirname, '../../..');
const require = createRequire(import.meta.url);
const SCHEMAS = Object.fromEntries(await Promise.all(LAB_IDS.map(async (id) => [id, (await LAB_KITS[id]()).schemas] as const))) as Record<LabId, LabSchemas>;
const schemasOf = (lab: LabId) => SCHEMAS[lab];

/** Every built-in scenario file of every lab, as [lab/file, parsed JSON]. */
const BUILT_INS: [string, Record<string, unknown>][] = LAB_IDS.flatMap((lab) =>
  readdirSync(path.join(root, 'public/scenarios', lab))
    .filter((f) => f.endsWith('.json'))
    .map((f) => [`${lab}/${f}`, JSON.parse(readFileSync(path.join(root, 'public/scenarios', lab, f), 'utf8'))] as [string, Record<string, unknown>]),
);

describe('the quick scenario parse of `replay` (fastScenario.ts)', () => {
  it('gives zod\'s parsed scenario exactly (values, key order, defaults) for every built-in of the four labs and the 10k-event bench file', () => {
    expect(BUILT_INS.length).toBeGreaterThanOrEqual(50);
    const big = JSON.parse(JSON.stringify(bigRacesScenario(10_000, 100))) as Record<string, unknown>;
    for (const [name, value] of [...BUILT_INS, ['bench 10k', big] as [string, Record<string, unknown>]]) {
      const lab = value.lab as LabId;
      const zod = parseScenario(value, lab, SCHEMAS[lab]);
      expect(zod.ok, name).toBe(true);
      const quick = parseScenarioQuick(value, lab, SCHEMAS[lab]);
      expect(quick, `${name} took the quick path`).toBeDefined();
      expect(JSON.stringify(quick), name).toBe(JSON.stringify(zod));
      expect(quick, name).toEqual(zod);
    }
  });

  it('on 4,000 edited built-ins: same result and same error messages as zod; a quick answer only where zod accepts; the bundle\'s precompiled event validators agree with ajv at run time', () => {
    execFileSync('node', ['scripts/ensure.mjs', '--cli'], { cwd: root });
    const bundled = Object.fromEntries(LAB_IDS.map((lab) => [lab, require(path.join(root, `dist-cli/chunks/scenario-events-${lab}.cjs`)) as (e: unknown) => boolean]));
    const values = fc.constantFrom<unknown>(undefined, null, 0, -1, 1, 1.5, 2 ** 53, 1e9, 1e9 + 1, '', 'x', 'a'.repeat(65), '😀'.repeat(60), '😀'.repeat(61), true, false, [], {}, { a: 1 }, 'client', 'server', 'db', 'start', 'progress', 'complete', 'call', 'A');
    const tally = { quick: 0, zodOnly: 0, rejected: 0 };
    fc.assert(
      fc.property(fc.nat(BUILT_INS.length - 1), fc.nat(), fc.nat(), fc.constantFrom('set', 'delete', 'add', 'duplicate-id', 'swap-kind'), values, (which, pickEvent, pickKey, op, v) => {
        const value = structuredClone(BUILT_INS[which][1]) as { lab: LabId; events: Record<string, unknown>[] };
        const events = value.events;
        const event = events[pickEvent % events.length];
        if (!event) return; // a scenario without events
        const keys = Object.keys(event);
        const key = keys[pickKey % keys.length];
        if (op === 'set') event[key] = v;
        else if (op === 'delete') delete event[key];
        else if (op === 'add') event[['label', 'extra', 'total', 'message', 'reason', 'conn', 'idleTimeoutMs'][pickKey % 7]] = v;
        else if (op === 'duplicate-id') event.id = events[(pickEvent + 1) % events.length].id;
        else event.kind = events[(pickEvent + 1 + pickKey) % events.length].kind;
        for (const e of events) expect(bundled[value.lab](e), JSON.stringify(e)).toBe(eventValidator(value.lab, SCHEMAS[value.lab])(e));
        const text = JSON.stringify(value);
        const zod = parseAnyScenarioTextWith(text, schemasOf);
        const quick = parseScenarioQuick(JSON.parse(text), value.lab, SCHEMAS[value.lab]);
        if (quick) {
          tally.quick++;
          expect(zod.ok).toBe(true);
          expect(JSON.stringify(quick)).toBe(JSON.stringify({ ok: zod.ok, scenario: (zod as { scenario: unknown }).scenario }));
        } else if (zod.ok) tally.zodOnly++;
        else tally.rejected++;
        const viaQuick = parseAnyScenarioTextQuick(text, schemasOf);
        expect(JSON.stringify(viaQuick)).toBe(JSON.stringify(zod));
      }),
      { numRuns: 4000, seed: 10 },
    );
    // Not vacuous: many edits stay valid and take the quick path, many are errors that zod words.
    expect(tally.quick).toBeGreaterThan(700); // 789 with the built-ins of issue 23 (T4, T5, RI2: few events, so more edits are errors)
    expect(tally.rejected).toBeGreaterThan(800);
  }, 300_000);

  it('leaves to zod what it cannot decide: bad JSON, a missing or unknown lab, a non-object, a non-array of events', () => {
    for (const text of ['{"format":', '[1,2]', '{"format":1}', '{"lab":"nope","events":[]}', '"races"', '{"lab":"races","events":{}}', '{"lab":"races","events":[null]}']) {
      expect(parseAnyScenarioTextQuick(text, schemasOf), text).toEqual(parseAnyScenarioTextWith(text, schemasOf));
    }
    expect(parseScenarioQuick({ lab: 'races', events: [null] }, 'races', SCHEMAS.races)).toBeUndefined();
  });
});
