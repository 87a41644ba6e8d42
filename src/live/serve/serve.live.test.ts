/**
 * `mcp-lab serve` as a real child process: what real clients receive, what a hostile client
 * cannot do, bad command lines, the recording and `--chaos` reproducibility. Every wait is
 * bounded; servers listen on 127.0.0.1 port 0. Passes under Node 20 and 22.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectHttp, connectStdio, delay, readRecording, ROOT, SERVE_COMMAND, settle, startHttpServe, tempRecording, waitForExit, waitForStderr, wireMessages } from './testkit';

const runServe = (args: string[]) => spawnSync(SERVE_COMMAND[0], [...SERVE_COMMAND.slice(1), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 30_000, input: '' });

describe('serve over stdio', () => {
  it('sends progress only when the call has a progressToken, and records every frame', async () => {
    const record = tempRecording();
    const client = await connectStdio('v2-2026', ['--record', record]);
    try {
      expect(client.revision).toBe('2026-07-28');
      let seen = 0;
      await client.call('slow_job', { durationMs: 300, progressEveryMs: 100 }, { onprogress: () => void seen++ });
      await client.call('slow_job', { durationMs: 300, progressEveryMs: 100 });
      expect(seen).toBe(2);
    } finally {
      await client.close();
    }
    const frames = readRecording(record);
    const progress = wireMessages(frames, 's2c').filter((m) => m.message.method === 'notifications/progress');
    expect(progress).toHaveLength(2);
    expect(frames.every((f) => f.v === 2 && typeof f.ts === 'string')).toBe(true);
    expect(frames[frames.length - 1]).toMatchObject({ direction: 'meta', event: 'exit', code: 0 });
  });

  it('survives a 50 MB line and garbage: one stderr line each, then answers a real request', async () => {
    const child = spawn(SERVE_COMMAND[0], [...SERVE_COMMAND.slice(1)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += String(d)));
    let out = '';
    child.stdout.on('data', (d) => (out += String(d)));
    await waitForStderr(child, /caps:/);
    child.stdin.write(`{"jsonrpc":"2.0","id":1,"method":"x","params":{"pad":"${'a'.repeat(50 * 1024 * 1024)}"}}\n`);
    child.stdin.write('this is not json\n');
    child.stdin.write('[1,2]\n');
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } })}\n`);
    const deadline = Date.now() + 20_000;
    while (!out.includes('"id":2') && Date.now() < deadline) await delay(50);
    child.stdin.end();
    await waitForExit(child);
    expect(err).toMatch(/dropped a 52428\d{3}-byte line from the client: over the 4194304-byte request cap/);
    expect(err).toMatch(/a line from the client is not JSON \("this is not json"\): answered -32700/);
    expect(err).toMatch(/not a JSON-RPC 2.0 message: answered -32600/);
    const lines = out.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => l.error?.code ?? l.result?.protocolVersion)).toEqual([-32700, -32600, '2025-11-25']);
    expect(child.exitCode).toBe(0);
  });

  it('big-result: a 5 MiB result on one line reaches the client; --max-result-bytes clips it', async () => {
    const client = await connectStdio('v1', ['--max-result-bytes', '100000']);
    try {
      const r = await client.call('fault_big_result', { durationMs: 0, resultBytes: 5 * 1024 * 1024 });
      expect(r.content[0].text).toHaveLength(100_000);
      expect(client.stderr()).toMatch(/fault big-result on request \d+: a result of 100000 bytes/);
    } finally {
      await client.close();
    }
  });

  it('--max-calls: the call over the cap gets an error result, the server stays up', async () => {
    const client = await connectStdio('v2-2025', ['--max-calls', '1']);
    try {
      expect((await client.call('slow_job', { durationMs: 0 })).isError).toBeFalsy();
      const over = await client.call('slow_job', { durationMs: 0 });
      expect(over).toMatchObject({ isError: true, content: [{ text: 'call cap reached: this server answers at most 1 tool calls (--max-calls)' }] });
    } finally {
      await client.close();
    }
  });

  it('MRTR over 2025-11-25 stdio: confirm_transfer asks with elicitation/create', async () => {
    const client = await connectStdio('v2-2025', []);
    try {
      expect((await client.call('confirm_transfer', { amountCents: 700 })).content[0].text).toBe('transferred 700 cents');
    } finally {
      await client.close();
    }
  });

  it('--chaos SEED: two runs with one seed draw the same faults, each printed and recorded', async () => {
    const run = async () => {
      const record = tempRecording('chaos');
      const client = await connectStdio('v2-2025', ['--chaos', '11', '--record', record]);
      try {
        for (let i = 0; i < 6; i++) {
          const ac = new AbortController();
          setTimeout(() => ac.abort(), 400);
          await settle(client.call('slow_job', { durationMs: 100, progressEveryMs: 0, lateMs: 150 }, { signal: ac.signal }), Date.now());
          await delay(200);
        }
      } finally {
        await client.close();
      }
      const lines = client.stderr().split('\n').filter((l) => l.includes('chaos call')).map((l) => l.replace(/request \S+\)/, 'request ?)'));
      const marks = readRecording(record).filter((f) => f.event === 'note' && f.text?.startsWith('chaos call')).map((f) => f.text);
      return { lines, marks };
    };
    const a = await run();
    const b = await run();
    expect(a.lines).toHaveLength(6);
    expect(a.lines).toEqual(b.lines);
    expect(a.marks).toEqual(b.marks);
    expect(a.marks.length).toBeGreaterThan(0);
  });
});

describe('serve --scenario', () => {
  it('plays races A with policy.respondAfterCancel: slow_job takes the scenario\'s timings and answers after the cancel', async () => {
    const a = JSON.parse(readFileSync(path.join(ROOT, 'public/scenarios/races/A-cancel-then-complete.json'), 'utf8'));
    a.config.policy = { respondAfterCancel: true };
    const file = tempRecording('scenario').replace(/\.jsonl$/, '.json');
    writeFileSync(file, JSON.stringify(a));
    const record = tempRecording('scenario-run');
    const client = await connectStdio('v2-2025', ['--scenario', file, '--record', record]);
    try {
      expect(client.stderr()).toMatch(/scenario: policy.respondAfterCancel → --fault ignore-cancel/);
      const ac = new AbortController();
      const t0 = Date.now();
      setTimeout(() => ac.abort(), 300);
      let progress = 0;
      const r = await settle(client.call('slow_job', {}, { signal: ac.signal, onprogress: () => void progress++ }), t0);
      await delay(600);
      expect(r.ok).toBe(false);
      expect(progress).toBeGreaterThanOrEqual(1);
      const frames = readRecording(record);
      const id = wireMessages(frames, 'c2s').find((m) => m.message.method === 'tools/call')!.message.id;
      const answer = wireMessages(frames, 's2c').find((m) => m.message.id === id && m.message.result !== undefined);
      // The scenario completes 480 ms after the request arrives (500 − 20 ms latency): the answer comes then, after the cancel.
      expect(answer).toBeDefined();
      expect((answer!.message.result as { content: { text: string }[] }).content[0].text).toMatch(/^slow_job done after 4[89]\d ms/);
    } finally {
      await client.close();
    }
  });
  it('plays races K4 (claude-code#65413): slow_job answers after the scenario\'s 89 ms with one line holding a 15400-byte result text', async () => {
    const record = tempRecording('scenario-k4');
    const client = await connectStdio('v2-2025', ['--scenario', path.join(ROOT, 'public/scenarios/races/K4-large-line-never-read.json'), '--record', record]);
    try {
      expect(client.stderr()).toMatch(/scenario: resultBytes 15400 → --fault big-result with a 15400-byte result text/);
      const r = (await client.call('slow_job', {})) as { content: { text: string }[] };
      expect(r.content[0].text).toHaveLength(15400);
      expect(r.content[0].text.startsWith('big-result: 15400 bytes ')).toBe(true);
    } finally {
      await client.close();
    }
    const answer = wireMessages(readRecording(record), 's2c').find((m) => (m.message.result as { content?: unknown } | undefined)?.content !== undefined);
    const line = JSON.stringify(answer!.message);
    expect(line.length).toBeGreaterThan(15400);
    expect(line.length).toBeLessThan(15500);
  });
});

describe('serve over HTTP', () => {
  it('records the mcp-* headers, fault marks and stream events; answers MRTR on 2026-07-28', async () => {
    const record = tempRecording('http');
    const server = await startHttpServe(['--record', record]);
    try {
      const client = await connectHttp('v2-2026', server.url);
      expect(client.revision).toBe('2026-07-28');
      expect((await client.call('confirm_transfer', { amountCents: 900 })).content[0].text).toBe('transferred 900 cents');
      await client.call('fault_duplicate_response', { durationMs: 50, progressEveryMs: 0 });
      await client.close();
    } finally {
      await server.stop();
    }
    const frames = readRecording(record);
    const call = frames.find((f) => f.direction === 'c2s' && f.raw?.includes('fault_duplicate_response'));
    expect(call?.http).toMatchObject({ method: 'POST', path: '/mcp', headers: { 'mcp-method': 'tools/call', 'mcp-name': 'fault_duplicate_response', 'mcp-protocol-version': '2026-07-28' } });
    expect(frames.some((f) => f.event === 'fault' && f.fault === 'duplicate-response')).toBe(true);
    expect(frames.some((f) => f.event === 'stream-open') && frames.some((f) => f.event === 'stream-close')).toBe(true);
    const mrtr = wireMessages(frames, 's2c').filter((m) => (m.message.result as { resultType?: string } | undefined)?.resultType === 'input_required');
    expect(mrtr).toHaveLength(1);
  });

  it('refuses a foreign Host or Origin (403), garbage (400 -32700), an oversize body (413), another path (404) — and keeps serving', async () => {
    const server = await startHttpServe(['--max-request-bytes', '10000']);
    try {
      const post = (body: string, headers: Record<string, string> = {}, url = server.url) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body, signal: AbortSignal.timeout(5000) });
      expect((await post('{}', { origin: 'http://evil.example' })).status).toBe(403);
      const garbage = await post('not json');
      expect([garbage.status, (await garbage.json()).error.code]).toEqual([400, -32700]);
      expect((await post(`{"pad":"${'x'.repeat(20_000)}"}`)).status).toBe(413);
      expect((await post('{}', {}, server.url.replace('/mcp', '/other'))).status).toBe(404);
      const port = new URL(server.url).port;
      const rebound = await new Promise<number>((resolve, reject) => {
        // A DNS-rebinding page: the request reaches 127.0.0.1 but names another host.
        const req = spawn(process.execPath, ['-e', `require('http').request({host:'127.0.0.1',port:${port},path:'/mcp',method:'POST',headers:{host:'evil.example:${port}','content-type':'application/json'}},(r)=>{console.log(r.statusCode);r.resume()}).end('{}')`]);
        let out = '';
        req.stdout.on('data', (d) => (out += String(d)));
        req.on('exit', () => resolve(Number(out.trim())));
        req.on('error', reject);
      });
      expect(rebound).toBe(403);
      const client = await connectHttp('v1', server.url);
      expect((await client.call('slow_job', { durationMs: 10 })).content[0].text).toMatch(/^slow_job done/);
      await client.close();
      expect(server.stderr()).toMatch(/refused POST \/mcp: Host .* not allowed \(DNS-rebinding protection\)/);
    } finally {
      await server.stop();
    }
  });

  it('no-first-byte: the 2026-07-28 response sends no byte for durationMs', async () => {
    const server = await startHttpServe([]);
    try {
      const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} };
      const t0 = Date.now();
      const res = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'fault_no_first_byte' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'fault_no_first_byte', arguments: { durationMs: 800 }, _meta: meta } }),
        signal: AbortSignal.timeout(10_000),
      });
      const firstByte = Date.now() - t0;
      const text = await res.text();
      expect(firstByte).toBeGreaterThanOrEqual(750);
      expect(text).toMatch(/fault_no_first_byte done/);
    } finally {
      await server.stop();
    }
  });

  it('a taken port, an unknown fault, a foreign scenario: one line each, no server', async () => {
    const server = await startHttpServe([]);
    try {
      const port = new URL(server.url).port;
      const taken = runServe(['--http', `127.0.0.1:${port}`]);
      expect([taken.status, taken.stderr.trim()]).toEqual([1, `serve: --http: 127.0.0.1:${port} is already in use — pick another port (or 0 for any free one)`]);
    } finally {
      await server.stop();
    }
    const fault = runServe(['--fault', 'nope']);
    expect(fault.status).toBe(2);
    expect(fault.stderr.trim().split('\n')).toHaveLength(1);
    const file = tempRecording('ledger-scenario').replace(/\.jsonl$/, '.json');
    writeFileSync(file, JSON.stringify({ format: 1, lab: 'ledger', id: 'x', config: {}, events: [{ id: 'c', at: 0, actor: 'client', kind: 'call', requestId: 1, key: 'k', account: 'a', cents: 1 }] }));
    const foreign = runServe(['--scenario', file]);
    expect(foreign.status).toBe(1);
    expect(foreign.stderr).toMatch(/is a ledger lab scenario — serve maps only the races lab's scenarios/);
  });
});
