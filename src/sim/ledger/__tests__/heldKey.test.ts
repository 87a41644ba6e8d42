import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseScenario } from '../../scenario';
import type { Json, Scenario } from '../../types';
import { checkLedgerExpectation, replayLedger, withLedgerOverrides, type OpenDatabase } from '..';
import { build, LEDGER_SCHEMAS, opener, SCENARIO_DIR } from './helpers';

let open: OpenDatabase;
beforeAll(async () => {
  open = await opener();
});

/** A scenario file of this round, loaded directly (registration in src/store is the lead's). */
function file(name: string): Scenario {
  const r = parseScenario(JSON.parse(readFileSync(path.join(SCENARIO_DIR, name), 'utf8')), 'ledger', LEDGER_SCHEMAS);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

const violated = (t: ReturnType<typeof replayLedger>) => t.invariants.filter((i) => i.firstViolation !== null).map((i) => i.name).sort();
const call = (t: ReturnType<typeof replayLedger>, key: string) => t.outcome.calls.find((c) => c.key === key);

for (const name of ['G-key-in-progress.json', 'H-tool-layer-drops-key.json']) {
  describe(name, () => {
    it('meets every expectation in the file (a correct and a buggy one)', () => {
      const s = file(name);
      expect((s.expect ?? []).map((e) => (e.violates ?? []).length > 0).sort()).toEqual([false, true]);
      for (const e of s.expect ?? []) expect(checkLedgerExpectation(replayLedger(withLedgerOverrides(s, e.overrides as Record<string, Json> | undefined), open), e), e.label).toEqual([]);
    });
  });
}

// Stripe answers a duplicate whose key is still being processed with 409 idempotency_key_in_use (issue 11).
describe('an idempotency key held while in progress', () => {
  it('409 at 1000 and 2000 ms, the stored result at 3000 ms (the commit comes first in that millisecond)', () => {
    const t = replayLedger(file('G-key-in-progress.json'), open);
    const answeredAt = (key: string) => t.steps.find((s) => s.effects.some((e) => e.from === 'server' && e.requestKey === key))?.at;
    expect(answeredAt('2')).toBe(1000);
    expect(answeredAt('"2-r1"')).toBe(2000);
    expect(answeredAt('"2-r2"')).toBe(3000);
    expect(answeredAt('1')).toBe(3000);
    expect(call(t, '"2-r2"')).toMatchObject({ reply: 'replayed', receipt: 'charge-001', resultRequestId: 1, idempotencyKey: 'pay-77' });
    expect(t.outcome.summary).toMatchObject({ executions: 1, inUse: 2, replayed: 1, inUseRetries: 2 });
    const text = t.steps.flatMap((s) => s.effects).map((e) => JSON.stringify(e.message)).join('\n');
    expect(text).toContain('409 idempotency_key_in_use');
    // every retry is a new JSON-RPC request carrying the same key
    const sent = t.steps.flatMap((s) => s.effects).filter((e) => e.from === 'client').map((e) => e.message as { id: Json; params: { arguments: { idempotencyKey?: string } } });
    expect(sent.map((m) => m.id)).toEqual([1, 2, '2-r1', '2-r2']);
    expect(new Set(sent.map((m) => m.params.arguments.idempotencyKey))).toEqual(new Set(['pay-77']));
  });

  it('the default "scripted" client adds no retries of its own (the earlier scenarios keep their numbers)', () => {
    const s = file('G-key-in-progress.json');
    const t = replayLedger(withLedgerOverrides(s, { onInUse: 'scripted' }), open);
    expect(t.outcome.summary).toMatchObject({ inUse: 1, replayed: 0, inUseRetries: 0, gaveUpOnInUse: 0 });
    expect(violated(t)).toEqual([]);
  });

  it('the retry budget ends the wait: 2 retries of 500 ms before a 3000 ms commit → the client gives up at 1000 + 2·500 ms', () => {
    const s = file('G-key-in-progress.json');
    const t = replayLedger(withLedgerOverrides(s, { inUseRetryMs: 500, inUseMaxRetries: 2 }), open);
    expect(t.outcome.summary).toMatchObject({ inUse: 3, replayed: 0, inUseRetries: 2, gaveUpOnInUse: 1 });
    expect(violated(t)).toEqual(['in-progress-is-not-final']);
    expect(t.invariants.find((i) => i.name === 'in-progress-is-not-final')!.firstViolation!.at).toBe(2000);
  });

  it('give-up violates at the first 409 (1000 ms)', () => {
    const t = replayLedger(withLedgerOverrides(file('G-key-in-progress.json'), { onInUse: 'give-up' }), open);
    expect(t.invariants.find((i) => i.name === 'in-progress-is-not-final')!.firstViolation!.at).toBe(1000);
  });
});

// agentmail-mcp#49 (number from issue 11): the MCP layer never forwards the key, the same send sends twice.
describe('a tool layer that drops the key', () => {
  it('the same call with the same key executes twice; with the key forwarded, once', () => {
    const s = file('H-tool-layer-drops-key.json');
    const bad = replayLedger(withLedgerOverrides(s, { toolLayer: 'drops-key' }), open);
    expect(bad.outcome.summary).toMatchObject({ executions: 2, charges: 2, keysDropped: 2 });
    expect(bad.outcome.summary.receipts).toEqual(['charge-001', 'charge-002']);
    // the client did send the key: the loss is in the layer, not on the wire
    const sent = bad.steps.flatMap((st) => st.effects).filter((e) => e.from === 'client').map((e) => (e.message as { params: { arguments: { idempotencyKey?: string } } }).params.arguments.idempotencyKey);
    expect(sent).toEqual(['msg-881', 'msg-881']);
    expect(violated(bad)).toEqual(['at-most-once', 'key-reaches-upstream']);
    const good = replayLedger(s, open);
    expect(good.outcome.summary).toMatchObject({ executions: 1, charges: 1, replayed: 1, keysDropped: 0 });
  });

  it('a call with no key is not "dropped" (nothing to forward)', () => {
    const s = build({ toolLayer: 'drops-key' }, [{ id: 'c', at: 0, actor: 'client', kind: 'call', requestId: 1, key: null }]);
    const t = replayLedger(s, open);
    expect(t.outcome.summary.keysDropped).toBe(0);
    expect(violated(t)).toEqual([]);
  });
});
