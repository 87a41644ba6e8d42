import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RESILIENCE_GOLDEN_DIR, resilienceGoldenTexts } from '../../__tests__/golden/resilienceGolden';

/** The built-in resilience scenarios still compute their recorded traces (re-record with `npm run golden`). */
describe('golden traces of the built-in resilience scenarios', () => {
  const texts = resilienceGoldenTexts();
  it('one golden file per built-in scenario, no stale files', () => {
    expect(readdirSync(RESILIENCE_GOLDEN_DIR).filter((f) => f.endsWith('.json')).sort()).toEqual([...texts.keys()].sort());
  });
  for (const [file, text] of texts) {
    it(`${file} matches its golden trace`, () => {
      const golden = readFileSync(path.join(RESILIENCE_GOLDEN_DIR, file), 'utf8');
      expect(JSON.parse(text)).toEqual(JSON.parse(golden));
      expect(text).toBe(golden);
    });
  }
});
