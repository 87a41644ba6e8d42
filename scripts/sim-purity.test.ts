import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';

/** Guards DESIGN.md's rule: src/sim never touches the wall clock, randomness, timers, the DOM or React. */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe('src/sim stays pure', () => {
  function files(dir: string): string[] {
    return readdirSync(dir).flatMap((f) => {
      const p = path.join(dir, f);
      if (statSync(p).isDirectory()) return files(p);
      return p.endsWith('.ts') ? [p] : [];
    });
  }
  // Plain substring search over whole files (comments, strings and tests too), the way a reviewer
  // greps: even a name like `…setTimeout…` inside another identifier counts. The patterns are built
  // from pieces so this file, which lives outside src/sim, does not match itself.
  it('no file under src/sim mentions the wall clock, the platform random generator, timers, the DOM or React', () => {
    const words = ['Date.now', 'new Date', 'Math.' + 'random', 'set' + 'Timeout', 'set' + 'Interval', 'requestAnimation' + 'Frame', 'performance.', 'document.', 'window.', "from 'react", "from 'zustand", "from 'd3"];
    const banned = new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'));
    const code = (f: string) => readFileSync(f, 'utf8');
    const offenders = files(path.join(root, 'src/sim')).filter((f) => banned.test(code(f)));
    expect(files(path.join(root, 'src/sim')).length).toBeGreaterThan(5);
    expect(offenders).toEqual([]);
  });
  it('the lint rule rejects impure code placed in src/sim (so the guard itself can fail)', async () => {
    const eslint = new ESLint({ cwd: root });
    const [result] = await eslint.lintText("export const t = Date.now() + Math.random();\nsetTimeout(() => 0, 1);\nimport 'react';\n", { filePath: path.join(root, 'src/sim/impure.ts') });
    const rules = result.messages.map((m) => m.ruleId);
    expect(rules).toEqual(expect.arrayContaining(['no-restricted-globals', 'no-restricted-properties', 'no-restricted-imports']));
  });
});
