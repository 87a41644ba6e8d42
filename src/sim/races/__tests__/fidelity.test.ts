import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ERROR_CODES, requestHeaders2026 } from '../../mcp';
import { RULES, ruleSection } from '..';
import { checkEffects } from '../../../wire/schemaCheck';
import type { Json } from '../../types';
import { ev, loadScenario, mk, req, run, start, violated } from './helpers';

/**
 * Issue 11 in the races lab: malformed cancellations, the POSTed cancel under 2026-07-28 HTTP,
 * the broken-stream re-issue, MRTR, the 2026 request headers and error codes, and the citations.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const schema2026 = JSON.parse(readFileSync(path.join(here, '../../../wire/mcp-schema/2026-07-28.schema.json'), 'utf8')) as { $defs: Record<string, unknown> };

const stdio = { revision: '2026-07-28', transport: 'stdio', latencyMs: { clientToServer: 20, serverToClient: 20 } };
const http2026 = { ...stdio, transport: 'streamable-http' };
const http2025 = { ...http2026, revision: '2025-11-25' };

const effects = (t: ReturnType<typeof run>) => t.steps.flatMap((s) => s.effects);
const ignoredRules = (t: ReturnType<typeof run>) => t.steps.flatMap((s) => s.ignored.map((i) => i.rule));

describe('malformed cancellations are ignored (both revisions)', () => {
  const variants = ['no-jsonrpc', 'bad-jsonrpc', 'reason-not-string', 'has-id'] as const;
  for (const revision of ['2026-07-28', '2025-11-25']) {
    for (const config of [{ ...stdio, revision }, { ...http2025 }]) {
      if (config.transport === 'streamable-http' && revision === '2026-07-28') continue;
      for (const how of variants) {
        it(`${revision} ${config.transport}: a cancel with ${how} cancels nothing; the work completes at 600 ms and its response (620 ms) is dropped`, () => {
          const t = run(mk(config, [start(0, { maxTimeoutMs: 5000 }), ev('c', 100, 'client', 'cancel', { malformed: how }), ev('done', 600, 'server', 'complete')]));
          const r = req(t);
          expect([r.state, r.atMs, r.serverState, r.workEndedAtMs, r.responseFate]).toEqual(['cancelled', 100, 'completed', 600, 'ignored-late']);
          expect(violated(t)).toEqual(['cancel-well-formed']);
          const sent = effects(t).find((e) => e.from === 'client' && e.malformed)!.message as Record<string, Json>;
          if (how === 'no-jsonrpc') expect('jsonrpc' in sent).toBe(false);
          if (how === 'bad-jsonrpc') expect(sent.jsonrpc).toBe('1.0');
          if (how === 'reason-not-string') expect(typeof (sent.params as Record<string, Json>).reason).toBe('number');
          if (how === 'has-id') {
            expect(sent.id).toBe('cancel-1');
            const answer = effects(t).find((e) => e.from === 'server' && (e.message as Record<string, Json>)?.id === 'cancel-1')!;
            expect(answer.message).toEqual({ jsonrpc: '2.0', id: 'cancel-1', error: { code: -32601, message: 'Method not found' } });
            expect(answer.at).toBe(120);
            expect(ignoredRules(t)).toContain('cancel.malformed');
          } else {
            expect(ignoredRules(t)).toContain('cancel.ignore-invalid');
          }
        });
      }
    }
  }

  it('raw injected cancels: jsonrpc missing, "1.0", a numeric reason, an id — all ignored, the call completes at 620 ms', () => {
    const raw: Json[] = [
      { method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '1.0', method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 7 } },
      { jsonrpc: '2.0', id: 9, method: 'notifications/cancelled', params: { requestId: 1 } },
    ];
    const t = run(mk(stdio, [start(0, { maxTimeoutMs: 5000 }), ...raw.map((message, i) => ({ id: `inj-${i}`, at: 100 + i * 10, actor: 'client', kind: 'inject', message })), ev('done', 600, 'server', 'complete')]));
    expect([req(t).state, req(t).atMs, req(t).serverState]).toEqual(['completed', 620, 'completed']);
    const reasons = t.steps.flatMap((s) => s.ignored.map((i) => i.reason));
    expect(reasons).toContain('jsonrpc is missing (it must be "2.0")');
    expect(reasons).toContain('jsonrpc is "1.0", not "2.0"');
    expect(reasons).toContain('reason is 7, not a string');
    expect(effects(t).filter((e) => e.from === 'server' && (e.message as Record<string, Json>)?.error !== undefined).map((e) => e.message)).toEqual([
      { jsonrpc: '2.0', id: 9, error: { code: -32601, message: 'Method not found' } },
    ]);
    expect(violated(t)).toEqual([]);
  });

  it('a well-formed cancel with a string reason still cancels (the checks are not too strict)', () => {
    const t = run(mk(stdio, [start(0, { maxTimeoutMs: 5000 }), { id: 'inj', at: 100, actor: 'client', kind: 'inject', message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'stop' } } }, ev('done', 600, 'server', 'complete')]));
    expect([req(t).serverState, req(t).finalResponse]).toEqual(['cancelled', false]);
  });

  it('E2 (built-in): four malformed cancels, four calls run to the end, four late responses dropped', () => {
    const t = run(loadScenario('E2-malformed-cancel'));
    expect(t.outcome.requests.map((r) => [r.key, r.state, r.serverState, r.responseFate])).toEqual(['1', '2', '3', '4'].map((k) => [k, 'cancelled', 'completed', 'ignored-late']));
    expect(t.outcome.summary.lateResponsesDropped).toBe(4);
  });
});

describe('2026-07-28 Streamable HTTP: a POSTed notifications/cancelled is not the cancellation signal', () => {
  it('an injected POST cancel is ignored: the work completes at 600 ms and the call at 620 ms', () => {
    const t = run(mk(http2026, [start(0, { maxTimeoutMs: 5000 }), { id: 'post', at: 100, actor: 'client', kind: 'inject', message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'stop' } } }, ev('done', 600, 'server', 'complete')]));
    expect([req(t).state, req(t).atMs, req(t).serverState]).toEqual(['completed', 620, 'completed']);
    expect(ignoredRules(t)).toContain('cancel.http-2026-no-notification');
  });

  it('the same POST under 2025-11-25 cancels (there the notification is the signal)', () => {
    const t = run(mk(http2025, [start(0, { maxTimeoutMs: 5000 }), { id: 'post', at: 100, actor: 'client', kind: 'inject', message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } } }, ev('done', 600, 'server', 'complete')]));
    expect([req(t).serverState, req(t).finalResponse]).toEqual(['cancelled', false]);
  });

  it('httpPostsCancel on uncancellable work: the stream close and the POST are both ignored, the work ends at 600 ms', () => {
    const t = run(mk({ ...http2026, policy: { httpPostsCancel: true } }, [start(0, { maxTimeoutMs: 5000, cancellable: false }), ev('c', 100, 'client', 'cancel'), ev('done', 600, 'server', 'complete')]));
    expect([req(t).state, req(t).serverState, req(t).workEndedAtMs, req(t).cancelSignal]).toEqual(['cancelled', 'completed', 600, 'stream-close+notifications/cancelled']);
    expect(ignoredRules(t)).toContain('cancel.http-2026-no-notification');
    expect(violated(t)).toEqual(['transport-signal']);
  });

  it('the rule note quotes the transport page', () => {
    expect(RULES['cancel.http-2026-no-notification'].text).toContain('This revision of the core protocol defines no client-to-server notifications over Streamable HTTP');
    expect(ruleSection(RULES['cancel.http-2026-no-notification'], '2026-07-28')).toContain('basic/transports/streamable-http');
  });
});

describe('a broken 2026-07-28 response stream loses the request; the client re-issues with a new id', () => {
  const invoice = (extra: Record<string, Json> = {}) => [
    start(0, { tool: 'send_invoice', sideEffect: true, idempotencyKey: 'inv-42', maxTimeoutMs: 10000, ...extra }),
    ev('done-1', 500, 'server', 'complete'),
    ev('drop', 510, 'client', 'disconnect', { reissueId: 2 }),
    ev('done-2', 900, 'server', 'complete', { requestId: 2 }),
  ];

  it('request 1 ends -32000 at 510 ms, is re-issued as 2 (arrives 530 ms), the key returns the stored result at 550 ms: one execution', () => {
    const t = run(mk(http2026, invoice()));
    const one = req(t, '1');
    const two = req(t, '2');
    expect([one.state, one.atMs, one.retriedAs, one.responseFate, one.opExecutions]).toEqual(['connection-closed', 510, '2', 'lost-with-stream', 1]);
    expect([two.state, two.atMs, two.retryOf, two.opExecutions]).toEqual(['completed', 550, '1', undefined]);
    expect(t.outcome.summary.sideEffectExecutions).toBe(1);
    const reissue = effects(t).find((e) => e.requestKey === '2' && e.from === 'client')!;
    expect(reissue.at).toBe(510);
    expect((reissue.message as { params: { arguments: Json } }).params.arguments).toEqual({ idempotencyKey: 'inv-42' });
    expect(violated(t)).toEqual([]);
  });

  it('without the key the re-issue executes again at 900 ms: two executions, side-effect-once broken', () => {
    const t = run(mk({ ...http2026, policy: { idempotencyKeyOmitted: true } }, invoice()));
    expect([req(t, '2').state, req(t, '2').atMs, req(t, '2').opExecutions]).toEqual(['completed', 920, 2]);
    expect(t.outcome.summary.sideEffectExecutions).toBe(2);
    expect(violated(t)).toEqual(['side-effect-once']);
    expect(RULES['disconnect.2026'].text).toContain('ledger lab');
  });

  it('cancellable work cut mid-flight: the server stops at 330 ms, the re-issue runs once (no side effect twice)', () => {
    const t = run(mk(http2026, [start(0, { sideEffect: true, maxTimeoutMs: 10000 }), ev('drop', 310, 'client', 'disconnect'), ev('done-2', 900, 'server', 'complete', { requestId: 2 })]));
    expect([req(t, '1').serverState, req(t, '1').workEndedAtMs, req(t, '1').retriedAs]).toEqual(['cancelled', 330, '2']);
    expect([req(t, '2').state, req(t, '2').opExecutions]).toEqual(['completed', 1]);
    expect(violated(t)).toEqual([]);
  });

  it('uncancellable work without a key: the first run finishes for nobody at 700 ms, the re-issue runs it again at 900 ms', () => {
    const t = run(mk(http2026, [start(0, { sideEffect: true, cancellable: false, maxTimeoutMs: 10000 }), ev('drop', 310, 'client', 'disconnect'), ev('done-1', 700, 'server', 'complete'), ev('done-2', 900, 'server', 'complete', { requestId: 2 })]));
    expect([req(t, '1').responseFate, req(t, '1').opExecutions, req(t, '2').opExecutions]).toEqual(['undeliverable', 1, 2]);
    expect(violated(t)).toEqual(['side-effect-once']);
  });

  it('the default new id is the next free integer; a string id gets one too', () => {
    const t = run(mk(http2026, [start(0, { requestId: 'a', maxTimeoutMs: 1000 }), start(0, { requestId: 4, maxTimeoutMs: 1000 }), ev('drop', 100, 'client', 'disconnect', { requestId: 'a' })]));
    expect(req(t, '"a"').retriedAs).toBe('5');
  });

  it('bug retrySameId: the re-issue reuses id 1 (instance 1#2), retry-new-id broken', () => {
    const t = run(mk({ ...http2026, policy: { retrySameId: true } }, invoice()));
    expect(req(t, '1').retriedAs).toBe('1#2');
    expect(violated(t)).toEqual(['retry-new-id']);
  });

  it('under 2025-11-25 nothing is re-issued (one request); on stdio a disconnect is ignored', () => {
    expect(run(mk(http2025, invoice())).outcome.requests.map((r) => r.key)).toEqual(['1']);
    expect(run(mk(stdio, invoice())).outcome.requests.map((r) => [r.key, r.state])).toEqual([['1', 'completed']]);
  });

  it('the rule cites the changelog (the MUST) and the transport page', () => {
    const section = ruleSection(RULES['disconnect.2026'], '2026-07-28');
    expect(section).toContain('changelog');
    expect(section).toContain('basic/transports/streamable-http');
  });
});

describe('MRTR (2026-07-28): InputRequiredResult, then a retry with inputResponses under a new id', () => {
  const flow = [
    start(0, { tool: 'transfer_funds', sideEffect: true, idempotencyKey: 'x-1', maxTimeoutMs: 60000 }),
    ev('ask', 100, 'server', 'input-required', { inputKey: 'confirm', message: 'Transfer?', requestState: 'st-1' }),
    ev('answer', 2000, 'client', 'input-response', { newRequestId: 2 }),
    ev('done', 2400, 'server', 'complete', { requestId: 2 }),
  ];

  it('request 1 ends input-required at 120 ms; request 2 carries inputResponses and the echoed requestState, completes at 2420 ms', () => {
    const t = run(mk(http2026, flow));
    expect([req(t, '1').state, req(t, '1').atMs, req(t, '1').retriedAs, req(t, '1').serverState]).toEqual(['input-required', 120, '2', 'completed']);
    expect([req(t, '2').state, req(t, '2').atMs, req(t, '2').retryOf, req(t, '2').opExecutions]).toEqual(['completed', 2420, '1', 1]);
    const asked = effects(t).find((e) => e.requestKey === '1' && e.from === 'server')!.message as { result: Record<string, Json> };
    expect(asked.result.resultType).toBe('input_required');
    expect(Object.keys(asked.result.inputRequests as object)).toEqual(['confirm']);
    expect(asked.result.requestState).toBe('st-1');
    const retry = effects(t).find((e) => e.requestKey === '2' && e.from === 'client')!;
    expect(retry.at).toBe(2000);
    const params = (retry.message as { id: Json; params: Record<string, Json> }).params;
    expect((retry.message as { id: Json }).id).toBe(2);
    expect(params.inputResponses).toEqual({ confirm: { action: 'accept', content: { confirm: true } } });
    expect(params.requestState).toBe('st-1');
    expect(params.arguments).toEqual({ idempotencyKey: 'x-1' });
    expect(violated(t)).toEqual([]);
  });

  it('every message of the flow validates against the official 2026-07-28 schema', () => {
    const t = run(mk(http2026, flow));
    const final = t.steps[t.steps.length - 1].state;
    const checks = checkEffects('2026-07-28', effects(t), (k) => (k === undefined ? undefined : final.requests[final.indexOf[k]]?.method));
    expect(checks.length).toBe(4);
    expect(checks.map((c) => [c.def, c.errors])).toEqual([
      ['CallToolRequest', []],
      ['CallToolResultResponse', []],
      ['CallToolRequest', []],
      ['CallToolResultResponse', []],
    ]);
  });

  it('a decline is carried as ElicitResult {action: "decline"}', () => {
    const t = run(mk(http2026, flow.map((e) => (e.kind === 'input-response' ? { ...e, action: 'decline' } : e))));
    const retry = effects(t).find((e) => e.requestKey === '2' && e.from === 'client')!;
    expect((retry.message as { params: Record<string, Json> }).params.inputResponses).toEqual({ confirm: { action: 'decline' } });
  });

  it('bug retrySameId: the retry reuses id 1, retry-new-id broken', () => {
    const t = run(mk({ ...http2026, policy: { retrySameId: true } }, flow));
    expect(req(t, '1').retriedAs).toBe('1#2');
    expect(violated(t)).toEqual(['retry-new-id']);
  });

  it('under 2025-11-25 the server cannot answer with InputRequiredResult (rule mrtr.2026-only); the call times out at 60000 ms', () => {
    const t = run(mk({ ...http2026, revision: '2025-11-25' }, flow));
    expect(ignoredRules(t)).toContain('mrtr.2026-only');
    expect([req(t, '1').state, req(t, '1').atMs]).toEqual(['timeout-max', 60000]);
  });

  it('a second input-response for an already retried request is ignored', () => {
    const t = run(mk(http2026, [...flow, ev('again', 2100, 'client', 'input-response', { newRequestId: 3 })]));
    expect(t.outcome.requests.map((r) => r.key)).toEqual(['1', '2']);
  });

  it('M1 (built-in): three ids for one transfer; without the key the re-issued retry transfers twice', () => {
    const m1 = loadScenario('M1-mrtr-confirm-transfer');
    const t = run(m1);
    expect(t.outcome.requests.map((r) => [r.key, r.state])).toEqual([['1', 'input-required'], ['2', 'connection-closed'], ['3', 'completed']]);
    expect(t.outcome.summary.sideEffectExecutions).toBe(1);
    const third = effects(t).find((e) => e.requestKey === '3' && e.from === 'client')!.message as { params: Record<string, Json> };
    expect(third.params.inputResponses).toEqual({ confirm: { action: 'accept', content: { confirm: true } } });
    expect(third.params.requestState).toBe('st-1f9c');
    const bug = run(m1, { policy: { idempotencyKeyOmitted: true } });
    expect(bug.outcome.summary.sideEffectExecutions).toBe(2);
    expect(violated(bug)).toEqual(['side-effect-once']);
  });
});

describe('2026-07-28 HTTP request headers and error codes', () => {
  it('tools/call carries MCP-Protocol-Version, Mcp-Method and Mcp-Name; listen carries no Mcp-Name; stdio and 2025 carry no headers field', () => {
    const t = run(mk(http2026, [start(0, { tool: 'translate', maxTimeoutMs: 1000 }), start(0, { requestId: 2, method: 'subscriptions/listen' })]));
    const heads = effects(t).filter((e) => e.from === 'client' && e.message !== undefined).map((e) => e.headers);
    expect(heads).toEqual([
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'translate' },
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'subscriptions/listen' },
    ]);
    for (const cfg of [stdio, http2025]) expect(effects(run(mk(cfg, [start(0, { maxTimeoutMs: 1000 })]))).every((e) => e.headers === undefined)).toBe(true);
    expect(requestHeaders2026({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } })).toEqual({ 'MCP-Protocol-Version': '2026-07-28' });
  });

  it('every 2026 HTTP request of every built-in carries Mcp-Method (and Mcp-Name on tools/call)', () => {
    let checked = 0;
    for (const id of ['D-http-stream-close', 'M1-mrtr-confirm-transfer', 'R1-broken-stream-reissue', 'L-listen-teardown']) {
      const t = run(loadScenario(id), { transport: 'streamable-http', revision: '2026-07-28' });
      for (const e of effects(t)) {
        const m = e.message as Record<string, Json> | undefined;
        if (e.from !== 'client' || !m || m.id === undefined) continue;
        expect(e.headers?.['Mcp-Method']).toBe(m.method);
        if (m.method === 'tools/call') expect(e.headers?.['Mcp-Name']).toBe((m.params as Record<string, Json>).name);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(6);
  });

  it('bug mcpNameHeaderOmitted: the server rejects with -32020 HeaderMismatch (400); the call fails at 40 ms, no work runs', () => {
    const t = run(mk({ ...http2026, policy: { mcpNameHeaderOmitted: true } }, [start(0, { maxTimeoutMs: 1000 }), ev('done', 300, 'server', 'complete')]));
    expect([req(t).state, req(t).atMs, req(t).serverState]).toEqual(['failed', 40, 'failed']);
    const answer = effects(t).find((e) => e.from === 'server')!;
    expect((answer.message as { error: { code: number } }).error.code).toBe(-32020);
    expect(answer.http).toContain('400 Bad Request');
    expect(violated(t)).toEqual(['http-headers-complete']);
  });

  it('the 2026 codes equal the consts in the official schema: HeaderMismatch -32020, MissingRequiredClientCapability -32021, UnsupportedProtocolVersion -32022', () => {
    const constOf = (def: string) => (((schema2026.$defs[def] as { properties: { error: { allOf: { properties?: { code?: { const: number } } }[] } } }).properties.error.allOf.find((x) => x.properties?.code)!).properties!.code!.const);
    expect([constOf('HeaderMismatchError'), constOf('MissingRequiredClientCapabilityError'), constOf('UnsupportedProtocolVersionError')]).toEqual([-32020, -32021, -32022]);
    expect([ERROR_CODES.headerMismatch, ERROR_CODES.missingRequiredClientCapability, ERROR_CODES.unsupportedProtocolVersion]).toEqual([-32020, -32021, -32022]);
    expect((schema2026.$defs.MethodNotFoundError as { properties: { code: { const: number } } }).properties.code.const).toBe(ERROR_CODES.methodNotFound);
  });
});

describe('citations name the page that says the rule', () => {
  it('progress is basic/patterns/progress in 2026-07-28, basic/utilities/progress in 2025-11-25', () => {
    for (const id of ['progress.token', 'progress.increase', 'progress.after-end', 'progress.needs-token']) {
      expect(ruleSection(RULES[id], '2026-07-28')).toBe('basic/patterns/progress');
      expect(ruleSection(RULES[id], '2025-11-25')).toBe('basic/utilities/progress');
    }
  });

  it('"MUST NOT send further messages" after a 2026 cancel cites the transport pages', () => {
    const s = ruleSection(RULES['cancel.receiver-stops'], '2026-07-28');
    expect(s.startsWith('basic/transports/streamable-http')).toBe(true);
    expect(s).toContain('basic/transports/stdio');
    expect(RULES['cancel.receiver-stops'].text).toContain('MUST NOT send any further messages');
  });

  it('the listen teardown rule quotes the three texts that disagree', () => {
    const text = RULES['cancel.server-listen-only'].text;
    expect(text).toContain('A server MUST send notifications/cancelled');
    expect(text).toContain('SHOULD send a successful subscriptions/listen response');
    expect(text).toContain('On stdio, the server also sends this notification');
  });

  it('every rule the new code cites exists', () => {
    for (const id of ['cancel.malformed', 'cancel.http-2026-no-notification', 'mrtr.retry-new-id', 'mrtr.2026-only', 'idempotency.key', 'http.headers-2026']) expect(RULES[id]?.id).toBe(id);
  });
});
