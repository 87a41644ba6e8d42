import { describe, expect, it } from 'vitest';
import { checkTranscript } from '../checks';
import { sseEvents } from '../har';
import { importTranscript } from '../parse';
import type { MessageEntry } from '../types';

/** A HAR as Chromium's network panel saves it (the fields the reader uses), one Streamable HTTP session. */
const har = (entries: unknown[]) => JSON.stringify({ log: { version: '1.2', creator: { name: 'WebInspector', version: '537.36' }, entries } }, null, 2);
const header = (name: string, value: string) => ({ name, value });
const call = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'slow_task', arguments: {}, _meta: { progressToken: 'p1', 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } };
const sse = [
  'event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1}}\n\n',
  ': keep-alive\n\n',
  'event: message\nid: 7\ndata: {"jsonrpc":"2.0","id":1,\ndata: "result":{"content":[{"type":"text","text":"done"}],"resultType":"complete"}}\n\n',
].join('');

const SESSION = har([
  {
    startedDateTime: '2026-12-04T10:00:00.000Z',
    time: 900,
    request: { method: 'POST', url: 'http://localhost:4404/mcp', headers: [header('Content-Type', 'application/json'), header('Mcp-Method', 'tools/call'), header('MCP-Protocol-Version', '2026-07-28')], postData: { mimeType: 'application/json', text: JSON.stringify(call) } },
    response: { status: 200, headers: [header('Content-Type', 'text/event-stream')], content: { size: sse.length, mimeType: 'text/event-stream', text: sse } },
  },
  { startedDateTime: '2026-12-04T10:00:00.100Z', time: 3, request: { method: 'GET', url: 'http://localhost:4404/favicon.ico', headers: [] }, response: { status: 404, headers: [], content: { mimeType: 'text/html', text: 'nope' } } },
]);

describe('HAR files of Streamable HTTP sessions', () => {
  it('SSE events are split on blank lines, comments dropped, multi-line data joined', () => {
    expect(sseEvents(sse)).toEqual(['{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p1","progress":1}}', '{"jsonrpc":"2.0","id":1,\n"result":{"content":[{"type":"text","text":"done"}],"resultType":"complete"}}']);
  });

  it('reads the request with its headers and every event of the SSE body; other URLs are left out', () => {
    const r = importTranscript(SESSION);
    if (!r.ok) throw new Error(r.reason);
    const t = r.transcript;
    expect(t.formatName).toMatch(/^HAR/);
    const messages = t.entries.filter((e): e is MessageEntry => e.type === 'message');
    expect(messages.map((m) => [m.direction, m.atMs, m.kind])).toEqual([
      ['c2s', 0, 'request'],
      ['s2c', 900, 'notification'],
      ['s2c', 900, 'response'],
    ]);
    expect(messages[0].http).toEqual({ method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json', 'mcp-method': 'tools/call', 'mcp-protocol-version': '2026-07-28' } });
    expect(messages[2].status).toBe(200);
    // The browser sent no Mcp-Name and the server answered 200: both header checks fire.
    expect(checkTranscript(t, { schema: false }).findings.map((f) => f.check)).toEqual(['http-headers-2026', 'http-header-not-rejected']);
  });
});
