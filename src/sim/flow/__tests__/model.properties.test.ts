import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkMessage } from '../../../wire/schemaCheck';
import type { Json } from '../../types';
import { BUFFER_POLICIES } from '../buffer';
import { loadFlowScenarios, mkFlow, runFlow, violatedFlow } from './helpers';
import { flowEventsOf } from './flowArb';

/**
 * Random streams through the whole model: two tokens' progress and finals at random times, stalls,
 * drops and keep-alives, an optional proxy that buffers, under every policy. Checked after every
 * step: the lesson policy never exceeds capacity, never drops a final, leaves no silent gap; only
 * drop-silent may leave one; keep-alives never move the idle deadline.
 */
const eventArb = fc.record({
  kind: fc.constantFrom('progress', 'progress', 'progress', 'final', 'keepalive', 'stall', 'drop'),
  at: fc.integer({ min: 0, max: 3000 }),
  token: fc.constantFrom('A', 'B'),
  durationMs: fc.integer({ min: 1, max: 1500 }),
});

const scenarioArb = fc.record({
  policy: fc.constantFrom(...BUFFER_POLICIES),
  capacityEvents: fc.integer({ min: 2, max: 6 }),
  readIntervalMs: fc.constantFrom(0, 0, 5, 40),
  proxy: fc.boolean(),
  buffering: fc.boolean(),
  idle: fc.option(fc.integer({ min: 50, max: 2000 }), { nil: null }),
  events: fc.array(eventArb, { maxLength: 40 }),
});

describe('flow model properties over random streams', () => {
  it('invariants hold for every policy but the broken one, at every step', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const events = flowEventsOf(s.events);
        const scenario = mkFlow(
          {
            policy: s.policy,
            capacityEvents: s.capacityEvents,
            consumer: { readIntervalMs: s.readIntervalMs },
            proxy: { enabled: s.proxy, buffering: s.buffering, flushIntervalMs: 700, readTimeoutMs: 900 },
            client: { operationToken: 'A', idleTimeoutMs: s.idle, reconnectDelayMs: 200 },
            horizonMs: 6000,
          },
          events,
        );
        const t = runFlow(scenario);
        expect(t.truncated).toBe(false);
        const violated = violatedFlow(t);
        expect(violated).not.toContain('keepalive-not-progress');
        if (s.policy === 'lesson') {
          expect(violated).toEqual([]);
          for (const step of t.steps) {
            expect(step.state.buffer.size).toBeLessThanOrEqual(s.capacityEvents);
            expect(step.state.buffer.finalsDropped).toBe(0);
          }
        }
        if (s.policy === 'disconnect') expect(violated).toEqual([]);
        if (s.policy !== 'drop-silent') expect(t.outcome.summary.silentlyLost).toBe(0);
        // Keep-alive steps never change the idle deadline.
        for (let i = 1; i < t.steps.length; i++) {
          if (t.steps[i].entry.kind === 'keepalive') expect(t.steps[i].state.op.idleDeadlineAt).toBe(t.steps[i - 1].state.op.idleDeadlineAt);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('the broken policy produces a counterexample (so the property can fail)', () => {
    const t = runFlow(
      mkFlow({ policy: 'drop-silent', capacityEvents: 2 }, [
        { id: 's', at: 0, actor: 'client', kind: 'stall', durationMs: 100 },
        { id: 'a', at: 1, actor: 'server', kind: 'progress', token: 'A' },
        { id: 'b', at: 2, actor: 'server', kind: 'progress', token: 'B' },
        { id: 'c', at: 3, actor: 'server', kind: 'progress', token: 'C' },
      ]),
    );
    expect(violatedFlow(t)).toEqual(['no-silent-gap']);
  });
});

describe('emitted MCP messages validate against the official schemas', () => {
  it('every JSON-RPC message of every built-in scenario, under both revisions', () => {
    for (const { scenario } of loadFlowScenarios()) {
      for (const revision of ['2026-07-28', '2025-11-25'] as const) {
        const t = runFlow(scenario, { revision });
        const seen = new Set<string>();
        for (const e of t.effects) {
          if (e.message === undefined) continue;
          const m = e.message as { method?: string };
          const kind = m.method ?? 'response';
          if (seen.has(kind)) continue; // one of each kind per run keeps the test fast
          seen.add(kind);
          const check = checkMessage(revision, e.message as Json, m.method ? undefined : 'tools/call');
          expect(check.errors, `${scenario.id} ${revision} ${kind}`).toEqual([]);
        }
      }
    }
  });
});
