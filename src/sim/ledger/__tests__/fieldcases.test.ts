import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { replayLedger, withLedgerOverrides, type OpenDatabase } from '..';
import type { Json, Scenario } from '../../types';
import { opener, scenario } from './helpers';

let open: OpenDatabase;
beforeAll(async () => {
  open = await opener();
});

/** The issue's numbers for the two field cases (issue 3, §6). */
const ISSUE = { dispatchGapMs: 133, lostAtMs: 1000, finishedAtMs: 3000, backoffBaseMs: 500, retries: 2 };

const at = (s: Scenario, id: string) => s.events.find((e) => e.id === id)!.at;

describe('field case F: the retry times come from the backoff formula 500·2^n', () => {
  it('the file\'s call gives up at the issue\'s 1000 ms and the server finishes at 3000 ms', () => {
    const s = scenario('F-lost-response');
    const call = s.events.find((e) => e.kind === 'call')!;
    expect(call.at + (call.timeoutMs as number)).toBe(ISSUE.lostAtMs);
    expect(call.at + (call.durationMs as number)).toBe(ISSUE.finishedAtMs);
  });

  it('retry n (n = 1, 2) starts 500·2^n ms after attempt n failed (the timeout, then the 409 reply): 2000 and 4000 ms, the file\'s times', () => {
    const s = scenario('F-lost-response');
    const trace = replayLedger(s, open);
    // When each attempt failed for the client, from the trace: attempt 1 by its timeout, later ones by their reply.
    const failedAt = (requestKey: string) => {
      const timeout = trace.steps.find((x) => x.entry.kind === 'timeout' && x.entry.label === `timeout ${requestKey}`);
      if (timeout) return timeout.at;
      const reply = trace.effects.find((e) => e.from === 'server' && e.requestKey === requestKey && e.arrivesAt !== undefined);
      return reply!.arrivesAt!;
    };
    const computed: number[] = [];
    let previous = '1';
    for (let n = 1; n <= ISSUE.retries; n++) {
      const retryAt = failedAt(previous) + ISSUE.backoffBaseMs * 2 ** n;
      computed.push(retryAt);
      const retry = s.events.find((e) => e.kind === 'retry' && e.at === retryAt);
      expect(retry, `no retry at ${retryAt} ms`).toBeDefined();
      previous = String(retry!.requestId);
    }
    expect(computed).toEqual([2000, 4000]);
    expect(s.events.filter((e) => e.kind === 'retry').map((e) => e.at)).toEqual(computed);
    // The formula's first retry (2000) falls before the server finishes (409), the second after it (replay).
    expect(computed[0]).toBeLessThan(ISSUE.finishedAtMs);
    expect(computed[1]).toBeGreaterThan(ISSUE.finishedAtMs);
  });
});

describe('field case E: dispatched twice 133 ms apart — the key decides, not the gap', () => {
  it('the file\'s two calls are the issue\'s 133 ms apart, same key, new JSON-RPC ids', () => {
    const s = scenario('E-dispatched-twice');
    expect(at(s, 'call-2') - at(s, 'call-1')).toBe(ISSUE.dispatchGapMs);
    const [a, b] = s.events;
    expect(a.key).toBe(b.key);
    expect(a.requestId).not.toBe(b.requestId);
  });

  const withGap = (gapMs: number, sameKey: boolean, dedupe: 'key' | 'none') => {
    const s = scenario('E-dispatched-twice');
    const events = s.events.map((e) => (e.id === 'call-2' ? { ...e, at: at(s, 'call-1') + gapMs, key: sameKey ? e.key : 'call-other' } : e));
    return replayLedger(withLedgerOverrides({ ...s, events }, { dedupe } as Record<string, Json>), open).outcome.summary;
  };

  it('property: for any gap, dedup by key gives one charge for the same key and two for different keys; no dedup gives two', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5000 }), (gapMs) => {
        expect(withGap(gapMs, true, 'key')).toMatchObject({ charges: 1, records: 1 });
        expect(withGap(gapMs, false, 'key')).toMatchObject({ charges: 2, records: 2 });
        expect(withGap(gapMs, true, 'none')).toMatchObject({ charges: 2, records: 0 });
      }),
      { numRuns: 40, seed: 3 },
    );
    // The issue's gap and the file's outcome are one of those cases.
    expect(withGap(ISSUE.dispatchGapMs, true, 'key')).toMatchObject({ charges: 1, records: 1, replayed: 1 });
  }, 120_000);
});
