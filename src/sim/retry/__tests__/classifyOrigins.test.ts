import { describe, expect, it } from 'vitest';
import { classifyRetry, describeOrigin, FAILURE_ORIGIN_WORDS, FAILURE_ORIGINS, failureOriginOf, originClass } from '../classify';
import { FAILURE_ORIGINS as SEED_ORIGINS } from '../../seeds/origins';

// Issue 13 item 1: the shared classifier names the postmortem's five error origins
// ("错误溯源": USER_CANCEL, CLIENT_TIMEOUT, SERVER_OVERLOAD, NETWORK_ISSUE, PARTIAL_SUCCESS).
describe('classifyRetry: the postmortem five error origins', () => {
  const read = { sideEffect: false };
  const unkeyed = { sideEffect: true };

  it('lists the five in the postmortem order, one list shared with the seed model', () => {
    expect(FAILURE_ORIGINS).toEqual(['user-cancel', 'client-timeout', 'server-overload', 'network', 'partial-success']);
    expect(SEED_ORIGINS).toBe(FAILURE_ORIGINS);
    expect(Object.values(FAILURE_ORIGIN_WORDS)).toEqual(['user cancel', 'client timeout', 'server overload', 'network issue', 'partial success (stream)']);
  });

  it('maps every failure the labs produce onto one origin or none', () => {
    expect(failureOriginOf({ kind: 'user-cancel' })).toBe('user-cancel');
    expect(failureOriginOf({ kind: 'client-timeout' })).toBe('client-timeout');
    expect(failureOriginOf({ kind: 'jsonrpc', code: -32001 })).toBe('client-timeout');
    expect(failureOriginOf({ kind: 'server-overload' })).toBe('server-overload');
    expect(failureOriginOf({ kind: 'http', status: 503 })).toBe('server-overload');
    expect(failureOriginOf({ kind: 'http', status: 429 })).toBe('server-overload');
    expect(failureOriginOf({ kind: 'http', status: 502 })).toBe('network');
    expect(failureOriginOf({ kind: 'http', status: 504 })).toBe('network');
    expect(failureOriginOf({ kind: 'network' })).toBe('network');
    expect(failureOriginOf({ kind: 'jsonrpc', code: -32000 })).toBe('network');
    expect(failureOriginOf({ kind: 'partial-success', streamedFraction: 0.73 })).toBe('partial-success');
    expect(failureOriginOf({ kind: 'partial-stream' })).toBe('partial-success');
    expect(failureOriginOf({ kind: 'http', status: 500 })).toBeNull();
    expect(failureOriginOf({ kind: 'http', status: 400 })).toBeNull();
    expect(failureOriginOf({ kind: 'tool-error' })).toBeNull();
    expect(failureOriginOf(undefined)).toBeNull();
  });

  it('every classification carries its origin', () => {
    expect(classifyRetry({ ...read, origin: { kind: 'user-cancel' } })).toMatchObject({ verdict: 'UNSAFE', retry: false, failureOrigin: 'user-cancel' });
    expect(classifyRetry({ ...read, origin: { kind: 'user-cancel' } }).reason).toBe('user cancel: never retry — the user asked to stop');
    expect(classifyRetry(read).failureOrigin).toBeNull();
    expect(classifyRetry({ ...unkeyed, origin: { kind: 'http', status: 503 } }).failureOrigin).toBe('server-overload');
  });

  it('a server overload was not executed: SAFE even unkeyed, Retry-After as the floor', () => {
    expect(originClass({ kind: 'server-overload', status: 429 })).toBe('not-executed');
    const c = classifyRetry({ ...unkeyed, origin: { kind: 'server-overload', status: 429, retryAfterMs: 1200 } });
    expect(c).toMatchObject({ verdict: 'SAFE', retry: true, retryAfterFloorMs: 1200, failureOrigin: 'server-overload' });
    expect(describeOrigin({ kind: 'server-overload' })).toBe('server overload (HTTP 503 Service Unavailable)');
  });

  it('a partial success reads like the broken stream it replaces: the outcome is unknown', () => {
    expect(originClass({ kind: 'partial-success' })).toBe('unknown');
    expect(classifyRetry({ ...unkeyed, origin: { kind: 'partial-success', streamedFraction: 0.73 } })).toMatchObject({ verdict: 'UNSAFE', retry: false, failureOrigin: 'partial-success' });
    expect(classifyRetry({ sideEffect: true, idempotencyKey: 'k', origin: { kind: 'partial-success' } })).toMatchObject({ verdict: 'CONDITIONAL', retry: true });
    expect(describeOrigin({ kind: 'partial-success', streamedFraction: 0.73 })).toBe('partial success: stream broken after 73 % of its output');
  });
});
