import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { execSync } from 'node:child_process';
import { LAB_IDS, labNeedsDatabase } from '../sim/labIds';
import { LAB_DEFINITIONS, LAB_SCHEMAS, labContract } from '../sim/labs';
import { FAULT_KINDS } from '../sim/chaos/faults';

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

/** Every hand-written source file of the app and CLI (no tests, no generated data). */
function sourceFiles(): string[] {
  const listed = execSync("git ls-files --cached --others --exclude-standard -- 'src/*.ts' 'src/*.tsx'", { cwd: ROOT, encoding: 'utf8' });
  return [...new Set(listed.split('\n'))].filter((f) => f !== '' && existsSync(path.join(ROOT, f)) && !/\.test\.tsx?$|__tests__\/|testSetup\.ts$/.test(f));
}

/** `file`'s code without its comments (a comment may name labs freely). */
const code = (file: string) => read(file).replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');

/** A lab's own folders and files: it may name its own id (its route, its store, its CLI report). */
function ownedByOneLab(file: string): boolean {
  return LAB_IDS.some((id) => file.startsWith(`src/sim/${id}/`) || file.startsWith(`src/labs/${id}/`) || new RegExp(`^src/(store|cli)/(builtin)?${id}[A-Z]?\\w*\\.tsx?$`, 'i').test(file) || file === `src/cli/kits/${id}.ts`);
}

/**
 * Files that name every lab as lesson CONTENT, not as registration: the review report's sections
 * and fixtures cite the lesson's own built-in runs (races A–D, ledger C and D, flow R1, …), the CLI's
 * default review evidence is that list of runs, and the transcript findings each teach one built-in
 * scenario. A fifth lab needs none of them (its runs replay, link and infer through its contract).
 */
const LESSON_CONTENT = ['src/report/build.ts', 'src/report/fixtures.ts', 'src/cli/review.ts', 'src/wire/transcript/checks.ts'];

describe('the registry is the only place that lists the labs', () => {
  const ids = LAB_IDS.join('|');

  it('no lab-id switch, lab-id comparison or per-lab table outside the registry files', () => {
    const found: string[] = [];
    for (const file of sourceFiles()) {
      if (REGISTRY_FILES.includes(file)) continue;
      const text = code(file);
      for (const m of text.matchAll(new RegExp(`case\\s+['"](${ids})['"]\\s*:`, 'g'))) found.push(`${file}: switch on the lab (${m[0]})`);
      for (const m of text.matchAll(new RegExp(`\\b(lab|\\w+\\.lab)\\s*[!=]==?\\s*['"](${ids})['"]|['"](${ids})['"]\\s*[!=]==?\\s*(lab|\\w+\\.lab)\\b`, 'g'))) found.push(`${file}: compares the lab with an id (${m[0]})`);
      for (const m of text.matchAll(/Record<LabId,[^>]*>\s*=\s*\{/g)) found.push(`${file}: a hand-written table keyed by lab (${m[0]})`);
      const keys = new Set([...text.matchAll(new RegExp(`(?:^|[{,])\\s*(${ids})\\s*:`, 'gm'))].map((m) => m[1]));
      if (keys.size >= 2) found.push(`${file}: an object keyed by lab ids (${[...keys].join(', ')})`);
    }
    expect(found).toEqual([]);
  });

  it('a file that names every lab is a registry file or lesson content (listed, with why)', () => {
    const naming = sourceFiles().filter((file) => {
      if (ownedByOneLab(file)) return false;
      const text = code(file);
      return LAB_IDS.every((id) => new RegExp(`['"\`/]${id}['"\`/]|^\\s*${id}\\s*:|\\b${id}(Definition|Kit)\\b`, 'm').test(text));
    });
    expect(naming.filter((f) => !REGISTRY_FILES.includes(f) && !LESSON_CONTENT.includes(f))).toEqual([]);
    for (const f of [...REGISTRY_FILES, ...LESSON_CONTENT]) expect(existsSync(path.join(ROOT, f)), f).toBe(true);
  });

  it('every lab carries its contract: schemas, and well-formed optional parts (chaos wherever a page shows the Chaos panel); the SQL labs are the ones whose definition needs an opener', () => {
    for (const lab of LAB_IDS) {
      const d = labContract(lab);
      expect(d.id).toBe(lab);
      expect(LAB_SCHEMAS[lab]).toBe(d.schemas);
      const page = readdirSync(path.join(ROOT, 'src/labs', lab), { withFileTypes: true }).filter((f) => f.isFile()).map((f) => read(path.join('src/labs', lab, f.name))).join('\n');
      if (page.includes('<ChaosPanel')) expect(d.chaos, `${lab}: its page shows the Chaos panel but its definition has no chaos part`).toBeDefined();
      if (d.chaos) {
        for (const kind of d.chaos.faultKinds) expect(FAULT_KINDS).toContain(kind);
        expect(typeof d.chaos.faults).toBe('function');
        expect(typeof d.chaos.policySignature).toBe('function');
        for (const check of d.chaos.liveness) expect(check.name).toMatch(/^[a-z-]+$/);
      }
      if (d.review) expect(typeof d.review.infer).toBe('function');
      if (labNeedsDatabase(lab)) expect(() => LAB_DEFINITIONS[lab]({})).toThrow(/needs SQLite/);
      else expect(LAB_DEFINITIONS[lab]({}).id).toBe(lab);
    }
  });
});

/** The backticked repository paths of `docs/ARCHITECTURE.md` (files and folders it names). */
function architecturePaths(): string[] {
  const doc = read('docs/ARCHITECTURE.md');
  return [...new Set([...doc.matchAll(/`((?:src|scripts|oracle|e2e|bench|public|docs)\/[^`*<>{}\s]*)`/g)].map((m) => m[1].replace(/\/$/, '')))];
}

describe('docs/ARCHITECTURE.md stays true', () => {
  it('every path it names exists', () => {
    const missing = architecturePaths().filter((p) => !existsSync(path.join(ROOT, p)));
    expect(missing).toEqual([]);
  });

  it('its floors name every folder under src/, and its registry list is the registry files', () => {
    const doc = read('docs/ARCHITECTURE.md');
    const folders = readdirSync(path.join(ROOT, 'src'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => `src/${d.name}`);
    for (const f of folders) expect(doc, `docs/ARCHITECTURE.md does not place ${f}`).toContain(`\`${f}/\``);
    const section = doc.slice(doc.indexOf('## Where each kind of change goes'));
    for (const f of REGISTRY_FILES) expect(section).toContain(`\`${f}\``);
  });
});

