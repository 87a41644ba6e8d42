// Prints the totals of the unit and browser test runs as one "N passed, N failed" line.
import { existsSync, readFileSync } from 'node:fs';

let passed = 0;
let failed = 0;
let skipped = 0;
const [vitestJson, playwrightJson] = process.argv.slice(2);
if (vitestJson && existsSync(vitestJson)) {
  const v = JSON.parse(readFileSync(vitestJson, 'utf8'));
  passed += v.numPassedTests ?? 0;
  failed += v.numFailedTests ?? 0;
  skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
  console.log(`unit and property tests (vitest): ${v.numPassedTests} passed, ${v.numFailedTests} failed`);
}
if (playwrightJson && existsSync(playwrightJson)) {
  const p = JSON.parse(readFileSync(playwrightJson, 'utf8'));
  const s = p.stats ?? {};
  passed += s.expected ?? 0;
  failed += (s.unexpected ?? 0) + (s.flaky ?? 0);
  skipped += s.skipped ?? 0;
  console.log(`browser tests (playwright, chromium): ${s.expected ?? 0} passed, ${(s.unexpected ?? 0) + (s.flaky ?? 0)} failed`);
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
