import { mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCheck, runCheckStreaming } from '../check';
import { streamCheck } from '../checkStream';

const root = path.resolve(import.meta.dirname, '../../..');
const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(path.join(d, f)).isDirectory() ? walk(path.join(d, f)) : [path.join(d, f)]));
const samples = [...walk(path.join(root, 'public/transcripts')), path.join(root, 'src/wire/transcript/__tests__/fixtures/plain.jsonl')].filter((f) => !/\.md$|index\.json$/.test(f));
const dir = mkdtempSync(path.join(tmpdir(), 'check-stream-'));
const write = (name: string, text: string | Uint8Array) => {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
};

describe('the streaming check gives the whole-file output', () => {
  it.each(samples.map((f) => [path.relative(root, f), f]))('%s', async (_name, file) => {
    for (const extra of [[], ['--text'], ['--max-ms', '100'], ['--revision', '2026-07-28']]) {
      const whole = runCheck([file, ...extra]);
      const streamed = await runCheckStreaming([file, ...extra]);
      expect(streamed).toEqual(whole);
    }
  });

  it('the line formats stream (no fallback), the others fall back to the whole file', async () => {
    const kinds = await Promise.all(samples.map(async (f) => [path.basename(f), 'fallback' in (await streamCheck(f, {})) ? 'whole' : 'stream']));
    const byFormat = Object.fromEntries(kinds);
    expect(byFormat['jsonrpc-progress-forever.jsonl']).toBe('stream');
    expect(byFormat['capture-http-stream-close.jsonl']).toBe('stream');
    expect(byFormat['sdk-recorded.jsonl']).toBe('stream');
    expect(byFormat['inspector-user-cancel.json']).toBe('whole');
    expect(byFormat['mcp-server-lab-late-result.log']).toBe('whole');
  });

  it('CRLF and lone-CR line ends, a BOM, a line split across chunks, an out-of-order line: same output', async () => {
    const lines = [
      '{"ts":0,"dir":"c2s","jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{"pad":"' + 'x'.repeat(3 << 20) + '"}}}',
      '{"ts":5,"dir":"s2c","jsonrpc":"2.0","id":2,"result":{"content":[]}}',
      '{"ts":3,"dir":"s2c","jsonrpc":"2.0","id":1,"result":{"content":[]}}',
    ];
    for (const [name, text] of [
      ['crlf.jsonl', `\ufeff${lines.slice(0, 2).join('\r\n')}\r\n`],
      ['cr.jsonl', lines.slice(0, 2).join('\r')],
      ['unordered.jsonl', lines.join('\n')],
    ]) {
      const file = write(name, text);
      expect(await runCheckStreaming([file])).toEqual(runCheck([file]));
    }
    expect('fallback' in (await streamCheck(write('u2.jsonl', lines.join('\n')), {}))).toBe(true);
    const crlf = await runCheckStreaming([path.join(dir, 'crlf.jsonl')]);
    expect(JSON.parse(crlf.stdout).findings.map((f: { check: string }) => f.check)).toEqual(['response-unknown-id']);
  });

  it('line ends on and around the 64 KiB read boundaries (LF, CRLF split in two, lone CR, a split UTF-8 character): same output', async () => {
    // Each file: a first line padded so its end falls `shift` bytes before the first boundary, then
    // lines of drawn lengths and ends over three boundaries more; one line in ten is not JSON (skipped, so listed by line).
    let seed = 11;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const ends = ['\n', '\r\n', '\r'];
    for (let shift = -3; shift <= 3; shift++) {
      for (const end of ends) {
        const line = (k: number, pad: string) => `{"ts":${k},"dir":"c2s","jsonrpc":"2.0","method":"notifications/message","params":{"data":"${pad}"}}`;
        const first = line(0, '');
        let text = line(0, 'x'.repeat((1 << 16) - first.length - shift)) + end;
        for (let k = 1; Buffer.byteLength(text) < 4 << 16; k++) {
          const pad = 'ab€é'.repeat(rand(40)) + 'x'.repeat(rand(3000));
          text += (rand(10) === 0 ? `not json ${pad}` : line(k, pad)) + ends[rand(3)];
        }
        const file = write(`bounds${shift}-${end.length}${end.charCodeAt(0)}.jsonl`, text);
        const whole = runCheck([file]);
        expect(JSON.parse(whole.stdout).lines).toBeGreaterThan(100);
        expect(await runCheckStreaming([file])).toEqual(whole);
      }
    }
  });
});

describe('the revision scan', () => {
  it('passes over a first _meta version the lab does not know (refused with -32022, then retried) to the one it knows, as the import does', async () => {
    const req = (id: number, v: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': v } } });
    const lines = [req(1, '1900-01-01'), JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '1900-01-01' } } }), req(2, '2026-07-28'), req(3, '2025-11-25')];
    const file = write('refused-version.jsonl', lines.join('\n'));
    const streamed = await runCheckStreaming([file]);
    expect(streamed).toEqual(runCheck([file]));
    expect(JSON.parse(streamed.stdout)).toMatchObject({ revision: '2026-07-28', revisionSource: '_meta' });
  });
});

describe('bad input is named in one line', () => {
  it('a binary file (NUL bytes) is "a binary file, not a text transcript", exit 1, nothing echoed', async () => {
    const file = write('bin.jsonl', new Uint8Array([0x7b, 0x00, 0x1b, 0x5b, 0x32, 0x4a, 0x00, 0x00, 0xff, 0x10, 0x00, 0x01, 0x02, 0x03]));
    for (const r of [runCheck([file]), await runCheckStreaming([file])]) {
      expect(r.code).toBe(1);
      expect(r.stderr).toBe(`${file}: a binary file, not a text transcript (it holds NUL bytes; a transcript is UTF-8 or UTF-16 text)\n`);
    }
  });

  it('UTF-16 (LE with a BOM, BE without) is decoded and checked like its UTF-8 text', async () => {
    const text = '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"t","arguments":{}}}\n{"jsonrpc":"2.0","id":"1","result":{"content":[]}}\n';
    const utf8 = write('u8.jsonl', text);
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    const be = Buffer.from(text, 'utf16le').swap16();
    const want = JSON.parse((await runCheckStreaming([utf8])).stdout).findings.map((f: { check: string }) => f.check);
    expect(want).toEqual(['response-id-type']);
    for (const [name, bytes] of [['le.jsonl', le], ['be.jsonl', be]] as const) {
      const file = write(name, bytes);
      for (const r of [runCheck([file]), await runCheckStreaming([file])]) {
        expect(r.code).toBe(3);
        expect(JSON.parse(r.stdout).findings.map((f: { check: string }) => f.check)).toEqual(want);
      }
    }
  });

  it('control bytes in a line are never written raw to the terminal', async () => {
    const file = write('esc.txt', 'hello \u001b[2J\u001b]0;pwned\u0007 world\nsecond line\n');
    const { checkCommand } = await import('../check');
    const chunks: string[] = [];
    const orig = process.stderr.write.bind(process.stderr);
    (process.stderr as { write: unknown }).write = (s: string) => (chunks.push(String(s)), true);
    try {
      expect(await checkCommand([file])).toBe(1);
    } finally {
      (process.stderr as { write: unknown }).write = orig;
    }
    const out = chunks.join('');
    expect(out).toMatch(/not a transcript format/);
    expect(out).toContain('\\u001b[2J');
     
    expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f]/);
  });
});
