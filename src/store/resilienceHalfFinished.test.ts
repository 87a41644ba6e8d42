import { describe, expect, it } from 'vitest';
import { halfFinished } from './resilienceHalfFinished';

// Stop at 8000; 320 ms over three hops → the MCP server cuts at 8000 + 320/3 = 8106.67; the upstream gets a cancel at 8213.33 and stops 300 ms later.
describe('the half-finished result on the resilience page (issue 13 item 5)', () => {
  it('as it happened: three executions, the original cut at 73 %, two that nothing stops', () => {
    const r = halfFinished({ priorityCancelChannel: false, gatewayFingerprint: false });
    expect(r.executions.map((e) => [e.cause, e.stoppedAtMs === null ? null : Math.round(e.stoppedAtMs), e.transferredFraction])).toEqual([
      ['original', 8_107, 0.73], ['upstream-requeue', null, null], ['client-retry', null, null],
    ]);
    expect(r).toMatchObject({ executionsAfterCancel: 2, clientSees: 'half-finished', violations: ['one-execution-per-action', 'no-work-after-cancel'] });
  });
  it('both fixes: one execution, stopped at 8513 ms, nothing broken', () => {
    const r = halfFinished({ priorityCancelChannel: true, gatewayFingerprint: true });
    expect(r.executions).toHaveLength(1);
    expect(Math.round(r.executions[0].stoppedAtMs!)).toBe(8_513);
    expect(r).toMatchObject({ executionsAfterCancel: 0, clientSees: 'cancelled', violations: [] });
  });
});
