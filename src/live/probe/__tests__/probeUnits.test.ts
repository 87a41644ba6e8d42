/**
 * The probe's and the proxy's pure parts: command lines, the conformance suite's checks.json
 * mapping, receipts, the line splitter (bytes, split anywhere) and the SSE parser.
 */
import { describe, expect, it } from 'vitest';
import { captureStdio } from '../../../cli/__tests__/captureStdio';
import { runCli } from '../../../cli/main';
import { parseProbeArgs, probeSummary, splitCommand } from '../command';
import { finding, toConformanceChecks } from '../findings';
import { idempotencyArgument, receiptOf } from '../probes';
import { parseProxyArgs } from '../../proxy/command';
import { parseProxyFaults } from '../../proxy/faults';
import { SseParser } from '../../proxy/http';
import { LineSplitter } from '../../proxy/stdio';

describe('probe command line', () => {
  it('splits a command without a shell: quotes group, backslash escapes', () => {
    expect(splitCommand(`node server.js --name "two words" 'single q' a\\ b`)).toEqual(['node', 'server.js', '--name', 'two words', 'single q', 'a b']);
    expect(splitCommand('  npx   -y  pkg  ')).toEqual(['npx', '-y', 'pkg']);
    expect(splitCommand('x ""')).toEqual(['x', '']);
    expect(() => splitCommand('node "open')).toThrow(/unclosed " quote/);
  });

  it('parses every option and refuses bad ones with one line', () => {
    const a = parseProbeArgs(['--command', 'node s.js', '--tool', 'slow', '--args', '{"n":1}', '--revision', '2025-11-25', '--json', '--checks-json', 'c.json', '--record', 'r.jsonl', '--timeout-ms', '500', '--window-ms', '4500']);
    expect(a).toEqual({ target: { kind: 'stdio', command: 'node', args: ['s.js'] }, tool: 'slow', args: { n: 1 }, revision: '2025-11-25', json: true, checksJson: 'c.json', record: 'r.jsonl', timeoutMs: 500, windowMs: 4500 });
    expect(parseProbeArgs(['--command', 'x']).windowMs).toBe(2000);
    expect(() => parseProbeArgs(['--command', 'x', '--window-ms', '99'])).toThrow(/--window-ms: must be a whole number of milliseconds from 100 to 600000, got "99"/);
    expect(() => parseProbeArgs(['--command', 'x', '--window-ms', '600001'])).toThrow(/--window-ms/);
    expect(() => parseProbeArgs(['--command', 'x', '--window-ms', '2.5'])).toThrow(/--window-ms/);
    expect(parseProbeArgs(['--url', 'http://127.0.0.1:3000/mcp']).target).toEqual({ kind: 'http', url: 'http://127.0.0.1:3000/mcp' });
    expect(() => parseProbeArgs([])).toThrow(/exactly one of --command/);
    expect(() => parseProbeArgs(['--url', 'ftp://x/'])).toThrow(/--url: must be http/);
    expect(() => parseProbeArgs(['--url', 'nope'])).toThrow(/--url: not a URL/);
    expect(() => parseProbeArgs(['--command', 'x', '--revision', '2024-01-01'])).toThrow(/--revision: must be one of/);
    expect(() => parseProbeArgs(['--command', 'x', '--args', '{'])).toThrow(/--args: not JSON/);
    expect(() => parseProbeArgs(['--command', 'x', '--timeout-ms', '0'])).toThrow(/--timeout-ms/);
    expect(() => parseProbeArgs(['--command', 'x', '--bogus'])).toThrow(/unknown option "--bogus"/);
    expect(() => parseProbeArgs(['--command'])).toThrow(/--command: missing its value/);
  });
});

describe('findings as the conformance suite checks.json', () => {
  it('maps pass / broken MUST / broken SHOULD / not observed / not applicable to SUCCESS / FAILURE / WARNING / INFO / SKIPPED', () => {
    const fs = [
      finding('handshake', 'pass', 'error', 'MUST', 'ok', []),
      finding('progress-monotonic', 'fail', 'error', 'MUST', 'went 2 → 1', []),
      finding('cancel-stops-work', 'fail', 'warning', 'SHOULD', 'late', []),
      finding('progress-monotonic', 'not-observed', 'error', 'MUST', 'none', []),
      finding('idempotency-once', 'not-applicable', 'warning', 'lab rule', 'no key', []),
    ];
    const checks = toConformanceChecks(fs, '2026-07-28', '2026-12-04T00:00:00.000Z');
    expect(checks.map((c) => c.status)).toEqual(['SUCCESS', 'FAILURE', 'WARNING', 'INFO', 'SKIPPED']);
    expect(checks[1]).toMatchObject({ id: 'mcp-lab-probe-progress-monotonic', errorMessage: 'went 2 → 1', timestamp: '2026-12-04T00:00:00.000Z' });
    expect(checks[1].specReferences?.[0].url).toBe('https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/progress');
    expect(toConformanceChecks([fs[2]], '2025-11-25', 't')[0].specReferences?.[0].url).toBe('https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation');
  });
});

describe('receipts and idempotency keys', () => {
  it('reads an execution count from text or structured content, else null', () => {
    expect(receiptOf({ content: [{ type: 'text', text: 'executions: 3' }] })).toBe(3);
    expect(receiptOf({ structuredContent: { executions: 1 }, content: [] })).toBe(1);
    expect(receiptOf({ content: [{ type: 'text', text: 'done' }] })).toBeNull();
    expect(idempotencyArgument({ properties: { amount: {}, idempotency_key: {} } })).toBe('idempotency_key');
    expect(idempotencyArgument({ properties: { key: {} } })).toBeNull();
  });
});

describe('proxy command line and faults', () => {
  it('stdio and HTTP forms', () => {
    expect(parseProxyArgs(['--record', 'r.jsonl', '--check', '--fault', 'ignore-cancel,late-result', '--fault-delay-ms', '10', '--', 'node', 's.js', '--flag'])).toMatchObject({ mode: 'stdio', command: ['node', 's.js', '--flag'], record: 'r.jsonl', check: true, faults: ['ignore-cancel', 'late-result'], faultDelayMs: 10 });
    expect(parseProxyArgs(['--listen', '127.0.0.1:0', '--upstream', 'http://127.0.0.1:3000/mcp'])).toMatchObject({ mode: 'http', listen: { host: '127.0.0.1', port: 0 } });
    expect(() => parseProxyArgs(['--listen', '127.0.0.1:0'])).toThrow(/needs both/);
    expect(() => parseProxyArgs(['--listen', 'nope', '--upstream', 'http://x/'])).toThrow(/--listen: must be HOST:PORT/);
    expect(() => parseProxyArgs(['--listen', '127.0.0.1:1', '--upstream', 'http://x/', '--', 'node'])).toThrow(/not both/);
    expect(() => parseProxyArgs(['node', 's.js'])).toThrow(/put the server command after --/);
  });

  it('faults: the vocabulary names; one the proxy cannot apply on a transport says where it can and points at serve', () => {
    expect(parseProxyFaults('stream-cut', 'http')).toEqual(['stream-cut']);
    expect(() => parseProxyFaults('stream-cut', 'stdio')).toThrow(/cannot apply it on stdio.*on stdio it applies ignore-cancel/);
    expect(() => parseProxyFaults('progress-storm', 'stdio')).toThrow(/mcp-lab serve --fault progress-storm/);
    expect(() => parseProxyFaults('drop', 'stdio')).toThrow(/unknown fault "drop"/);
  });
});

describe('line splitter and SSE parser', () => {
  it('gives the same lines wherever the chunks split, keeping bytes that are not UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from('{"a":1}\n{"b":'), Buffer.from([0xff, 0x0a]), Buffer.from('\n2}\ntail')]);
    for (const size of [1, 2, 3, 7, 64]) {
      const split = new LineSplitter();
      const lines: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += size) split.push(bytes.subarray(i, i + size), (l) => lines.push(Buffer.from(l)));
      expect(lines.map((l) => l.toString('hex'))).toEqual([Buffer.from('{"a":1}'), Buffer.concat([Buffer.from('{"b":'), Buffer.from([0xff])]), Buffer.from(''), Buffer.from('2}')].map((b) => b.toString('hex')));
      expect(split.rest()?.toString()).toBe('tail');
      expect(split.rest()).toBeNull();
    }
  });

  it('joins data lines per event, ignores comments and ids, handles CRLF and split chunks', () => {
    const got: string[] = [];
    const p = new SseParser((d) => got.push(d));
    const text = ': keep-alive\n\nid: 1\nevent: message\ndata: {"x":\ndata: 1}\n\r\ndata: two\r\n\r\n';
    for (const ch of text) p.push(ch);
    expect(got).toEqual(['{"x":\n1}', 'two']);
  });
});

describe('the CLI entry', () => {
  it('a --help after `--` belongs to the server command, not to proxy', async () => {
    const ours = await captureStdio(() => runCli(['proxy', '--help']));
    expect(ours.code).toBe(0);
    expect(ours.stdout).toMatch(/^usage: mcp-lab proxy /);
    const theirs = await captureStdio(() => runCli(['proxy', '--', 'mcp-lab-no-such-server-xyz', '--help']));
    expect(theirs.code).toBe(1);
    expect(theirs.stdout).toBe('');
    expect(theirs.stderr).toMatch(/^proxy: cannot start "mcp-lab-no-such-server-xyz": ENOENT\n$/);
  });
});

describe('probeSummary', () => {
  const report = (verdicts: ('pass' | 'not-observed')[]) => {
    const findings = verdicts.map((v, i) => finding(i === 0 ? 'handshake' : 'cancel-stops-work', v, 'error', 'MUST', v === 'pass' ? 'seen' : 'nothing can arrive on a closed stream', []));
    const counts = { pass: verdicts.filter((v) => v === 'pass').length, fail: 0, 'not-observed': verdicts.filter((v) => v === 'not-observed').length, 'not-applicable': 0 };
    return { target: 'x', transport: 'http' as const, revision: '2026-07-28', tool: 'slow_job', counts, clean: true, findings };
  };
  it('says "no rule broken" only when every rule was seen', () => {
    expect(probeSummary(report(['pass']))).toMatch(/— no rule broken\n$/);
  });
  it('with a rule the client could not see, says it could not be checked rather than "no rule broken"', () => {
    const text = probeSummary(report(['pass', 'not-observed']));
    expect(text).toMatch(/— no rule seen broken; 1 rule could not be checked from the client/);
    expect(text).not.toMatch(/— no rule broken/);
  });
});
