import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { LAB_IDS } from '../sim/labIds';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

/** The files outside a new lab's own folders that register it: one line each. */
const REGISTRY_FILES = ['src/sim/labIds.ts', 'src/sim/labs.ts', 'src/cli/reports.ts'];

/** The numbered list of README "Add a lab": the first `path` of each item. */
function readmeAddALabFiles(): string[] {
  const readme = read('README.md');
  const start = readme.indexOf('## Add a lab\n');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 5));
  return [...section.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1]);
}

describe('Add a lab: the registries a fifth lab touches', () => {
  it('README lists at most four files, and exactly the registry files', () => {
    const files = readmeAddALabFiles();
    expect(files).toEqual(REGISTRY_FILES);
    expect(files.length).toBeLessThanOrEqual(4);
    for (const f of files) expect(existsSync(path.join(ROOT, f)), f).toBe(true);
  });

  it('each registry file names every lab (it is where labs register)', () => {
    for (const file of REGISTRY_FILES) {
      const text = read(file);
      for (const id of LAB_IDS) expect(text, `${file} does not register ${id}`).toMatch(new RegExp(`\\b${id}\\b`));
    }
  });

  it('the shell names no lab: every page is found by glob through src/labs/<lab>/route.ts', () => {
    const labs = readdirSync(path.join(ROOT, 'src/labs'), { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'common')
      .map((d) => d.name);
    expect(labs).toEqual(expect.arrayContaining([...LAB_IDS]));
    for (const lab of labs) {
      const route = path.join('src/labs', lab, 'route.ts');
      expect(existsSync(path.join(ROOT, route)), `${route} is missing`).toBe(true);
      expect(read(route)).toContain(`id: '${lab}'`);
    }
    expect(read('src/app/labRoutes.ts')).toContain("import.meta.glob<LabRouteEntry>('../labs/*/route.ts'");
    for (const shell of ['src/app/router.ts', 'src/app/labPages.tsx', 'src/app/labRoutes.ts']) {
      const code = read(shell).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      for (const lab of labs) expect(code, `${shell} names lab ${lab}`).not.toMatch(new RegExp(`['"/]${lab}['"/]`));
    }
  });
});
