import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Learner-facing text names public sources, never the project's own bookkeeping (issue 27, item 5):
 * no "issue 11", "as cited in …", "the seed text" in a built-in scenario's words (title, summary,
 * labels) or in any string the app's code can show (comments and tests are not shown, so skipped).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const INTERNAL = /\bissues? \d+\b|\bcited in\b|\bseed (?:text|documents?)\b/i;

function files(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== '__tests__' && name !== '__gallery__' && name !== 'generated') files(p, out);
    } else if (/\.(ts|tsx|json)$/.test(name) && !/\.test\.tsx?$/.test(name)) out.push(p);
  }
  return out;
}

/** The source without its comments (line and block), so only what can reach the page remains. */
function withoutComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The words of a scenario file a learner reads. */
function scenarioWords(json: string): string[] {
  const s = JSON.parse(json) as { title?: string; summary?: string; expect?: { label?: string }[]; events?: { label?: string }[] };
  return [s.title, s.summary, ...(s.expect ?? []).map((e) => e.label), ...(s.events ?? []).map((e) => e.label)].filter((x): x is string => typeof x === 'string');
}

describe('learner-facing text cites public sources only', () => {
  it('built-in scenarios', () => {
    const dir = path.join(root, 'public/scenarios');
    const bad: string[] = [];
    for (const lab of readdirSync(dir)) for (const f of readdirSync(path.join(dir, lab))) for (const w of scenarioWords(readFileSync(path.join(dir, lab, f), 'utf8'))) if (INTERNAL.test(w)) bad.push(`${lab}/${f}: ${w.match(INTERNAL)![0]}`);
    expect(bad).toEqual([]);
  });
  it('strings the app can show (src, comments and tests left out)', () => {
    const bad: string[] = [];
    for (const f of files(path.join(root, 'src')).filter((f) => !f.endsWith('.json'))) {
      const code = withoutComments(readFileSync(f, 'utf8'));
      for (const m of code.matchAll(/(['"`])((?:\\.|(?!\1).)*)\1/g)) if (INTERNAL.test(m[2])) bad.push(`${path.relative(root, f)}: …${m[2].slice(Math.max(0, m[2].search(INTERNAL) - 30), m[2].search(INTERNAL) + 30)}…`);
      // JSX text between tags
      for (const m of code.matchAll(/>([^<>{}]+)</g)) if (INTERNAL.test(m[1])) bad.push(`${path.relative(root, f)}: ${m[1].trim().slice(0, 80)}`);
    }
    expect(bad).toEqual([]);
  });
});
