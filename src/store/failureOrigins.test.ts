import { describe, expect, it } from 'vitest';
import { racesOriginWord } from './failureOrigins';
import { ledgerFailingCases } from './ledgerFailingCases';

describe('failure-origin words for the races and ledger pages', () => {
  it('races: the word per terminal state', () => {
    expect(racesOriginWord({ state: 'cancelled', isError: false })).toBe('user cancel');
    expect(racesOriginWord({ state: 'timeout-idle', isError: false })).toBe('client timeout');
    expect(racesOriginWord({ state: 'connection-closed', isError: false })).toBe('network issue');
    expect(racesOriginWord({ state: 'failed', isError: false })).toBe('server overload');
    expect(racesOriginWord({ state: 'completed', isError: false })).toBeNull();
  });

  it('ledger: only failed calls are listed, each classified with its origin', () => {
    const cases = ledgerFailingCases({
      calls: [
        { key: '"r1"', requestId: 'r1', idempotencyKey: null, client: 'timed-out', reply: 'executed', receipt: 'charge-001', resultRequestId: null },
        { key: '"r2"', requestId: 'r2', idempotencyKey: 'k', client: 'timed-out', reply: null, receipt: null, resultRequestId: null },
        { key: '"r3"', requestId: 'r3', idempotencyKey: 'k', client: 'error', reply: 'in-use', receipt: null, resultRequestId: null },
        { key: '"r4"', requestId: 'r4', idempotencyKey: 'k', client: 'ok', reply: 'replayed', receipt: 'charge-001', resultRequestId: 'r4' },
      ],
    });
    expect(cases.map((c) => [c.requestId, c.originWord, c.classification.verdict, c.classification.retry])).toEqual([
      ['r1', 'client timeout', 'UNSAFE', false],
      ['r2', 'client timeout', 'CONDITIONAL', true],
      ['r3', null, 'CONDITIONAL', false],
    ]);
  });
});
