import { describe, expect, it } from 'vitest';
import { describeMismatch } from './mismatchText';

describe('lesson mismatches in words', () => {
  it('names the call and the field in plain words, with units', () => {
    expect(describeMismatch({ field: 'requests[1].state', expected: 'completed', actual: 'cancelled' })).toBe('call 1 ends cancelled; the lesson expects completed');
    expect(describeMismatch({ field: 'requests[1].atMs', expected: 2499, actual: 500 })).toBe('call 1 settles at 500 ms; the lesson expects 2499 ms');
    expect(describeMismatch({ field: 'requests[1].finalResponse', expected: true, actual: false })).toBe('call 1 gets a final response: no; the lesson expects yes');
    expect(describeMismatch({ field: 'requests["req-7"].cancelSignal', expected: 'notifications/cancelled', actual: 'stream-close' })).toBe('call req-7 cancellation signal is stream-close; the lesson expects notifications/cancelled');
    expect(describeMismatch({ field: 'at 1500 ms requests[1].state', expected: 'pending', actual: 'cancelled' })).toBe('at 1500 ms call 1 is cancelled; the lesson expects pending');
    expect(describeMismatch({ field: 'summary.cancelSignals', expected: 0, actual: 50 })).toBe('cancellation signals 50; the lesson expects 0');
    expect(describeMismatch({ field: 'violated invariants', expected: ['maximum-enforced'], actual: [] })).toBe('broken invariants: none; the lesson expects maximum-enforced');
    expect(describeMismatch({ field: 'requests[3]', expected: 'present', actual: null })).toBe('call 3 never starts');
  });
});
