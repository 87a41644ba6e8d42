import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 25 (right to left): CSS says start/end, not left/right — `margin-inline-start`, not
 * `margin-left`; `inset-inline-end`, not `right:`; `text-align: start`, not `left` — so Arabic
 * mirrors the layout by itself. New CSS files may have no physical property; today's files are
 * allowed the uses they have now, as a ratchet: a file may never gain one, and once it loses some
 * its allowance must be lowered (so the list never goes stale).
 */
const SRC = path.resolve(import.meta.dirname, '..');

/** Physical (left/right) properties and values, as one regex over comment-free CSS. */
const PHYSICAL = new RegExp(
  [
    String.raw`\b(?:margin|padding|border|scroll-margin|scroll-padding)-(?:left|right)\b`,
    String.raw`\bborder-(?:top|bottom)-(?:left|right)-radius\b`,
    String.raw`(?:^|[;{\s])(?:left|right)\s*:`,
    String.raw`\b(?:text-align|float|clear)\s*:\s*(?:left|right)\b`,
  ].join('|'),
  'gm',
);

/** Today's physical uses per file (path under src/): each may only go down. */
const ALLOWANCE: Record<string, number> = {
  'app/app.css': 0,
  'app/updateBanner.css': 0,
  'charts/timeline.css': 1,
  'labs/common/common.css': 3,
  'labs/common/kit.css': 1,
  'labs/flow/flow.css': 7,
  'labs/flow/herdPlot.css': 0,
  'labs/ledger/ledger.css': 6,
  'labs/races/races.css': 12,
  'labs/resilience/resilience.css': 8,
  'labs/resilience/seeds.css': 3,
  'labs/traffic/traffic.css': 12,
};

/** Physical uses in CSS `text`, with line numbers (comments skipped). */
export function physicalUses(text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  return [...code.matchAll(PHYSICAL)].map((m) => `line ${code.slice(0, m.index).split('\n').length}: ${m[0].trim()}`);
}

function cssFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? cssFiles(full) : name.endsWith('.css') ? [full] : [];
  });
}

describe('CSS uses logical (start/end) properties', () => {
  const files = cssFiles(SRC).map((f) => path.relative(SRC, f).split(path.sep).join('/')).sort();

  it('finds the CSS files', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  for (const file of files) {
    it(`${file}: no physical property beyond its allowance`, () => {
      const uses = physicalUses(readFileSync(path.join(SRC, file), 'utf8'));
      const allowed = ALLOWANCE[file] ?? 0;
      expect(uses.length, `${file} has physical properties (use margin-inline-start, inset-inline-end, text-align: start…):\n${uses.join('\n')}`).toBeLessThanOrEqual(allowed);
      expect(uses.length, `${file} now has ${uses.length} physical uses: lower its allowance in logicalCss.test.ts from ${allowed}`).toBe(allowed);
    });
  }

  it('the scan catches each kind and skips logical properties and comments', () => {
    expect(physicalUses('.a { margin-left: 2px; padding-right: 1px }')).toHaveLength(2);
    expect(physicalUses('.a {\n  left: 0;\n}\n.b{right:0}')).toEqual(['line 2: left:', 'line 4: {right:']);
    expect(physicalUses('.a { text-align: left; float: right; border-top-left-radius: 3px; border-left: 1px solid }')).toHaveLength(4);
    expect(physicalUses('.a { margin-inline-start: 2px; inset-inline-end: 0; text-align: start; transform: translateX(-2px) } /* margin-left: 1px */')).toEqual([]);
    expect(physicalUses('.a { scroll-padding-left: 0; --x-left: 1 }')).toHaveLength(1);
  });
});
