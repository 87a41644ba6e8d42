import { describe, expect, it } from 'vitest';
import { callSpans, filterEntries, stepFinding } from '../view';
import { checkTranscript } from '../checks';
import { call, cancel, progress, result, tx } from './helpers';

const t = tx([
  [0, 'c2s', call(1, 'charge', { a: 1 }, { progressToken: 'p' })],
  [10, 'c2s', call(2, 'lookup')],
  [50, 's2c', progress('p', 1)],
  [100, 'c2s', cancel(1)],
  [120, 's2c', result(2)],
  [200, 'meta', { event: 'client-timeout', requestId: 3 }],
  [300, 'c2s', call(3, 'charge', { a: 1 })],
  [2000, 's2c', result(1)],
]);

describe('traffic view helpers', () => {
  it('calls become spans; a call with no outcome in the transcript is open-ended', () => {
    expect(callSpans(t).map((s) => [s.id, s.tool, s.startAtMs, s.endAtMs, s.outcome, s.responseAtMs, s.entries])).toEqual([
      [1, 'charge', 0, 100, 'cancelled', 2000, [0, 2, 3, 7]],
      [2, 'lookup', 10, 120, 'result', 120, [1, 4]],
      [3, 'charge', 300, null, 'unknown', null, [6]],
    ]);
  });

  it('filters by id, method and tool', () => {
    expect(filterEntries(t, { id: 1 })).toEqual([0, 2, 3, 7]);
    expect(filterEntries(t, { id: 3 })).toEqual([5, 6]);
    expect(filterEntries(t, { tool: 'charge' })).toEqual([0, 2, 3, 6, 7]);
    expect(filterEntries(t, { method: 'notifications/cancelled' })).toEqual([3]);
    expect(filterEntries(t, { method: 'tools/call', tool: 'lookup' })).toEqual([1, 4]);
    expect(filterEntries(t, {})).toHaveLength(t.entries.length);
  });

  it('steps to the next and previous finding, wrapping around', () => {
    const findings = checkTranscript(t, { schema: false }).findings;
    expect(findings.map((f) => [f.check, f.atMs])).toEqual([
      ['duplicate-call', 300],
      ['late-after-cancel', 2000],
    ]);
    expect(stepFinding(findings, 0, 'next')).toBe(0);
    expect(stepFinding(findings, 300, 'next')).toBe(1);
    expect(stepFinding(findings, 5000, 'next')).toBe(0);
    expect(stepFinding(findings, 1000, 'previous')).toBe(0);
    expect(stepFinding(findings, 0, 'previous')).toBe(1);
    expect(stepFinding(findings, 0, 'next', 1)).toBe(0);
    expect(stepFinding([], 0, 'next')).toBeNull();
  });
});
