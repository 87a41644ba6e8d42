import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { main } from '../replay';
import { CHECKED_DEFS } from '../../wire/schemaCheck';
import type { Json } from '../../sim/types';

const root = path.resolve(import.meta.dirname, '../../..');
const require = createRequire(import.meta.url);
type Validator = ((value: unknown) => boolean) & { errors?: unknown[] | null };

/** Every wire message the built-in races scenarios print under `revision` (streamable HTTP and stdio). */
function messagesOf(revision: string): Json[] {
  const dir = path.join(root, 'public/scenarios/races');
  const out: Json[] = [];
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    for (const transport of ['stdio', 'streamable-http']) {
      const r = main([path.join(dir, f), '--config', JSON.stringify({ revision, transport })]);
      if (r.code !== 0) continue;
      for (const w of JSON.parse(r.stdout).wire as { message?: Json }[]) if (w.message !== undefined) out.push(w.message);
    }
  }
  return out;
}

/** `message` with the value at one of its paths replaced (or deleted when `value` is undefined). */
function mutate(message: Json, pick: number, value: Json | undefined): Json {
  const copy = structuredClone(message);
  const slots: [Record<string, Json> | Json[], string | number][] = [];
  const walk = (v: Json) => {
    if (v === null || typeof v !== 'object') return;
    for (const k of Object.keys(v)) {
      slots.push([v as Record<string, Json>, Array.isArray(v) ? Number(k) : k]);
      walk((v as Record<string, Json>)[k]);
    }
  };
  walk(copy);
  if (slots.length === 0) return value ?? null;
  const [parent, key] = slots[pick % slots.length];
  if (value === undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  } else (parent as Record<string | number, Json>)[key] = value;
  return copy;
}

describe('the bundled CLI\'s quick MCP validators (no evaluated-property tracking, no messages)', () => {
  it('answer valid exactly when the all-errors validators find no error, on every built-in races message and 3,000 mutations of them', () => {
    execFileSync('node', ['scripts/ensure.mjs', '--cli'], { cwd: root });
    for (const revision of ['2026-07-28', '2025-11-25']) {
      const load = (mode: string) => require(path.join(root, `dist-cli/chunks/mcp-validators-${revision}-${mode}.cjs`)) as Record<string, Validator>;
      const quick = load('quick');
      const all = load('all');
      const defs = CHECKED_DEFS.filter((d) => all[`r_${d}`]);
      // Each revision's own defs of CHECKED_DEFS (the generic ones and the result types of the methods it has: 22 in each).
      expect(defs.length).toBe(22);
      const messages = messagesOf(revision);
      expect(messages.length).toBeGreaterThan(100);
      const agree = (m: unknown) => {
        for (const def of defs) {
          const full = all[`r_${def}`](m) && !(all[`r_${def}`].errors ?? []).length;
          if (quick[`r_${def}`](m) !== full) return `${def}: quick ${!full}, all-errors ${full} for ${JSON.stringify(m)}`;
        }
        return null;
      };
      for (const m of messages) expect(agree(m)).toBeNull();
      const verdicts = new Set<boolean>();
      const value = fc.oneof(fc.constant(undefined), fc.constantFrom<Json>(null, 0, -1, 1.5, 2 ** 53, '', 'x', '2.0', true, [], {}, { type: 'text' }, [{ type: 'text', text: 't' }]));
      fc.assert(
        fc.property(fc.nat(messages.length - 1), fc.nat(), value, (i, pick, v) => {
          const m = mutate(messages[i], pick, v);
          verdicts.add(quick.r_JSONRPCMessage(m) && quick[`r_${defs[i % defs.length]}`](m));
          expect(agree(m)).toBeNull();
        }),
        { numRuns: 3000, seed: 10 },
      );
      expect([...verdicts].sort()).toEqual([false, true]); // the mutations reach both answers
    }
  }, 300_000);
});
