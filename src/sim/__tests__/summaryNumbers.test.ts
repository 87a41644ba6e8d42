import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAB_IDS } from '../labIds';
import { scenarioDir } from './builtinScenarios';

/**
 * A built-in's summary never states a time its run does not pin (issue 27, item 3): every
 * "N ms" in a scenario's `summary` is a number of its `expect` blocks (values or labels), its
 * events or its config — so a summary cannot drift from what the run computes unnoticed.
 */
function numbersIn(v: unknown, out: Set<number>): Set<number> {
  if (typeof v === 'number') out.add(v);
  else if (typeof v === 'string') for (const m of v.matchAll(/\d[\d,]*/g)) out.add(Number(m[0].replace(/,/g, '')));
  else if (Array.isArray(v)) for (const x of v) numbersIn(x, out);
  else if (v !== null && typeof v === 'object') for (const x of Object.values(v)) numbersIn(x, out);
  return out;
}

/** The integers the summary writes as milliseconds ("510 ms", "4,500 ms", "at 1000 and 2000 ms"). */
export function summaryTimes(summary: string): number[] {
  const out: number[] = [];
  for (const m of summary.matchAll(/(?<![\w.#])((?:\d[\d,]*(?:,? (?:and|or) |, | ?[–-] ?))*\d[\d,]*) ?ms\b/g)) for (const n of m[1].matchAll(/\d[\d,]*/g)) out.push(Number(n[0].replace(/,/g, '')));
  return out;
}

describe('built-in summaries state only times their run pins', () => {
  it('summaryTimes reads lists and ranges', () => {
    expect(summaryTimes('progress at 1000 and 2000 ms, its result at 3,000 ms; 20–30 ms later; 5 clients')).toEqual([1000, 2000, 3000, 20, 30]);
  });
  for (const lab of LAB_IDS) {
    const dir = scenarioDir(lab);
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
      it(`${lab}/${file}`, () => {
        const s = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as { summary?: string; expect?: unknown; events?: unknown; config?: unknown };
        const pinned = numbersIn([s.expect ?? [], s.events ?? [], s.config ?? {}], new Set());
        const unpinned = summaryTimes(s.summary ?? '').filter((n) => !pinned.has(n));
        expect(unpinned, 'times in the summary that no expect block, event or config value holds').toEqual([]);
      });
    }
  }
});
