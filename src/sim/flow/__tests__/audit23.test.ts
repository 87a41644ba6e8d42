import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flowMechanics } from '..';
import { loadFlow, runFlow, violatedFlow } from './helpers';

/**
 * Issue 23 item 2 in the flow lab: under 2026-07-28 nothing is resumed with Last-Event-ID
 * ("Resumable SSE streams via Last-Event-ID are not supported", `basic/transports/streamable-http`),
 * and the re-issue of a broken 2026 stream ends the same way at every horizon past the last event.
 */

const outcomeOf = (t: ReturnType<typeof runFlow>) => {
  const s = t.outcome.summary as Record<string, unknown>;
  return { operation: s.operation, operationEndedAtMs: s.operationEndedAtMs };
};

describe('RI2: a re-issued call meets the same 60 s proxy timeout', () => {
  const ri2 = () => loadFlow('RI2-reissue-meets-proxy-timeout');

  it('no result ever reaches the client, at every horizon from 61 s to 2,000 s (property: the outcome does not depend on horizonMs)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 61_000, max: 2_000_000 }), (horizonMs) => {
        expect(outcomeOf(runFlow(ri2(), { horizonMs }))).toEqual({ operation: 'waiting', operationEndedAtMs: null });
      }),
      { numRuns: 60, seed: 23 },
    );
  });

  it('with keep-alives on, completed at 90000 ms at every horizon past it', () => {
    fc.assert(
      fc.property(fc.integer({ min: 90_000, max: 2_000_000 }), (horizonMs) => {
        expect(outcomeOf(runFlow(ri2(), { horizonMs, keepAliveIntervalMs: 15000 }))).toEqual({ operation: 'completed', operationEndedAtMs: 90000 });
      }),
      { numRuns: 30, seed: 24 },
    );
  });

  it('the number of re-issues grows with the horizon (each one cut 60 s after it opened), the outcome does not', () => {
    const reissues = [200_000, 1_000_000].map((horizonMs) => (runFlow(ri2(), { horizonMs }).outcome.summary as Record<string, unknown>).reissues);
    expect(reissues).toEqual([3, 16]);
  });
});

describe('LE1 under 2026-07-28: no Last-Event-ID', () => {
  const le1 = () => loadFlow('LE1-last-event-id-second-drop');

  it('nothing is resumed: the drop at 350 ms loses request 7 (no GET, no replay)', () => {
    const m = flowMechanics(runFlow(le1(), { revision: '2026-07-28' })).resumption!;
    expect(m.attempts).toEqual([]);
    expect(m.summary).toMatchObject({ resumable: false, reconnects: 0, lostAtMs: 350, responseDelivered: false, eventsReceived: 3 });
    expect(m.invariants.find((i) => i.name === 'no-resumption-2026')!.firstViolation).toBeNull();
  });

  it('bug resumeUnder2026 (the lab\'s old rule): the client resumes with Last-Event-ID; invariant no-resumption-2026 breaks at the first GET (1350 ms)', () => {
    const t = runFlow(le1(), { revision: '2026-07-28', bugs: { resumeUnder2026: true } });
    const m = flowMechanics(t).resumption!;
    expect(m.summary).toMatchObject({ reconnects: 2, responseDelivered: true, responseDeliveredAtMs: 2400 });
    expect(m.invariants.find((i) => i.name === 'no-resumption-2026')!.firstViolation!.at).toBe(1350);
    expect(violatedFlow(t)).toEqual([]);
  });

  it('2025-11-25 is unchanged: resumed twice, the response at 2400 ms', () => {
    expect(flowMechanics(runFlow(le1())).resumption!.summary).toMatchObject({ resumable: true, reconnects: 2, responseDeliveredAtMs: 2400, lostAtMs: null });
  });
});
