import fc from 'fast-check';
import { BACKOFF_STRATEGIES } from '../../retry/backoff';
import type { Json, Scenario } from '../../types';
import { mk } from './helpers';

/**
 * Broad generators of resilience scenarios for the differential test (new core vs. the oracle),
 * one per mechanism: random times and list order (the tie rule), every config switch and broken
 * policy, repeated and foreign events (another mechanism's kinds, which are ignored).
 */

const ms = (max: number) => fc.integer({ min: 0, max });
const rarely = fc.integer({ min: 0, max: 3 }).map((v) => v === 0);
const sometimes = fc.boolean();

type Ev = Record<string, Json>;
const ev = (kind: string, actor: string, at: number, extra: Ev = {}): Ev => ({ kind, actor, at, ...extra });

/** Events with ids in list order (ids e0, e1, … — the list order is the tie order at one ms). */
function withIds(events: Ev[]): Record<string, Json>[] {
  return events.map((e, i) => ({ id: `e${i}`, ...e }));
}

const taskEvent: fc.Arbitrary<Ev> = fc.oneof(
  { weight: 1, arbitrary: ms(400).map((at) => ev('call', 'client', at)) },
  { weight: 2, arbitrary: ms(3000).map((at) => ev('created', 'server', at)) },
  { weight: 2, arbitrary: ms(6000).map((at) => ev('abort', 'client', at)) },
  { weight: 3, arbitrary: ms(6000).map((at) => ev('checkpoint', 'worker', at)) },
  { weight: 2, arbitrary: fc.record({ at: ms(6000), outcome: fc.constantFrom('completed', 'failed') }).map(({ at, outcome }) => ev('finish', 'worker', at, { outcome })) },
  { weight: 2, arbitrary: ms(6000).map((at) => ev('input-required', 'worker', at)) },
  { weight: 2, arbitrary: ms(6000).map((at) => ev('resume', 'worker', at)) },
  { weight: 1, arbitrary: ms(6000).map((at) => ev('outage', 'upstream', at)) },
);

/** Durable tasks: both revisions and transports, latency, poll interval, ttl, durable write, crash, every policy bug. */
export const tasksScenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    revision: fc.constantFrom('2026-07-28', '2025-11-25'),
    transport: fc.constantFrom('stdio', 'streamable-http'),
    c2s: ms(200),
    s2c: ms(200),
    pollIntervalMs: fc.integer({ min: 50, max: 1500 }),
    ttlMs: fc.integer({ min: 500, max: 20_000 }),
    durableWriteMs: fc.oneof(fc.constant(0), ms(800)),
    crash: fc.option(ms(4000), { nil: null }),
    policy: fc.record({ cancelOverwritesTerminal: rarely, forgetEarlyAbort: rarely, cancelWithNotification: rarely, handleBeforeDurable: rarely }),
    callAt: ms(300),
    events: fc.array(taskEvent, { maxLength: 8 }),
  })
  .map((v) =>
    mk(
      { mechanism: 'tasks', revision: v.revision, transport: v.transport, latencyMs: { clientToServer: v.c2s, serverToClient: v.s2c }, pollIntervalMs: v.pollIntervalMs, ttlMs: v.ttlMs, durableWriteMs: v.durableWriteMs, serverCrashAtMs: v.crash, policy: v.policy },
      withIds([ev('call', 'client', v.callAt), ...v.events]),
    ),
  );

const breakerEvent: fc.Arbitrary<Ev> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ at: ms(3000), count: fc.oneof(fc.constant(1), fc.integer({ min: 1, max: 6 })) }).map(({ at, count }) => ev('request', 'client', at, { count })) },
  { weight: 2, arbitrary: ms(3000).map((at) => ev('outage', 'upstream', at)) },
  { weight: 2, arbitrary: ms(3000).map((at) => ev('recover', 'upstream', at)) },
  { weight: 1, arbitrary: ms(3000).map((at) => ev('checkpoint', 'worker', at)) },
);

const FAIL_WITH = ['http-503', 'http-429', 'http-500', 'http-502', 'http-504', 'http-408', 'http-400', 'http-422', 'jsonrpc-32603', 'jsonrpc-32602', 'tool-error', 'network', 'partial-stream', 'client-timeout'];

/** Breaker + retry: both compositions, window and naive breakers, every retry strategy and budget, every failure kind. */
export const breakerScenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    composition: fc.constantFrom('retry-around-breaker', 'breaker-around-retry'),
    breaker: fc.record({ failureThreshold: fc.integer({ min: 1, max: 6 }), failureRateThreshold: fc.constantFrom(0.2, 0.5, 1), windowMs: fc.integer({ min: 1, max: 1500 }), cooldownMs: fc.integer({ min: 1, max: 800 }), halfOpenPermits: fc.integer({ min: 1, max: 3 }) }),
    retry: fc.record({
      maxAttempts: fc.integer({ min: 1, max: 4 }),
      strategy: fc.constantFrom(...BACKOFF_STRATEGIES),
      baseMs: ms(200),
      capExtraMs: ms(1000),
      budget: fc.constantFrom('none', 'token-bucket', 'ratio'),
      maxTokens: fc.integer({ min: 1, max: 10 }),
      tokenRatio: fc.constantFrom(0.1, 0.5, 1),
      retryRatio: fc.constantFrom(0, 0.1, 0.5, 1),
      onRejection: fc.constantFrom('fail-fast', 'wait-for-reset', 'backoff'),
    }),
    downstream: fc.record({ latencyMs: fc.integer({ min: 1, max: 300 }), failingAtStart: sometimes, failWith: fc.constantFrom(...FAIL_WITH), retryAfterMs: fc.option(ms(2000), { nil: null }) }),
    operation: fc.record({ sideEffect: sometimes, idempotencyKey: fc.constantFrom('', 'k-1') }),
    policy: fc.record({ consecutiveNeverDecays: rarely, halfOpenAdmitsAll: rarely, staleResultsCounted: rarely, resetTimerLostOnRepeatOpen: rarely }),
    events: fc.array(breakerEvent, { minLength: 1, maxLength: 12 }),
  })
  // The backoff needs capMs ≥ baseMs (it throws otherwise), so the cap is drawn above the base.
  .map((v) => mk({ mechanism: 'breaker', composition: v.composition, breaker: v.breaker, retry: (({ capExtraMs, ...r }) => ({ ...r, capMs: r.baseMs + capExtraMs }))(v.retry), downstream: v.downstream, operation: v.operation, policy: v.policy }, withIds(v.events)));

const stormEvent: fc.Arbitrary<Ev> = fc.oneof(
  { weight: 1, arbitrary: ms(500).map((at) => ev('request', 'client', at)) },
  { weight: 2, arbitrary: ms(6000).map((at) => ev('cancel', 'client', at)) },
  { weight: 2, arbitrary: ms(6000).map((at) => ev('recover', 'upstream', at)) },
  { weight: 1, arbitrary: ms(6000).map((at) => ev('outage', 'upstream', at)) },
  { weight: 1, arbitrary: ms(6000).map((at) => ev('finish', 'worker', at)) },
);

/** Retry storm: 1–3 layers (some in one process), timeouts, retries, backoff, every upstream option and fix. */
export const stormScenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    layers: fc.array(fc.record({ timeoutMs: fc.option(fc.integer({ min: 1, max: 2000 }), { nil: null }), maxRetries: fc.integer({ min: 0, max: 3 }), backoffMs: ms(300), process: fc.constantFrom(null, null, 'app', 'sdk') }), { minLength: 1, maxLength: 3 }),
    upstream: fc.record({ runMs: fc.integer({ min: 1, max: 3000 }), failingAtStart: sometimes, failStatus: fc.constantFrom(429, 500, 502, 503, 504), duplicateGuardMaxRuns: fc.option(fc.integer({ min: 1, max: 3 }), { nil: null }), receiptAfterMs: fc.option(fc.integer({ min: 1, max: 2000 }), { nil: null }), pollIntervalMs: fc.integer({ min: 1, max: 2000 }) }),
    cancelPropagationMs: ms(600),
    retryBudgetRatio: fc.constantFrom(0, 0.1, 0.5, 1),
    // cancelPropagation stays off: issue 13 item 5 changed its rule on purpose (cancelPropagationMs is the whole chain, not one
    // hop), so the oracle — the old per-hop rule — no longer agrees there. The new rule has its own tests (scenarios, S2, golden).
    fixes: fc.record({ retryAtOneLayerOnly: rarely, deadlinePropagation: rarely, retryBudget: rarely, cancelPropagation: fc.constant(false), idempotencyKeys: rarely, oneRetryLayerPerProcess: rarely }),
    requestAt: ms(300),
    events: fc.array(stormEvent, { maxLength: 6 }),
  })
  .map((v) =>
    mk(
      { mechanism: 'storm', layers: v.layers.map((l, i) => ({ name: `layer${i}`, ...l })), upstream: v.upstream, cancelPropagationMs: v.cancelPropagationMs, retryBudgetRatio: v.retryBudgetRatio, fixes: v.fixes },
      withIds([ev('request', 'client', v.requestAt), ...v.events]),
    ),
  );

/** Any resilience scenario, the three mechanisms in equal measure. */
export const resilienceScenarioArb: fc.Arbitrary<Scenario> = fc.oneof(tasksScenarioArb, breakerScenarioArb, stormScenarioArb);
