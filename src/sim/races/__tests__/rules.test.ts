import { describe, expect, it } from 'vitest';
import { racesStateAt, requestByKey } from '..';
import { RULES } from '../rules';
import { ev, mk, req, run, start, violated } from './helpers';

const stdio = { revision: '2026-07-28', transport: 'stdio' };
const http26 = { revision: '2026-07-28', transport: 'streamable-http' };
const http25 = { revision: '2025-11-25', transport: 'streamable-http' };

describe('start validates the request', () => {
  for (const [label, bad] of [
    ['boolean', true],
    ['float', 1.5],
    ['null', null],
    ['array', [1]],
    ['object', { id: 1 }],
  ] as const) {
    it(`rejects a ${label} request id with a clear error and sends nothing`, () => {
      const t = run(mk(stdio, [start(0, { requestId: bad as never })]));
      expect(t.outcome.requests).toHaveLength(0);
      expect(t.steps[0].effects).toHaveLength(0);
      expect(t.steps[0].ignored[0]).toMatchObject({ by: 'client', rule: 'jsonrpc.id' });
      expect(t.steps[0].why).toMatch(/requestId must be a string or an integer, got (a boolean|a non-integer number|null|an array|an object)/);
    });
    it(`rejects a ${label} progress token`, () => {
      const t = run(mk(stdio, [start(0, { progressToken: bad as never })]));
      expect(t.outcome.requests).toHaveLength(0);
      expect(t.steps[0].ignored[0].rule).toBe('progress.token');
    });
  }

  it('accepts string and integer ids and tokens, and puts the token in _meta', () => {
    const t = run(mk(stdio, [start(0, { requestId: 'a', progressToken: 7 }), start(0, { requestId: 2, progressToken: 'x' })]));
    expect(t.outcome.requests.map((r) => r.key)).toEqual(['"a"', '2']);
    expect(t.steps[0].effects[0].message).toMatchObject({ id: 'a', params: { _meta: { progressToken: 7 } } });
  });

  it('rejects a duplicate active request id, and a duplicate active progress token', () => {
    const t = run(mk(stdio, [start(0, { progressToken: 'p' }), { ...start(10), id: 'dup-id' }, { ...start(20, { requestId: 2, progressToken: 'p' }), id: 'dup-token' }]));
    expect(t.outcome.requests).toHaveLength(1);
    expect(t.steps.find((s) => s.entry.label === 'dup-id')?.why).toMatch(/request id 1 is already in use by an active request/);
    expect(t.steps.find((s) => s.entry.label === 'dup-token')?.why).toMatch(/progressToken "p" is already in use/);
  });

  it('allows reusing an id once the earlier request ended, as a new instance', () => {
    const t = run(mk(stdio, [start(0), ev('c', 10, 'server', 'complete'), { ...start(50), id: 'again' }]));
    expect(t.outcome.requests.map((r) => r.key)).toEqual(['1', '1#2']);
  });

  it('rejects an idle timeout without a maximum: the maximum must cover it', () => {
    const t = run(mk(stdio, [start(0, { idleTimeoutMs: 500 })]));
    expect(t.outcome.requests).toHaveLength(0);
    expect(t.steps[0].ignored[0].rule).toBe('timeout.must-cover');
    expect(t.steps[0].why).toMatch(/maxTimeoutMs is missing/);
  });

  it('rejects subscriptions/listen under 2025-11-25', () => {
    const t = run(mk({ revision: '2025-11-25' }, [start(0, { method: 'subscriptions/listen' })]));
    expect(t.steps[0].ignored[0].rule).toBe('listen.2026-only');
  });
});

describe('progress', () => {
  const base = (extra: Record<string, never> = {}) => [start(0, { progressToken: 'p', idleTimeoutMs: 100, maxTimeoutMs: 1000, ...extra })];

  it('must strictly increase: an equal or lower value is ignored and does not reset idle', () => {
    const t = run(mk(stdio, [...base(), ev('p1', 50, 'server', 'progress', { progress: 5 }), ev('p2', 90, 'server', 'progress', { progress: 5 }), ev('p3', 120, 'server', 'progress', { progress: 4 })]));
    expect(requestByKey(racesStateAt(t, 90), '1')?.idleDeadlineAt).toBe(150);
    expect(t.steps.filter((s) => s.ignored.some((i) => i.rule === 'progress.increase'))).toHaveLength(2);
    expect(req(t)).toMatchObject({ state: 'timeout-idle', atMs: 150 });
  });

  it('resets the idle clock only when the request carries a progress token', () => {
    const withToken = run(mk(stdio, [...base(), ev('p', 80, 'server', 'progress', { progress: 1 })]));
    expect(req(withToken)).toMatchObject({ state: 'timeout-idle', atMs: 180 });
    const noToken = run(mk(stdio, [start(0, { idleTimeoutMs: 100, maxTimeoutMs: 1000 }), ev('p', 80, 'server', 'progress', { progress: 1 })]));
    expect(req(noToken)).toMatchObject({ state: 'timeout-idle', atMs: 100 });
    expect(noToken.steps.find((s) => s.entry.label === 'p')?.ignored[0].rule).toBe('progress.needs-token');
  });

  it('is not accepted after the call ended, and the server sends none after completing', () => {
    const t = run(mk({ ...stdio, latencyMs: { clientToServer: 0, serverToClient: 10 } }, [...base(), ev('p', 95, 'server', 'progress', { progress: 1 }), ev('c', 150, 'server', 'complete'), ev('p2', 160, 'server', 'progress', { progress: 2 })]));
    // Progress sent at 95 arrives at 105, after the idle deadline at 100.
    expect(req(t)).toMatchObject({ state: 'timeout-idle', atMs: 100 });
    expect(t.steps.find((s) => s.entry.kind === 'arrive.progress')?.ignored[0].rule).toBe('progress.after-end');
  });

  it('an SSE keep-alive comment never resets the idle clock', () => {
    const t = run(mk(http26, [...base(), ev('k1', 50, 'server', 'keepalive'), ev('k2', 90, 'server', 'keepalive')]));
    expect(req(t)).toMatchObject({ state: 'timeout-idle', atMs: 100 });
    expect(t.steps.find((s) => s.entry.label === 'k1')?.effects[0]).toMatchObject({ http: expect.stringMatching(/SSE comment/) });
    expect(t.steps.find((s) => s.entry.label === 'k1')?.effects[0].message).toBeUndefined();
  });

  it('a keep-alive on stdio is ignored: there is no SSE stream', () => {
    const t = run(mk(stdio, [...base(), ev('k', 50, 'server', 'keepalive')]));
    expect(t.steps.find((s) => s.entry.label === 'k')?.ignored[0].rule).toBe('transport.no-sse-on-stdio');
  });
});

describe('timeouts are inclusive and the maximum wins', () => {
  it('a response arriving exactly at the idle deadline is too late', () => {
    const t = run(mk({ ...stdio, latencyMs: { clientToServer: 0, serverToClient: 10 } }, [start(0, { idleTimeoutMs: 100, maxTimeoutMs: 500 }), ev('c', 90, 'server', 'complete')]));
    expect(req(t)).toMatchObject({ state: 'timeout-idle', atMs: 100, responseFate: 'ignored-late' });
  });

  it('a response one millisecond before the deadline wins', () => {
    const t = run(mk({ ...stdio, latencyMs: { clientToServer: 0, serverToClient: 10 } }, [start(0, { idleTimeoutMs: 100, maxTimeoutMs: 500 }), ev('c', 89, 'server', 'complete')]));
    expect(req(t)).toMatchObject({ state: 'completed', atMs: 99 });
  });

  it('when idle and maximum are due in the same millisecond the maximum wins', () => {
    const t = run(mk(stdio, [start(0, { idleTimeoutMs: 300, maxTimeoutMs: 300 })]));
    expect(req(t)).toMatchObject({ state: 'timeout-max', atMs: 300 });
  });

  it('progress never moves the maximum', () => {
    const t = run(mk(stdio, [start(0, { progressToken: 1, idleTimeoutMs: 100, maxTimeoutMs: 250 }), ev('a', 90, 'server', 'progress', { progress: 1 }), ev('b', 180, 'server', 'progress', { progress: 2 })]));
    expect(requestByKey(racesStateAt(t, 200), '1')?.maxDeadlineAt).toBe(250);
    expect(req(t)).toMatchObject({ state: 'timeout-max', atMs: 250 });
  });

  it('on timeout the client sends the transport\'s cancellation and error -32001 is named', () => {
    const t = run(mk(stdio, [start(0, { maxTimeoutMs: 100 })]));
    expect(req(t)).toMatchObject({ state: 'timeout-max', cancelSignal: 'notifications/cancelled' });
    expect(req(t).reason).toMatch(/-32001/);
    const timeoutStep = t.steps.find((s) => s.entry.kind === 'deadline.max');
    expect(timeoutStep?.effects[0].message).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 1, reason: 'Request timed out (maximum timeout)' } });
  });
});

describe('cancellation signal by transport and revision', () => {
  const events = [start(0, { maxTimeoutMs: 5000 }), ev('x', 100, 'client', 'cancel'), ev('c', 400, 'server', 'complete')];

  it('stdio (both revisions): notifications/cancelled {requestId, reason}', () => {
    for (const revision of ['2026-07-28', '2025-11-25']) {
      const t = run(mk({ revision, transport: 'stdio' }, events));
      const e = t.steps.find((s) => s.entry.label === 'x')?.effects;
      expect(e).toHaveLength(1);
      expect(e?.[0].message).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'User requested cancellation' } });
      expect(e?.[0].http).toBeUndefined();
    }
  });

  it('HTTP 2026-07-28: closes the stream, posts nothing; the server treats the close as cancellation', () => {
    const t = run(mk(http26, events));
    const e = t.steps.find((s) => s.entry.label === 'x')?.effects;
    expect(e).toHaveLength(1);
    expect(e?.[0].message).toBeUndefined();
    expect(req(t)).toMatchObject({ cancelSignal: 'stream-close', serverState: 'cancelled', finalResponse: false });
  });

  it('HTTP 2025-11-25: POSTs notifications/cancelled', () => {
    const t = run(mk(http25, events));
    expect(t.steps.find((s) => s.entry.label === 'x')?.effects[0]).toMatchObject({ http: expect.stringMatching(/^POST/), message: { method: 'notifications/cancelled' } });
    expect(req(t)).toMatchObject({ serverState: 'cancelled', finalResponse: false });
  });

  it('HTTP 2025-11-25: a plain disconnect is not cancellation — the server keeps working', () => {
    const t = run(mk(http25, [start(0, { maxTimeoutMs: 5000 }), ev('d', 100, 'client', 'disconnect'), ev('c', 400, 'server', 'complete')]));
    expect(req(t)).toMatchObject({ state: 'connection-closed', atMs: 100, serverState: 'completed', finalResponse: true, responseFate: 'undeliverable' });
    expect(req(t).reason).toMatch(/-32000/);
  });

  it('HTTP 2026-07-28: a disconnect is cancellation — the server stops', () => {
    const t = run(mk(http26, [start(0, { maxTimeoutMs: 5000 }), ev('d', 100, 'client', 'disconnect'), ev('c', 400, 'server', 'complete')]));
    expect(req(t)).toMatchObject({ state: 'connection-closed', serverState: 'cancelled', finalResponse: false });
  });
});

describe('server handling of cancellation', () => {
  it('cancel before complete suppresses the response', () => {
    const t = run(mk(stdio, [start(0), ev('x', 100, 'client', 'cancel'), ev('c', 200, 'server', 'complete')]));
    expect(req(t)).toMatchObject({ finalResponse: false, serverState: 'cancelled' });
    expect(t.steps.find((s) => s.entry.label === 'c')?.ignored[0].rule).toBe('cancel.receiver-stops');
  });

  it('complete before cancel keeps the response and ignores the late cancel', () => {
    const t = run(mk({ ...stdio, latencyMs: { clientToServer: 50, serverToClient: 50 } }, [start(0), ev('c', 200, 'server', 'complete'), ev('x', 210, 'client', 'cancel')]));
    expect(req(t)).toMatchObject({ finalResponse: true, serverState: 'completed', state: 'cancelled', responseFate: 'ignored-late' });
    expect(t.steps.find((s) => s.entry.kind === 'arrive.cancel')?.ignored[0].rule).toBe('cancel.complete-first');
  });

  it('ignores cancels that are malformed, for unknown ids, or whose id is a boolean/array/object', () => {
    const inject = (id: string, at: number, message: unknown) => ({ id, at, actor: 'client', kind: 'inject', message });
    const t = run(mk(stdio, [
      start(0),
      inject('b', 10, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: true } }),
      inject('a', 11, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: [1] } }),
      inject('o', 12, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: { x: 1 } } }),
      inject('m', 13, { jsonrpc: '2.0', method: 'notifications/cancelled' }),
      inject('n', 14, 'not json-rpc'),
      inject('u', 15, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } }),
      ev('c', 100, 'server', 'complete'),
    ] as never));
    const ignoredByServer = t.steps.flatMap((s) => s.ignored).filter((i) => i.by === 'server');
    expect(ignoredByServer).toHaveLength(6);
    expect(ignoredByServer.map((i) => i.reason)).toEqual([
      'requestId is a boolean (true), not a string or an integer',
      'requestId is an array, not a string or an integer',
      'requestId is an object, not a string or an integer',
      'params is missing or not an object',
      'the message is not a JSON object',
      'unknown request id',
    ]);
    expect(req(t)).toMatchObject({ state: 'completed', finalResponse: true });
    expect(t.steps.flatMap((s) => s.effects).filter((e) => e.malformed)).toHaveLength(6);
  });

  it('a cancel for a finished request is ignored', () => {
    const t = run(mk(stdio, [start(0), ev('c', 10, 'server', 'complete'), { id: 'late', at: 20, actor: 'client', kind: 'inject', message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } } }] as never));
    expect(t.steps.find((s) => s.entry.kind === 'arrive.raw')?.ignored[0].reason).toMatch(/already completed/);
  });

  it('the client ignores a late response for a request it abandoned, and never shows it as success', () => {
    const t = run(mk(stdio, [start(0, { maxTimeoutMs: 100, cancellable: false }), ev('c', 300, 'server', 'complete')]));
    expect(req(t)).toMatchObject({ state: 'timeout-max', responseFate: 'ignored-late' });
  });
});

describe('server-sent cancellation (2026-07-28)', () => {
  const listen = start(0, { requestId: 's', method: 'subscriptions/listen' });
  it('ends an open stdio subscriptions/listen stream', () => {
    const t = run(mk(stdio, [listen, ev('end', 100, 'server', 'server-cancel', { requestId: 's' })]));
    expect(req(t, '"s"')).toMatchObject({ state: 'ended-by-server', atMs: 100 });
    expect(t.steps.find((s) => s.entry.label === 'end')?.effects[0].message).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 's' } });
  });
  it('is refused for a tools/call and for a stream that already ended; on HTTP it ends the listen stream too (issue 23: the cancellation page names no transport)', () => {
    const call = run(mk(stdio, [start(0), ev('x', 100, 'server', 'server-cancel')]));
    expect(call.steps[call.steps.length - 1].ignored[0].rule).toBe('cancel.server-listen-only');
    const http = run(mk(http26, [listen, ev('end', 100, 'server', 'server-cancel', { requestId: 's' })]));
    expect(req(http, '"s"')).toMatchObject({ state: 'ended-by-server', atMs: 100 });
    const twice = run(mk(stdio, [listen, ev('end', 100, 'server', 'server-cancel', { requestId: 's' }), ev('again', 200, 'server', 'server-cancel', { requestId: 's' })]));
    expect(twice.steps.find((s) => s.entry.label === 'again')?.ignored[0].reason).toMatch(/already ended/);
  });
});

describe('every broken policy breaks its invariant', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>[], string][] = [
    ['progressResetsMaximum', stdio, [start(0, { progressToken: 1, idleTimeoutMs: 100, maxTimeoutMs: 150 }), ev('p', 90, 'server', 'progress', { progress: 1 })], 'maximum-deadline-fixed'],
    ['idleTimeoutOnly', stdio, [start(0, { progressToken: 1, idleTimeoutMs: 100, maxTimeoutMs: 150 }), ev('p', 90, 'server', 'progress', { progress: 1 }), ev('p2', 180, 'server', 'progress', { progress: 2 })], 'maximum-enforced'],
    ['maximumCheckedOnProgress', stdio, [start(0, { idleTimeoutMs: 1000, maxTimeoutMs: 150 }), ev('c', 900, 'server', 'complete')], 'maximum-enforced'],
    ['progressTokenOmitted', stdio, [start(0, { progressToken: 1, idleTimeoutMs: 100, maxTimeoutMs: 1000 }), ev('p', 90, 'server', 'progress', { progress: 1 })], 'progress-keeps-alive'],
    ['respondAfterCancel', stdio, [start(0), ev('x', 10, 'client', 'cancel'), ev('c', 20, 'server', 'complete')], 'no-response-after-cancel'],
    ['clientNeverSettles', stdio, [start(0), ev('x', 10, 'client', 'cancel')], 'cancel-settles'],
    ['timeoutWithoutCancel', stdio, [start(0, { maxTimeoutMs: 100 })], 'abandon-signals-server'],
    ['httpPostsCancel', http26, [start(0), ev('x', 10, 'client', 'cancel')], 'transport-signal'],
    ['listenAckOmitted', stdio, [start(0, { method: 'subscriptions/listen' })], 'listen-acknowledged-first'],
    ['listenTeardownSilent', http26, [start(0, { method: 'subscriptions/listen' }), ev('end', 100, 'server', 'server-cancel')], 'listen-teardown-signalled'],
  ];
  for (const [policy, config, events, invariant] of cases) {
    it(`${policy} → ${invariant}`, () => {
      const s = mk(config as never, events as never);
      expect(violated(run(s))).toEqual([]);
      expect(violated(run(s, { policy: { [policy]: true } }))).toContain(invariant);
    });
  }
});

describe('ruleTable: the rules data files', () => {
  it('fills each id from its key and refuses an entry without text or section, naming it', async () => {
    const { ruleTable } = await import('../ruleTable');
    expect(ruleTable({ 'a.b': { text: 'A rule.', section: 'lesson: x' } })).toEqual({ 'a.b': { id: 'a.b', text: 'A rule.', section: 'lesson: x' } });
    expect(() => ruleTable({ 'a.b': { text: '', section: 'lesson: x' } })).toThrow('rules.a.b.text: missing — every rule says what it requires');
    expect(() => ruleTable({ 'a.c': { text: 'A rule.', section: {} } })).toThrow('rules.a.c.section: missing — name the spec page (or the reference) the rule comes from');
  });
  it('every rule of the table is keyed by its own id (54 rules: the model\'s 32, 10 SDK behaviours — 8 of v1, 1 of v2 only, 1 asserted on SDK v2 and not modelled —, 12 mechanics)', () => {
    expect(Object.keys(RULES)).toHaveLength(54);
    for (const [k, r] of Object.entries(RULES)) expect(r.id).toBe(k);
  });
});
