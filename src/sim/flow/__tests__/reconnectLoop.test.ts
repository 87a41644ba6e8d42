import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../scenario';
import { LAB_SCHEMAS } from '../../labs';
import type { Json, Scenario } from '../../types';
import { checkFlowExpectation, flowMechanics, reconnectLoopSchema, resumptionSchema, withFlowOverrides } from '..';
import { simulateReconnectLoop } from '../herd';
import { resumeAfterDrops } from '../reconnect';
import { scenarioDir } from '../../__tests__/builtinScenarios';
import { runFlow } from './helpers';

/** A scenario file of this round, loaded directly (registration in src/store is the lead's). */
function file(name: string): Scenario {
  const r = parseScenario(JSON.parse(readFileSync(path.join(scenarioDir('flow'), name), 'utf8')), 'flow', LAB_SCHEMAS.flow);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

const FILES = ['RC1-get-reconnects-forever.json', 'RC2-get-200-not-405.json', 'RC3-stdio-exits-after-handshake.json', 'LE1-last-event-id-second-drop.json'];
const loop = (o: Record<string, unknown>) => simulateReconnectLoop(reconnectLoopSchema.parse(o), 1);
const bad = (r: { invariants: { name: string; firstViolation: unknown }[] }) => r.invariants.filter((i) => i.firstViolation !== null).map((i) => i.name).sort();
const BUG = { counterResetsOn: 'stream-end', backoff: 'flat', burstCap: null } as const;

describe('built-in reconnect-loop scenarios meet their expectations', () => {
  for (const name of FILES) {
    it(`${name}: every expectation (a buggy and a correct one)`, () => {
      const s = file(name);
      const blocks = s.expect ?? [];
      expect(blocks.map((e) => (e.violates ?? []).length > 0)).toContain(true);
      expect(blocks.map((e) => (e.violates ?? []).length > 0)).toContain(false);
      for (const e of blocks) expect(checkFlowExpectation(runFlow(s, e.overrides as Record<string, Json> | undefined), e), e.label).toEqual([]);
    });
  }

  it('a wrong number in an expectation is reported (the check can fail)', () => {
    const s = file('RC1-get-reconnects-forever.json');
    expect(checkFlowExpectation(runFlow(s), { label: 'wrong', summary: { reconnectLoop: { connects: 3 } }, violates: [] })).toEqual([
      { field: 'summary.reconnectLoop.connects', expected: 3, actual: 60 },
      { field: 'violated invariants', expected: [], actual: ['reconnect-attempts-bounded', 'reconnect-backs-off'] },
    ]);
    expect(flowMechanics(runFlow(withFlowOverrides(s, { reconnectLoop: null }))).reconnectLoop).toBeNull();
  });
});

// The issue's figures (thread numbers from issue 11's text).
describe('reconnect loops whose attempt counter resets', () => {
  it('python-sdk#3257: flat 1000 ms, no jitter, counter reset on a normal end — 1 request/s, MAX_RECONNECTION_ATTEMPTS = 2 never trips', () => {
    const r = loop({ ...BUG, maxAttempts: 2, horizonMs: 59_999 });
    expect(r.connectTimesMs.slice(0, 5)).toEqual([0, 1000, 2000, 3000, 4000]);
    expect(r.summary).toMatchObject({ connects: 60, maxCounter: 1, gaveUp: false, minIntervalMs: 1000, maxIntervalMs: 1000 });
    // two minutes: twice the GETs — it never ends
    expect(loop({ ...BUG, maxAttempts: 2, horizonMs: 119_999 }).summary.connects).toBe(120);
    expect(bad(r)).toEqual(['reconnect-attempts-bounded', 'reconnect-backs-off']);
    // the limit is broken at the third reconnect (2000 ms is the end of the third connection)
    expect(r.invariants.find((i) => i.name === 'reconnect-attempts-bounded')!.firstViolation!.at).toBe(2000);
  });

  it('keeping the counter makes MAX_RECONNECTION_ATTEMPTS = 2 trip: 3 GETs, each delay in [0, min(30000, 1000·2^n)]', () => {
    const r = loop({ maxAttempts: 2, horizonMs: 59_999 });
    expect(r.summary).toMatchObject({ connects: 3, reconnects: 2, gaveUp: true });
    const gaps = r.connectTimesMs.slice(1).map((t, i) => t - r.connectTimesMs[i]);
    gaps.forEach((g, n) => expect(g).toBeLessThanOrEqual(1000 * 2 ** n));
    expect(bad(r)).toEqual([]);
  });

  it('GET answered 200 instead of 405: every 1200 ms for 11 hours = 33,001 GETs; 405 → 1', () => {
    const r = loop({ ...BUG, serverGet: '200-empty', handshakeMs: 200, horizonMs: 11 * 3_600_000 });
    expect(r.summary).toMatchObject({ connects: 33_001, minIntervalMs: 1200, maxIntervalMs: 1200, lastConnectAtMs: 39_600_000 });
    expect(loop({ ...BUG, serverGet: '405', handshakeMs: 200, horizonMs: 11 * 3_600_000 }).summary).toMatchObject({ connects: 1, noStreamOffered: true });
  });

  it('oh-my-pi PR#1596: stdio server exits 0 after a 20 ms handshake, counter reset per handshake — 131 spawns in 3 s (≥ the test\'s 127); fixed: ≤ 10', () => {
    const base = { transport: 'stdio', handshakeMs: 20, lifetimeMs: 3, reconnectDelayMs: 0, maxAttempts: 5, horizonMs: 2999 };
    const r = loop({ ...base, counterResetsOn: 'handshake', backoff: 'flat', burstCap: null });
    expect(r.summary.connectsInFirst3s).toBe(131);
    expect(r.summary.connectsInFirst3s).toBeGreaterThanOrEqual(127);
    expect(bad(r)).toEqual(['reconnect-attempts-bounded', 'reconnect-backs-off', 'reconnect-bursts-capped'].sort());
    // the eleventh spawn breaks the ≤ 10-in-3-s expectation: spawn 11 at 10 · 23 = 230 ms
    expect(r.invariants.find((i) => i.name === 'reconnect-bursts-capped')!.firstViolation!.at).toBe(230);
    const fixed = loop({ ...base, reconnectDelayMs: 100 });
    expect(fixed.summary.connectsInFirst3s).toBe(5);
    expect(fixed.summary.connectsInFirst3s).toBeLessThanOrEqual(10);
    expect(bad(fixed)).toEqual([]);
  });

  it('each fix alone: the burst cap bounds the rate but not the loop; the kept counter ends it', () => {
    const base = { transport: 'stdio', handshakeMs: 20, lifetimeMs: 3, reconnectDelayMs: 0, maxAttempts: 5, horizonMs: 2999, backoff: 'flat' };
    const capOnly = loop({ ...base, counterResetsOn: 'handshake', burstCap: { max: 5, windowMs: 10000 }, horizonMs: 59_999 });
    expect(capOnly.summary.connectsInFirst3s).toBe(5);
    expect(bad(capOnly)).toContain('reconnect-attempts-bounded');
    expect(capOnly.summary.connects).toBe(30);
    const counterOnly = loop({ ...base, counterResetsOn: 'healthy-connection', burstCap: null });
    expect(counterOnly.summary).toMatchObject({ connects: 6, gaveUp: true });
  });

  it('a connection that stayed healthy resets the counter (a daily drop is not a failure)', () => {
    const r = loop({ lifetimeMs: 60_000, healthyAfterMs: 60_000, maxAttempts: 2, burstCap: null, horizonMs: 1_000_000 });
    expect(r.summary.gaveUp).toBe(false);
    expect(r.summary.maxCounter).toBe(1);
    expect(r.summary.connects).toBeGreaterThan(10);
  });

  it('rejects a bad field with its name', () => {
    expect(() => reconnectLoopSchema.parse({ maxAttempts: -1 })).toThrow(/maxAttempts/);
  });
});

describe('2025-11-25 resumption token lost after a quick second drop (typescript-sdk#2499)', () => {
  const input = { eventsAtMs: [100, 200, 300], responseAtMs: 1500, dropsAtMs: [350, 1400], reconnectDelayMs: 1000 };
  it('per-stream cursor: the second GET omits Last-Event-ID and the request hangs', () => {
    const r = resumeAfterDrops(resumptionSchema.parse({ ...input, cursor: 'per-stream' }));
    expect(r.attempts.map((a) => [a.atMs, a.lastEventId, a.served])).toEqual([[1350, 3, 'resumed'], [2400, null, 'standalone']]);
    expect(r.summary).toMatchObject({ hangs: true, responseDelivered: false, eventsReceived: 3 });
    expect(bad(r)).toEqual(['request-answered', 'resume-carries-last-event-id']);
  });
  it('carried cursor: Last-Event-ID: 3 both times; the response (event 4) is replayed at 2400 ms', () => {
    const r = resumeAfterDrops(resumptionSchema.parse({ ...input, cursor: 'carried' }));
    expect(r.attempts.map((a) => [a.atMs, a.lastEventId, a.replayed])).toEqual([[1350, 3, []], [2400, 3, [4]]]);
    expect(r.summary).toMatchObject({ hangs: false, responseDeliveredAtMs: 2400 });
    expect(bad(r)).toEqual([]);
  });
  it('a slow second drop (after the resumed stream delivered an event) does not show the bug', () => {
    const r = resumeAfterDrops(resumptionSchema.parse({ ...input, eventsAtMs: [100, 200, 300, 1380], responseAtMs: 1500, cursor: 'per-stream' }));
    expect(r.attempts.map((a) => a.lastEventId)).toEqual([3, 4]);
    expect(r.summary.hangs).toBe(false);
  });
});
