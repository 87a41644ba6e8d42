import { describe, expect, it } from 'vitest';
import { reconnectPlan, streamDrop } from '../reconnect';
import { loadFlow, loadFlowScenarios, runFlow } from './helpers';

/**
 * The reconnect plan never contradicts the run it sits beside (issue 27, item 3: RI1). It reads the
 * watched call's idempotency key as the model does, re-issues it under the model's new id, and calls
 * each request by one name — the id the timeline and the lesson rows use.
 */
describe('the reconnect plan agrees with the model', () => {
  it('RI1: the keyed invoice-1 is re-issued at the reconnect as invoice-1-reissue-1 carrying inv-42, as the timeline shows — not "nothing sent"', () => {
    const t = runFlow(loadFlow('RI1-broken-stream-reissue'));
    const drop = streamDrop(t, 0, { eventStoreEvents: 100, inFlightSafe: false })!;
    expect(drop.input.inFlight).toEqual([{ id: 'invoice-1', tool: 'send_invoice', unsafe: false, idempotencyKey: 'inv-42', reissueId: 'invoice-1-reissue-1' }]);
    const steps = reconnectPlan('2026-07-28', drop.input);
    expect(steps.some((s) => s.http === '(nothing sent)')).toBe(false);
    const call = steps.find((s) => (s.message as { method?: string } | undefined)?.method === 'tools/call')!;
    expect(call.message).toMatchObject({ id: t.outcome.summary.operationRequestId, params: { name: 'send_invoice', arguments: { idempotencyKey: 'inv-42' } } });
    expect(call.note).toContain('request "invoice-1"');
    expect(call.note).not.toMatch(/tools\/call id \d/);
  });

  it('RI1 with the key omitted (bug): the plan does not treat the call as safe — a correct client would not replay it', () => {
    const t = runFlow(loadFlow('RI1-broken-stream-reissue'), { bugs: { idempotencyKeyOmitted: true } });
    const drop = streamDrop(t, 0, { eventStoreEvents: 100, inFlightSafe: false })!;
    expect(drop.input.inFlight[0]).toMatchObject({ id: 'invoice-1', unsafe: true });
    expect(drop.input.inFlight[0].idempotencyKey).toBeUndefined();
    expect(reconnectPlan('2026-07-28', drop.input).some((s) => s.http === '(nothing sent)' && s.note.includes('"invoice-1"'))).toBe(true);
  });

  for (const { file, scenario } of loadFlowScenarios()) {
    it(`${file}: the model's first re-issue is the plan's re-issue, under the same id`, () => {
      const t = runFlow(scenario);
      const drop = streamDrop(t, 0, { eventStoreEvents: 100, inFlightSafe: false });
      if (drop === null || !t.outcome.summary.reissues) return;
      // The plan is made for the first drop; the model's first re-issue is the first new request id it watches
      // (RI2's call is then cut again and re-issued again: later plans are later drops').
      const original = t.initial.reissue.requestId;
      const first = t.steps.map((s) => s.state.reissue.requestId).find((id) => id !== null && id !== original);
      const ids = reconnectPlan('2026-07-28', drop.input).flatMap((s) => ((s.message as { method?: string } | undefined)?.method === 'tools/call' ? [(s.message as { id: unknown }).id] : []));
      expect(first).toBeDefined();
      expect(ids).toContain(first);
    });
  }
});
