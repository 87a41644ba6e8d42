import { describe, expect, it, vi } from 'vitest';
import { loadBuiltinScenarios } from '../sim/__tests__/builtinScenarios';
import { replayFlow, withFlowOverrides } from '../sim/flow';
import { SDK_BEHAVIOURS } from '../sim/races/sdkProfile';
import type { Json } from '../sim/types';
import { onFakeTimers } from './cases';
import { FLOW_NOT_EXPRESSIBLE_V2, FLOW_V2_EXPECTED, flowV2Cases, MAX_TIMER_MS, runFlowV2Case, withoutTimeout } from './flowCases';
import { flowDifferences, labFlowFacts, notExpressibleFlowV2, observeFlowV2, type FlowFacts } from './flowDriver';

// The SDK v2 oracle on the flow lab (issue 23 item 1: "flow's broken stream"). Every flow built-in
// the SDK v2 pair can express — RI1 and RI2, the broken stream under 2026-07-28, and P1–P3, the
// proxy and keep-alive lessons — runs on the real SDK v2 Client and McpServer over Streamable HTTP
// in process, pinned to 2026-07-28, on fake timers (`flowDriver.ts`: the tool writes what the
// scenario's producer writes, a proxy middlebox buffers or times out as the scenario's proxy does,
// a drop cuts the stream). What the SDK client observes is compared with the lab's summary point by
// point: each case agrees, or every fact that differs is listed and named by an SDK behaviour
// (`flowCases.ts` FLOW_V2_EXPECTED). The spec's rule (2026-07-28 changelog): "A broken response
// stream loses the in-flight request; clients MUST re-issue it as a new request with a new request
// ID". The SDK v2 client does not (`sdk.broken-stream-pending`, typescript-sdk#2739):
// client/src/client/streamableHttp.ts StreamableHTTPClientTransport._handleSseStream reports
// "SSE stream disconnected" through onerror and, with no priming event id on the POST stream (the
// 2026 server sends none), schedules no reconnection and calls options.onRequestStreamEnd — which
// core-internal/src/shared/protocol.ts Protocol._requestWithSchemaViaCodec never passes to
// transport.send for an ordinary request; nothing in the client re-issues it. The call waits for
// its timeout.

const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
const setTime = (ms: number) => vi.setSystemTime(ms);

onFakeTimers();

const load = (id: string, overrides: Record<string, Json> = {}) => withFlowOverrides(loadBuiltinScenarios('flow').find((s) => s.scenario.id === id)!.scenario, overrides);
const lab = (id: string, overrides: Record<string, Json> = {}) => labFlowFacts(replayFlow(load(id, overrides)));
const fields = (d: string[]) => d.map((x) => x.slice(0, x.indexOf(':')) as keyof FlowFacts);
const m = (w: { message: unknown }) => w.message as { id?: Json; method?: string; result?: Json; params?: Record<string, Json> };

describe('the flow lab on the real SDK v2 over Streamable HTTP, under 2026-07-28', () => {
  it('drives every flow built-in it can express; the others are the listed ones, each with why', () => {
    const driven = new Set(flowV2Cases().map((c) => c.id));
    expect([...driven]).toEqual(['P1-proxy-buffering', 'P2-keepalive-not-progress', 'P3-accel-buffering-header', 'RI1-broken-stream-reissue', 'RI2-reissue-meets-proxy-timeout']);
    const all = loadBuiltinScenarios('flow').map((s) => s.scenario);
    expect(all.filter((s) => notExpressibleFlowV2(s) !== null).map((s) => s.id)).toEqual(FLOW_NOT_EXPRESSIBLE_V2);
    // a block that switches a lab bug on is not driven (the SDK pair has no such bug); every other block is
    expect(flowV2Cases().map((c) => c.key).sort()).toEqual(Object.keys(FLOW_V2_EXPECTED).sort());
  });

  for (const c of flowV2Cases()) {
    it(`${c.key} (${c.label}): negotiated 2026-07-28; the SDK client's facts agree with the lab's, or each difference is named`, async () => {
      const runs = await runFlowV2Case(c, advance, setTime);
      const expected = FLOW_V2_EXPECTED[c.key];
      const labFacts = labFlowFacts(replayFlow(c.scenario));
      for (const [run, o] of [['long', runs.long], ['default', runs.default]] as const) {
        if (o === null) continue;
        expect(o.negotiated).toBe('2026-07-28');
        expect(o.requests).toEqual(['POST 200', 'POST 200']); // the handshake and the one call: no re-issue, no GET
        expect(o.facts.reissues).toBe(0);
        const exp = expected[run]!;
        expect({ run, differs: fields(flowDifferences(labFacts, o.facts)) }).toEqual({ run, differs: exp.differs });
        expect(exp.behaviours.length > 0).toBe(exp.differs.length > 0);
        for (const b of exp.behaviours) expect(SDK_BEHAVIOURS[b]?.v2.status).toMatch(/^(same|v2-only)$/);
      }
      expect(runs.default === null).toBe(!withoutTimeout(c));
      expect(expected.default === undefined).toBe(!withoutTimeout(c));
    });
  }
});

describe('RI1 on the SDK v2: the proxy holds progress and the result when the stream is cut at 4000 ms (sdk.broken-stream-pending, typescript-sdk#2739)', () => {
  it('the tool writes progress at 1000 and 2000 ms and its result at 3000 ms, all held by the proxy (no flush before 5000 ms): at the cut the client reports "SSE stream disconnected" and waits — no re-issue, no new id, no reconnect, one execution; the lab re-issues it at 4500 ms and completes at 5000 ms', async () => {
    const o = await observeFlowV2(load('RI1-broken-stream-reissue'), advance, { timeoutMs: MAX_TIMER_MS });
    expect(o.negotiated).toBe('2026-07-28');
    expect(o.writes).toEqual([
      { atMs: 1000, kind: 'progress' },
      { atMs: 2000, kind: 'progress' },
      { atMs: 3000, kind: 'result' },
    ]);
    const call = o.wire.filter((w) => w.direction === 'c2s');
    expect(call.map((w) => [w.atMs, m(w).method, m(w).id])).toEqual([[0, 'tools/call', 0]]);
    expect(m(call[0]).params).toMatchObject({ name: 'send_invoice', arguments: { idempotencyKey: 'inv-42' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' } });
    expect(o.wire.filter((w) => w.direction === 's2c')).toEqual([]); // nothing reached the client before the cut, nor after it
    expect(o.proxyFlushes).toEqual([]);
    expect(o.cuts).toEqual([{ atMs: 4000, why: 'drop' }]);
    expect(o.clientErrors).toEqual(['4000 SSE stream disconnected']);
    expect(o.executions).toEqual([{ id: 0, atMs: 0, idempotencyKey: 'inv-42', fromStore: false }]); // the key is never needed: nothing asks again
    expect(o.settled).toEqual({ kind: 'pending' });
    expect(o.facts).toEqual({ operation: 'waiting', operationEndedAtMs: null, operationRequestId: 'invoice-1', reissues: 0, reconnects: 0, operationExecutions: 1, sideEffectExecutions: 1, disconnects: 1, firstDisconnectAtMs: 4000, proxyTimeouts: 0, lostWhileDown: 3, deliveredProgress: 0, deliveredFinals: 0 });
    expect(lab('RI1-broken-stream-reissue')).toMatchObject({ operation: 'completed', operationEndedAtMs: 5000, operationRequestId: 'invoice-1-reissue-1', reissues: 1, reconnects: 1, operationExecutions: 1, lostWhileDown: 3, deliveredFinals: 1 });
  });

  it('the SDK v2 client is where the lab\'s old rule was (bug resumeUnder2026: waiting for "invoice-1" whose result was lost), less its reconnect at 4500 ms', async () => {
    const o = await observeFlowV2(load('RI1-broken-stream-reissue'), advance, { timeoutMs: MAX_TIMER_MS });
    expect(flowDifferences(lab('RI1-broken-stream-reissue', { bugs: { resumeUnder2026: true } }), o.facts)).toEqual(['reconnects: lab 1, SDK v2 0']);
  });

  it('with the timeout omitted the call fails only at the SDK\'s default, 60000 ms after it was sent (sdk.default-timeout): 56 s after the cut, 55 s after the lab completed it', async () => {
    const o = await observeFlowV2(load('RI1-broken-stream-reissue'), advance, { timeoutMs: undefined, untilMs: 80_000 });
    expect(o.settled).toEqual({ kind: 'error', code: 'REQUEST_TIMEOUT', message: 'Request timed out', atMs: 60_000 });
    expect(o.facts.operation).toBe('waiting'); // at the horizon, 20000 ms
    expect(o.requests).toEqual(['POST 200', 'POST 200']); // the timeout closes the already-broken stream: nothing is sent
  });
});

describe('RI2 on the SDK v2: a 60 s proxy read timeout and a tool silent for 90 s', () => {
  it('no byte for 60 s: the proxy cuts the stream at 60000 ms; the server sees the close as cancellation (the handler\'s signal aborts at 60000 ms, so its 90000 ms result is never written) and the client waits on — one cut, one execution, no re-issue; the lab re-issues at 61000, 122000, 183000 ms and is cut each time', async () => {
    const o = await observeFlowV2(load('RI2-reissue-meets-proxy-timeout'), advance, { timeoutMs: MAX_TIMER_MS });
    expect(o.negotiated).toBe('2026-07-28');
    expect(o.cuts).toEqual([{ atMs: 60_000, why: 'read-timeout' }]);
    expect(o.clientErrors).toEqual(['60000 SSE stream disconnected']);
    expect(o.writes).toEqual([]);
    expect(o.executions).toEqual([{ id: 0, atMs: 0, idempotencyKey: undefined, fromStore: false }]);
    expect(o.wire.map((w) => `${w.atMs} ${w.direction} ${m(w).method ?? 'response'}`)).toEqual(['0 c2s tools/call']);
    expect(o.settled).toEqual({ kind: 'pending' });
    expect(o.facts).toMatchObject({ operation: 'waiting', operationEndedAtMs: null, reissues: 0, operationExecutions: 1, disconnects: 1, firstDisconnectAtMs: 60_000, proxyTimeouts: 1 });
    expect(lab('RI2-reissue-meets-proxy-timeout')).toMatchObject({ operation: 'waiting', operationRequestId: 'report-9-reissue-3', reissues: 3, operationExecutions: 4, disconnects: 4, proxyTimeouts: 4 });
  });

  it('with the timeout omitted the SDK\'s own 60000 ms timer fires first (armed before the response opened the proxy\'s, same ms): the client closes the stream — the 2026-07-28 cancel — so the proxy never cuts it (sdk.default-timeout)', async () => {
    const o = await observeFlowV2(load('RI2-reissue-meets-proxy-timeout'), advance, { timeoutMs: undefined });
    expect(o.settled).toEqual({ kind: 'error', code: 'REQUEST_TIMEOUT', message: 'Request timed out', atMs: 60_000 });
    expect(o.cuts).toEqual([]);
    expect(o.clientErrors).toEqual([]);
    expect(o.requests).toEqual(['POST 200', 'POST 200']);
  });

  it('keep-alives every 15000 ms hold the proxy open: completed at 90000 ms, as the lab; they are not progress, so with the timeout omitted the call still fails at 60000 ms (sdk.default-timeout)', async () => {
    const ka = load('RI2-reissue-meets-proxy-timeout', { keepAliveIntervalMs: 15000 });
    const o = await observeFlowV2(ka, advance, { timeoutMs: MAX_TIMER_MS });
    expect(o.cuts).toEqual([]);
    expect(o.settled).toEqual({ kind: 'result', text: 'done', atMs: 90_000 });
    expect(flowDifferences(lab('RI2-reissue-meets-proxy-timeout', { keepAliveIntervalMs: 15000 }), o.facts)).toEqual([]);
    vi.setSystemTime(0);
    const d = await observeFlowV2(ka, advance, { timeoutMs: undefined });
    expect(d.settled).toMatchObject({ kind: 'error', code: 'REQUEST_TIMEOUT', atMs: 60_000 });
  });

  it('the SDK v2 server writes keep-alive comments every 15000 ms unless told otherwise (server/src/server/sseKeepAlive.ts DEFAULT_SSE_KEEP_ALIVE_MS, armed by perRequestTransport.ts upgradeToSse): behind the SDK\'s default server RI2 is never cut — the scenario\'s server, without keep-alives, is driven with keepAliveMs 0', async () => {
    const o = await observeFlowV2(load('RI2-reissue-meets-proxy-timeout'), advance, { timeoutMs: MAX_TIMER_MS, sdkDefaultKeepAlive: true });
    expect(o.cuts).toEqual([]);
    expect(o.settled).toEqual({ kind: 'result', text: 'done', atMs: 90_000 });
  });
});
