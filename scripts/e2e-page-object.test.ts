import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Issue 9 item 3: every Playwright spec drives the page through the page objects in e2e/pages/
 * (the kit in e2e/pages/lab.ts, each lab's own panels in e2e/pages/<lab>.ts). A spec that finds
 * elements itself — `locator(…)`, `getByTestId/Role/Text/Label/…(…)`, `$(…)`, `querySelector`, or
 * drives the pointer with `mouse.` — fails this test with file:line, so a renamed test id is
 * fixed in one place. Moving elements, reading boxes and pressing keys stay in the specs.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const e2e = path.join(root, 'e2e');

/** What a spec may not call: finding elements or moving the pointer itself. Built from pieces so this file does not describe itself. */
const RAW = new RegExp(
  String.raw`\.(?:` +
    ['locator', 'getByTestId', 'getByRole', 'getByText', 'getByLabel', 'getByPlaceholder', 'getByAltText', 'getByTitle', 'frameLocator', '\\$\\$?', 'querySelector(?:All)?'].join('|') +
    String.raw`)\s*\(|\.mouse\.`,
);

/** One raw use: where, and the line. */
interface RawUse {
  line: number;
  text: string;
}

/** The raw locator uses in spec source `source` (comments are skipped: a line comment's text is not code). */
function rawUses(source: string): RawUse[] {
  return source.split('\n').flatMap((text, i) => {
    const code = text.replace(/^\s*\/\/.*$/, '').replace(/^\s*\*.*$/, '');
    return RAW.test(code) ? [{ line: i + 1, text: text.trim() }] : [];
  });
}

const specs = readdirSync(e2e).filter((f) => f.endsWith('.spec.ts')).sort();

describe('Playwright specs go through the page objects (e2e/pages/)', () => {
  it('finds the specs and the page objects', () => {
    expect(specs.length).toBeGreaterThanOrEqual(16);
    expect(readdirSync(path.join(e2e, 'pages'))).toEqual(expect.arrayContaining(['lab.ts', 'races.ts', 'ledger.ts', 'flow.ts', 'resilience.ts', 'traffic.ts']));
  });

  for (const spec of specs) {
    it(`${spec}: no raw locator, and a page object imported`, () => {
      const source = readFileSync(path.join(e2e, spec), 'utf8');
      expect(rawUses(source).map((u) => `e2e/${spec}:${u.line}: ${u.text}`)).toEqual([]);
      expect(source).toMatch(/from '\.\/pages\/[a-z]+'/);
    });
  }

  it('the scan catches each kind of raw use (so the guard itself can fail)', () => {
    const bad = [
      "await page.getByTestId('outcome-state').click();",
      "await lab.getByRole('button', { name: 'Play' }).click();",
      "const rows = panel.locator('li');",
      'await lab.mouse.down();',
      "expect(await lab.getByText(/x/).count()).toBe(0);",
      "await page.$('h1');",
    ];
    expect(rawUses(bad.join('\n')).map((u) => u.line)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(rawUses("// page.getByTestId('x') in a comment\nawait flow.herd.setStrategy('exponential');\nawait ledger.console.run('SELECT 1');")).toEqual([]);
  });
});
