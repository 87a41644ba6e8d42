import { describe, expect, it } from 'vitest';
import { headerText } from '../../mcp';
import { mcpValidator } from '../../../wire/schemaValidators';
import { racesCore, racesModel, RULES, withOverrides } from '..';
import { replay } from '../../replay';
import { SeekableTrace } from '../../trace';
import type { Json } from '../../types';
import { loadScenarios, req, run, violated } from './helpers';

/**
 * Issue 23 item 2 in the races lab (the audit of the lab against the 2026-07-28 text): the `http`
 * line against the headers, the listen stream's acknowledgement and teardown, and the elicitation
 * capability of MRTR.
 */

const effects = (t: ReturnType<typeof run>) => t.steps.flatMap((s) => s.effects);

describe('the http line of a 2026-07-28 POST lists the headers the wire panel lists', () => {
  it('every client POST of every built-in, run over 2026-07-28 HTTP, names exactly its headers field', () => {
    let checked = 0;
    for (const { scenario } of loadScenarios()) {
      const t = run(scenario, { transport: 'streamable-http', revision: '2026-07-28' });
      for (const e of effects(t)) {
        if (e.from !== 'client' || e.headers === undefined) continue;
        expect(e.http, `${scenario.id}: ${JSON.stringify(e.message as Json)}`).toContain(`POST /mcp (${headerText(e.headers)})`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('the bug mcpNameHeaderOmitted drops Mcp-Name from both', () => {
    const t = run(loadScenarios().find((s) => s.scenario.id === 'M1-mrtr-confirm-transfer')!.scenario, { policy: { mcpNameHeaderOmitted: true } });
    const first = effects(t).find((e) => e.from === 'client' && e.headers !== undefined)!;
    expect(first.headers).toEqual({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call' });
    expect(first.http).toBe("POST /mcp (MCP-Protocol-Version: 2026-07-28; Mcp-Method: tools/call) → 200 Content-Type: text/event-stream; this request's SSE response stream opens");
  });
});

describe('subscriptions/listen: acknowledged first; a teardown reaches the client on both transports', () => {
  const l = () => loadScenarios().find((s) => s.scenario.id === 'L-listen-teardown')!.scenario;
  const serverMessages = (t: ReturnType<typeof run>) => effects(t).filter((e) => e.from === 'server' && e.requestKey === '"sub-1"' && e.message !== undefined).map((e) => e.message as Record<string, Json>);

  for (const transport of ['stdio', 'streamable-http'] as const) {
    it(`${transport}: the first message on the stream is notifications/subscriptions/acknowledged carrying the subscription id; the schema accepts it`, () => {
      const t = run(l(), { transport });
      const [first] = serverMessages(t);
      expect(first).toEqual({ jsonrpc: '2.0', method: 'notifications/subscriptions/acknowledged', params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' }, notifications: { toolsListChanged: true } } });
      expect(mcpValidator('2026-07-28', 'SubscriptionsAcknowledgedNotification', false)(first)).toBe(true);
      expect(violated(t)).toEqual([]);
    });

    it(`${transport}, default reading (the cancellation page's MUST): notifications/cancelled referencing the listen id ends the stream at 1020 ms`, () => {
      const t = run(l(), { transport });
      expect(serverMessages(t).map((m) => m.method ?? 'result')).toEqual(['notifications/subscriptions/acknowledged', 'notifications/cancelled']);
      expect([req(t, '"sub-1"').state, req(t, '"sub-1"').atMs]).toEqual(['ended-by-server', 1020]);
    });

    it(`${transport}, listenTeardown: listen-result (the subscriptions page's SHOULD): the successful listen result ends it at 1020 ms`, () => {
      const t = run(l(), { transport, listenTeardown: 'listen-result' });
      const msgs = serverMessages(t);
      expect(msgs.map((m) => m.method ?? 'result')).toEqual(['notifications/subscriptions/acknowledged', 'result']);
      expect(msgs[1]).toEqual({ jsonrpc: '2.0', id: 'sub-1', result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } } });
      expect([req(t, '"sub-1"').state, req(t, '"sub-1"').atMs]).toEqual(['ended-by-server', 1020]);
    });
  }

  it('bug listenAckOmitted: no acknowledgement; invariant listen-acknowledged-first breaks at the open (20 ms)', () => {
    const t = run(l(), { policy: { listenAckOmitted: true } });
    expect(serverMessages(t).map((m) => m.method)).toEqual(['notifications/cancelled']);
    expect(violated(t)).toEqual(['listen-acknowledged-first']);
    expect(t.invariants.find((i) => i.name === 'listen-acknowledged-first')!.firstViolation!.at).toBe(20);
  });

  it('bug listenTeardownSilent over HTTP (the lab before issue 23): nothing is sent, the stream stays pending; invariant listen-teardown-signalled breaks at 1000 ms', () => {
    const t = run(l(), { transport: 'streamable-http', policy: { listenTeardownSilent: true } });
    expect(req(t, '"sub-1"').state).toBe('pending');
    expect(violated(t)).toEqual(['listen-teardown-signalled']);
    expect(t.invariants.find((i) => i.name === 'listen-teardown-signalled')!.firstViolation!.at).toBe(1000);
  });

  it('the rule note says which reading is the default and names the upstream issue', () => {
    expect(RULES['cancel.server-listen-only'].text).toContain('modelcontextprotocol#3348');
    expect(RULES['cancel.server-listen-only'].text).toContain('The lab follows the normative MUST by default');
    expect(RULES['listen.acknowledged-first'].text).toContain('MUST send notifications/subscriptions/acknowledged as the first message');
  });
});

describe('MRTR asks only for what the client declared', () => {
  const m1 = () => loadScenarios().find((s) => s.scenario.id === 'M1-mrtr-confirm-transfer')!.scenario;
  const caps = (m: Json) => ((m as { params: { _meta: Record<string, Json> } }).params._meta['io.modelcontextprotocol/clientCapabilities']);

  it('the lab\'s client declares elicitation { form: {} } on every 2026-07-28 request (start, MRTR retry, re-issue, listen)', () => {
    const requests = effects(run(m1())).filter((e) => e.from === 'client' && (e.message as { id?: Json } | undefined)?.id !== undefined);
    expect(requests.length).toBe(3);
    for (const e of requests) expect(caps(e.message as Json)).toEqual({ elicitation: { form: {} } });
    const listen = effects(run(loadScenarios().find((s) => s.scenario.id === 'L-listen-teardown')!.scenario)).find((e) => (e.message as { method?: string } | undefined)?.method === 'subscriptions/listen')!;
    expect(caps(listen.message as Json)).toEqual({ elicitation: { form: {} } });
  });

  it('a client without elicitation (clientElicitation: none) declares {}; the server may not ask and answers -32021 with requiredCapabilities, 400 on HTTP; the tool never runs', () => {
    const t = run(m1(), { clientElicitation: 'none' });
    const first = effects(t).find((e) => e.from === 'client')!;
    expect(caps(first.message as Json)).toEqual({});
    const answer = effects(t).find((e) => e.from === 'server')!;
    expect(answer.message).toEqual({ jsonrpc: '2.0', id: 1, error: { code: -32021, message: "Missing required client capability: elicitation (the tool needs the user's confirmation)", data: { requiredCapabilities: { elicitation: { form: {} } } } } });
    expect(mcpValidator('2026-07-28', 'MissingRequiredClientCapabilityError', false)(answer.message)).toBe(true);
    expect(answer.http).toContain('400 Bad Request');
    expect([req(t).state, req(t).atMs, req(t).serverState]).toEqual(['failed', 120, 'failed']);
    expect(t.outcome.summary.sideEffectExecutions).toBeUndefined();
    expect(violated(t)).toEqual([]);
  });

  it('bug inputRequestsUndeclared: the server asks anyway; the client cannot answer (its input-response is ignored), invariant input-requests-declared breaks at 100 ms', () => {
    const t = run(m1(), { clientElicitation: 'none', policy: { inputRequestsUndeclared: true } });
    expect(t.outcome.requests.map((r) => [r.key, r.state])).toEqual([['1', 'input-required']]);
    expect(t.steps.flatMap((s) => s.ignored).map((i) => i.rule)).toContain('mrtr.capabilities');
    expect(violated(t)).toEqual(['input-requests-declared']);
    expect(t.invariants.find((i) => i.name === 'input-requests-declared')!.firstViolation!.at).toBe(100);
  });
});

describe('the seekable trace rebuilds the new fields from checkpoints', () => {
  it('L and M1 (every expectation): each state read from a checkpoint equals the full replay', () => {
    for (const id of ['L-listen-teardown', 'M1-mrtr-confirm-transfer']) {
      const s = loadScenarios().find((x) => x.scenario.id === id)!.scenario;
      for (const e of [{ overrides: undefined }, ...(s.expect ?? [])]) {
        const full = replay(racesModel, withOverrides(s, e.overrides as Record<string, Json> | undefined));
        const seek = SeekableTrace.replay(racesCore, withOverrides(s, e.overrides as Record<string, Json> | undefined), { checkpointEvery: 2 });
        for (let i = full.steps.length - 1; i >= 0; i--) expect(JSON.stringify(seek.stateAt(i))).toBe(JSON.stringify(full.steps[i].state));
      }
    }
  });
});

describe('a response written after a 2026-07-28 HTTP cancel goes nowhere (found live by mcp-lab serve)', () => {
  // Streamable HTTP, 2026-07-28: the client cancels by closing the request's response stream, and the server sends a
  // request's response only on that stream — a server that answers anyway (respondAfterCancel) writes to a closed stream.
  const d = () => loadScenarios().find((s) => s.scenario.id === 'D-http-stream-close')!.scenario;
  it('under 2026-07-28 the answer is undeliverable, no response arrives, and no-response-after-cancel still breaks', () => {
    const t = run(d(), { policy: { respondAfterCancel: true } });
    const r = req(t, JSON.stringify('req-7'));
    expect(r.state).toBe('cancelled');
    expect(r.responseFate).toBe('undeliverable');
    expect(t.steps.some((s) => s.entry.label.startsWith('response'))).toBe(false);
    expect(violated(t)).toContain('no-response-after-cancel');
  });
  it('under 2025-11-25 (the cancel is a POST; the stream stays open) the answer arrives and is ignored as late', () => {
    const t = run(d(), { revision: '2025-11-25', policy: { respondAfterCancel: true } });
    expect(req(t, JSON.stringify('req-7')).responseFate).toBe('ignored-late');
  });
});
