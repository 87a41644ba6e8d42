/**
 * `npm run golden`: re-records the golden traces of the built-in races scenarios on purpose.
 * Run it only when a rule change is meant to alter what a built-in computes, and name the spec
 * sentence or incident in the commit that carries the new files.
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { GOLDEN_DIR, goldenTexts } from './golden';

mkdirSync(GOLDEN_DIR, { recursive: true });
for (const f of readdirSync(GOLDEN_DIR)) if (f.endsWith('.json')) rmSync(path.join(GOLDEN_DIR, f));
const texts = goldenTexts();
for (const [file, text] of texts) writeFileSync(path.join(GOLDEN_DIR, file), text);
console.log(`golden: wrote ${texts.size} files to ${path.relative(process.cwd(), GOLDEN_DIR)}`);
