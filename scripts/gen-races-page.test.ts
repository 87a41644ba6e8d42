import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { racesPageDefinition } from '../src/sim/races/definition';
import { racesConfigSchema, racesPolicySchema } from '../src/sim/races/schema';
import { builtinRaces } from '../src/store/builtinRaces';
import { RACES_SETTING_TEXTS } from '../src/store/builtinRaces';
import { RACES_FIRST_PAINT_DATA, RACES_PAGE_DATA } from '../src/store/racesPageData';
import { renderRacesFirstPaintData, renderRacesPageData } from './gen-races-page';
import { loadRacesBuiltins, RACES_BUILTIN_ERRORS, RACES_FIRST_BUILTIN } from '../src/store/racesFirstPaint';
import { racesLinkNamesNothing, racesStoreThenBuiltins } from '../src/store/racesStore';

const root = path.resolve(import.meta.dirname, '..');
const dir = path.join(root, 'public/scenarios/races');

describe('the races page data generated at build time', () => {
  it('regenerating gives the same bytes (run `npm run gen:races-page` after editing a built-in or a description)', () => {
    expect(readFileSync(path.join(root, RACES_PAGE_DATA), 'utf8')).toBe(renderRacesPageData(root));
  });

  it('holds every built-in file, each equal to parse(file), in the page order, with no errors', () => {
    const { scenarios, errors } = builtinRaces();
    expect(errors).toEqual([]);
    const names = readdirSync(dir).filter((n) => n.endsWith('.json'));
    expect(scenarios).toHaveLength(names.length);
    for (const name of names) {
      const parsed = racesPageDefinition.parse(JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
      if (!parsed.ok) throw new Error(`${name}: ${parsed.errors.join('; ')}`);
      expect(scenarios.find((s) => s.id === parsed.scenario.id)).toEqual(parsed.scenario);
      // key order too (the data file stores shared fields once; they go back where parse put them)
      expect(JSON.stringify(scenarios.find((s) => s.id === parsed.scenario.id))).toBe(JSON.stringify(parsed.scenario));
    }
    expect(scenarios.map((s) => s.id).slice(0, 2)).toEqual(['A-cancel-then-complete', 'B-complete-then-cancel']);
  });

  it('the settings texts are the schema descriptions, one per policy switch in schema order', () => {
    expect(Object.keys(RACES_SETTING_TEXTS.policy)).toEqual(Object.keys(racesPolicySchema.shape));
    for (const [key, field] of Object.entries(racesPolicySchema.shape)) expect(RACES_SETTING_TEXTS.policy[key]).toBe(field.description);
    expect(RACES_SETTING_TEXTS.progressResetsIdleTimeout).toBe(racesConfigSchema.shape.progressResetsIdleTimeout.description);
  });

  it('the first-paint file is current, and holds the first built-in exactly as the whole list has it', async () => {
    expect(readFileSync(path.join(root, RACES_FIRST_PAINT_DATA), 'utf8')).toBe(renderRacesFirstPaintData(root));
    const { scenarios, errors } = builtinRaces();
    expect(JSON.stringify(RACES_FIRST_BUILTIN)).toBe(JSON.stringify(scenarios[0]));
    expect(RACES_BUILTIN_ERRORS).toEqual(errors);
    expect((await loadRacesBuiltins()).scenarios).toEqual(scenarios);
  });

  it('a plain visit paints the first built-in and gets every other one into the picker when the list arrives; a link naming one waits', async () => {
    const { scenarios } = builtinRaces();
    let arrive!: (load: { scenarios: typeof scenarios }) => void;
    const store = racesStoreThenBuiltins('#/races', [RACES_FIRST_BUILTIN], [], new Promise((resolve) => (arrive = resolve)));
    expect(store.getState().builtins.map((b) => b.id)).toEqual([scenarios[0].id]);
    expect(store.getState().scenario.id).toBe(scenarios[0].id);
    arrive({ scenarios });
    await Promise.resolve();
    await Promise.resolve();
    expect(store.getState().builtins.map((b) => b.id)).toEqual(scenarios.map((b) => b.id));
    expect(store.getState().scenario.id).toBe(scenarios[0].id);
    store.getState().loadBuiltin(scenarios[3].id);
    expect(store.getState().scenario.id).toBe(scenarios[3].id);
    expect(racesLinkNamesNothing('#/races')).toBe(true);
    expect(racesLinkNamesNothing('')).toBe(true);
    expect(racesLinkNamesNothing(`#/races/${scenarios[3].id}`)).toBe(false);
    expect(racesLinkNamesNothing('#/races?scenario=z1.abc')).toBe(false);
  });
});
