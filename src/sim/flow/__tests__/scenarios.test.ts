import { describe, expect, it } from 'vitest';
import { bufferItems, checkFlowExpectation, flowStateAt } from '..';
import { describeBuiltinExpectations } from '../../__tests__/builtinScenarios';
import { loadFlow, runFlow } from './helpers';

describeBuiltinExpectations('flow', runFlow, checkFlowExpectation, 2);

// The numbers again, so a wrong data file cannot pass on its own.
describe('reference values in time', () => {
  it('R1: 20 progress of one token then a final, capacity 3 → [last progress, final], 19 dropped', () => {
    const t = runFlow(loadFlow('R1-coalesce-one-token'));
    const before = flowStateAt(t, 999);
    expect(bufferItems(before.buffer).map((i) => [i.kind, i.seq])).toEqual([['progress', 20], ['final', 21]]);
    expect(before.buffer.dropped).toBe(19);
    expect(t.outcome.summary).toMatchObject({ dropped: 19, deliveredProgress: 1, deliveredFinals: 1 });
  });

  it('R2: A1 B1 A2 B2 → [B1 A2 B2], 1 dropped; then the final → [A2 B2 final], 2 dropped', () => {
    const t = runFlow(loadFlow('R2-two-tokens'));
    const show = (atMs: number) => bufferItems(flowStateAt(t, atMs).buffer).map((i) => (i.kind === 'final' ? 'final' : `${i.token}${i.seq}`));
    expect(show(250)).toEqual(['B2', 'A3', 'B4']);
    expect(flowStateAt(t, 250).buffer.dropped).toBe(1);
    expect(show(300)).toEqual(['A3', 'B4', 'final']);
    expect(flowStateAt(t, 300).buffer.dropped).toBe(2);
  });

  it('F1: opens on the lesson policy (peak 1); unbounded peaks at 5900; drop-oldest at 1024; disconnect at 11240, resync at 60000', () => {
    const f = loadFlow('F1-stalled-subscriber');
    expect(f.config.policy).toBe('lesson');
    expect(runFlow(f).outcome.summary.peakDepth).toBe(1);
    expect(runFlow(f, { policy: 'unbounded' }).outcome.summary.peakDepth).toBe(5900);
    const dropOldest = runFlow(f, { policy: 'drop-oldest' });
    expect(flowStateAt(dropOldest, 59999).buffer.size).toBe(1024);
    expect(flowStateAt(dropOldest, 59999).buffer.refetch).toEqual(['feed']);
    const disc = runFlow(f, { policy: 'disconnect' });
    expect(flowStateAt(disc, 11239).status).toBe('open');
    expect(flowStateAt(disc, 11240).status).toBe('down');
    expect(flowStateAt(disc, 60000).status).toBe('open');
    expect(disc.outcome.summary.firstDisconnectAtMs).toBe(11240);
  });

  it('F2: evict-oldest churns every 3000 ms to the horizon; reject keeps the first 50', () => {
    const f = loadFlow('F2-stream-cap');
    const evict = runFlow(f);
    const times = evict.steps.filter((s) => s.effects.some((e) => e.http?.startsWith('closes the oldest stream'))).map((s) => s.at);
    expect(times).toEqual(Array.from({ length: 21 }, (_, i) => i * 3000));
    const reject = runFlow(f, { fleet: { atCap: 'reject' } });
    const final = flowStateAt(reject, 60000).fleet!;
    expect([...final.order].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    const retries = reject.steps.filter((s) => s.effects.some((e) => e.http?.includes('Retry-After: 5'))).map((s) => s.at);
    expect(retries).toEqual(Array.from({ length: 13 }, (_, i) => i * 5000));
  });

  it('F3: no jitter lands 50 in one millisecond; ±1000 ms (seed 42) spreads them over 4042–5901 ms, inside the issue\'s 4000–6000, at most 5 per 100 ms bucket (the numbers README, summary and lesson row quote)', () => {
    const f = loadFlow('F3-restart-herd');
    const plain = runFlow(f).outcome.summary.fleet as Record<string, number>;
    expect(plain.reconnectSpreadMs).toBe(0);
    const jittered = runFlow(f, { fleet: { jitterMs: 1000 } }).outcome.summary.fleet as Record<string, number>;
    expect(jittered.firstReconnectAtMs).toBeGreaterThanOrEqual(4000);
    expect(jittered.lastReconnectAtMs).toBeLessThanOrEqual(6000);
    expect(jittered.reconnectSpreadMs).toBeGreaterThan(1600);
    expect(jittered.peakReconnectsPer100Ms).toBeGreaterThanOrEqual(4);
    expect(jittered.peakReconnectsPer100Ms).toBeLessThanOrEqual(6);
    expect([jittered.firstReconnectAtMs, jittered.lastReconnectAtMs, jittered.peakReconnectsPer100Ms]).toEqual([4042, 5901, 5]);
    expect(f.summary).toContain('4042–5901 ms');
    expect(f.summary).toContain('at most 5 in one 100 ms bucket');
    expect(f.expect?.[1].label).toContain('4042–5901 ms');
    expect(f.expect?.[1].label).toContain('at most 5 per 100 ms bucket');
  });

  it('P1: with the proxy buffering the progress is held and the idle timeout fires at 5000 ms', () => {
    const t = runFlow(loadFlow('P1-proxy-buffering'));
    const at = flowStateAt(t, 4999);
    expect(at.proxyHeld.opProgress).toBe(2); // progress at 2000 and 4000 ms, both held
    expect(at.delivered.progress).toBe(0);
    expect(t.outcome.summary).toMatchObject({ operation: 'timeout-idle', operationEndedAtMs: 5000 });
  });

  it('P2: keep-alives never move the idle deadline', () => {
    const t = runFlow(loadFlow('P2-keepalive-not-progress'));
    expect(flowStateAt(t, 15000).op.idleDeadlineAt).toBe(30000);
    expect(flowStateAt(t, 15000).delivered.keepalives).toBe(1);
  });
});
