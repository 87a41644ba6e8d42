import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLOW_GOLDEN_DIR, GOLDEN_DIR, flowGoldenTexts, goldenTexts } from './golden/golden';
import { RESILIENCE_GOLDEN_DIR, resilienceGoldenTexts } from './golden/resilienceGolden';

/** The built-in races, flow and resilience scenarios still compute their recorded traces (re-record with `npm run golden`). */
const LABS = [
  ['races', GOLDEN_DIR, goldenTexts],
  ['flow', FLOW_GOLDEN_DIR, flowGoldenTexts],
  ['resilience', RESILIENCE_GOLDEN_DIR, resilienceGoldenTexts],
] as const;
for (const [lab, dir, textsOf] of LABS) {
  const texts = textsOf();
  describe(`golden traces of the built-in ${lab} scenarios`, () => {
    it('one golden file per built-in scenario, no stale files', () => {
      expect(readdirSync(dir).filter((f) => f.endsWith('.json')).sort()).toEqual([...texts.keys()].sort());
    });
    for (const [file, text] of texts) {
      it(`${file} matches its golden trace`, () => {
        const golden = readFileSync(path.join(dir, file), 'utf8');
        expect(JSON.parse(text)).toEqual(JSON.parse(golden));
        expect(text).toBe(golden);
      });
    }
  });
}
