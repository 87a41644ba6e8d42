import { describe, expect, it } from 'vitest';
import { captureLine } from '../capture';
import { checkTranscript } from '../checks';
import { exportTranscript, transcriptRecords } from '../export';
import { importTranscript } from '../parse';
import type { MessageEntry, MetaEntry, Transcript } from '../types';
import { call, result } from './helpers';

const ok = (text: string): Transcript => {
  const r = importTranscript(text);
  if (!r.ok) throw new Error(r.reason);
  return r.transcript;
};

const T0 = '2026-12-04T10:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

/** A v2 recording as `serve --record` writes it (captureLine), with every v2 field. */
const V2 = [
  captureLine({ ts: at(0), direction: 'meta', transport: 'http', event: 'listen', text: 'listening on :4404' }),
  captureLine({ ts: at(10), direction: 'c2s', transport: 'http', http: { method: 'POST', path: '/mcp', headers: { 'mcp-method': 'tools/call', 'mcp-name': 'slow_task', 'mcp-protocol-version': '2026-07-28' } }, raw: JSON.stringify(call(1)) }),
  captureLine({ ts: at(12), direction: 'meta', transport: 'http', event: 'stream-open', requestId: 1, streamId: '1' }),
  captureLine({ ts: at(500), direction: 'meta', transport: 'http', event: 'fault', fault: 'late-result', requestId: 1, text: 'the result is held back' }),
  captureLine({ ts: at(900), direction: 's2c', transport: 'http', streamId: '1', http: { status: 200, headers: { 'content-type': 'text/event-stream' } }, raw: JSON.stringify(result(1)) }),
  captureLine({ ts: at(950), direction: 'meta', transport: 'stdio', event: 'exit', code: null, signal: 'SIGTERM', text: 'server ended' }),
].join('');

describe('capture envelope v2', () => {
  it('reads headers, stream ids, and the fault, exit, listen and stream-open events', () => {
    const t = ok(V2);
    expect(t.format).toBe('capture-jsonl');
    const [listen, request, open, fault, response, exit] = t.entries;
    expect((listen as MetaEntry).kind).toBe('listen');
    expect((request as MessageEntry).http).toEqual({ method: 'POST', path: '/mcp', headers: { 'mcp-method': 'tools/call', 'mcp-name': 'slow_task', 'mcp-protocol-version': '2026-07-28' } });
    expect(open).toMatchObject({ type: 'meta', kind: 'stream-open', requestId: 1, streamId: '1' });
    expect(fault).toMatchObject({ type: 'meta', kind: 'fault', fault: 'late-result', requestId: 1, text: 'the result is held back' });
    expect(response).toMatchObject({ type: 'message', streamId: '1', status: 200, http: { status: 200 } });
    expect(exit).toMatchObject({ type: 'meta', kind: 'exit', code: null, signal: 'SIGTERM' });
  });

  it('header names are read case-insensitively (lower-cased)', () => {
    const line = JSON.stringify({ v: 2, ts: at(0), direction: 'c2s', transport: 'http', http: { method: 'post', headers: { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'ping' } }, raw: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
    expect((ok(line).entries[0] as MessageEntry).http).toEqual({ method: 'POST', headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'ping' } });
  });

  it('round trip: export as capture-jsonl and import again keeps every v2 field', () => {
    const t = ok(V2);
    const again = ok(exportTranscript(transcriptRecords(t), 'capture-jsonl', { originIso: t.originIso ?? undefined }));
    expect(transcriptRecords(again)).toEqual(transcriptRecords(t));
  });

  it('a v1 line (no v, no http) reads as before: no v2 fields appear', () => {
    const t = ok(JSON.stringify({ ts: at(0), direction: 'c2s', transport: 'stdio', raw: JSON.stringify(call(1)) }));
    expect(Object.keys(t.entries[0]).sort()).toEqual(['atMs', 'direction', 'index', 'kind', 'line', 'message', 'raw', 'transport', 'type']);
  });
});

describe('Content-Length framing', () => {
  const frame = (m: unknown) => {
    const body = JSON.stringify(m);
    return `Content-Length: ${new TextEncoder().encode(body).length}\r\n\r\n${body}`;
  };

  it('an LSP-style stdio dump is read message by message, on the lines where the bodies start, and flagged once', () => {
    const text = [frame(call(1)), frame(result(1)), frame(call(2, 'naïve'))].join('');
    const t = ok(text);
    expect(t.format).toBe('jsonrpc-jsonl');
    const messages = t.entries.filter((e): e is MessageEntry => e.type === 'message');
    expect(messages.map((m) => [m.line, m.framing])).toEqual([
      [3, 'content-length'],
      [5, 'content-length'],
      [7, 'content-length'],
    ]);
    const report = checkTranscript(t, { schema: false });
    expect(report.findings.map((f) => f.check)).toEqual(['content-length-framing']);
    expect(report.findings[0].message).toMatch(/^3 frames came with a Content-Length header/);
  });
});

describe('response matching', () => {
  it('an error response with id null (the request could not be read) is not an unknown id', () => {
    const t = ok([JSON.stringify({ ts: 0, direction: 'c2s', transport: 'stdio', raw: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x","arguments":{}}}' }), JSON.stringify({ ts: 5, direction: 's2c', transport: 'stdio', raw: '{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}' })].join('\n'));
    expect(checkTranscript(t, { schema: false }).findings.map((f) => f.check)).toEqual([]);
  });

  it('a Base64-sentinel Mcp-Name that decodes to the tool name is right', () => {
    const name = 'météo';
    const b64 = btoa(String.fromCharCode(...new TextEncoder().encode(name)));
    const line = (headersName: string) =>
      [
        JSON.stringify({ ts: 0, direction: 'c2s', transport: 'http', http: { method: 'POST', headers: { 'mcp-method': 'tools/call', 'mcp-name': headersName, 'mcp-protocol-version': '2026-07-28' } }, raw: JSON.stringify(call(1, name)) }),
        JSON.stringify({ ts: 5, direction: 's2c', transport: 'http', status: 200, raw: JSON.stringify(result(1)) }),
      ].join('\n');
    const run = (h: string) => checkTranscript((importTranscript(line(h), { revision: '2026-07-28' }) as { transcript: Transcript }).transcript, { schema: false }).findings.map((f) => f.check);
    expect(run(`=?base64?${b64}?=`)).toEqual([]);
    expect(run('meteo')).toEqual(['http-headers-2026', 'http-header-not-rejected']);
  });
});

describe('memory bounded by the calls still open', () => {
  it('an answered call is remembered for the next 1,000 answers: a second response inside the window is response-twice, beyond it an unknown id', () => {
    const lines: string[] = [];
    let ts = 0;
    const push = (direction: 'c2s' | 's2c', m: unknown) => lines.push(JSON.stringify({ ts: ts++, direction, transport: 'stdio', raw: JSON.stringify(m) }));
    push('c2s', call(1));
    push('s2c', result(1));
    for (let k = 2; k <= 1001; k++) {
      push('c2s', call(k));
      push('s2c', result(k));
    }
    // Call 1 was answered 1,001 answers ago (forgotten); call 2, 1,000 answers ago, is the oldest still remembered.
    push('s2c', result(2));
    push('s2c', result(1));
    const checks = checkTranscript(ok(lines.join('\n')), { schema: false }).findings.map((f) => `${f.check} ${f.requestIds.join(',')}`);
    expect(checks).toEqual(['response-twice 2', 'response-unknown-id 1']);
  });
});
