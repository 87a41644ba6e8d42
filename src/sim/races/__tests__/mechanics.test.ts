import { describe, expect, it } from 'vitest';
import { checkEffects } from '../../../wire/schemaCheck';
import type { Revision } from '../../mcp';
import { ev, loadScenario, mk, req, run, start, violated } from './helpers';
import type { RacesTrace } from '..';

// The failure mechanics of issue 11 (src/sim/races/mechanics), each with its switch, against the
// numbers of the incident it models. Every message they emit validates against the official schema.

const wire = (t: RacesTrace) => t.steps.flatMap((s) => s.effects).filter((e) => e.message !== undefined);
const methodOf = (t: RacesTrace) => {
  const final = t.steps[t.steps.length - 1].state;
  return (key: string | undefined) => (key === undefined ? undefined : final.requests[final.indexOf[key]]?.method);
};
function schemaErrors(t: RacesTrace, revision: Revision): unknown[] {
  return checkEffects(revision, t.steps.flatMap((s) => s.effects), methodOf(t)).filter((c) => !c.effect.malformed && c.errors.length > 0).map((c) => ({ def: c.def, errors: c.errors }));
}

describe('receive loop dies after a cancel (python-sdk#2610)', () => {
  const i1 = loadScenario('I1-receive-loop-dies');
  it('correct: the cancel at 4 ms affects only request 2 (no response); request 3 is answered at 301 ms', () => {
    const t = run(i1);
    expect(wire(t).filter((e) => e.from === 'server').map((e) => [e.at, e.message])).toEqual([[300, { jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: '3 results' }] } }]]);
    expect(req(t, '3')).toMatchObject({ state: 'completed', atMs: 301 });
    expect(violated(t)).toEqual([]);
  });
  it('bug: the server answers {"id":2,"error":{"code":0,…}} at 5 ms, then request 3 is never read and times out at 5100 ms', () => {
    const t = run(i1, { policy: { receiveLoopDiesOnCancel: true } });
    const fromServer = wire(t).filter((e) => e.from === 'server');
    expect(fromServer.map((e) => [e.at, e.message])).toEqual([[5, { jsonrpc: '2.0', id: 2, error: { code: 0, message: 'Request cancelled' } }]]);
    expect(req(t, '2')).toMatchObject({ state: 'cancelled', atMs: 4, responseFate: 'ignored-late' });
    expect(req(t, '3')).toMatchObject({ state: 'timeout-idle', atMs: 5100, serverState: 'not-received' });
    expect(violated(t)).toEqual(['no-response-after-cancel', 'receive-loop-survives-cancel']);
    // the late error is itself a deviation, and a valid JSON-RPC error (code 0 is an integer)
    expect(schemaErrors(t, '2025-11-25')).toEqual([]);
    // the timeout's cancel for 3 is not read either
    expect(t.steps.flatMap((s) => s.ignored).filter((i) => i.rule === 'mech.receive-loop').map((i) => i.what)).toEqual(['request 3', 'notifications/cancelled']);
  });
});

describe('stray progress after the result (claude-code#53617)', () => {
  const i2 = loadScenario('I2-stray-progress-teardown');
  it('correct: the server sends no progress after the 200 ms result; both calls complete', () => {
    const t = run(i2);
    expect(wire(t).filter((e) => (e.message as { method?: string }).method === 'notifications/progress').map((e) => e.at)).toEqual([100, 300]);
    expect([req(t, '1').atMs, req(t, '2').atMs]).toEqual([201, 1001]);
  });
  it('server bug only: the stray progress at 210 ms goes out and the correct client drops it; call 2 completes at 1001 ms', () => {
    const t = run(i2, { policy: { progressAfterResult: true } });
    expect(wire(t).filter((e) => (e.message as { method?: string }).method === 'notifications/progress').map((e) => e.at)).toEqual([100, 210, 300]);
    expect(req(t, '2')).toMatchObject({ state: 'completed', atMs: 1001 });
    expect(violated(t)).toEqual(['progress-stops-after-result']);
    expect(schemaErrors(t, '2025-11-25')).toEqual([]);
  });
  it('both bugs: the host kills the healthy server at 211 ms; call 2 fails with connection closed, its work lost', () => {
    const t = run(i2, { policy: { progressAfterResult: true, strayProgressKillsConnection: true } });
    expect(req(t, '1')).toMatchObject({ state: 'completed', atMs: 201 });
    expect(req(t, '2')).toMatchObject({ state: 'connection-closed', atMs: 211, serverState: 'failed', workEndedAtMs: 211, finalResponse: false });
    expect(violated(t)).toEqual(['progress-stops-after-result', 'stray-progress-harmless']);
  });
  it('the host bug alone changes nothing while the server keeps the rule', () => {
    expect(run(i2, { policy: { strayProgressKillsConnection: true } }).outcome).toEqual(run(i2).outcome);
  });
});

describe('timeout without a cancel plus a silent re-send (ruby-mcp-client PR#178)', () => {
  const i3 = loadScenario('I3-timeout-silent-resend');
  it('correct: cancel at 5000 ms, the server stops, one execution at most', () => {
    const t = run(i3);
    expect(t.outcome.requests).toHaveLength(1);
    expect(req(t)).toMatchObject({ state: 'timeout-idle', atMs: 5000, cancelSignal: 'notifications/cancelled', serverState: 'cancelled', workEndedAtMs: 5000 });
    expect(violated(t)).toEqual([]);
  });
  it('bug: no cancel; "1-resend-1" goes out at 5000 ms while 1 still runs; the tool completes twice (8000 ms and 9500 ms)', () => {
    const t = run(i3, { policy: { silentRetryOnTimeout: true } });
    const calls = wire(t).filter((e) => (e.message as { method?: string }).method === 'tools/call').map((e) => [e.at, (e.message as { id: unknown }).id]);
    expect(calls).toEqual([[0, 1], [5000, '1-resend-1']]);
    expect(wire(t).filter((e) => (e.message as { method?: string }).method === 'notifications/cancelled')).toEqual([]);
    expect(req(t, '1')).toMatchObject({ state: 'timeout-idle', serverState: 'completed', workEndedAtMs: 8000, responseFate: 'ignored-late' });
    expect(req(t, '"1-resend-1"')).toMatchObject({ state: 'completed', atMs: 9500 });
    expect(violated(t)).toEqual(['abandon-signals-server', 'at-most-one-execution', 'no-silent-resend']);
    expect(schemaErrors(t, '2025-11-25')).toEqual([]);
  });
  it('one re-send per call: a re-send that times out again ends as a plain timeout with a cancel', () => {
    const s = mk({}, [start(0, { idleTimeoutMs: 1000, maxTimeoutMs: 60000 })]);
    const t = run(s, { policy: { silentRetryOnTimeout: true } });
    expect(t.outcome.requests.map((r) => [r.key, r.state, r.atMs, r.cancelSignal])).toEqual([
      ['1', 'timeout-idle', 1000, 'none'],
      ['"1-resend-1"', 'timeout-idle', 2000, 'notifications/cancelled'],
    ]);
  });
  it('under 2026-07-28 stdio the messages validate too', () => {
    const t = run(i3, { revision: '2026-07-28', policy: { silentRetryOnTimeout: true } });
    expect(schemaErrors(t, '2026-07-28')).toEqual([]);
    const s = mk({ revision: '2026-07-28' }, [start(0, { requestId: 2, idleTimeoutMs: 5000, maxTimeoutMs: 9000 }), ev('c', 4, 'client', 'cancel', { requestId: 2 })]);
    expect(schemaErrors(run(s, { policy: { receiveLoopDiesOnCancel: true } }), '2026-07-28')).toEqual([]);
  });
});

describe('a response for an abandoned id (ignore = spec; reconnect = bug)', () => {
  const i4 = loadScenario('I4-late-response-reconnect');
  it('correct: call 1 times out at 1000 ms, its 1500 ms response is dropped, call 2 completes at 3000 ms', () => {
    const t = run(i4);
    expect(req(t, '1')).toMatchObject({ state: 'timeout-idle', atMs: 1000, responseFate: 'ignored-late' });
    expect(req(t, '2')).toMatchObject({ state: 'completed', atMs: 3000 });
    expect(violated(t)).toEqual([]);
  });
  it('bug: the client reconnects at 1500 ms: call 2 fails with connection closed and its work is lost — the cost of the reconnect is every call in flight', () => {
    const t = run(i4, { policy: { lateResponseReconnects: true } });
    expect(req(t, '2')).toMatchObject({ state: 'connection-closed', atMs: 1500, serverState: 'failed', workEndedAtMs: 1500, finalResponse: false });
    expect(t.outcome.summary.states).toEqual({ 'timeout-idle': 1, 'connection-closed': 1 });
    expect(violated(t)).toEqual(['late-response-harmless']);
  });
});

describe('replies in reading order and Content-Length framing (agent-os#894)', () => {
  const k3 = loadScenario('K3-first-message-read');
  const fromServer = (t: RacesTrace) => wire(t).filter((e) => e.from === 'server').map((e) => [e.at, (e.message as { id?: number }).id ?? (e.message as { method: string }).method]);
  it('correct: the progress at 301 ms resets call 1\'s idle timer to 10301 ms; each call takes its own response (801, 1401, 2301 ms)', () => {
    const t = run(k3);
    expect([req(t, '1').atMs, req(t, '2').atMs, req(t, '3').atMs]).toEqual([801, 1401, 2301]);
    expect(t.steps.find((s) => s.at === 301)?.state.requests[0].idleDeadlineAt).toBe(10301);
    expect(violated(t)).toEqual([]);
  });
  it('bug: the server sends the same five messages, but the client pairs them in reading order — 1 completes at 301 ms on the progress, 2 at 1000 ms on 1\'s result, 3 at 2000 ms on 2\'s; 3\'s result stays unread', () => {
    const t = run(k3, { policy: { replyIsFirstMessageRead: true } });
    expect(fromServer(t)).toEqual([[300, 'notifications/progress'], [800, 1], [1400, 2], [2300, 3]]);
    expect(req(t, '1')).toMatchObject({ state: 'completed', atMs: 301, responseFate: 'accepted' });
    expect(req(t, '1').reason).toContain('notifications/progress 1 for 1, taken as the reply: an empty success');
    expect(req(t, '2')).toMatchObject({ state: 'completed', atMs: 1000 });
    expect(req(t, '2').reason).toContain('the result response to 1');
    expect(req(t, '3')).toMatchObject({ state: 'completed', atMs: 2000 });
    expect(req(t, '3').reason).toContain('the result response to 2');
    const final = t.steps[t.steps.length - 1].state;
    expect(final.readQueue).toEqual([{ kind: 'response', key: '3', of: '3', ok: true }]);
    expect(req(t, '3').responseFate).toBe('in-flight');
    expect(violated(t)).toEqual(['notification-is-not-a-result', 'reply-matched-by-id']);
  });
  it('bug, overlapping calls: the first call still waiting takes the first message — responses in reverse order swap the results', () => {
    const s = mk({ transport: 'stdio', latencyMs: { clientToServer: 1, serverToClient: 1 }, policy: { replyIsFirstMessageRead: true } }, [
      start(0, { requestId: 1, tool: 'a', idleTimeoutMs: 5000, maxTimeoutMs: 9000 }),
      start(10, { requestId: 2, tool: 'b', idleTimeoutMs: 5000, maxTimeoutMs: 9000 }),
      ev('done-2', 100, 'server', 'complete', { requestId: 2, text: 'b' }),
      ev('fail-1', 200, 'server', 'error', { requestId: 1, code: -32603, message: 'disk full' }),
    ]);
    const t = run(s);
    expect(req(t, '1')).toMatchObject({ state: 'completed', atMs: 101 });
    expect(req(t, '2')).toMatchObject({ state: 'failed', atMs: 201 });
    expect(req(t, '2').reason).toContain("the error response to 1, taken as this call's error");
    expect(violated(t)).toEqual(['reply-matched-by-id']);
    expect(run(s, { policy: { replyIsFirstMessageRead: false } }).outcome.requests.map((r) => [r.key, r.state, r.atMs])).toEqual([['1', 'failed', 201], ['2', 'completed', 101]]);
  });
  it('Content-Length framing: nothing is received — no response, the timeouts\' cancels unread too; 1, 2, 3 time out at 10000, 11000, 12000 ms', () => {
    const t = run(k3, { policy: { contentLengthFraming: true } });
    expect(fromServer(t)).toEqual([]);
    expect(wire(t).filter((e) => e.from === 'client').map((e) => [e.at, e.malformed === true])).toEqual([[0, true], [1000, true], [2000, true], [10000, true], [11000, true], [12000, true]]);
    expect(['1', '2', '3'].map((k) => [req(t, k).state, req(t, k).atMs, req(t, k).serverState])).toEqual([['timeout-idle', 10000, 'not-received'], ['timeout-idle', 11000, 'not-received'], ['timeout-idle', 12000, 'not-received']]);
    expect(violated(t)).toEqual(['newline-delimited-framing']);
  });
  it('both switches change nothing over Streamable HTTP', () => {
    const http = (policy: Record<string, boolean>) => run(k3, { transport: 'streamable-http', policy }).outcome.requests.map((r) => [r.key, r.state, r.atMs]);
    expect(http({ replyIsFirstMessageRead: true, contentLengthFraming: true })).toEqual(http({}));
  });
});

describe('a result line longer than one read (claude-code#65413)', () => {
  const k4 = loadScenario('K4-large-line-never-read');
  it('correct: the 15400-byte line is joined from 4 reads of 4096 bytes; 1 completes at 91 ms, 2 at 1051 ms; the Esc at 180000 ms sends nothing', () => {
    const t = run(k4);
    expect([req(t, '1').state, req(t, '1').atMs, req(t, '2').atMs]).toEqual(['completed', 91, 1051]);
    expect(wire(t).filter((e) => (e.message as { method?: string }).method === 'notifications/cancelled')).toEqual([]);
    expect(violated(t)).toEqual([]);
  });
  it('bug: ceil(15400 / 4096) = 4 reads, none holding the line; 1 stays pending while the 2048-byte result of 2 completes at 1051 ms; the Esc at 180000 ms cancels an id answered at 90 ms, and the server ignores it', () => {
    const t = run(k4, { policy: { incompleteTailDropped: true } });
    expect(req(t, '1')).toMatchObject({ state: 'cancelled', atMs: 180000, serverState: 'completed' });
    expect(req(t, '2')).toMatchObject({ state: 'completed', atMs: 1051 });
    const cancels = wire(t).filter((e) => (e.message as { method?: string }).method === 'notifications/cancelled');
    expect(cancels.map((e) => [e.at, e.arrivesAt])).toEqual([[180000, 180001]]);
    expect(t.steps.find((s) => s.at === 91)?.ignored.map((i) => i.reason)).toEqual(['its line spans 4 reads of 4096 bytes and the reader drops each read\'s incomplete tail: never reassembled']);
    expect(t.steps.find((s) => s.at === 180001)?.rule).toBe('cancel.complete-first');
    expect(violated(t)).toEqual(['response-line-reassembled']);
  });
  it('bug: a line that fits one read is read as usual — 15400 bytes in 16384-byte reads, or exactly 4096 bytes in 4096-byte reads', () => {
    expect(req(run(k4, { policy: { incompleteTailDropped: true }, stdioReader: { chunkBytes: 16384 } }), '1')).toMatchObject({ state: 'completed', atMs: 91 });
    const sized = (resultBytes: number) => ({ ...k4, events: k4.events.map((e) => (e.id === 'done-1' ? { ...e, resultBytes } : e)) });
    expect(req(run(sized(4096), { policy: { incompleteTailDropped: true } }), '1')).toMatchObject({ state: 'completed', atMs: 91 });
    expect(req(run(sized(4097), { policy: { incompleteTailDropped: true } }), '1').state).toBe('cancelled');
  });
  it('resultBytes over a maxMessageBytes limit is rejected alone by the correct reader (the size comes from the complete event, K2\'s rule)', () => {
    const t = run(k4, { stdioReader: { chunkBytes: 4096, maxMessageBytes: 8192 } });
    expect(req(t, '1')).toMatchObject({ state: 'failed', atMs: 91 });
    expect(req(t, '2')).toMatchObject({ state: 'completed', atMs: 1051 });
  });
});

describe('-32022 UnsupportedProtocolVersion (2026-07-28 basic/versioning)', () => {
  const v1 = loadScenario('V1-unsupported-protocol-version');
  const declared = (t: RacesTrace) => wire(t).filter((e) => e.from === 'client').map((e) => [e.at, (e.message as { id: number }).id, ((e.message as { params: { _meta: Record<string, string> } }).params._meta)['io.modelcontextprotocol/protocolVersion']]);
  it('correct: 1 declares DRAFT-2027-v1 and gets -32022 listing the server\'s versions at 2 ms; 2 retries at 2 ms declaring 2026-07-28; 3 declares it too — all messages valid against the 2026-07-28 schema', () => {
    const t = run(v1);
    expect(declared(t)).toEqual([[0, 1, 'DRAFT-2027-v1'], [2, 2, '2026-07-28'], [1000, 3, '2026-07-28']]);
    const rejection = wire(t).find((e) => e.from === 'server')!;
    expect([rejection.at, rejection.message]).toEqual([1, { jsonrpc: '2.0', id: 1, error: { code: -32022, message: 'Unsupported protocol version', data: { supported: ['2026-07-28', '2025-11-25'], requested: 'DRAFT-2027-v1' } } }]);
    expect(req(t, '1')).toMatchObject({ state: 'failed', atMs: 2, retriedAs: '2', serverState: 'failed' });
    expect(req(t, '2')).toMatchObject({ state: 'completed', atMs: 501, retryOf: '1' });
    expect(req(t, '3')).toMatchObject({ state: 'completed', atMs: 1401 });
    expect(schemaErrors(t, '2026-07-28')).toEqual([]);
    expect(violated(t)).toEqual([]);
  });
  it('over Streamable HTTP the MCP-Protocol-Version header repeats the declared version, and the -32022 comes with 400 Bad Request', () => {
    const t = run(v1, { transport: 'streamable-http' });
    const posts = wire(t).filter((e) => e.from === 'client').map((e) => e.headers?.['MCP-Protocol-Version']);
    expect(posts).toEqual(['DRAFT-2027-v1', '2026-07-28', '2026-07-28']);
    expect(wire(t).find((e) => e.from === 'server')?.http).toBe('HTTP 400 Bad Request with the JSON-RPC error');
  });
  it('bug: -32022 is the tool\'s failure and the client declares DRAFT-2027-v1 again — 1 fails at 2 ms, 3 at 1002 ms, no request 2', () => {
    const t = run(v1, { policy: { unsupportedVersionNotRetried: true } });
    expect(declared(t)).toEqual([[0, 1, 'DRAFT-2027-v1'], [1000, 3, 'DRAFT-2027-v1']]);
    expect(t.outcome.requests.map((r) => [r.key, r.state, r.atMs])).toEqual([['1', 'failed', 2], ['3', 'failed', 1002]]);
    expect(violated(t)).toEqual(['version-mismatch-retried']);
  });
  it('under 2025-11-25 the version lists change nothing (the version is agreed once, by initialize)', () => {
    const t = run(v1, { revision: '2025-11-25' });
    // No request 2 is ever sent, so call 1 waits for nothing and times out; call 3 is answered as usual.
    expect(t.outcome.requests.map((r) => [r.key, r.state, r.atMs])).toEqual([['1', 'timeout-idle', 10000], ['3', 'completed', 1401]]);
    expect(t.steps.flatMap((s) => s.effects).some((e) => JSON.stringify(e.message ?? null).includes('DRAFT'))).toBe(false);
  });
});
