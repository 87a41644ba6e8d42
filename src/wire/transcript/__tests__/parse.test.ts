import { describe, expect, it } from 'vitest';
import { detectFormat, importTranscript, parseTimeMs, transcriptMessages } from '../parse';
import type { ImportResult, Transcript } from '../types';

const ok = (r: ImportResult): Transcript => {
  if (!r.ok) throw new Error(r.reason);
  return r.transcript;
};
const kinds = (t: Transcript) => t.entries.map((e) => (e.type === 'meta' ? `meta:${e.kind}` : e.type));

const CLAUDE = [
  '2025-04-18T11:26:18.805Z [codemcp] [info] Initializing server...',
  '2025-04-18T11:26:18.900Z [codemcp] [info] Server started and connected successfully',
  '2025-04-18T11:26:19.000Z [codemcp] [info] Message from client: {"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"claude-ai","version":"0.1.0"}},"jsonrpc":"2.0","id":0} { metadata: undefined }',
  'Starting codemcp server on stdio',
  'DEBUG: loaded 12 tools',
  '2025-04-18T11:26:19.120Z [codemcp] [info] Message from server: {"jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"codemcp","version":"1.0"}}} { metadata: undefined }',
  '2025-04-18T11:26:19.130Z [codemcp] [info] Message from client: {"method":"notifications/initialized","jsonrpc":"2.0"} { metadata: undefined }',
  '2025-04-18T11:26:20.000Z [codemcp] [info] Message from client: {"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a.txt"}},"jsonrpc":"2.0","id":1} { metadata: undefined }',
  'Traceback (most recent call last):',
  '2025-04-18T11:26:21.500Z [codemcp] [info] Message from server: {"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"hi"}]}} { metadata: undefined }',
  '2025-04-18T11:26:22.000Z [codemcp] [info] Client transport closed',
];

describe('Claude Desktop server log', () => {
  it('reads messages, keeps the interleaved stderr as stderr lines, and notes connects and closes', () => {
    const t = ok(importTranscript(CLAUDE.join('\n')));
    expect(t.format).toBe('claude-desktop-log');
    expect(t.formatName).toMatch(/Claude Desktop/);
    expect(kinds(t)).toEqual(['meta:note', 'meta:connect', 'message', 'stderr', 'stderr', 'message', 'message', 'message', 'stderr', 'message', 'meta:disconnect']);
    const msgs = transcriptMessages(t);
    expect(msgs.map((m) => [m.atMs, m.direction, m.kind])).toEqual([
      [0, 'c2s', 'request'],
      [120, 's2c', 'response'],
      [130, 'c2s', 'notification'],
      [1000, 'c2s', 'request'],
      [2500, 's2c', 'response'],
    ]);
    expect(t.entries[0].atMs).toBe(-195); // logged before the first message
    expect(t.entries[3]).toMatchObject({ type: 'stderr', text: 'Starting codemcp server on stdio', atMs: 0, line: 4 });
    expect(msgs[0].raw.startsWith('{"method":"initialize"')).toBe(true);
    expect(msgs[0].raw.endsWith('"id":0}')).toBe(true);
    expect(t.revision).toBe('2025-11-25');
    expect(t.revisionSource).toBe('initialize');
    expect(t.originIso).toBe('2025-04-18T11:26:19.000Z');
    expect(t.skipped).toEqual([]);
    expect(t.lineCount).toBe(CLAUDE.length);
  });

  it('reads the [level] [server] order of mcp.log and server names with dashes', () => {
    const t = ok(importTranscript('2025-04-18T11:26:20.000Z [info] [my-server] Message from client: {"jsonrpc":"2.0","id":1,"method":"ping"}\n2025-04-18T11:26:20.010Z [my-server] [warn] Message from server: {"jsonrpc":"2.0","id":1,"result":{}}\n'));
    expect(transcriptMessages(t).map((m) => [m.atMs, m.direction, m.kind])).toEqual([
      [0, 'c2s', 'request'],
      [10, 's2c', 'response'],
    ]);
  });

  it('reads CRLF line ends the same as LF', () => {
    const lf = ok(importTranscript(CLAUDE.join('\n')));
    const crlf = ok(importTranscript(`${CLAUDE.join('\r\n')}\r\n`));
    expect(crlf.entries).toEqual(lf.entries);
    expect(transcriptMessages(crlf).every((m) => !m.raw.includes('\r'))).toBe(true);
  });

  it('skips a truncated last line with its reason, never fatally', () => {
    const cut = CLAUDE.slice(0, 8).join('\n') + '\n' + CLAUDE[9].slice(0, 90);
    const t = ok(importTranscript(cut));
    expect(transcriptMessages(t)).toHaveLength(4);
    expect(t.skipped).toEqual([{ line: 9, reason: 'truncated last line: the message JSON is cut off', text: CLAUDE[9].slice(0, 90) }]);
  });

  it('a timed-out request line becomes a client-timeout entry naming the id', () => {
    const t = ok(importTranscript(`${CLAUDE[7]}\n2025-04-18T11:27:20.000Z [codemcp] [error] Request timed out (MCP error -32001) {"requestId":1}\n`));
    expect(t.entries[1]).toMatchObject({ type: 'meta', kind: 'client-timeout', requestId: 1, atMs: 60000 });
  });
});

describe('MCP Inspector v2 protocol export', () => {
  const entries = [
    { id: 1, timestamp: '2026-03-02T10:00:00.000Z', direction: 'request', origin: 'client', message: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', arguments: {}, _meta: { progressToken: 'p', 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } } }, response: { jsonrpc: '2.0', id: 1, result: { content: [] } }, duration: 1500 },
    { id: 2, timestamp: '2026-03-02T10:00:00.400Z', direction: 'notification', origin: 'server', message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } } },
    { id: 3, timestamp: '2026-03-02T10:00:00.900Z', direction: 'notification', origin: 'client', message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } } },
  ];

  it('places a merged response at timestamp + duration, and reads the revision from _meta', () => {
    const t = ok(importTranscript(JSON.stringify(entries, null, 2)));
    expect(t.format).toBe('inspector-v2');
    expect(transcriptMessages(t).map((m) => [m.atMs, m.direction, m.kind, m.line])).toEqual([
      [0, 'c2s', 'request', 1],
      [400, 's2c', 'notification', 2],
      [900, 'c2s', 'notification', 3],
      [1500, 's2c', 'response', 1],
    ]);
    expect(t.revision).toBe('2026-07-28');
    expect(t.revisionSource).toBe('_meta');
    expect(t.outOfOrder.count).toBe(0);
  });

  it('keeps the complete entries of a cut-off array and says so', () => {
    const text = JSON.stringify(entries, null, 2);
    const t = ok(importTranscript(text.slice(0, text.lastIndexOf('"notifications/cancelled"'))));
    expect(transcriptMessages(t)).toHaveLength(3);
    expect(t.skipped).toEqual([{ line: 3, reason: 'truncated last entry: the JSON array is cut off (complete entries were kept)', text: '' }]);
  });

  it('a merged -32001 response is the client\'s own timeout, not a server message', () => {
    const timedOut = [{ ...entries[0], response: { jsonrpc: '2.0', id: 1, error: { code: -32001, message: 'Request timed out' } }, duration: 60000 }];
    const t = ok(importTranscript(JSON.stringify(timedOut)));
    expect(kinds(t)).toEqual(['message', 'meta:client-timeout']);
    expect(t.entries[1]).toMatchObject({ atMs: 60000, requestId: 1 });
  });

  it('lists entries without a message or a timestamp as skipped', () => {
    const t = ok(importTranscript(JSON.stringify([entries[1], { id: 9, note: 'x' }, { ...entries[2], timestamp: 'yesterday' }])));
    expect(t.skipped.map((s) => s.reason)).toEqual(['entry 2 has no "message" field', 'entry 3 has no readable "timestamp"']);
  });
});

describe('JSON-RPC JSONL with ts and dir', () => {
  const lines = [
    '{"ts":"2026-03-02T10:00:00.000Z","dir":"req","id":1,"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":"2026-07-28","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
    '{"ts":"2026-03-02T10:00:00.050Z","dir":"res","id":1,"jsonrpc":"2.0","result":{"protocolVersion":"2026-07-28","capabilities":{},"serverInfo":{"name":"s","version":"1"}}}',
    '{"ts":"2026-03-02T10:00:01.000Z","dir":"req","id":2,"jsonrpc":"2.0","method":"tools/call","params":{"name":"x","arguments":{},"_meta":{"progressToken":7}}}',
    '{"ts":"2026-03-02T10:00:01.500Z","dir":"notif","jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7,"progress":1}}',
    '{"ts":"2026-03-02T10:00:01.200Z","dir":"notif","jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}',
    'not json at all',
    '{"ts":"2026-03-02T10:00:02.000Z","dir":"res","id":2,"jsonrpc":"2.0","result":{"content":[]}}',
  ];

  it('infers directions from req/res/notif, sorts out-of-order lines stably and reports them', () => {
    const t = ok(importTranscript(lines.join('\n')));
    expect(t.format).toBe('jsonrpc-jsonl');
    expect(transcriptMessages(t).map((m) => [m.atMs, m.direction, m.line])).toEqual([
      [0, 'c2s', 1],
      [50, 's2c', 2],
      [1000, 'c2s', 3],
      [1200, 'c2s', 5],
      [1500, 's2c', 4],
      [2000, 's2c', 7],
    ]);
    expect(t.outOfOrder).toEqual({ count: 1, firstLine: 5 });
    expect(t.skipped).toEqual([{ line: 6, reason: expect.stringMatching(/^not valid JSON/), text: 'not json at all' }]);
    expect(t.revision).toBe('2026-07-28');
    expect(t.revisionSource).toBe('initialize');
    // The envelope fields are not part of the message.
    expect(transcriptMessages(t)[0].message).not.toHaveProperty('ts');
    expect(transcriptMessages(t)[0].message).not.toHaveProperty('dir');
  });

  it('stable sort: equal times keep the file order', () => {
    const same = ['{"ts":5,"dir":"c2s","jsonrpc":"2.0","id":1,"method":"a"}', '{"ts":5,"dir":"c2s","jsonrpc":"2.0","id":2,"method":"b"}', '{"ts":4,"dir":"c2s","jsonrpc":"2.0","id":3,"method":"c"}'];
    const t = ok(importTranscript(same.join('\n')));
    expect(transcriptMessages(t).map((m) => (m.message as { id: number }).id)).toEqual([3, 1, 2]);
    expect(t.outOfOrder).toEqual({ count: 1, firstLine: 3 });
    expect(t.originIso).toBeNull();
  });

  it('a chosen revision overrides the transcript; an unknown announced one is checked as the closest', () => {
    const chosen = ok(importTranscript(lines.join('\n'), { revision: '2025-11-25' }));
    expect([chosen.revision, chosen.revisionSource, chosen.revisionSeen]).toEqual(['2025-11-25', 'chosen', '2026-07-28']);
    const older = ok(importTranscript(lines.join('\n').replaceAll('2026-07-28', '2025-06-18')));
    expect([older.revision, older.revisionSeen]).toEqual(['2025-11-25', '2025-06-18']);
    expect(older.revisionNote).toMatch(/no schema for/);
    const none = ok(importTranscript(lines.slice(2).join('\n')));
    expect([none.revision, none.revisionSource]).toEqual(['2025-11-25', 'default']);
  });
});

describe('the revision of a 2026-07-28 transcript that starts with a version the server refused', () => {
  const meta = (v: string) => ({ 'io.modelcontextprotocol/protocolVersion': v, 'io.modelcontextprotocol/clientCapabilities': {} });
  const lines = [
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'x', _meta: meta('1900-01-01') } },
    { jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28'], requested: '1900-01-01' } } },
    { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'x', _meta: meta('2026-07-28') } },
  ].map((m) => JSON.stringify(m));

  it('is the first _meta version the lab knows (basic/versioning: the client retries with a supported version), not the refused one', () => {
    const t = ok(importTranscript(lines.join('\n')));
    expect([t.revision, t.revisionSource, t.revisionSeen]).toEqual(['2026-07-28', '_meta', '2026-07-28']);
  });

  it('with no known version among them, the first one, checked as the closest', () => {
    const t = ok(importTranscript(lines.join('\n').replaceAll('2026-07-28', '2027-01-01')));
    expect([t.revision, t.revisionSeen]).toEqual(['2025-11-25', '1900-01-01']);
    expect(t.revisionNote).toMatch(/1900-01-01, which the lab has no schema for/);
  });
});

describe('capture envelope JSONL', () => {
  it('reads c2s/s2c frames with transport and status, stderr and meta lines', () => {
    const text = [
      '{"ts":"2026-03-02T10:00:00.000Z","direction":"meta","transport":"http","event":"connect","raw":"connected"}',
      '{"ts":"2026-03-02T10:00:00.010Z","direction":"c2s","transport":"http","raw":"{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"method\\":\\"tools/call\\",\\"params\\":{\\"name\\":\\"x\\"}}","status":200}',
      '{"ts":"2026-03-02T10:00:00.500Z","direction":"meta","transport":"http","raw":"{\\"event\\":\\"stream-close\\",\\"requestId\\":1,\\"cause\\":\\"cancel\\"}"}',
      '{"ts":"2026-03-02T10:00:00.600Z","direction":"stderr","transport":"stdio","raw":"warning: slow disk"}',
      '{"ts":"2026-03-02T10:00:00.700Z","direction":"sideways","raw":"{}"}',
    ].join('\r\n');
    const t = ok(importTranscript(text));
    expect(t.format).toBe('capture-jsonl');
    expect(kinds(t)).toEqual(['meta:connect', 'message', 'meta:stream-close', 'stderr']);
    expect(t.entries[1]).toMatchObject({ atMs: 0, direction: 'c2s', transport: 'streamable-http', status: 200 });
    expect(t.entries[2]).toMatchObject({ atMs: 490, requestId: 1, cause: 'cancel' });
    expect(t.skipped).toEqual([{ line: 5, reason: '"direction" must be c2s, s2c, stderr or meta, got "sideways"', text: expect.any(String) }]);
  });

  it('splits a JSON-RPC batch into its messages', () => {
    const t = ok(importTranscript('{"ts":1,"direction":"c2s","transport":"stdio","raw":"[{\\"jsonrpc\\":\\"2.0\\",\\"id\\":1,\\"method\\":\\"a\\"},{\\"jsonrpc\\":\\"2.0\\",\\"method\\":\\"b\\"}]"}'));
    expect(transcriptMessages(t).map((m) => m.kind)).toEqual(['request', 'notification']);
  });

  it('parses a 10 MB capture (generated here) and counts every line', () => {
    const lines: string[] = [];
    let size = 0;
    let i = 0;
    while (size < 10 * 1024 * 1024) {
      const l = JSON.stringify({ ts: 1_700_000_000_000 + i * 3, direction: i % 2 ? 's2c' : 'c2s', transport: 'stdio', raw: JSON.stringify(i % 2 ? { jsonrpc: '2.0', id: i - 1, result: { content: [{ type: 'text', text: 'x'.repeat(100) }] } } : { jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { i } } }) });
      lines.push(l);
      size += l.length + 1;
      i++;
    }
    const text = `${lines.join('\n')}\n`;
    expect(text.length).toBeGreaterThanOrEqual(10 * 1024 * 1024);
    const t = ok(importTranscript(text));
    expect(t.lineCount).toBe(lines.length);
    expect(t.messageIndices.length).toBe(lines.length);
    expect(t.skipped).toEqual([]);
    expect(t.entries[t.entries.length - 1].atMs).toBe((lines.length - 1) * 3);
  });
});

describe('detection and unusable input', () => {
  it('names each format from its first lines', () => {
    expect(detectFormat(CLAUDE.join('\n'))).toEqual({ format: 'claude-desktop-log' });
    expect(detectFormat('\ufeff[]')).toEqual({ format: 'inspector-v2' });
    expect(detectFormat('{"ts":1,"dir":"req","jsonrpc":"2.0","id":1,"method":"x"}')).toEqual({ format: 'jsonrpc-jsonl' });
    expect(detectFormat('{"ts":1,"direction":"c2s","transport":"stdio","raw":"{}"}')).toEqual({ format: 'capture-jsonl' });
  });

  it('a lab scenario file pasted as a transcript is named, with the lab it opens in (walkthrough)', () => {
    const scenario = { format: 1, lab: 'races', id: 'A', title: 'A', config: {}, events: [{ id: 's', at: 0, actor: 'client', kind: 'start', requestId: 1 }] };
    const expected = { format: null, reason: 'this is a "races" scenario file, not a transcript — open it in the Races lab (#/races, Import / export…) or replay it with npm run replay' };
    expect(detectFormat(JSON.stringify(scenario, null, 2))).toEqual(expected);
    expect(detectFormat(JSON.stringify(scenario))).toEqual(expected);
    // Not a lab, or no events: the generic line stays.
    expect((detectFormat(JSON.stringify({ ...scenario, lab: 'nope' })) as { reason: string }).reason).toMatch(/^not a transcript format/);
    expect((detectFormat('{"lab":"races"}') as { reason: string }).reason).toMatch(/^not a transcript format/);
  });

  it('a file with nothing usable says why in one line', () => {
    const cases = ['', 'hello\nworld', '[]', '{"ts":1,"dir":"meta","event":"connect"}', 'Starting server\n2025-04-18T11:26:18.805Z [x] [info] Initializing server...'];
    for (const text of cases) {
      const r = importTranscript(text);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.reason).not.toMatch(/\n/);
        expect(r.reason.length).toBeGreaterThan(10);
      }
    }
    const r = importTranscript('{"ts":1,"dir":"req"}\n{"ts":2,"dir":"req","jsonrpc":"2.0"');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/nothing usable: read 2 lines as JSON-RPC JSONL.*2 lines skipped, the first \(line 1\)/);
    expect(importTranscript('').ok === false && (importTranscript('') as { reason: string }).reason).toBe('the input is empty');
  });

  it('reads times without a zone as UTC, numbers as ms, epoch seconds as seconds', () => {
    expect(parseTimeMs('2025-04-18 11:26:18.805')).toBe(Date.UTC(2025, 3, 18, 11, 26, 18, 805));
    expect(parseTimeMs('2025-04-18T11:26:18.805123Z')).toBe(Date.UTC(2025, 3, 18, 11, 26, 18, 805));
    expect(parseTimeMs(74049)).toBe(74049);
    expect(parseTimeMs(1745000000.5)).toBe(1745000000500);
    expect(parseTimeMs('soon')).toBeNull();
    expect(parseTimeMs(-1)).toBeNull();
  });

  it('reads toISOString times field by field exactly as Date.parse does, out-of-range fields included', () => {
    // Every field drawn past its range too (month 13, day 32, hour 25, minute 61…), where Date.parse rolls over or gives NaN.
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let i = 0; i < 20000; i++) {
      const s = `${pad(rand(10000), 4)}-${pad(rand(14), 2)}-${pad(rand(33), 2)}T${pad(rand(26), 2)}:${pad(rand(62), 2)}:${pad(rand(62), 2)}.${pad(rand(1000), 3)}Z`;
      const t = Date.parse(s);
      expect(parseTimeMs(s), s).toBe(Number.isFinite(t) ? Math.floor(t) : null);
      const iso = new Date(rand(2 ** 31) * 2000 + rand(2000)).toISOString();
      expect(parseTimeMs(iso), iso).toBe(Date.parse(iso));
    }
    expect(parseTimeMs('2026-12-04T10:00:00.00xZ')).toBeNull();
    expect(parseTimeMs(' 2026-12-04T10:00:00.000Z ')).toBe(Date.UTC(2026, 11, 4, 10));
  });
});
