import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FLOW_GOLDEN_DIR, GOLDEN_DIR, flowGoldenTexts, goldenTexts } from './golden/golden';

/** The built-in races scenarios still compute their recorded traces (re-record with `npm run golden`). */
describe('golden traces of the built-in races scenarios', () => {
  const texts = goldenTexts();
  it('one golden file per built-in scenario, no stale files', () => {
    expect(readdirSync(GOLDEN_DIR).filter((f) => f.endsWith('.json')).sort()).toEqual([...texts.keys()].sort());
  });
  for (const [file, text] of texts) {
    it(`${file} matches its golden trace`, () => {
      const golden = readFileSync(path.join(GOLDEN_DIR, file), 'utf8');
      expect(JSON.parse(text)).toEqual(JSON.parse(golden));
      expect(text).toBe(golden);
    });
  }
});

/** The built-in flow scenarios still compute their recorded traces (re-record with `npm run golden`). */
describe('golden traces of the built-in flow scenarios', () => {
  const texts = flowGoldenTexts();
  it('one golden file per built-in scenario, no stale files', () => {
    expect(readdirSync(FLOW_GOLDEN_DIR).filter((f) => f.endsWith('.json')).sort()).toEqual([...texts.keys()].sort());
  });
  for (const [file, text] of texts) {
    it(`${file} matches its golden trace`, () => {
      const golden = readFileSync(path.join(FLOW_GOLDEN_DIR, file), 'utf8');
      expect(JSON.parse(text)).toEqual(JSON.parse(golden));
      expect(text).toBe(golden);
    });
  }
});
