import { afterEach, describe, expect, it, vi } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkCommand, runCheck } from '../check';
import { captureStdio } from './captureStdio';

const samples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../public/transcripts');
const sample = (f: string) => path.join(samples, f);

/** Runs checkCommand in-process, capturing what it writes. */
const cli = (argv: string[]) => captureStdio(() => checkCommand(argv));

afterEach(() => vi.restoreAllMocks());

describe('npm run check -- FILE', () => {
  it('exits 0 on a clean transcript and prints the findings document as JSON', async () => {
    const r = await cli([sample('claude-desktop/mcp-server-lab-complete-then-cancel.log')]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ format: 'claude-desktop-log', revision: '2026-07-28', clean: true, findings: [], messages: 3, counts: { error: 0, warning: 0, info: 0 } });
  });

  it('exits 3 when a rule is broken, naming the rule, the entries, their lines and the scenario that teaches it', async () => {
    const r = await cli([sample('capture-jsonl/capture-http-posts-cancel.jsonl')]);
    expect(r.code).toBe(3);
    const doc = JSON.parse(r.stdout);
    expect(doc.findings).toHaveLength(1);
    expect(doc.findings[0]).toMatchObject({ check: 'http-cancel-post-2026', rule: 'cancel.http-2026', severity: 'error', requestIds: ['req-7'], atMs: 500, lines: [1, 4], teaches: { lab: 'races', scenario: 'D-http-stream-close', href: '#/races/D-http-stream-close?policy.httpPostsCancel=true' } });
  });

  it('--text prints a short human summary', async () => {
    const r = await cli([sample('inspector-v2/inspector-responds-after-cancel.json'), '--text']);
    expect(r.code).toBe(3);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/MCP Inspector v2 protocol export.*4 messages, 0 lines skipped; revision 2026-07-28/);
    expect(lines[1]).toBe('0 errors, 1 warning, 0 info');
    expect(lines[2]).toMatch(/^ {2}\[warning\] 3020 ms late-after-cancel \(cancel\.receiver-stops\): .*→ #\/races\/A-cancel-then-complete/);
    expect(lines).toHaveLength(3);
  });

  it('--allowance-ms and --max-ms change the verdict', async () => {
    expect((await cli([sample('inspector-v2/inspector-responds-after-cancel.json'), '--allowance-ms', '5000'])).code).toBe(0);
    const forever = sample('jsonrpc-jsonl/jsonrpc-progress-forever.jsonl');
    expect((await cli([forever])).code).toBe(0);
    const r = await cli([forever, '--max-ms', '180000']);
    expect(r.code).toBe(3);
    expect(JSON.parse(r.stdout).findings.map((f: { check: string }) => f.check)).toEqual(['outlived-maximum']);
  });

  it('--revision overrides the detected revision', async () => {
    // Under 2025-11-25, POSTing notifications/cancelled over HTTP is the correct signal.
    const r = await cli([sample('capture-jsonl/capture-http-posts-cancel.jsonl'), '--revision', '2025-11-25']);
    const doc = JSON.parse(r.stdout);
    expect(doc.revision).toBe('2025-11-25');
    expect(doc.revisionSource).toBe('chosen');
    expect(doc.findings.map((f: { check: string }) => f.check)).not.toContain('http-cancel-post-2026');
  });

  it('exits 1 with a one-line reason on stderr for unreadable input', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'check-'));
    const junk = path.join(dir, 'junk.txt');
    writeFileSync(junk, 'hello\nworld\n');
    const empty = path.join(dir, 'meta-only.jsonl');
    writeFileSync(empty, '{"ts":1,"dir":"meta","event":"connect"}\n');
    for (const file of [junk, empty, path.join(dir, 'missing.log')]) {
      const r = await cli([file]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr.startsWith(`${file}: `)).toBe(true);
    }
    expect((await cli([path.join(dir, 'missing.log')])).stderr).toMatch(/cannot read — ENOENT/);
    expect((await cli([empty])).stderr).toMatch(/nothing usable/);
  });

  it('a lab scenario file given to check says so and names the command that replays it', async () => {
    const scenario = path.resolve(samples, '../scenarios/races/A-cancel-then-complete.json');
    const r = await cli([scenario]);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`${scenario}: this is a races scenario, not a transcript — replay it with npm run replay -- FILE (check reads recorded MCP traffic; see "Bring your own traffic" in the README)\n`);
  });

  it('exits 2 with the usage on a bad command line', () => {
    for (const argv of [[], ['a', 'b'], ['f', '--max-ms', 'soon'], ['f', '--revision', '2024-11-05'], ['f', '--bogus'], ['f', '--format', 'pcap']]) {
      const r = runCheck(argv, () => '');
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/usage: npm run check -- FILE/);
    }
  });
});

describe('npm run check -- FILE of bare JSON-RPC lines (no ts, no dir)', () => {
  it('reads it and says in the text summary that times are assumed, 1 ms per line', () => {
    const text = ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}', '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}'].join('\n');
    const r = runCheck(['plain.jsonl', '--text'], () => text);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^plain\.jsonl: JSON-RPC JSONL \(one message per line\); 2 messages, 0 lines skipped; no timestamps: 1 ms per line — line order is taken as time order/);
  });

  it('names each skipped line and why in the text summary, not only their count (walkthrough)', () => {
    const text = ['{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}', 'not json at all', '{"jsonrpc":"2.0","id":1,"result":{"content":[]}}', '{oops'].join('\n');
    const r = runCheck(['plain.jsonl', '--text'], () => text);
    expect(r.stdout).toMatch(/2 messages, 2 lines skipped/);
    const skippedLines = r.stdout.split('\n').filter((l) => l.startsWith('  skipped line '));
    expect(skippedLines.map((l) => l.match(/^ {2}skipped line (\d+): ./)?.[1])).toEqual(['2', '4']);
  });
});
