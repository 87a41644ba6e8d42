import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { writeJsonDocument } from '../replayCore';
import { main } from '../replay';
import type { Json } from '../../sim/types';

const root = path.resolve(import.meta.dirname, '../../..');

/** What writeJsonDocument prints, joined. */
function printed(doc: Record<string, Json>): { text: string; pieces: number } {
  const pieces: string[] = [];
  writeJsonDocument(doc, (t) => pieces.push(t));
  return { text: pieces.join(''), pieces: pieces.length };
}

describe('writeJsonDocument', () => {
  it('prints exactly JSON.stringify(doc, null, 2) + newline: nested arrays, empty arrays, undefined members, escaped newlines', () => {
    const doc = {
      a: [{ x: [1, { y: 'line\nbreak' }], z: null }, [], 'two', undefined as unknown as Json],
      empty: [],
      gone: undefined as unknown as Json,
      obj: { deep: { list: [true, false] } },
      n: 3,
    } as Record<string, Json>;
    expect(printed(doc).text).toBe(JSON.stringify(doc, null, 2) + '\n');
  });

  it('prints a built-in replay document exactly as main() does, in more than one piece when it is large', () => {
    const file = path.join(root, 'public/scenarios/races/C-progress-idle-maximum.json');
    const doc = JSON.parse(main([file]).stdout) as Record<string, Json>;
    expect(printed(doc).text).toBe(main([file]).stdout);
    const big = { wire: Array.from({ length: 2000 }, (_, i) => ({ atMs: i, message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progress: i } } })) } as Record<string, Json>;
    const out = printed(big);
    expect(out.text).toBe(JSON.stringify(big, null, 2) + '\n');
    expect(out.pieces).toBeGreaterThan(1);
  });

  it('prints arrays longer than one stringify run exactly: a run boundary, an escaped key, null and nested members', () => {
    const item = (i: number) => (i % 7 === 0 ? null : i % 5 === 0 ? [i, { deep: ['a\nb'] }] : { i, s: `x${i}`, o: { e: [] } });
    const doc = { 'we"ird\nkey': Array.from({ length: 300 }, (_, i) => item(i)), one: [1], last: Array.from({ length: 128 }, (_, i) => item(i)) } as Record<string, Json>;
    expect(printed(doc).text).toBe(JSON.stringify(doc, null, 2) + '\n');
  });
});
