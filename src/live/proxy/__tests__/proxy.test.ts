/**
 * `mcp-lab proxy` against real processes and sockets: byte identity over stdio (partial lines, a
 * 10 MB line, bytes that are not UTF-8), the server's stderr kept apart, the recording complete
 * and valid JSONL on every way out (client closes, server exits, SIGTERM), `--check` live,
 * `--fault` as a client-side what-if, the Streamable HTTP reverse proxy (SSE streamed, headers and
 * status recorded), and the probe through the proxy against the fixture and server-everything.
 * The proxy runs as its own process (`node --import tsx src/cli/bin.ts proxy …`); every wait is bounded.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTranscript, importTranscript } from '../../../wire/transcript';
import { runProbe, type ProbeReport } from '../../probe/command';
import type { ProbeTarget } from '../../probe/session';
import { FAULT_PROBE, FIXTURE, SERVER_EVERYTHING, startFixtureHttp } from '../../__tests__/targets';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const BIN = path.join(ROOT, 'src/cli/bin.ts');
const BYTE_SERVER = path.join(import.meta.dirname, 'byteServer.mjs');
/** The proxy as a command line: node --import tsx src/cli/bin.ts proxy ARGS… */
const proxyArgv = (args: string[]) => ['--import', 'tsx', BIN, 'proxy', ...args];
const SLOW = { steps: 8, intervalMs: 60 };

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'proxy-'));
});

/** Spawns the proxy; resolves with its exit, stdout bytes and stderr text (killed after `boundMs`). */
function runProxy(args: string[], feed: (child: ChildProcess) => void, boundMs = 60_000): Promise<{ code: number | null; signal: string | null; stdout: Buffer; stderr: string }> {
  const child = spawn(process.execPath, proxyArgv(args), { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  let err = '';
  child.stdout?.on('data', (c: Buffer) => out.push(c));
  child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), boundMs);
  feed(child);
  return new Promise((resolve) => child.once('close', (code, signal) => {
    clearTimeout(timer);
    resolve({ code, signal, stdout: Buffer.concat(out), stderr: err });
  }));
}

/** Every line of a recording parses as JSON (complete JSONL), and the file imports as capture-jsonl. */
function readRecording(file: string, hasMessages = true): Record<string, unknown>[] {
  const text = readFileSync(file, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  const lines = text.trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  if (!hasMessages) return lines;
  const imported = importTranscript(text);
  expect(imported.ok).toBe(true);
  if (imported.ok) expect(imported.transcript.format).toBe('capture-jsonl');
  return lines;
}

const writeChunks = async (w: NodeJS.WritableStream, bytes: Buffer, sizes: number[]) => {
  let at = 0;
  let i = 0;
  while (at < bytes.length) {
    const n = sizes[i++ % sizes.length];
    if (!w.write(bytes.subarray(at, at + n))) await new Promise((r) => w.once('drain', r));
    at += n;
    if (i % 4 === 0) await new Promise((r) => setTimeout(r, 3));
  }
  w.end();
};

describe('stdio: bytes pass unchanged both ways', () => {
  it('partial lines, a 10 MB line and non-UTF-8 bytes arrive byte for byte; stderr stays apart; the recording has each line once', async () => {
    const big = `{"jsonrpc":"2.0","method":"notifications/message","params":{"blob":"${'x'.repeat(10 * 1024 * 1024)}"}}`;
    const toServer = Buffer.concat([
      Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping"}\n'),
      Buffer.from(`${big}\n`),
      Buffer.from([0xff, 0xfe, 0x0a]),
      Buffer.from('{"jsonrpc":"2.0","id":2,"method":"ping"}\r\n'),
      Buffer.from('a partial line with no newline'),
    ]);
    const fromServer = Buffer.concat([Buffer.from('{"jsonrpc":"2.0","id":1,"result":{}}\n'), Buffer.from(`${big.replace('notifications/message', 'notifications/progress')}\n`), Buffer.from('tail without newline')]);
    const inFile = path.join(dir, 'server-got.bin');
    const sendFile = path.join(dir, 'server-sends.bin');
    writeFileSync(sendFile, fromServer);
    const rec = path.join(dir, 'bytes.jsonl');
    const r = await runProxy(['--record', rec, '--', process.execPath, BYTE_SERVER, inFile, sendFile], (child) => {
      void writeChunks(child.stdin!, toServer, [5, 17, 1, 65536, 333, 1 << 20]);
    });
    expect(r.code).toBe(0);
    expect(readFileSync(inFile).equals(toServer)).toBe(true);
    expect(r.stdout.equals(fromServer)).toBe(true);
    expect(r.stdout.includes(Buffer.from('byte-server stderr line'))).toBe(false);
    expect(r.stderr).toContain('byte-server stderr line');
    const lines = readRecording(rec);
    const bigC2s = lines.filter((l) => l.direction === 'c2s' && typeof l.raw === 'string' && (l.raw as string).length > 10_000_000);
    expect(bigC2s).toHaveLength(1);
    expect(lines.filter((l) => l.direction === 's2c' && typeof l.raw === 'string' && (l.raw as string).length > 10_000_000)).toHaveLength(1);
    expect(lines.some((l) => l.direction === 'stderr' && l.raw === 'byte-server stderr line')).toBe(true);
    expect(lines.some((l) => l.event === 'note' && String(l.text).includes('a partial line'))).toBe(true);
    expect(lines.at(-1)).toMatchObject({ direction: 'meta', event: 'exit', code: 0 });
  });
});

describe('stdio: shutdown', () => {
  it('SIGTERM to the proxy stops the server and leaves a complete recording ending with its exit', async () => {
    const rec = path.join(dir, 'sigterm.jsonl');
    const r = await runProxy(['--record', rec, '--', process.execPath, '-e', 'process.stdin.on("data",d=>process.stdout.write(d)); setInterval(()=>{},1000)'], (child) => {
      child.stdin!.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
      // SIGTERM once the echo came back through the proxy (bounded by runProxy's 20 s).
      child.stdout!.once('data', () => setTimeout(() => child.kill('SIGTERM'), 100));
    }, 20_000);
    expect(r.stdout.toString()).toBe('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    const lines = readRecording(rec);
    expect(lines.some((l) => l.event === 'note' && l.text === 'the proxy got SIGTERM')).toBe(true);
    expect(lines.at(-1)).toMatchObject({ event: 'exit', signal: 'SIGTERM' });
  });

  it('a server that exits at once: the proxy exits with its code, the recording says so', async () => {
    const rec = path.join(dir, 'exit.jsonl');
    const r = await runProxy(['--record', rec, '--', process.execPath, '-e', 'process.exit(5)'], () => {}, 20_000);
    expect(r.code).toBe(5);
    expect(readRecording(rec, false).at(-1)).toMatchObject({ event: 'exit', code: 5 });
  });

  it.each([
    ['no such command', ['--', 'mcp-lab-no-such-server-xyz'], /^proxy: cannot start "mcp-lab-no-such-server-xyz": ENOENT\n$/],
    ['an unknown fault', ['--fault', 'nope', '--', 'x'], /^proxy: unknown fault "nope"/],
    ['a fault the proxy cannot apply on stdio', ['--fault', 'stream-cut', '--', 'x'], /^proxy: --fault stream-cut: the proxy cannot apply it on stdio/],
    ['no server at all', ['--record', 'x.jsonl'], /^proxy: no server/],
  ])('%s: exit 1 with one line', async (_label, args, line) => {
    const r = await runProxy(args, (c) => c.stdin!.end(), 20_000);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(line);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

/** The proxy around `server` as a probe target. */
const viaProxy = (args: string[], server: string[]): ProbeTarget => ({ kind: 'stdio', command: process.execPath, args: [...proxyArgv(args), '--', ...server], cwd: ROOT });
const probe = (target: ProbeTarget, tool: string, args: Record<string, unknown>, revision: '2026-07-28' | '2025-11-25' | null = '2025-11-25'): Promise<ProbeReport> =>
  runProbe({ target, revision, tool, args, json: true, checksJson: null, record: null, timeoutMs: 15_000 });
const verdicts = (r: ProbeReport) => Object.fromEntries(r.findings.map((f) => [f.check, f.verdict]));

describe('the probe through the stdio proxy', () => {
  it('the correct fixture: the same verdicts as direct (all pass), and the recording check reads has every frame', async () => {
    const rec = path.join(dir, 'probe-ok.jsonl');
    const r = await probe(viaProxy(['--record', rec], [process.execPath, FIXTURE]), 'slow', SLOW, '2026-07-28');
    expect(r.revision).toBe('2026-07-28');
    expect(r.clean).toBe(true);
    expect(verdicts(r)['cancel-stops-work']).toBe('pass');
    const lines = readRecording(rec);
    expect(lines.filter((l) => l.direction === 'c2s').some((l) => String(l.raw).includes('"notifications/cancelled"'))).toBe(true);
    expect(lines.at(-1)).toMatchObject({ event: 'exit' });
  });

  it('--fault ignore-cancel turns the correct server into one that works on after the cancel (the what-if), with fault marks', async () => {
    const rec = path.join(dir, 'probe-ignore.jsonl');
    const r = await probe(viaProxy(['--record', rec, '--fault', 'ignore-cancel'], [process.execPath, FIXTURE]), 'slow', SLOW);
    expect(verdicts(r)['cancel-stops-work']).toBe('fail');
    const marks = readRecording(rec).filter((l) => l.event === 'fault');
    expect(marks.length).toBeGreaterThan(0);
    expect(marks.every((l) => l.fault === 'ignore-cancel')).toBe(true);
  });

  it('server-everything through the proxy: the same pinned finding (progress after the cancel), recorded', async () => {
    const rec = path.join(dir, 'everything.jsonl');
    const r = await probe(viaProxy(['--record', rec], [process.execPath, SERVER_EVERYTHING, 'stdio']), 'trigger-long-running-operation', { duration: 1.6, steps: 8 }, null);
    expect(r.revision).toBe('2025-11-25');
    expect(verdicts(r)['cancel-stops-work']).toBe('fail');
    expect(verdicts(r)['survives-cancel']).toBe('pass');
    const lines = readRecording(rec);
    expect(lines.some((l) => l.direction === 'stderr')).toBe(true); // "Starting default (STDIO) server..."
  });
});

describe('stdio faults between a real SDK client and the fixture', () => {
  it('duplicate-response, response-for-unknown-id and progress-after-result: the client still gets its one result; the recording has the marks, and check finds the stray progress', async () => {
    const rec = path.join(dir, 'faults.jsonl');
    const transport = new StdioClientTransport({ command: process.execPath, args: [...proxyArgv(['--record', rec, '--fault', 'duplicate-response,response-for-unknown-id,progress-after-result']), '--', process.execPath, FIXTURE], cwd: ROOT, stderr: 'pipe' });
    const client = new Client({ name: 'proxy-fault-test', version: '1' });
    client.onerror = () => {};
    await client.connect(transport, { timeout: 15_000 });
    try {
      const result = await client.callTool({ name: 'slow', arguments: { steps: 3, intervalMs: 30 } }, { onprogress: () => {}, timeout: 15_000 });
      expect(result.content).toEqual([{ type: 'text', text: 'done after 3 steps' }]);
      await new Promise((r) => setTimeout(r, 700));
    } finally {
      await client.close();
    }
    const deadline = Date.now() + 10_000;
    while (!readFileSync(rec, 'utf8').includes('"event":"exit"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const lines = readRecording(rec);
    expect(new Set(lines.filter((l) => l.event === 'fault').map((l) => l.fault))).toEqual(new Set(['duplicate-response', 'response-for-unknown-id', 'progress-after-result']));
    expect(lines.findIndex((l) => l.fault === "progress-after-result")).toBeGreaterThan(lines.findIndex((l) => l.fault === "duplicate-response"));
    const callResponses = lines.filter((l) => l.direction === 's2c' && String(l.raw).includes('done after 3 steps'));
    expect(callResponses).toHaveLength(3); // the forged one for an unknown id, the real one, its duplicate
    const imported = importTranscript(readFileSync(rec, 'utf8'));
    expect(imported.ok).toBe(true);
    if (imported.ok) expect(checkTranscript(imported.transcript).findings.map((f) => f.check)).toContain('progress-after-completion');
  });
});

describe('each fault the stdio proxy applies: the probe meant for it fails, the others do not', () => {
  it.each(['progress-after-result', 'duplicate-response', 'response-for-unknown-id', 'crash-on-cancel'] as const)('%s', async (fault) => {
    const meant = FAULT_PROBE[fault]!;
    const r = await runProbe({ target: viaProxy(['--fault', fault], [process.execPath, FIXTURE]), revision: '2025-11-25', tool: meant.needsTool ? 'slow' : null, args: SLOW, json: true, checksJson: null, record: null, timeoutMs: 15_000 });
    const failed = r.findings.filter((f) => f.verdict === 'fail').map((f) => f.check);
    expect(failed).toContain(meant.probe);
    // crash-on-cancel kills the server, so the probes after it are not observed rather than failed.
    expect(failed).toEqual([meant.probe]);
  });
});

describe('--check: findings on stderr as they happen', () => {
  it("a real SDK client cancels a call the server answers anyway: check's late-after-cancel is printed while the session is still open", async () => {
    const transport = new StdioClientTransport({ command: process.execPath, args: [...proxyArgv(['--check']), '--', process.execPath, FIXTURE, '--variant', 'answers-after-cancel'], cwd: ROOT, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    const client = new Client({ name: 'proxy-check-test', version: '1' });
    await client.connect(transport, { timeout: 15_000 });
    try {
      const ac = new AbortController();
      setTimeout(() => ac.abort('test'), 300);
      await client.callTool({ name: 'slow', arguments: { steps: 20, intervalMs: 100 } }, { signal: ac.signal, onprogress: () => {} }).catch(() => {});
      const deadline = Date.now() + 10_000;
      while (!stderr.includes('late-after-cancel') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(stderr).toMatch(/mcp-lab proxy: \[warning\] late-after-cancel \(cancel\.receiver-stops\)/);
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    } finally {
      await client.close();
    }
  });
});

describe('Streamable HTTP reverse proxy', () => {
  /** Starts the HTTP proxy process in front of `upstream`; resolves with its URL once it printed it. */
  function startHttpProxyProcess(upstream: string, extra: string[] = []): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
    const child = spawn(process.execPath, proxyArgv(['--listen', '127.0.0.1:0', '--upstream', upstream, ...extra]), { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
    return new Promise((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error(`the proxy did not listen within 20 s: ${err}`));
      }, 20_000);
      child.stderr?.on('data', (c: Buffer) => {
        err += c.toString();
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)(\S*)/.exec(err);
        if (!m) return;
        clearTimeout(timer);
        resolve({
          url: `${m[1]}${m[2]}`,
          child,
          stop: () => new Promise<void>((done) => {
            const kill = setTimeout(() => child.kill('SIGKILL'), 5000);
            child.once('close', () => {
              clearTimeout(kill);
              done();
            });
            child.kill('SIGTERM');
          }),
        });
      });
    });
  }

  let sse: Server;
  let sseUrl: string;
  let secondEventAt = 0;
  beforeAll(async () => {
    // A plain upstream that sends one SSE event, waits 600 ms, sends a second: a buffering proxy would hold the first.
    sse = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-upstream': 'kept', 'mcp-session-id': 's-1' });
        res.write('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}\n\n');
        setTimeout(() => {
          secondEventAt = performance.timeOrigin + performance.now();
          res.end('event: message\ndata: {"jsonrpc":"2.0","id":1,"result":{"content":[]}}\n\n');
        }, 600);
      });
    });
    await new Promise<void>((r) => sse.listen(0, '127.0.0.1', () => r()));
    sseUrl = `http://127.0.0.1:${(sse.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => new Promise<void>((r) => sse.close(() => r())));

  it('streams SSE through without buffering, keeps the headers, records status, headers and stream open/close', async () => {
    const rec = path.join(dir, 'sse.jsonl');
    const p = await startHttpProxyProcess(sseUrl, ['--record', rec]);
    try {
      const res = await fetch(p.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', authorization: 'Bearer secret' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x"}}', signal: AbortSignal.timeout(10_000) });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-upstream')).toBe('kept');
      expect(res.headers.get('mcp-session-id')).toBe('s-1');
      const reader = res.body!.getReader();
      const first = await reader.read();
      const firstAt = performance.timeOrigin + performance.now();
      expect(new TextDecoder().decode(first.value)).toContain('"progress":1');
      let rest = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        rest += new TextDecoder().decode(value);
      }
      expect(rest).toContain('"result"');
      // The first event reached the client before the upstream had even written the second.
      expect(firstAt).toBeLessThan(secondEventAt);
    } finally {
      await p.stop();
    }
    const lines = readRecording(rec);
    const c2s = lines.find((l) => l.direction === 'c2s') as { http: { method: string; headers: Record<string, string> } };
    expect(c2s.http.method).toBe('POST');
    expect(c2s.http.headers['mcp-protocol-version']).toBe('2025-11-25');
    expect(c2s.http.headers.authorization).toBe('[redacted]');
    const open = lines.find((l) => l.event === 'stream-open') as { status: number; requestId: number; text: string; http: { headers: Record<string, string> } };
    expect(open).toMatchObject({ status: 200, requestId: 1 });
    expect(open.text).toMatch(/^first byte after [\d.]+ ms$/);
    expect(open.http.headers['content-type']).toBe('text/event-stream');
    expect(lines.filter((l) => l.direction === 's2c')).toHaveLength(2);
    expect(lines.some((l) => l.event === 'stream-close' && l.cause === 'server')).toBe(true);
  });

  it('--fault stream-cut ends a tools/call stream after its first event, before the result, and marks it', async () => {
    const rec = path.join(dir, 'cut.jsonl');
    const p = await startHttpProxyProcess(sseUrl, ['--record', rec, '--fault', 'stream-cut']);
    let body = '';
    try {
      const res = await fetch(p.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"x"}}', signal: AbortSignal.timeout(10_000) });
      try {
        body = await res.text();
      } catch {
        // the cut may surface as a terminated body: what arrived before it is what counts
      }
    } finally {
      await p.stop();
    }
    expect(body).not.toContain('"result"');
    const lines = readRecording(rec);
    expect(lines.some((l) => l.event === 'fault' && l.fault === 'stream-cut' && l.requestId === 7)).toBe(true);
    expect(lines.some((l) => l.event === 'stream-close' && l.cause === 'fault')).toBe(true);
  });

  it.each(['2026-07-28', '2025-11-25'] as const)('the probe through the HTTP proxy (%s) gets the verdicts it gets direct', async (revision) => {
    const http = await startFixtureHttp('ok');
    const rec = path.join(dir, `http-probe-${revision}.jsonl`);
    const p = await startHttpProxyProcess(http.url, ['--record', rec]);
    try {
      const direct = await probe({ kind: 'http', url: http.url }, 'slow', SLOW, revision);
      const proxied = await probe({ kind: 'http', url: p.url }, 'slow', SLOW, revision);
      expect(proxied.revision).toBe(revision);
      expect(verdicts(proxied)).toEqual(verdicts(direct));
    } finally {
      await p.stop();
      await http.stop();
    }
    const lines = readRecording(rec);
    expect(lines.some((l) => l.direction === 'c2s' && (l.http as { headers?: Record<string, string> } | undefined)?.headers?.['mcp-protocol-version'] === revision)).toBe(true);
    if (revision === '2026-07-28') expect(lines.some((l) => l.event === 'stream-close' && l.cause === 'cancel')).toBe(true);
    const imported = importTranscript(readFileSync(rec, 'utf8'));
    if (imported.ok) expect(checkTranscript(imported.transcript).checked.messages).toBeGreaterThan(20);
  });

  it('an upstream that refuses: 502 with one line, recorded', async () => {
    const rec = path.join(dir, 'refuse.jsonl');
    const p = await startHttpProxyProcess('http://127.0.0.1:9/mcp', ['--record', rec]);
    try {
      const res = await fetch(p.url, { method: 'POST', body: '{"jsonrpc":"2.0","id":1,"method":"ping"}', signal: AbortSignal.timeout(10_000) });
      expect(res.status).toBe(502);
      expect(await res.text()).toMatch(/^mcp-lab proxy: upstream http:\/\/127\.0\.0\.1:9\/mcp: ECONNREFUSED\n$/);
    } finally {
      await p.stop();
    }
    expect(readRecording(rec).some((l) => l.event === 'http' && l.status === 502)).toBe(true);
  });
});
