import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { racesPageDefinition } from '../sim/races/definition';
import { racesConfigSchema, racesPolicySchema } from '../sim/races/schema';
import { builtinRaces } from './builtinRaces';
import { RACES_SETTING_TEXTS } from './builtinRaces';
import { RACES_PAGE_DATA, renderRacesPageData } from './racesPageData';

const root = path.resolve(import.meta.dirname, '../..');
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
});
