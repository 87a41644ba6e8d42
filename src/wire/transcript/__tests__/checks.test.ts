import { describe, expect, it } from 'vitest';
import { checkTranscript, CHECKS, type CheckId, type CheckOptions } from '../checks';
import { callToolRequest, cancelledNotification, progressNotification, toolResultResponse } from '../../../sim/mcp';
import { call, cancel, progress, result, tx, type Line } from './helpers';
import type { Json } from '../../../sim/types';

const run = (lines: Line[], options: CheckOptions & { transport?: 'stdio' | 'http'; revision?: '2026-07-28' | '2025-11-25' } = {}) => {
  const { transport, revision, ...opts } = options;
  return checkTranscript(tx(lines, { transport, revision }), { schema: false, ...opts });
};
const ids = (lines: Line[], options: Parameters<typeof run>[1] = {}) => run(lines, options).findings.map((f) => f.check);

/** An InputRequiredResult of `id` asking for `inputRequests`. */
const ask = (id: number, inputRequests: Record<string, Json>): Json => ({ jsonrpc: '2.0', id, result: { resultType: 'input_required', inputRequests } });
/** An elicitation/create input request (`mode` when given). */
const elicit = (mode?: 'form' | 'url'): Json => ({ method: 'elicitation/create', params: { ...(mode ? { mode } : {}), message: 'Confirm?', ...(mode === 'url' ? { url: 'https://example.com/x', elicitationId: 'e1' } : { requestedSchema: { type: 'object', properties: {} } }) } });
/** A tools/call `_meta` declaring the tasks extension. */
const TASKS_CAPS: Record<string, Json> = { 'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } } };
/** A CreateTaskResult answering `id`. */
const taskHandle = (id: number): Json => ({ jsonrpc: '2.0', id, result: { resultType: 'task', taskId: 't-1', status: 'working', createdAt: '2026-07-28T09:00:00Z', lastUpdatedAt: '2026-07-28T09:00:00Z', ttlMs: null } });
/** A subscriptions/listen request `id` with the notification filter `notifications`. */
const listen = (id: string, notifications: Record<string, Json>): Json => ({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {} }, notifications } });
/** A notification `method` on subscription `sub`. */
const onSub = (sub: string, method: string, params: Record<string, Json> = {}): Json => ({ jsonrpc: '2.0', method, params: { _meta: { 'io.modelcontextprotocol/subscriptionId': sub }, ...params } });

/** Each check: a transcript that trips it and one that does not. */
const CASES: { check: CheckId; trips: Line[]; clean: Line[]; options?: Parameters<typeof run>[1] }[] = [
  {
    check: 'late-after-cancel',
    trips: [[0, 'c2s', call(1)], [300, 'c2s', cancel(1)], [1301, 's2c', result(1)]],
    clean: [[0, 'c2s', call(1)], [300, 'c2s', cancel(1)], [1300, 's2c', result(1)]],
  },
  {
    check: 'message-after-stream-close',
    trips: [[0, 'c2s', call(1, 'x', {}, { progressToken: 't' })], [500, 'meta', { event: 'stream-close', requestId: 1, cause: 'cancel' }], [1600, 's2c', progress('t', 1)]],
    clean: [[0, 'c2s', call(1, 'x', {}, { progressToken: 't' })], [500, 'meta', { event: 'stream-close', requestId: 1, cause: 'cancel' }], [1500, 's2c', progress('t', 1)]],
    options: { transport: 'http' },
  },
  {
    check: 'progress-after-completion',
    trips: [[0, 'c2s', call(1, 'x', {}, { progressToken: 't' })], [100, 's2c', result(1)], [101, 's2c', progress('t', 1)]],
    clean: [[0, 'c2s', call(1, 'x', {}, { progressToken: 't' })], [100, 's2c', progress('t', 1)], [100, 's2c', result(1)]],
  },
  {
    check: 'progress-not-increasing',
    trips: [[0, 'c2s', call(1, 'x', {}, { progressToken: 't' })], [100, 's2c', progress('t', 2)], [200, 's2c', progress('t', 2)]],
    clean: [[0, 'c2s', call(1, 'x', {}, { progressToken: 't' })], [100, 's2c', progress('t', 2)], [200, 's2c', progress('t', 2.5)]],
  },
  {
    check: 'progress-unknown-token',
    trips: [[0, 'c2s', call(1, 'x', {}, { progressToken: 't' })], [100, 's2c', progress('u', 1)]],
    clean: [[0, 'c2s', call(1, 'x', {}, { progressToken: 't' })], [100, 's2c', progress('t', 1)]],
  },
  {
    check: 'cancel-unknown-id',
    trips: [[0, 'c2s', call(1)], [100, 'c2s', cancel(99)]],
    clean: [[0, 'c2s', call(1)], [100, 'c2s', cancel(1)]],
  },
  {
    check: 'cancel-finished-id',
    trips: [[0, 'c2s', call(1)], [400, 's2c', result(1)], [1401, 'c2s', cancel(1)]],
    // B's race: the cancel crosses the response on the wire (10 ms later, inside the allowance).
    clean: [[0, 'c2s', call(1)], [400, 's2c', result(1)], [410, 'c2s', cancel(1)]],
  },
  {
    check: 'outlived-maximum',
    trips: [[0, 'c2s', call(1)], [2001, 's2c', result(1)]],
    clean: [[0, 'c2s', call(1)], [2000, 's2c', result(1)]],
    options: { maxMs: 2000 },
  },
  {
    check: 'timeout-without-cancel',
    trips: [[0, 'c2s', call(42)], [60000, 'meta', { event: 'client-timeout', requestId: 42 }], [74049, 's2c', result(42)]],
    clean: [[0, 'c2s', call(42)], [60000, 'meta', { event: 'client-timeout', requestId: 42 }], [60000, 'c2s', cancel(42, 'Request timed out')]],
  },
  {
    check: 'duplicate-call',
    trips: [[0, 'c2s', call(1, 'charge', { account: 'acct-1', amount: 500 })], [133, 'c2s', call(2, 'charge', { amount: 500, account: 'acct-1' })], [900, 's2c', result(1)], [1000, 's2c', result(2)]],
    // The retry comes after the first call's response: no overlap.
    clean: [[0, 'c2s', call(1, 'charge', { account: 'acct-1', amount: 500 })], [900, 's2c', result(1)], [1000, 'c2s', call(2, 'charge', { account: 'acct-1', amount: 500 })]],
  },
  {
    check: 'reconnect-lockstep',
    trips: [[0, 'c2s', call(1)], [10, 'meta', { event: 'disconnect' }], [5010, 'meta', { event: 'connect-failed' }], [10010, 'meta', { event: 'connect-failed' }], [15010, 'meta', { event: 'connect' }]],
    clean: [[0, 'c2s', call(1)], [10, 'meta', { event: 'disconnect' }], [4210, 'meta', { event: 'connect-failed' }], [10987, 'meta', { event: 'connect-failed' }], [14000, 'meta', { event: 'connect' }]],
  },
  {
    check: 'reconnect-no-cap',
    trips: [[0, 'c2s', call(1)], [10, 'meta', { event: 'disconnect' }], ...Array.from({ length: 11 }, (_, i): Line => [1000 + i * 997 + (i % 3) * 13, 'meta', { event: 'connect-failed' }])],
    clean: [[0, 'c2s', call(1)], [10, 'meta', { event: 'disconnect' }], ...Array.from({ length: 10 }, (_, i): Line => [1000 + i * 997 + (i % 3) * 13, 'meta', { event: 'connect-failed' }])],
  },
  {
    check: 'http-cancel-post-2026',
    trips: [[0, 'c2s', call('req-7')], [500, 'meta', { event: 'stream-close', requestId: 'req-7', cause: 'cancel' }], [500, 'c2s', cancel('req-7')]],
    clean: [[0, 'c2s', call('req-7')], [500, 'meta', { event: 'stream-close', requestId: 'req-7', cause: 'cancel' }]],
    options: { transport: 'http' },
  },
  {
    check: 'response-unknown-id',
    trips: [[0, 'c2s', call(1)], [100, 's2c', result(2)]],
    clean: [[0, 'c2s', call(1)], [100, 's2c', result(1)]],
  },
  {
    check: 'response-id-type',
    trips: [[0, 'c2s', call(1)], [100, 's2c', result('1')]],
    clean: [[0, 'c2s', call('1')], [100, 's2c', result('1')]],
  },
  {
    check: 'response-twice',
    trips: [[0, 'c2s', call(1)], [100, 's2c', result(1)], [200, 's2c', result(1)]],
    clean: [[0, 'c2s', call(1)], [100, 's2c', result(1)], [150, 'c2s', call(2)], [200, 's2c', result(2)]],
  },
  {
    check: 'idempotency-key-conflict',
    trips: [[0, 'c2s', call(1, 'charge', { amount: 500, idempotencyKey: 'pay-1' })], [100, 's2c', result(1, 'receipt r-1')], [200, 'c2s', call(2, 'charge', { amount: 500, idempotencyKey: 'pay-1' })], [300, 's2c', result(2, 'receipt r-2')]],
    clean: [[0, 'c2s', call(1, 'charge', { amount: 500, idempotencyKey: 'pay-1' })], [100, 's2c', result(1, 'receipt r-1')], [200, 'c2s', call(2, 'charge', { amount: 500, idempotencyKey: 'pay-1' })], [300, 's2c', result(2, 'receipt r-1')]],
  },
  {
    check: 'content-length-framing',
    trips: [[0, 'c2s', call(1), { raw: `Content-Length: ${JSON.stringify(call(1)).length}\r\n\r\n${JSON.stringify(call(1))}` }], [100, 's2c', result(1)]],
    clean: [[0, 'c2s', call(1)], [100, 's2c', result(1)]],
  },
  {
    check: 'http-headers-2026',
    trips: [[0, 'c2s', call(1), { http: { method: 'POST', path: '/mcp', headers: { 'Mcp-Method': 'tools/call', 'mcp-protocol-version': '2026-07-28' } } }], [100, 's2c', { jsonrpc: '2.0', id: 1, error: { code: -32020, message: 'Header mismatch: no Mcp-Name' } }, { http: { status: 400 } }]],
    clean: [[0, 'c2s', call(1), { http: { method: 'POST', path: '/mcp', headers: { 'mcp-method': 'tools/call', 'mcp-name': 'slow_task', 'mcp-protocol-version': '2026-07-28' } } }], [100, 's2c', result(1), { http: { status: 200 } }]],
    options: { transport: 'http' },
  },
  {
    check: 'http-header-not-rejected',
    trips: [[0, 'c2s', call(1), { http: { method: 'POST', path: '/mcp', headers: { 'mcp-method': 'tools/call', 'mcp-name': 'other_tool', 'mcp-protocol-version': '2026-07-28' } } }], [100, 's2c', result(1), { http: { status: 200 } }]],
    // Without headers in the capture there is nothing to judge.
    clean: [[0, 'c2s', call(1)], [100, 's2c', result(1), { http: { status: 200 } }]],
    options: { transport: 'http' },
  },
  {
    check: 'capability-undeclared',
    trips: [[0, 'c2s', call(1, 'transfer', {}, { 'io.modelcontextprotocol/clientCapabilities': {} })], [100, 's2c', ask(1, { confirm: elicit() })]],
    clean: [[0, 'c2s', call(1, 'transfer', {}, { 'io.modelcontextprotocol/clientCapabilities': { elicitation: {} } })], [100, 's2c', ask(1, { confirm: elicit() })]],
  },
  {
    check: 'task-cancel-notification',
    trips: [[0, 'c2s', call(1, 'export', {}, TASKS_CAPS)], [100, 's2c', taskHandle(1)], [1101, 'c2s', cancel(1)]],
    // Inside the allowance the cancel crossed the handle on the wire: the client did not know of a task yet.
    clean: [[0, 'c2s', call(1, 'export', {}, TASKS_CAPS)], [100, 's2c', taskHandle(1)], [1100, 'c2s', cancel(1)]],
  },
  {
    check: 'subscription-unrequested',
    trips: [[0, 'c2s', listen('L', { toolsListChanged: true })], [10, 's2c', onSub('L', 'notifications/subscriptions/acknowledged', { notifications: { toolsListChanged: true } })], [100, 's2c', onSub('L', 'notifications/prompts/list_changed')]],
    clean: [[0, 'c2s', listen('L', { toolsListChanged: true })], [10, 's2c', onSub('L', 'notifications/subscriptions/acknowledged', { notifications: { toolsListChanged: true } })], [100, 's2c', onSub('L', 'notifications/tools/list_changed')]],
  },
];

describe('every check has a transcript that trips it and one that does not', () => {
  it('the cases below cover every check in the catalogue', () => {
    expect([...CASES.map((c) => c.check), 'schema'].sort()).toEqual(Object.keys(CHECKS).sort());
  });

  for (const c of CASES) {
    it(c.check, () => {
      const tripped = run(c.trips, c.options ?? {});
      const f = tripped.findings.filter((x) => x.check === c.check);
      expect(f).toHaveLength(1);
      expect(f[0].rule).toBe(CHECKS[c.check].rule);
      expect(f[0].teaches).toEqual(CHECKS[c.check].teaches);
      expect(f[0].entries.length).toBeGreaterThan(0);
      expect(tripped.clean).toBe(f[0].severity === 'info' && tripped.findings.length === 1);
      expect(ids(c.clean, c.options ?? {})).toEqual([]);
    });
  }

  it('schema: a message failing its revision\'s official schema, and a valid one', () => {
    const bad = checkTranscript(tx([[0, 'c2s', callToolRequest('2026-07-28', 5, 'translate', null)], [100, 'c2s', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: true } }]]));
    expect(bad.findings.map((f) => f.check)).toEqual(['schema']);
    expect(bad.findings[0].entries).toEqual([1]);
    expect(bad.findings[0].message).toMatch(/CancelledNotification/);
    const good = checkTranscript(
      tx([
        [0, 'c2s', callToolRequest('2026-07-28', 5, 'translate', 'p')],
        [50, 's2c', progressNotification('p', 1, 2, null)],
        [100, 's2c', toolResultResponse('2026-07-28', 5, 'bonjour', false)],
      ]),
    );
    expect(good.findings).toEqual([]);
    expect(good.clean).toBe(true);
    // A 2025-11-25 result lacks resultType: valid under 2025-11-25, invalid under 2026-07-28.
    const old: Line[] = [[0, 'c2s', callToolRequest('2025-11-25', 5, 'translate', null)], [100, 's2c', toolResultResponse('2025-11-25', 5, 'ok', false)]];
    expect(checkTranscript(tx(old, { revision: '2025-11-25' })).findings).toEqual([]);
    expect(checkTranscript(tx(old, { revision: '2026-07-28' })).findings.map((f) => f.check)).toEqual(['schema', 'schema']);
  });
});

describe('what a 2026-07-28 request declared, against what came back', () => {
  const caps = (c: Json) => ({ 'io.modelcontextprotocol/clientCapabilities': c });
  const undeclared = (declared: Json, inputRequests: Record<string, Json>) => run([[0, 'c2s', call(1, 'x', {}, caps(declared))], [100, 's2c', ask(1, inputRequests)]]).findings.filter((f) => f.check === 'capability-undeclared');

  it('elicitation {} is form mode only (client/elicitation); url mode needs elicitation.url', () => {
    expect(undeclared({ elicitation: {} }, { a: elicit('form') })).toEqual([]);
    expect(undeclared({ elicitation: {} }, { a: elicit('url') })[0].message).toMatch(/a \(elicitation\/create needs elicitation\.url\)/);
    expect(undeclared({ elicitation: { url: {} } }, { a: elicit() })[0].message).toMatch(/needs elicitation\.form/);
    expect(undeclared({ elicitation: { form: {}, url: {} } }, { a: elicit('url'), b: elicit() })).toEqual([]);
  });

  it('sampling, tool-enabled sampling (sampling.tools) and roots each need their capability; every missing one is named in one finding', () => {
    const sample = (tools?: Json[]): Json => ({ method: 'sampling/createMessage', params: { messages: [], maxTokens: 10, ...(tools ? { tools } : {}) } });
    expect(undeclared({ sampling: {} }, { s: sample() })).toEqual([]);
    expect(undeclared({ sampling: {} }, { s: sample([{ name: 't', inputSchema: { type: 'object' } }]) })[0].message).toMatch(/needs sampling\.tools/);
    const both = undeclared({}, { s: sample(), r: { method: 'roots/list' } });
    expect(both).toHaveLength(1);
    expect(both[0].message).toMatch(/s \(sampling\/createMessage needs sampling\), r \(roots\/list needs roots\)/);
    expect(both[0].entries).toEqual([0, 1]);
  });

  it('a task handle for a tools/call that did not declare the tasks extension (ext-tasks: MUST NOT return CreateTaskResult to it)', () => {
    const f = run([[0, 'c2s', call(1, 'export', {}, caps({}))], [100, 's2c', taskHandle(1)]]).findings;
    expect(f.map((x) => [x.check, x.severity])).toEqual([['capability-undeclared', 'error']]);
    expect(f[0].message).toMatch(/task handle .* without the io\.modelcontextprotocol\/tasks extension/);
    expect(ids([[0, 'c2s', call(1, 'export', {}, TASKS_CAPS)], [100, 's2c', taskHandle(1)]])).toEqual([]);
  });

  it('judges 2026-07-28 only', () => {
    expect(ids([[0, 'c2s', call(1, 'export', {}, caps({}))], [100, 's2c', taskHandle(1)], [2000, 'c2s', cancel(1)]], { revision: '2025-11-25' })).toEqual(['cancel-finished-id']);
  });

  it('a cancel of a request answered with a task handle is task-cancel-notification, not cancel-finished-id', () => {
    const lines: Line[] = [[0, 'c2s', call(1, 'export', {}, TASKS_CAPS)], [100, 's2c', taskHandle(1)], [3000, 'c2s', cancel(1)]];
    expect(ids(lines)).toEqual(['task-cancel-notification']);
    // The same cancel of a plain result stays the race it was.
    expect(ids([[0, 'c2s', call(1)], [100, 's2c', result(1)], [3000, 'c2s', cancel(1)]])).toEqual(['cancel-finished-id']);
  });

  it('subscription-unrequested: resources/updated needs a subscribed URI, notifications/tasks a listed task; once per kind; the subscription ends with its response', () => {
    const sub = listen('L', { resourceSubscriptions: ['file:///a'], taskIds: ['t-1'] });
    const upd = (uri: string) => onSub('L', 'notifications/resources/updated', { uri });
    const lines: Line[] = [
      [0, 'c2s', sub],
      [10, 's2c', onSub('L', 'notifications/subscriptions/acknowledged', { notifications: {} })],
      [100, 's2c', upd('file:///a')],
      [200, 's2c', upd('file:///b')],
      [300, 's2c', upd('file:///b')],
      [400, 's2c', onSub('L', 'notifications/tasks', { taskId: 't-2', status: 'working', createdAt: 'x', lastUpdatedAt: 'x', ttlMs: null })],
      [500, 's2c', { jsonrpc: '2.0', id: 'L', result: { resultType: 'complete' } }],
      [600, 's2c', onSub('L', 'notifications/prompts/list_changed')],
    ];
    const f = run(lines).findings;
    expect(f.map((x) => [x.check, x.entries])).toEqual([
      ['subscription-unrequested', [0, 3]],
      ['subscription-unrequested', [0, 5]],
    ]);
    expect(f[0].message).toMatch(/file:\/\/\/b/);
    expect(f[1].message).toMatch(/task "t-2"/);
  });
});

describe('check details', () => {
  it('the allowance is settable: 220 ms after the cancel is a finding at 100 ms, not at the default 1000 ms', () => {
    const lines: Line[] = [[0, 'c2s', call(1)], [300, 'c2s', cancel(1)], [520, 's2c', result(1)]];
    expect(ids(lines)).toEqual([]);
    const r = run(lines, { allowanceMs: 100 });
    expect(r.findings.map((f) => f.check)).toEqual(['late-after-cancel']);
    expect(r.findings[0].atMs).toBe(520);
    expect(r.findings[0].entries).toEqual([0, 1, 2]);
    expect(r.findings[0].requestIds).toEqual([1]);
    expect(r.options.allowanceMs).toBe(100);
  });

  it('duplicate-call notes the idempotency key: info when every call carries one (argument or _meta)', () => {
    const keyed = run([[0, 'c2s', call(1, 'charge', { amount: 5, idempotencyKey: 'k1' })], [133, 'c2s', call(2, 'charge', { amount: 5, idempotencyKey: 'k1' })]]);
    expect(keyed.findings.map((f) => [f.check, f.severity])).toEqual([['duplicate-call', 'info']]);
    expect(keyed.findings[0].message).toMatch(/idempotency key/);
    expect(keyed.clean).toBe(true);
    const meta = run([[0, 'c2s', call(1, 'charge', { amount: 5 }, { 'Idempotency-Key': 'k' })], [10, 'c2s', call(2, 'charge', { amount: 5 }, { 'Idempotency-Key': 'k' })]]);
    expect(meta.findings[0].severity).toBe('info');
    const none = run([[0, 'c2s', call(1, 'charge', { amount: 5 })], [10, 'c2s', call(2, 'charge', { amount: 5 })]]);
    expect(none.findings[0].severity).toBe('warning');
    expect(none.findings[0].message).toMatch(/No idempotency key/);
    // Different arguments are different calls.
    expect(ids([[0, 'c2s', call(1, 'charge', { amount: 5 })], [10, 'c2s', call(2, 'charge', { amount: 6 })]])).toEqual([]);
  });

  it('a cancelled first call may still run: a retry under a new id is still a possible double execution', () => {
    expect(ids([[0, 'c2s', call(1, 'charge', { a: 1 })], [100, 'c2s', cancel(1)], [200, 'c2s', call(2, 'charge', { a: 1 })]])).toEqual(['duplicate-call']);
  });

  it('a client-produced -32001 error answering its own request counts as a client timeout', () => {
    const lines: Line[] = [[0, 'c2s', call(7)], [5000, 'c2s', { jsonrpc: '2.0', id: 7, error: { code: -32001, message: 'Request timed out' } }]];
    const t = tx(lines);
    expect(t.entries.map((e) => (e.type === 'meta' ? e.kind : e.type))).toEqual(['message', 'client-timeout']);
    expect(run(lines).findings.map((f) => f.check)).toEqual(['timeout-without-cancel']);
  });

  it('on 2026 HTTP the stream close is the cancel signal for a timeout; 2025 HTTP POSTing a cancel is correct', () => {
    expect(ids([[0, 'c2s', call(1)], [100, 'meta', { event: 'client-timeout', requestId: 1 }], [100, 'meta', { event: 'stream-close', requestId: 1, cause: 'cancel' }]], { transport: 'http' })).toEqual([]);
    expect(ids([[0, 'c2s', call(1)], [100, 'c2s', cancel(1)]], { transport: 'http', revision: '2025-11-25' })).toEqual([]);
  });

  it('a stream dropped under 2025-11-25 is not a cancellation: a later response is no finding', () => {
    const lines: Line[] = [[0, 'c2s', call(1)], [100, 'meta', { event: 'stream-close', requestId: 1, cause: 'network' }], [5000, 's2c', result(1)]];
    expect(ids(lines, { transport: 'http', revision: '2025-11-25' })).toEqual([]);
    expect(ids(lines, { transport: 'http', revision: '2026-07-28' })).toEqual(['message-after-stream-close']);
  });

  it('a call still open at the end of the transcript outlives the maximum', () => {
    const r = run([[0, 'c2s', call(1)], [5000, 's2c', progress('nobody', 1)]], { maxMs: 1000 });
    const f = r.findings.find((x) => x.check === 'outlived-maximum')!;
    expect(f.message).toMatch(/still open at the end/);
  });

  it('exactly doubling reconnect gaps have no jitter either; growing gaps past the delay cap have no cap', () => {
    const doubling: Line[] = [[0, 'c2s', call(1)], [0, 'meta', { event: 'disconnect' }], [1000, 'meta', { event: 'connect-failed' }], [3000, 'meta', { event: 'connect-failed' }], [7000, 'meta', { event: 'connect' }]];
    expect(ids(doubling)).toEqual(['reconnect-lockstep']);
    const growing: Line[] = [[0, 'c2s', call(1)], [0, 'meta', { event: 'disconnect' }], [10000, 'meta', { event: 'connect-failed' }], [40000, 'meta', { event: 'connect-failed' }], [110001, 'meta', { event: 'connect-failed' }]];
    expect(ids(growing, { maxReconnectDelayMs: 60000 })).toEqual(['reconnect-no-cap']);
  });

  it('findings are sorted by time and counted by severity', () => {
    const r = run([[0, 'c2s', call(1, 'x', {}, { progressToken: 't' })], [100, 's2c', progress('u', 1)], [200, 'c2s', cancel(99)]]);
    expect(r.findings.map((f) => f.check)).toEqual(['progress-unknown-token', 'cancel-unknown-id']);
    expect(r.counts).toEqual({ error: 1, warning: 1, info: 0 });
    expect(r.clean).toBe(false);
    expect(r.checked).toEqual({ messages: 3, requests: 1, meta: 0 });
  });

  it('a malformed cancellation is left to the schema check, not reported as an unknown id', () => {
    expect(ids([[0, 'c2s', call(1)], [10, 'c2s', cancelledNotification(1.5 as unknown as number, 'x')]])).toEqual([]);
  });
});
