/**
 * `npm run golden`: re-records the golden traces of the built-in races, flow and resilience
 * scenarios on purpose. Run it only when a rule change is meant to alter what a built-in computes,
 * and name the spec sentence or incident in the commit that carries the new files.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { FLOW_GOLDEN_DIR, GOLDEN_DIR, flowGoldenTexts, goldenTexts } from './golden';
import { RESILIENCE_GOLDEN_DIR, resilienceGoldenTexts } from './resilienceGolden';

for (const [dir, texts] of [
  [GOLDEN_DIR, goldenTexts()],
  [FLOW_GOLDEN_DIR, flowGoldenTexts()],
  [RESILIENCE_GOLDEN_DIR, resilienceGoldenTexts()],
] as const) {
  mkdirSync(dir, { recursive: true });
  for (const f of readdirSync(dir)) if (f.endsWith('.json')) rmSync(path.join(dir, f));
  for (const [file, text] of texts) writeFileSync(path.join(dir, file), text);
  console.log(`golden: wrote ${texts.size} files to ${path.relative(process.cwd(), dir)}`);
}
