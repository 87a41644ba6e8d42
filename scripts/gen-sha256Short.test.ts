import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error a plain .mjs script (no types): the generator behind src/sim/flow/sha256Short.ts
import { generatedRange, generateWord0Short, TARGET } from './gen-sha256Short.mjs';

describe('scripts/gen-sha256Short.mjs: the generator behind sha256Short.ts', () => {
  it('regenerates word0Short byte for byte as checked in', () => {
    const text = readFileSync(TARGET, 'utf8');
    const [start, end] = generatedRange(text) as [number, number];
    expect(generateWord0Short()).toBe(text.slice(start, end));
  });

  it('the generated function computes the first word of SHA-256 (checked against node:crypto)', async () => {
    const { createHash } = await import('node:crypto');
    const fn = new Function('w0', 'w1', 'w2', 'w15', (generateWord0Short() as string).replace(/^function word0Short\([^)]*\): number \{/, '').replace(/\}\n$/, '')) as (a: number, b: number, c: number, d: number) => number;
    for (const msg of ['', 'a', 'c1:0', 'c12345:17', 'hello world']) {
      const bytes = new Uint8Array(12);
      bytes.set(new TextEncoder().encode(msg));
      bytes[msg.length] = 0x80;
      const view = new DataView(bytes.buffer);
      const got = fn(view.getInt32(0), view.getInt32(4), view.getInt32(8), msg.length * 8);
      expect(got, msg).toBe(createHash('sha256').update(msg).digest().readUInt32BE(0));
    }
  });
});
