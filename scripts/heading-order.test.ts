import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Heading levels never skip (axe `heading-order`, found on Resilience S2: the article panel's cards
 * were h4 under its h2). A static check over every page component: in one file, a heading is at most
 * one level below the previous heading of that file (the file's first heading may be any level).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function tsx(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) tsx(p, out);
    else if (name.endsWith('.tsx') && !name.endsWith('.test.tsx')) out.push(p);
  }
  return out;
}

describe('heading order', () => {
  it('no page component skips a heading level', () => {
    const skips: string[] = [];
    for (const f of [...tsx(path.join(root, 'src/labs')), ...tsx(path.join(root, 'src/app'))]) {
      const levels = [...readFileSync(f, 'utf8').matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
      for (let i = 1; i < levels.length; i++) if (levels[i] > levels[i - 1] + 1) skips.push(`${path.relative(root, f)}: h${levels[i - 1]} then h${levels[i]}`);
    }
    expect(skips).toEqual([]);
  });
});
