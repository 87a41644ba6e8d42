import { describe, expect, it } from 'vitest';
import { flowStateAt, proxyBuffersConfig, sentSseHeaders, SSE_HEADERS } from '..';
import { loadFlow, runFlow } from './helpers';
import type { FlowTrace } from '..';

/** Every HTTP line the server emitted that opens an SSE response (200 OK), with its time. */
function responseLines(t: FlowTrace): { at: number; http: string }[] {
  return t.steps.flatMap((s) => s.effects.filter((e) => e.from === 'server' && e.http?.startsWith('HTTP/1.1 200 OK')).map((e) => ({ at: s.at, http: e.http as string })));
}

describe('the exact SSE response headers (issue 4, item 2)', () => {
  it('SSE_HEADERS are the three the issue names, in order', () => {
    expect([...SSE_HEADERS]).toEqual(['Content-Type: text/event-stream', 'Cache-Control: no-cache', 'X-Accel-Buffering: no']);
  });

  it('the stream opens at 0 ms with exactly those headers', () => {
    const lines = responseLines(runFlow(loadFlow('P3-accel-buffering-header')));
    expect(lines[0]).toEqual({ at: 0, http: 'HTTP/1.1 200 OK · Content-Type: text/event-stream · Cache-Control: no-cache · X-Accel-Buffering: no' });
  });

  it('the omitAccelBufferingHeader bug leaves out exactly X-Accel-Buffering: no', () => {
    const lines = responseLines(runFlow(loadFlow('P3-accel-buffering-header'), { bugs: { omitAccelBufferingHeader: true } }));
    expect(lines[0]).toEqual({ at: 0, http: 'HTTP/1.1 200 OK · Content-Type: text/event-stream · Cache-Control: no-cache' });
  });

  it('a reconnect answers with the same headers', () => {
    const t = runFlow(loadFlow('F1-stalled-subscriber'), { policy: 'disconnect' });
    const lines = responseLines(t);
    expect(lines.length).toBe(2);
    expect(lines[1].at).toBe(60000);
    expect(lines[1].http).toBe(`HTTP/1.1 200 OK · ${SSE_HEADERS.join(' · ')}`);
  });
});

describe('an nginx-like proxy honours X-Accel-Buffering: no', () => {
  const p3 = loadFlow('P3-accel-buffering-header');

  it('buffers only when enabled, buffering, and the header does not switch it off', () => {
    const cfg = p3.config as never as Parameters<typeof sentSseHeaders>[0];
    expect(proxyBuffersConfig(cfg)).toBe(false);
    expect(proxyBuffersConfig({ ...cfg, bugs: { ...cfg.bugs, omitAccelBufferingHeader: true } })).toBe(true);
    // A proxy that ignores the header (P1's) buffers either way.
    expect(proxyBuffersConfig({ ...cfg, proxy: { ...cfg.proxy, honoursAccelBuffering: false } })).toBe(true);
    expect(proxyBuffersConfig({ ...cfg, proxy: { ...cfg.proxy, enabled: false } })).toBe(false);
  });

  it('with the header each progress reaches the client the moment it is sent; without it the proxy holds it until its flush', () => {
    const correct = runFlow(p3, { client: { idleTimeoutMs: null } });
    const buggy = runFlow(p3, { bugs: { omitAccelBufferingHeader: true }, client: { idleTimeoutMs: null } });
    // Progress is sent at 2000, 4000, … ms.
    expect(flowStateAt(correct, 2000).delivered.progress).toBe(1);
    expect(flowStateAt(correct, 9999).delivered.progress).toBe(4);
    expect(flowStateAt(correct, 9999).proxyHeld.progress).toBe(0);
    expect(flowStateAt(buggy, 9999).delivered.progress).toBe(0);
    expect(flowStateAt(buggy, 9999).proxyHeld.progress).toBe(4);
    expect(flowStateAt(buggy, 10000).delivered.progress).toBe(5); // the 10000 ms flush (and the progress sent at 10000)
    expect(correct.outcome.summary).toMatchObject({ operation: 'completed', operationEndedAtMs: 22000, proxyFlushes: 0 });
    expect(buggy.outcome.summary).toMatchObject({ operation: 'completed', operationEndedAtMs: 30000, proxyFlushes: 3 });
  });

  it('omitting the header fires the 5000 ms idle timeout that the header avoids', () => {
    expect(runFlow(p3).outcome.summary).toMatchObject({ operation: 'completed', operationEndedAtMs: 22000 });
    expect(runFlow(p3, { bugs: { omitAccelBufferingHeader: true } }).outcome.summary).toMatchObject({ operation: 'timeout-idle', operationEndedAtMs: 5000 });
  });

  it('a buffering proxy also flushes when its buffer is full (bufferEvents)', () => {
    const t = runFlow(p3, { bugs: { omitAccelBufferingHeader: true }, client: { idleTimeoutMs: null }, keepAliveIntervalMs: null, proxy: { bufferEvents: 3 } });
    expect(flowStateAt(t, 5999).delivered.progress).toBe(0);
    expect(flowStateAt(t, 6000).delivered.progress).toBe(3); // 2000, 4000, 6000: three held → flushed at once
    expect(flowStateAt(t, 6000).proxyHeld.progress).toBe(0);
  });
});
