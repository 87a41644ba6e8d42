import { describe, expect, it } from 'vitest';
import { checkMessage } from '../../../wire/schemaCheck';
import type { Json } from '../../types';
import { loadFlow, mkFlow, runFlow, violatedFlow } from './helpers';
import type { FlowTrace } from '..';

/**
 * A broken 2026-07-28 response stream loses the in-flight request; the client re-issues it with a
 * new id (2026-07-28 changelog item 9: "A broken response stream loses the in-flight request;
 * clients MUST re-issue it as a new request with a new request ID"). Numbers computed by hand from
 * the scenario: producer at 1000/2000 ms (progress) and 3000 ms (final), proxy flush every 5000 ms,
 * cut at 4000 ms, reconnect 500 ms later.
 */
const RI1 = 'RI1-broken-stream-reissue';

const clientRequests = (t: FlowTrace) => t.effects.filter((e) => e.from === 'client' && e.message !== undefined);
const responses = (t: FlowTrace) => t.effects.filter((e) => e.from === 'server' && (e.message as { result?: Json } | undefined)?.result !== undefined);

describe('RI1: the proxy holds the result when the stream is cut at 4000 ms', () => {
  it('correct: the lost request "invoice-1" is re-issued at 4500 ms as "invoice-1-reissue-1" with the key; the stored result completes it at the 5000 ms flush', () => {
    const t = runFlow(loadFlow(RI1));
    const [reissue] = clientRequests(t);
    expect(clientRequests(t)).toHaveLength(1);
    expect(reissue.at).toBe(4500);
    expect(reissue.message).toMatchObject({ id: 'invoice-1-reissue-1', method: 'tools/call', params: { name: 'send_invoice', arguments: { idempotencyKey: 'inv-42' }, _meta: { progressToken: 'invoice-1' } } });
    expect(reissue.headers).toEqual({ 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': 'send_invoice' });
    expect(responses(t).map((e) => [e.at, (e.message as { id: string }).id])).toEqual([[3000, 'invoice-1'], [4500, 'invoice-1-reissue-1']]);
    expect(t.outcome.summary).toMatchObject({ operation: 'completed', operationEndedAtMs: 5000, reissues: 1, operationExecutions: 1, sideEffectExecutions: 1, lostWhileDown: 3, deliveredFinals: 1 });
    expect(violatedFlow(t)).toEqual([]);
  });

  it('bug idempotencyKeyOmitted: the new id runs send_invoice again (progress 5500, 6500, result 7500), two invoices, completed at 10000 ms', () => {
    const t = runFlow(loadFlow(RI1), { bugs: { idempotencyKeyOmitted: true } });
    expect((clientRequests(t)[0].message as { params: { arguments: Json } }).params.arguments).toEqual({});
    expect(t.effects.filter((e) => e.from === 'server' && e.message !== undefined).map((e) => e.at)).toEqual([1000, 2000, 3000, 5500, 6500, 7500]);
    expect(t.outcome.summary).toMatchObject({ operationEndedAtMs: 10000, operationExecutions: 2, sideEffectExecutions: 2 });
    expect(violatedFlow(t)).toEqual(['side-effect-once']);
    const broken = t.invariants.find((i) => i.name === 'side-effect-once')!.firstViolation!;
    expect(broken.at).toBe(7500);
  });

  it('bug resumeUnder2026 (the lab\'s old rule): no new request, the client waits for "invoice-1" whose result was lost — never completes', () => {
    const t = runFlow(loadFlow(RI1), { bugs: { resumeUnder2026: true } });
    expect(clientRequests(t)).toEqual([]);
    expect(t.effects.some((e) => e.at === 4500 && e.http === 'reconnects: re-issues the request with a new JSON-RPC id (no Last-Event-ID) and refetches its state')).toBe(true);
    expect(t.outcome.summary).toMatchObject({ operation: 'waiting', operationEndedAtMs: null, operationRequestId: 'invoice-1', reissues: 0 });
    expect(violatedFlow(t)).toEqual(['retry-new-id']);
    expect(t.invariants.find((i) => i.name === 'retry-new-id')!.firstViolation!.at).toBe(4000);
  });

  it('2025-11-25 is unchanged: no re-issue, no new id', () => {
    const t = runFlow(loadFlow(RI1), { revision: '2025-11-25' });
    expect(clientRequests(t)).toEqual([]);
    expect(t.outcome.summary).toMatchObject({ operation: 'waiting', reissues: 0, operationRequestId: 'invoice-1' });
    expect(violatedFlow(t)).toEqual([]);
  });

  it('the re-issued tools/call and its response validate against the official 2026-07-28 schema', () => {
    for (const bugs of [{}, { idempotencyKeyOmitted: true }] as Record<string, Json>[]) {
      const t = runFlow(loadFlow(RI1), { bugs });
      expect(checkMessage('2026-07-28', clientRequests(t)[0].message as Json, 'CallToolRequest').errors).toEqual([]);
      for (const r of responses(t)) expect(checkMessage('2026-07-28', r.message as Json, 'CallToolResultResponse').errors).toEqual([]);
    }
  });
});

describe('the cut lands while the tool is still running', () => {
  const midWork = (bugs: Record<string, Json> = {}) =>
    runFlow(
      mkFlow(
        { producers: [{ token: 'invoice-1', startMs: 1000, intervalMs: 1000, count: 2, final: true }], proxy: { enabled: true, buffering: true, flushIntervalMs: 5000 }, client: { reconnectDelayMs: 500, tool: 'send_invoice', sideEffect: true, idempotencyKey: 'inv-42' }, horizonMs: 20000, bugs },
        [{ id: 'cut', at: 2500, actor: 'wire', kind: 'drop' }],
      ),
    );

  it('the server stops execution 1 at the close (its 3000 ms result is never written); the re-issue at 3000 ms runs once: progress 4000, 5000, result 6000, completed at the 10000 ms flush', () => {
    for (const bugs of [{}, { idempotencyKeyOmitted: true }] as Record<string, Json>[]) {
      const t = midWork(bugs);
      expect(t.effects.filter((e) => e.from === 'server' && e.message !== undefined).map((e) => e.at)).toEqual([1000, 2000, 4000, 5000, 6000]);
      expect(t.outcome.summary).toMatchObject({ operationEndedAtMs: 10000, reissues: 1, operationExecutions: 2, sideEffectExecutions: 1 });
      expect(violatedFlow(t)).toEqual([]);
    }
  });

  it('the old rule instead delivers the old request\'s result (written at 3000 ms) on the new stream at the 5000 ms flush', () => {
    const t = midWork({ resumeUnder2026: true });
    expect(t.outcome.summary).toMatchObject({ operation: 'completed', operationEndedAtMs: 5000, operationRequestId: 'invoice-1', operationExecutions: 1 });
    expect(violatedFlow(t)).toEqual(['retry-new-id']);
  });
});

describe('a proxy read timeout shorter than a silent tool (P2 without keep-alives)', () => {
  it('every 20 s cut loses the request: re-issued at 21000, 42000, 63000, 84000 ms (ids job-2-reissue-1…4), five executions; the last is cut at 104000 ms like the others (issue 23: not saved by the horizon), so the call never ends', () => {
    const t = runFlow(loadFlow('P2-keepalive-not-progress'), { keepAliveIntervalMs: null });
    expect(clientRequests(t).map((e) => [e.at, (e.message as { id: string }).id])).toEqual([
      [21000, 'job-2-reissue-1'],
      [42000, 'job-2-reissue-2'],
      [63000, 'job-2-reissue-3'],
      [84000, 'job-2-reissue-4'],
    ]);
    expect(t.outcome.summary).toMatchObject({ operation: 'waiting', operationEndedAtMs: null, disconnects: 5, reissues: 4, operationExecutions: 5, sideEffectExecutions: 0 });
    expect(violatedFlow(t)).toEqual([]);
  });

  it('under 2025-11-25 the old idle deadline (30000 ms) still ends the call: resumption keeps the request', () => {
    const t = runFlow(loadFlow('P2-keepalive-not-progress'), { keepAliveIntervalMs: null, revision: '2025-11-25' });
    expect(t.outcome.summary).toMatchObject({ operation: 'timeout-idle', operationEndedAtMs: 30000, reissues: 0, operationExecutions: 1 });
  });
});

describe('what the rule leaves alone', () => {
  it('an endless feed (no final, F1) is a notification stream, not a call: no request id, no re-issue', () => {
    const t = runFlow(loadFlow('F1-stalled-subscriber'), { policy: 'disconnect' });
    expect(t.outcome.summary).toMatchObject({ operationRequestId: null, reissues: 0, operationExecutions: 0, disconnects: 1 });
  });
});
