import { describe, expect, it } from 'vitest';
import { flowStateAt } from '..';
import { flowDefinition } from '../definition';
import { loadFlow, runFlow } from './helpers';

/**
 * SB1 (cpp-mcp PR#53, github.com/hkr04/cpp-mcp/pull/53): a one-slot SSE buffer and a 10 s idle
 * close. The numbers are worked by hand from the scenario: progress #n is written at
 * 12000 + (n − 1) ms (n = 1…50), the result (#51) at 12050 ms; a write into an empty buffer with no
 * read pending schedules a read 40 ms later, and a read comes after the writes of its millisecond.
 */
const sb1 = () => loadFlow('SB1-one-slot-sse-buffer');
const readsOf = (t: ReturnType<typeof runFlow>) => t.steps.filter((s) => s.entry.label === 'client reads one event').map((s) => s.at);
const cutsOf = (t: ReturnType<typeof runFlow>) => t.steps.filter((s) => s.entry.label === 'proxy read timeout').map((s) => s.at);

describe('SB1: a one-slot SSE buffer and a 10 s idle close (cpp-mcp PR#53)', () => {
  it('fixed: 512 slots hold the burst — reads every 40 ms from 12040 to 14040 ms (51 events), peak depth 50, no drop', () => {
    const t = runFlow(sb1());
    expect(readsOf(t)).toEqual(Array.from({ length: 51 }, (_, k) => 12040 + 40 * k));
    // At 12049 ms: 50 written, 1 read (12040) → 49 queued; the result at 12050 makes 50.
    expect(flowStateAt(t, 12049).buffer.size).toBe(49);
    expect(flowStateAt(t, 12050).buffer.size).toBe(50);
    // Keep-alives so far: 5000 and 10000 ms.
    expect(flowStateAt(t, 14039).delivered).toEqual({ progress: 50, finals: 0, keepalives: 2 });
    expect(t.outcome.summary).toMatchObject({ peakDepth: 50, dropped: 0, deliveredProgress: 50, operation: 'completed', operationEndedAtMs: 14040 });
    // Keep-alives at 5000, 10000, 15000, 20000 ms keep the 10 s read deadline ahead: it never fires.
    expect(cutsOf(t)).toEqual([]);
    expect(flowStateAt(t, 9999).proxyReadDeadlineAt).toBe(15000);
  });

  it('one slot, overwrite (drop-silent): #1…#40 overwritten before the read at 12040 takes #41; #42…#50 overwritten by 12050; the result read at 12081', () => {
    const t = runFlow(sb1(), { policy: 'drop-silent', capacityEvents: 1 });
    expect(readsOf(t)).toEqual([12040, 12081]);
    const before = flowStateAt(t, 12039);
    expect([before.buffer.size, before.buffer.silentlyLost, before.delivered.progress]).toEqual([1, 39, 0]);
    const read1 = flowStateAt(t, 12040);
    expect([read1.buffer.silentlyLost, read1.delivered.progress, read1.lastDeliveredSeq]).toEqual([40, 1, 41]);
    const end = flowStateAt(t, 12081);
    expect([end.buffer.silentlyLost, end.delivered.progress, end.delivered.finals, end.lastDeliveredSeq]).toEqual([49, 1, 1, 51]);
    expect(t.invariants.find((i) => i.name === 'no-silent-gap')?.firstViolation?.at).toBe(12001);
  });

  it('one slot with the gap marked (drop-oldest): the same 49 losses, each read carries the mark — 2 refetches, no silent gap', () => {
    const t = runFlow(sb1(), { capacityEvents: 1 });
    expect(readsOf(t)).toEqual([12040, 12081]);
    expect(flowStateAt(t, 12040).refetched).toBe(1);
    expect(flowStateAt(t, 12081).refetched).toBe(2);
    expect(t.outcome.summary).toMatchObject({ dropped: 49, silentlyLost: 0, deliveredProgress: 1 });
    expect(t.invariants.every((i) => i.firstViolation === null)).toBe(true);
  });

  it('no keep-alives: the 10 s idle close at 10000 ms (nothing written yet), the re-issue at 11000 ms, cut again at 21000 ms — no byte of the burst is ever written', () => {
    const t = runFlow(sb1(), { keepAliveIntervalMs: null });
    expect(cutsOf(t)).toEqual([10000, 21000]);
    expect(flowStateAt(t, 11000).reissue.requestId).toBe('ble-scan-1-reissue-1');
    // The re-issued execution would start its burst at 11000 + 12000 = 23000 ms, after the second cut.
    expect(t.outcome.summary).toMatchObject({ emitted: 0, reissues: 1, operation: 'waiting', operationEndedAtMs: null });
  });

  it('a capacity of 1 parses under drop-silent and drop-oldest; the lesson policy still needs 2, naming the field', () => {
    const raw = (config: Record<string, unknown>) => ({ format: 1, lab: 'flow', id: 'x', title: 'x', config, events: [] });
    expect(flowDefinition.parse(raw({ policy: 'drop-silent', capacityEvents: 1 })).ok).toBe(true);
    expect(flowDefinition.parse(raw({ policy: 'drop-oldest', capacityEvents: 1 })).ok).toBe(true);
    const lesson = flowDefinition.parse(raw({ capacityEvents: 1 }));
    expect(lesson.ok ? [] : lesson.errors).toEqual([expect.stringMatching(/^config\.capacityEvents: must be at least 2 under the lesson policy/)]);
    const zero = flowDefinition.parse(raw({ policy: 'drop-oldest', capacityEvents: 0 }));
    expect(zero.ok ? [] : zero.errors).toEqual([expect.stringMatching(/^config\.capacityEvents: must be at least 1 event/)]);
  });
});
