/**
 * The conformance test host's own guards, over a real socket on 127.0.0.1:0: loopback-only Host
 * and Origin (DNS-rebinding protection), the body cap, the single endpoint, and that both eras
 * reach the fixtures (a 2025-11-25 session's `tools/list`, a 2026-07-28 `server/discover`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { isLoopbackHost, startConformanceHost } from './testHost';
import { createMemoryEventStore } from '../eventStore';
import type { ConformanceHost } from './testHost';

/** One HTTP exchange with explicit headers (fetch cannot set Host); resolves status and body. */
function send(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: init.method ?? 'POST', headers: init.headers, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on('timeout', () => req.destroy(new Error('timed out after 10 s')));
    req.on('error', reject);
    req.end(init.body);
  });
}

/**
 * The JSON-RPC response in an HTTP body: the body itself when it is JSON, else the SSE `data:`
 * event carrying a `result` or an `error` (a resumable stream opens with an empty priming event).
 */
function response(body: string): { id: unknown; result?: Record<string, unknown>; error?: unknown } {
  if (body.trimStart().startsWith('{')) return JSON.parse(body);
  const events = [...body.matchAll(/^data:(.*)$/gm)]
    .map((m) => m[1].trim())
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as Record<string, unknown>);
  const found = events.find((e) => 'result' in e || 'error' in e);
  if (!found) throw new Error(`no JSON-RPC response in: ${body.slice(0, 200)}`);
  return found as { id: unknown; result?: Record<string, unknown> };
}

const JSON_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host-test', version: '0' } },
});

describe('isLoopbackHost', () => {
  it.each([
    ['127.0.0.1:8808', true],
    ['localhost', true],
    ['LOCALHOST:1', true],
    ['[::1]:9000', true],
    ['evil.example.com', false],
    ['127.0.0.1.evil.example.com:80', false],
    ['localhost.evil', false],
    ['10.0.0.1:8808', false],
  ])('%s → %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe('the conformance test host', () => {
  let host: ConformanceHost;
  beforeAll(async () => {
    host = await startConformanceHost();
  });
  afterAll(async () => {
    await host?.close();
  });

  it('listens on an ephemeral loopback port at /mcp', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(host.url).not.toMatch(/:0\//);
  });

  it('refuses a foreign Host or Origin with 403 before any MCP processing', async () => {
    const evilHost = await send(host.url, { headers: { ...JSON_HEADERS, host: 'evil.example.com' }, body: initialize });
    expect(evilHost.status).toBe(403);
    const evilOrigin = await send(host.url, { headers: { ...JSON_HEADERS, origin: 'http://evil.example.com' }, body: initialize });
    expect(evilOrigin.status).toBe(403);
    expect(JSON.parse(evilOrigin.body).error.message).toMatch(/loopback/);
  });

  it('answers 413 to a body over 1 MiB and 404 off /mcp', async () => {
    const big = await send(host.url, { headers: JSON_HEADERS, body: 'x'.repeat((1 << 20) + 10) });
    expect(big.status).toBe(413);
    const elsewhere = await send(host.url.replace(/\/mcp$/, '/other'), { headers: JSON_HEADERS, body: initialize });
    expect(elsewhere.status).toBe(404);
  });

  it('serves a 2025-11-25 session: initialize gives a session id, then tools/list lists the fixtures', async () => {
    const init = await send(host.url, { headers: JSON_HEADERS, body: initialize });
    expect(init.status).toBe(200);
    const sessionId = init.headers['mcp-session-id'];
    expect(typeof sessionId).toBe('string');
    const headers = { ...JSON_HEADERS, 'mcp-session-id': String(sessionId), 'mcp-protocol-version': '2025-11-25' };
    await send(host.url, { headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    const list = await send(host.url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) });
    expect(list.status).toBe(200);
    const json = response(list.body);
    const names = (json.result?.tools as { name: string }[]).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['test_simple_text', 'test_tool_with_progress', 'test_sampling', 'test_input_required_result_elicitation']));
    const unknown = await send(host.url, { headers: { ...headers, 'mcp-session-id': 'no-such-session' }, body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list' }) });
    expect(unknown.status).toBe(404);
  });

  it('serves 2026-07-28 per request: server/discover names this server and the revision', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const res = await send(host.url, {
      headers: { ...JSON_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'server/discover', params: { _meta: meta } }),
    });
    expect(res.status).toBe(200);
    const json = response(res.body);
    expect(json.id).toBe(7);
    expect(json.result?.supportedVersions).toContain('2026-07-28');
    expect(JSON.stringify(json.result)).toContain('mcp-lab-conformance');
  });
});

describe('createMemoryEventStore', () => {
  it('replays the same stream after an event id, in order, and nothing of other streams', async () => {
    const store = createMemoryEventStore();
    const msg = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/message', params: { n } });
    const a1 = await store.storeEvent('a', msg(1));
    await store.storeEvent('b', msg(2));
    const a3 = await store.storeEvent('a', msg(3));
    await store.storeEvent('a', msg(4));
    const sent: [string, unknown][] = [];
    const stream = await store.replayEventsAfter(a1, { send: async (id, m) => void sent.push([id, (m as unknown as { params: { n: number } }).params.n]) });
    expect(stream).toBe('a');
    expect(sent.map(([, n]) => n)).toEqual([3, 4]);
    expect(sent[0][0]).toBe(a3);
    expect(await store.getStreamIdForEventId?.(a3)).toBe('a');
    await expect(store.replayEventsAfter('garbage', { send: async () => {} })).rejects.toThrow(/unknown event id/);
  });

  it('keeps at most `cap` events, dropping the oldest', async () => {
    const store = createMemoryEventStore(2);
    const ids = [];
    for (let n = 1; n <= 4; n += 1) ids.push(await store.storeEvent('s', { jsonrpc: '2.0', method: 'notifications/message', params: { n } }));
    const sent: number[] = [];
    await store.replayEventsAfter(ids[0], { send: async (_id, m) => void sent.push((m as unknown as { params: { n: number } }).params.n) });
    expect(sent).toEqual([3, 4]); // event 2 was dropped
  });
});
