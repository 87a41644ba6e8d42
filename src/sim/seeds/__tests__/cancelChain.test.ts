import { describe, expect, it } from 'vitest';
import { replayResilience, withOverrides, type StormConfig } from '../../resilience';
import { cancelHopMs } from '../../resilience/storm';
import { loadBuiltinScenario } from '../../__tests__/builtinScenarios';
import type { Json } from '../../types';
import { cancelArrivals, perHopMsFromWholeChain, simulateHalfFinished } from '../cancelChain';

describe('cancellation across the whole chain (postmortem "取消信号平均需要320ms才能穿透整个调用链")', () => {
  it('320 ms over the three hops of client → MCP server → upstream API → model cluster', () => {
    expect(perHopMsFromWholeChain(320, 3)).toBeCloseTo(106.6667, 4); // 320 / 3
    const a = cancelArrivals(8_000);
    expect(a.map((x) => x.node)).toEqual(['client', 'MCP server', 'upstream API', 'model cluster']);
    // 8000, 8000 + 106.67, 8000 + 213.33, 8000 + 320
    expect(a[0].atMs).toBe(8_000);
    expect(a[1].atMs).toBeCloseTo(8_106.667, 3);
    expect(a[2].atMs).toBeCloseTo(8_213.333, 3);
    expect(a[3].atMs).toBe(8_320);
  });

  it('the incident: the cancel reaches the MCP server when the request has waited 8.3 s', () => {
    // the user clicked stop at 8300 − 320/3 = 8193.33 ms
    expect(cancelArrivals(8_300 - 320 / 3)[1].atMs).toBeCloseTo(8_300, 9);
  });

  it('names the bad field', () => {
    expect(() => perHopMsFromWholeChain(320, 0)).toThrow(/^hops: 0 is below 1/);
    expect(() => cancelArrivals(-5)).toThrow(/^cancelAtMs: -5 is below 0/);
    expect(() => simulateHalfFinished({ cancelAtMs: 0, transferredAtCut: 73 })).toThrow(/^transferredAtCut: 73 is above 1/);
  });
});

describe('the half-finished result and its fix', () => {
  it('as it happened: cut at 73 %, re-queued upstream, retried in the same millisecond — three executions', () => {
    const r = simulateHalfFinished({ cancelAtMs: 8_000 });
    const cut = 8_000 + 320 / 3; // the cancel reaches the MCP server, which cuts the upstream
    expect(r.executions.map((e) => e.cause)).toEqual(['original', 'upstream-requeue', 'client-retry']);
    expect(r.executions[0]).toMatchObject({ transferredFraction: 0.73 });
    expect(r.executions[0].stoppedAtMs).toBeCloseTo(cut, 9);
    for (const e of r.executions.slice(1)) {
      expect(e.startAtMs).toBeCloseTo(cut, 9); // same millisecond as the cut
      expect(e.stoppedAtMs).toBeNull(); // nothing ever stops them
    }
    expect(r.executionsAfterCancel).toBe(2); // "OpenAI内部已有两个相同请求在处理"
    expect(r.clientSees).toBe('half-finished');
    expect(r.violations).toEqual(['one-execution-per-action', 'no-work-after-cancel']);
    expect(r.timeline[1].what).toMatch(/73 % of the response transferred/);
  });

  it('priority channel + gateway fingerprint: one execution, stopped 300 ms after the cancel reaches the upstream', () => {
    const r = simulateHalfFinished({ cancelAtMs: 8_000, fix: { priorityCancelChannel: true, gatewayFingerprint: true } });
    expect(r.executions).toHaveLength(1);
    // 8000 + 2 × 320/3 = 8213.33 at the upstream, + 300 = 8513.33
    expect(r.executions[0].stoppedAtMs).toBeCloseTo(8_513.333, 3);
    expect(r.executionsAfterCancel).toBe(0);
    expect(r.clientSees).toBe('cancelled');
    expect(r.violations).toEqual([]);
  });

  it('each fix alone leaves two executions', () => {
    const priorityOnly = simulateHalfFinished({ cancelAtMs: 8_000, fix: { priorityCancelChannel: true } });
    expect(priorityOnly.executions.map((e) => e.cause)).toEqual(['original', 'client-retry']);
    expect(priorityOnly.clientSees).toBe('duplicate-result');
    const fingerprintOnly = simulateHalfFinished({ cancelAtMs: 8_000, fix: { gatewayFingerprint: true } });
    expect(fingerprintOnly.executions.map((e) => e.cause)).toEqual(['original', 'upstream-requeue']);
    expect(fingerprintOnly.clientSees).toBe('half-finished');
  });

  it('without the undocumented re-queue and the retry, the cut is a clean stop', () => {
    const r = simulateHalfFinished({ cancelAtMs: 8_000, upstreamRequeuesOnDisconnect: false, clientRetriesAtCut: false });
    expect([r.executions.length, r.clientSees, r.violations.length]).toEqual([1, 'cancelled', 0]);
  });
});

describe('S2 under the whole-chain reading (the storm model follows it since issue 13 item 5)', () => {
  // S2's storm has three hops below the user (client → MCP server → HTTP client → upstream).
  // The storm takes an integer ms per hop: round(320 / 3) = round(106.67) = 107.
  const perHop = Math.round(perHopMsFromWholeChain(320, 3));
  const s2 = loadBuiltinScenario('resilience', 'S2-timeouts-cancel');
  const summary = (o: Record<string, Json>) => replayResilience(withOverrides(s2, o)).outcome.summary as unknown as Record<string, unknown>;

  it('is 107 ms a hop, as the storm model computes it', () => {
    expect(perHop).toBe(107);
    expect(cancelHopMs(s2.config as StormConfig)).toBe(perHop);
  });

  it('the storm without fixes is unchanged: 32 executions, 26 after the cancel, the last at 20200 ms', () => {
    expect(summary({})).toMatchObject({ upstreamAttempts: 32, executions: 32, duplicateWorkAfterCancel: 26, lastExecutionEndAtMs: 20_200 });
  });

  it('with the cancel propagated: 9 upstream attempts (was 10 per hop), the last execution stops at 7321 ms (was 7960)', () => {
    expect(summary({ fixes: { cancelPropagation: true } })).toMatchObject({
      attemptsPerLayer: [2, 4, 9],
      upstreamAttempts: 9,
      executions: 9,
      duplicateWorkAfterCancel: 2,
      executionsRunningAtEnd: 0,
      lastExecutionEndAtMs: 7_321, // 7000 + 3 × 107; 7320 with the exact 320 ms
    });
    const t = replayResilience(withOverrides(s2, { fixes: { cancelPropagation: true } }));
    const hops = t.steps.filter((s) => s.at >= 7000 && s.entry.label.startsWith('cancel reaches')).map((s) => s.at);
    expect(hops).toEqual([7_107, 7_207, 7_214, 7_321]); // 7207 = a timeout-propagated cancel (7100 + 107)
  });
});
