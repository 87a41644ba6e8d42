import { describe, expect, it } from 'vitest';
import { FAILURE_ORIGIN_WORDS, classifyRetry } from '../classify';
import { ledgerErrorOrigin, racesErrorOrigin, racesFailureOrigin } from '../labOrigins';
import type { ClientState } from '../../races/types';
import { loadScenario, run } from '../../races/__tests__/helpers';
import { opener, scenario as ledgerScenario } from '../../ledger/__tests__/helpers';
import { replayLedger } from '../../ledger';

const word = (s: ClientState, isError = false) => {
  const o = racesFailureOrigin({ state: s, isError });
  return o === null ? null : FAILURE_ORIGIN_WORDS[o];
};

describe('races: the failure origin of each terminal state, in the postmortem\'s words', () => {
  it('names every client state', () => {
    expect(word('cancelled')).toBe('user cancel');
    expect(word('timeout-idle')).toBe('client timeout');
    expect(word('timeout-max')).toBe('client timeout');
    expect(word('connection-closed')).toBe('network issue');
    expect(word('failed')).toBe('server overload');
    expect(word('failed', true)).toBeNull();
    expect(word('completed')).toBeNull();
    expect(word('ended-by-server')).toBeNull();
    expect(word('pending')).toBeNull();
    expect(word('rejected')).toBeNull();
  });

  it('hands the classifier the same origin, so its verdict agrees: a user cancel is never retried', () => {
    const c = classifyRetry({ sideEffect: false, origin: racesErrorOrigin({ state: 'cancelled', isError: false }) });
    expect(c).toMatchObject({ failureOrigin: 'user-cancel', retry: false, verdict: 'UNSAFE' });
    const t = classifyRetry({ sideEffect: true, idempotencyKey: 'k', origin: racesErrorOrigin({ state: 'timeout-max', isError: false }) });
    expect(t).toMatchObject({ failureOrigin: 'client-timeout', verdict: 'CONDITIONAL', retry: true });
    expect(racesErrorOrigin({ state: 'failed', isError: true })).toEqual({ kind: 'tool-error' });
  });

  it('reads the built-in scenarios\' final states', () => {
    const first = (id: string, overrides?: Parameters<typeof run>[1]) => run(loadScenario(id), overrides).outcome.requests[0];
    expect(first('A-cancel-then-complete').state).toBe('cancelled');
    expect(word(first('A-cancel-then-complete').state)).toBe('user cancel');
    expect(first('C-progress-idle-maximum').state).toBe('timeout-max');
    expect(word(first('C-progress-idle-maximum').state)).toBe('client timeout');
  });
});

describe('ledger: failing calls get their origin', () => {
  it('timed-out is a client timeout; an error reply is a tool error (none of the five); ok and waiting are no failure', () => {
    expect(ledgerErrorOrigin({ client: 'timed-out' })).toEqual({ kind: 'client-timeout' });
    expect(ledgerErrorOrigin({ client: 'error', reply: 'in-use' })).toEqual({ kind: 'tool-error' });
    expect(ledgerErrorOrigin({ client: 'ok', reply: 'executed' })).toBeUndefined();
    expect(ledgerErrorOrigin({ client: 'waiting', reply: null })).toBeUndefined();
    expect(classifyRetry({ sideEffect: true, idempotencyKey: null, origin: ledgerErrorOrigin({ client: 'timed-out' }) })).toMatchObject({ failureOrigin: 'client-timeout', verdict: 'UNSAFE' });
  });

  it('F-lost-response: the first call times out, so its origin is a client timeout', async () => {
    const trace = replayLedger(ledgerScenario('F-lost-response'), await opener());
    const timedOut = trace.outcome.calls.filter((c) => c.client === 'timed-out');
    expect(timedOut.length).toBeGreaterThan(0);
    for (const c of timedOut) expect(ledgerErrorOrigin(c)).toEqual({ kind: 'client-timeout' });
  });
});
