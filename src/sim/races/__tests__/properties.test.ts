import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { replayRaces, type RacesTrace } from '..';
import { mk } from './helpers';
import type { Json } from '../../types';

/**
 * Random scenarios: 1–3 calls with random timeouts, progress, keep-alives, completions, cancels and
 * disconnects at random times and in random list order (which decides same-millisecond ties),
 * under a random revision, transport and latency. Every call has a maximum timeout, so every call
 * must end.
 */
const scenarioArb = (policy: Record<string, boolean> = {}) =>
  fc
    .record({
      revision: fc.constantFrom('2026-07-28', '2025-11-25'),
      transport: fc.constantFrom('stdio', 'streamable-http'),
      c2s: fc.integer({ min: 0, max: 40 }),
      s2c: fc.integer({ min: 0, max: 40 }),
      calls: fc.array(
        fc.record({
          startAt: fc.integer({ min: 0, max: 200 }),
          token: fc.boolean(),
          idle: fc.option(fc.integer({ min: 20, max: 400 }), { nil: null }),
          maxExtra: fc.integer({ min: 0, max: 800 }),
          cancellable: fc.boolean(),
          actions: fc.array(
            fc.record({
              kind: fc.constantFrom('progress', 'progress', 'progress', 'keepalive', 'complete', 'error', 'cancel', 'disconnect'),
              at: fc.integer({ min: 0, max: 1500 }),
              value: fc.integer({ min: 0, max: 20 }),
            }),
            { maxLength: 10 },
          ),
        }),
        { minLength: 1, maxLength: 3 },
      ),
      order: fc.array(fc.integer(), { minLength: 40, maxLength: 40 }),
    })
    .map(({ revision, transport, c2s, s2c, calls, order }) => {
      const events: Record<string, Json>[] = [];
      calls.forEach((c, i) => {
        const requestId = i + 1;
        const idle = c.idle;
        const max = (idle ?? 50) + c.maxExtra;
        events.push({ id: `start-${requestId}`, at: c.startAt, actor: 'client', kind: 'start', requestId, ...(c.token ? { progressToken: `t${requestId}` } : {}), idleTimeoutMs: idle, maxTimeoutMs: max, cancellable: c.cancellable });
        c.actions.forEach((a, j) => {
          const at = c.startAt + a.at;
          const id = `${a.kind}-${requestId}-${j}`;
          if (a.kind === 'progress') events.push({ id, at, actor: 'server', kind: 'progress', requestId, progress: a.value });
          else if (a.kind === 'keepalive') events.push({ id, at, actor: 'server', kind: 'keepalive', requestId });
          else if (a.kind === 'complete') events.push({ id, at, actor: 'server', kind: 'complete', requestId });
          else if (a.kind === 'error') events.push({ id, at, actor: 'server', kind: 'error', requestId, code: -32603, message: 'boom' });
          else events.push({ id, at, actor: 'client', kind: a.kind, requestId });
        });
      });
      // A random list order: same-millisecond scripted events run in list order (the tie rule).
      const keyed = events.map((e, i) => ({ e, k: order[i % order.length] + i * 1e-6 }));
      keyed.sort((a, b) => a.k - b.k);
      return mk({ revision, transport, latencyMs: { clientToServer: c2s, serverToClient: s2c }, policy }, keyed.map((x) => x.e));
    });

function acceptedProgress(trace: RacesTrace, key: string): { at: number; value: number; terminalAt: number | null }[] {
  const out: { at: number; value: number; terminalAt: number | null }[] = [];
  let prevCount = 0;
  for (const step of trace.steps) {
    const i = step.state.indexOf[key];
    if (i === undefined) continue;
    const r = step.state.requests[i];
    if (r.client.progressAccepted > prevCount) {
      out.push({ at: step.at, value: r.client.lastProgress as number, terminalAt: null });
      prevCount = r.client.progressAccepted;
    }
  }
  return out;
}

const RUNS = { numRuns: 300, seed: 20261130 };

/** Runs `check` on the trace of each of RUNS generated scenarios of the correct policy. */
const everyTrace = (check: (t: RacesTrace) => void) => fc.assert(fc.property(scenarioArb(), (s) => check(replayRaces(s))), RUNS);

/** Every wire effect of `t` that belongs to a request, with its step, the request key and its message (if any). */
function* requestEffects(t: RacesTrace) {
  for (const step of t.steps) for (const e of step.effects) if (e.requestKey) yield { step, e, key: e.requestKey, m: e.message as Record<string, unknown> | undefined };
}

describe('properties of the correct policy (random event times and orders)', () => {
  it('every call ends in exactly one terminal state', () => {
    everyTrace((t) => {
      const final = t.steps.length ? t.steps[t.steps.length - 1].state : t.initial;
      for (const r of final.requests) {
        expect(r.client.state).not.toBe('pending');
        expect(r.client.terminalSets).toBe(1);
      }
      // Once terminal, the state never changes in any later step.
      for (const r of final.requests) {
        for (const step of t.steps) {
          const x = step.state.requests[step.state.indexOf[r.key]];
          if (x && x.client.state !== 'pending') expect([x.client.state, x.client.atMs]).toEqual([r.client.state, r.client.atMs]);
        }
      }
    });
  });

  it('no response is sent after the server accepts a cancellation', () => {
    everyTrace((t) => {
      for (const { step, e, key, m } of requestEffects(t)) {
        if (e.from !== 'server' || !m || !('result' in m || 'error' in m)) continue;
        const before = step.index > 0 ? t.steps[step.index - 1].state : t.initial;
        const r = before.requests[before.indexOf[key]];
        expect(r.server.cancelAcceptedAt).toBeNull();
      }
    });
  });

  it('accepted progress strictly increases and none is accepted after the call ended', () => {
    everyTrace((t) => {
      const final = t.steps.length ? t.steps[t.steps.length - 1].state : t.initial;
      for (const r of final.requests) {
        const seen = acceptedProgress(t, r.key);
        for (let i = 1; i < seen.length; i++) expect(seen[i].value).toBeGreaterThan(seen[i - 1].value);
        for (const p of seen) expect(p.at).toBeLessThanOrEqual(r.client.atMs as number);
        expect(r.client.progressAfterEnd).toBe(0);
      }
      // The server never sends progress after the request ended on its side.
      for (const { step, key, m } of requestEffects(t)) {
        if (m?.method !== 'notifications/progress') continue;
        const r = step.state.requests[step.state.indexOf[key]];
        expect(r.server.state).toBe('working');
      }
    });
  });

  it('the maximum deadline never moves and no call outlives it', () => {
    everyTrace((t) => {
      for (const step of t.steps) {
        for (const r of step.state.requests) {
          if (r.maxTimeoutMs === null) continue;
          expect(r.maxDeadlineAt).toBe(r.startAt + r.maxTimeoutMs);
          if (r.client.atMs !== null) expect(r.client.atMs).toBeLessThanOrEqual(r.startAt + r.maxTimeoutMs);
        }
      }
    });
  });

  it('no named invariant is ever violated', () => {
    everyTrace((t) => {
      expect(t.invariants.filter((i) => i.firstViolation).map((i) => `${i.name}: ${i.firstViolation?.message}`)).toEqual([]);
    });
  });

  it('replay is deterministic: the same scenario gives the same trace', () => {
    fc.assert(
      fc.property(scenarioArb(), (s) => {
        expect(JSON.stringify(replayRaces(s))).toBe(JSON.stringify(replayRaces(JSON.parse(JSON.stringify(s)))));
      }),
      { numRuns: 50, seed: 7 },
    );
  });
});

describe('every broken policy produces a counterexample', () => {
  const policies: [string, string][] = [
    ['progressResetsMaximum', 'maximum-deadline-fixed'],
    ['idleTimeoutOnly', 'maximum-enforced'],
    ['maximumCheckedOnProgress', 'maximum-enforced'],
    ['progressTokenOmitted', 'progress-keeps-alive'],
    ['respondAfterCancel', 'no-response-after-cancel'],
    ['clientNeverSettles', 'cancel-settles'],
    ['timeoutWithoutCancel', 'abandon-signals-server'],
    ['httpPostsCancel', 'transport-signal'],
  ];
  for (const [policy, invariant] of policies) {
    it(`${policy}: fast-check finds a scenario that violates ${invariant}`, () => {
      const result = fc.check(
        fc.property(scenarioArb({ [policy]: true }), (s) => replayRaces(s).invariants.find((i) => i.name === invariant)?.firstViolation === null),
        { numRuns: 2000, seed: 42 },
      );
      expect(result.failed).toBe(true);
      const counterexample = result.counterexample?.[0];
      expect(counterexample).toBeDefined();
      // The shrunk counterexample really violates the invariant, and only under the broken policy.
      const broken = replayRaces(counterexample!);
      expect(broken.invariants.find((i) => i.name === invariant)?.firstViolation).not.toBeNull();
      const fixed = replayRaces({ ...counterexample!, config: { ...counterexample!.config, policy: { ...(counterexample!.config.policy as object), [policy]: false } } });
      expect(fixed.invariants.find((i) => i.name === invariant)?.firstViolation).toBeNull();
    });
  }
});
