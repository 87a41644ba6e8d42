import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { classifyRetry, describeOrigin, hasIdempotencyKey, originClass, type ErrorOrigin } from '../classify';

const read = { sideEffect: false };
const keyed = { sideEffect: true, idempotencyKey: 'charge-7f3a' };
const unkeyed = { sideEffect: true };

describe('classifyRetry: the operation alone (ledger panel)', () => {
  it('no side effect is SAFE', () => {
    expect(classifyRetry(read)).toMatchObject({ verdict: 'SAFE', retry: true, originClass: 'none' });
  });
  it('side effect with a non-empty key and identical arguments is CONDITIONAL', () => {
    const c = classifyRetry(keyed);
    expect(c.verdict).toBe('CONDITIONAL');
    expect(c.reason).toMatch(/deduplicates by that key/);
  });
  it('side effect without a key is UNSAFE; an empty or blank key counts as none', () => {
    expect(classifyRetry(unkeyed)).toMatchObject({ verdict: 'UNSAFE', retry: false });
    expect(classifyRetry({ sideEffect: true, idempotencyKey: null }).verdict).toBe('UNSAFE');
    const empty = classifyRetry({ sideEffect: true, idempotencyKey: '' });
    expect(empty.verdict).toBe('UNSAFE');
    expect(empty.reason).toMatch(/empty idempotency key counts as none/);
    expect(classifyRetry({ sideEffect: true, idempotencyKey: '   ' }).verdict).toBe('UNSAFE');
  });
  it('a key reused with different arguments is UNSAFE', () => {
    const c = classifyRetry({ ...keyed, sameArguments: false });
    expect(c.verdict).toBe('UNSAFE');
    expect(c.reason).toMatch(/different arguments/);
  });
});

describe('classifyRetry: by error origin', () => {
  it('user cancellation never retries, even a read', () => {
    for (const q of [read, keyed, unkeyed]) {
      expect(classifyRetry({ ...q, origin: { kind: 'user-cancel' } })).toMatchObject({ verdict: 'UNSAFE', retry: false, originClass: 'cancelled' });
    }
  });

  it('client timeout: outcome unknown, retry only with a key (or no side effect)', () => {
    const o: ErrorOrigin = { kind: 'client-timeout' };
    expect(classifyRetry({ ...read, origin: o })).toMatchObject({ verdict: 'SAFE', retry: true, originClass: 'unknown' });
    expect(classifyRetry({ ...keyed, origin: o })).toMatchObject({ verdict: 'CONDITIONAL', retry: true });
    const u = classifyRetry({ ...unkeyed, origin: o });
    expect(u).toMatchObject({ verdict: 'UNSAFE', retry: false });
    expect(u.reason).toMatch(/^client timeout: the outcome is unknown/);
  });

  it.each([408, 429, 503])('HTTP %i: not executed, SAFE even for an unkeyed write', (status) => {
    const c = classifyRetry({ ...unkeyed, origin: { kind: 'http', status } });
    expect(c).toMatchObject({ verdict: 'SAFE', retry: true, originClass: 'not-executed' });
    expect(c.retryAfterFloorMs).toBeUndefined();
  });

  it('429 and 503 carry Retry-After as a floor for the next delay', () => {
    expect(classifyRetry({ ...keyed, origin: { kind: 'http', status: 429, retryAfterMs: 2000 } }).retryAfterFloorMs).toBe(2000);
    const c = classifyRetry({ ...read, origin: { kind: 'http', status: 503, retryAfterMs: 1500.2 } });
    expect(c.retryAfterFloorMs).toBe(1501);
    expect(c.reason).toMatch(/not before Retry-After \(1501 ms\)/);
  });

  it.each([500, 502, 504])('HTTP %i: outcome unknown — SAFE read, CONDITIONAL keyed, UNSAFE unkeyed', (status) => {
    const origin: ErrorOrigin = { kind: 'http', status };
    expect(classifyRetry({ ...read, origin }).verdict).toBe('SAFE');
    expect(classifyRetry({ ...keyed, origin })).toMatchObject({ verdict: 'CONDITIONAL', retry: true, originClass: 'unknown' });
    expect(classifyRetry({ ...unkeyed, origin })).toMatchObject({ verdict: 'UNSAFE', retry: false });
  });

  it.each([400, 401, 403, 404, 422])('HTTP %i: permanent, never retried, even a read', (status) => {
    const c = classifyRetry({ ...read, origin: { kind: 'http', status } });
    expect(c).toMatchObject({ verdict: 'UNSAFE', retry: false, originClass: 'permanent' });
    expect(c.reason).toContain(`HTTP ${status}`);
  });

  it.each([-32700, -32600, -32601, -32602])('JSON-RPC %i: permanent, never retried', (code) => {
    expect(classifyRetry({ ...keyed, origin: { kind: 'jsonrpc', code } })).toMatchObject({ verdict: 'UNSAFE', retry: false, originClass: 'permanent' });
  });

  it('JSON-RPC -32603: retry only if keyed or without side effect', () => {
    const origin: ErrorOrigin = { kind: 'jsonrpc', code: -32603 };
    expect(classifyRetry({ ...read, origin }).retry).toBe(true);
    expect(classifyRetry({ ...keyed, origin }).retry).toBe(true);
    expect(classifyRetry({ ...unkeyed, origin }).retry).toBe(false);
  });

  it('SDK-local -32001 and -32000: outcome unknown', () => {
    expect(originClass({ kind: 'jsonrpc', code: -32001 })).toBe('unknown');
    expect(originClass({ kind: 'jsonrpc', code: -32000 })).toBe('unknown');
    expect(classifyRetry({ ...unkeyed, origin: { kind: 'jsonrpc', code: -32000 } }).retry).toBe(false);
  });

  it('isError: true tool result: the tool ran; never retried automatically, verdict from the operation', () => {
    const origin: ErrorOrigin = { kind: 'tool-error' };
    expect(classifyRetry({ ...read, origin })).toMatchObject({ verdict: 'SAFE', retry: false, originClass: 'executed' });
    expect(classifyRetry({ ...keyed, origin })).toMatchObject({ verdict: 'CONDITIONAL', retry: false });
    expect(classifyRetry({ ...unkeyed, origin })).toMatchObject({ verdict: 'UNSAFE', retry: false });
  });

  it('network error: unknown once sent, SAFE when the request never left', () => {
    expect(classifyRetry({ ...unkeyed, origin: { kind: 'network' } })).toMatchObject({ verdict: 'UNSAFE', retry: false, originClass: 'unknown' });
    expect(classifyRetry({ ...unkeyed, origin: { kind: 'network', requestSent: false } })).toMatchObject({ verdict: 'SAFE', retry: true });
  });

  it('partial stream: the work started; unkeyed writes are not repeated', () => {
    expect(classifyRetry({ ...unkeyed, origin: { kind: 'partial-stream' } }).retry).toBe(false);
    expect(classifyRetry({ ...keyed, origin: { kind: 'partial-stream' } }).verdict).toBe('CONDITIONAL');
  });

  it('describes origins by name', () => {
    expect(describeOrigin({ kind: 'http', status: 503 })).toBe('HTTP 503 Service Unavailable');
    expect(describeOrigin({ kind: 'jsonrpc', code: -32602 })).toBe('JSON-RPC -32602 invalid params');
    expect(describeOrigin({ kind: 'http', status: 418 })).toBe('HTTP 418');
    expect(originClass({ kind: 'http', status: 418 })).toBe('permanent');
    expect(originClass({ kind: 'http', status: 507 })).toBe('unknown');
  });
});

describe('classifyRetry properties', () => {
  const origin: fc.Arbitrary<ErrorOrigin | undefined> = fc.oneof(
    fc.constant(undefined),
    fc.constant({ kind: 'user-cancel' as const }),
    fc.constant({ kind: 'client-timeout' as const }),
    fc.constant({ kind: 'tool-error' as const }),
    fc.constant({ kind: 'partial-stream' as const }),
    fc.record({ kind: fc.constant('network' as const), requestSent: fc.option(fc.boolean(), { nil: undefined }) }),
    fc.record({ kind: fc.constant('http' as const), status: fc.integer({ min: 400, max: 599 }), retryAfterMs: fc.option(fc.nat(100_000), { nil: undefined }) }),
    fc.record({ kind: fc.constant('jsonrpc' as const), code: fc.integer({ min: -32800, max: -32000 }) }),
  );
  const question = fc.record({
    sideEffect: fc.boolean(),
    idempotencyKey: fc.option(fc.string({ maxLength: 6 }), { nil: undefined }),
    sameArguments: fc.option(fc.boolean(), { nil: undefined }),
    origin,
  });

  it('an unkeyed side effect is never retried unless the server provably did not execute it', () => {
    fc.assert(
      fc.property(question, (q) => {
        const c = classifyRetry(q);
        if (q.sideEffect && !hasIdempotencyKey(q.idempotencyKey) && c.retry) expect(c.originClass).toBe('not-executed');
      }),
    );
  });

  it('a user cancellation or a permanent error is never retried; every verdict has a reason', () => {
    fc.assert(
      fc.property(question, (q) => {
        const c = classifyRetry(q);
        expect(c.reason.length).toBeGreaterThan(10);
        if (c.originClass === 'cancelled' || c.originClass === 'permanent') expect(c.retry).toBe(false);
        if (c.retry) expect(c.verdict).not.toBe('UNSAFE');
      }),
    );
  });
});
