import fc from 'fast-check';
import { countInterleavings, movableLanes } from '../../explore';
import { parseScenario } from '../../scenario';
import type { Json } from '../../types';
import { ledgerLaneOf } from '..';
import { LEDGER_SCHEMAS } from './helpers';

/** Small generated ledger scenarios: both connections' steps (a lane-ordered subset), calls with keys, durations, timeouts and retries, any config. */
export const ledgerScenarioArb = fc
  .record({
    policy: fc.constantFrom('naive', 'deferred', 'immediate', 'claim'),
    busy: fc.constantFrom('wait', 'error'),
    dedupe: fc.constantFrom('key', 'none'),
    onInUse: fc.constantFrom('scripted', 'give-up', 'wait-retry'),
    clientKey: fc.constantFrom('stable', 'per-attempt'),
    toolLayer: fc.constantFrom('forwards-key', 'drops-key'),
    stepsA: fc.subarray(['begin', 'read', 'execute', 'write', 'commit'], { maxLength: 4 }),
    stepsB: fc.subarray(['begin', 'read', 'execute', 'write', 'commit'], { maxLength: 4 }),
    stepTimes: fc.array(fc.integer({ min: 0, max: 40 }), { minLength: 10, maxLength: 10 }),
    calls: fc.array(
      fc.record({
        at: fc.integer({ min: 0, max: 40 }),
        key: fc.constantFrom(null, 'k1', 'order-42'),
        durationMs: fc.integer({ min: 0, max: 30 }),
        timeoutMs: fc.option(fc.integer({ min: 1, max: 30 })),
        retryAt: fc.option(fc.integer({ min: 0, max: 50 })),
      }),
      { maxLength: 3 },
    ),
    moveCalls: fc.boolean(),
  })
  .map((g) => {
    const events: Record<string, Json>[] = [];
    const lane = (conn: 'A' | 'B', kinds: string[], times: number[]) => {
      const ts = times.slice(0, kinds.length).sort((a, b) => a - b);
      kinds.forEach((kind, i) => events.push({ id: `${conn}-${kind}`, at: ts[i], actor: 'db', kind, conn }));
    };
    lane('A', g.stepsA, g.stepTimes.slice(0, 5));
    lane('B', g.stepsB, g.stepTimes.slice(5));
    g.calls.forEach((c, i) => {
      events.push({ id: `call-${i}`, at: c.at, actor: 'client', kind: 'call', requestId: i + 1, key: c.key, durationMs: c.durationMs, timeoutMs: c.timeoutMs });
      if (c.retryAt !== null) events.push({ id: `retry-${i}`, at: c.retryAt, actor: 'client', kind: 'retry', requestId: `r${i + 1}`, of: i + 1 });
    });
    events.sort((a, b) => (a.at as number) - (b.at as number));
    const parsed = parseScenario(
      { format: 1, lab: 'ledger', id: 'gen', title: 'generated', seed: 1, config: { policy: g.policy, busy: g.busy, dedupe: g.dedupe, onInUse: g.onInUse, clientKey: g.clientKey, toolLayer: g.toolLayer, inUseRetryMs: 7 }, events },
      'ledger',
      LEDGER_SCHEMAS,
    );
    if (!parsed.ok) throw new Error(parsed.errors.join('; '));
    const s = parsed.scenario;
    const steps = s.events.filter((e) => e.actor === 'db').map((e) => e.id);
    const all = s.events.map((e) => e.id);
    // Client events move too (a third lane) when that keeps the orders few (at most 140).
    const movable = g.moveCalls && countInterleavings(movableLanes(s, all, ledgerLaneOf).map((l) => l.length)) <= 140 ? all : steps;
    return { s, movable };
  });

