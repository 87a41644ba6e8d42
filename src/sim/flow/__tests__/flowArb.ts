import fc from 'fast-check';
import type { Json, Scenario } from '../../types';
import { BUFFER_POLICIES } from '../buffer';
import { mkFlow } from './helpers';

/**
 * A broad generator of flow scenarios for the differential test (new core vs. the oracle): every
 * buffer policy and a small capacity, 0–3 producers (some with a final), a paced or instant reader,
 * a proxy (buffering or not, flush interval, read timeout, nginx-like header handling, a full-buffer
 * flush), keep-alives, an operation with or without an idle timeout, both bugs, both revisions, an
 * optional fleet (cap with reject or evict-oldest, restart, jitter), and scripted progress, finals,
 * keep-alives, stalls and drops at random times (list order decides same-millisecond ties).
 */
const TOKENS = ['A', 'B', 'C'] as const;

const producerArb = fc.record({
  token: fc.constantFrom(...TOKENS),
  startMs: fc.integer({ min: 0, max: 400 }),
  intervalMs: fc.integer({ min: 1, max: 120 }),
  count: fc.integer({ min: 0, max: 15 }),
  final: fc.boolean(),
});

const fleetArb = fc.record({
  clients: fc.integer({ min: 1, max: 8 }),
  connectAtMs: fc.option(fc.integer({ min: 0, max: 200 }), { nil: null }),
  maxStreams: fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }),
  atCap: fc.constantFrom('evict-oldest', 'reject'),
  evictedReconnectMs: fc.integer({ min: 50, max: 800 }), // 0 would evict and readmit forever within one millisecond (a runaway up to maxSteps)
  retryAfterS: fc.integer({ min: 1, max: 2 }),
  restart: fc.option(fc.record({ atMs: fc.integer({ min: 0, max: 1500 }), durationMs: fc.integer({ min: 0, max: 1200 }) }), { nil: null }),
  reconnectDelayMs: fc.integer({ min: 0, max: 700 }),
  jitterMs: fc.constantFrom(0, 0, 50, 300),
});

const eventArb = fc.record({
  kind: fc.constantFrom('progress', 'progress', 'progress', 'final', 'keepalive', 'stall', 'drop'),
  at: fc.integer({ min: 0, max: 3000 }),
  token: fc.constantFrom(...TOKENS),
  durationMs: fc.integer({ min: 1, max: 1500 }),
});

/** A generated event draw (`flowEventArb`): the kind, its time, and the token / duration the kind uses. */
export interface FlowEventDraw {
  kind: string;
  at: number;
  token: string;
  durationMs: number;
}

/** Scripted flow events `e0`, `e1`, … from generated draws (progress/final/keepalive by the server, stall by the client, drop on the wire). */
export function flowEventsOf(draws: readonly FlowEventDraw[]): Record<string, Json>[] {
  return draws.map((e, i): Record<string, Json> => {
    const id = `e${i}`;
    if (e.kind === 'progress' || e.kind === 'final') return { id, at: e.at, actor: 'server', kind: e.kind, token: e.token };
    if (e.kind === 'keepalive') return { id, at: e.at, actor: 'server', kind: 'keepalive' };
    if (e.kind === 'stall') return { id, at: e.at, actor: 'client', kind: 'stall', durationMs: e.durationMs };
    return { id, at: e.at, actor: 'wire', kind: 'drop' };
  });
}

/** Generated flow scenarios (validated through the lab's schema). */
export const flowScenarioArb: fc.Arbitrary<Scenario> = fc
  .record({
    seed: fc.integer({ min: 0, max: 1_000_000 }),
    revision: fc.constantFrom('2026-07-28', '2025-11-25'),
    policy: fc.constantFrom(...BUFFER_POLICIES),
    capacityEvents: fc.integer({ min: 2, max: 6 }),
    producers: fc.array(producerArb, { maxLength: 3 }),
    readIntervalMs: fc.constantFrom(0, 0, 5, 40),
    proxy: fc.record({
      enabled: fc.boolean(),
      buffering: fc.boolean(),
      flushIntervalMs: fc.integer({ min: 50, max: 900 }),
      readTimeoutMs: fc.option(fc.integer({ min: 30, max: 1200 }), { nil: null }),
      honoursAccelBuffering: fc.boolean(),
      bufferEvents: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
    }),
    keepAliveIntervalMs: fc.option(fc.integer({ min: 100, max: 900 }), { nil: null }),
    operationToken: fc.option(fc.constantFrom(...TOKENS), { nil: null }),
    idleTimeoutMs: fc.option(fc.integer({ min: 30, max: 2000 }), { nil: null }),
    reconnectDelayMs: fc.integer({ min: 0, max: 900 }),
    horizonMs: fc.integer({ min: 500, max: 3000 }),
    bugs: fc.record({ keepAliveResetsIdle: fc.boolean(), omitAccelBufferingHeader: fc.boolean() }),
    fleet: fc.option(fleetArb, { nil: null, freq: 3 }),
    events: fc.array(eventArb, { maxLength: 25 }),
  })
  .map((g) => {
    const events = flowEventsOf(g.events);
    return mkFlow(
      {
        revision: g.revision,
        policy: g.policy,
        capacityEvents: g.capacityEvents,
        producers: g.producers,
        consumer: { readIntervalMs: g.readIntervalMs },
        proxy: g.proxy,
        keepAliveIntervalMs: g.keepAliveIntervalMs,
        client: { operationToken: g.operationToken, idleTimeoutMs: g.idleTimeoutMs, reconnectDelayMs: g.reconnectDelayMs },
        horizonMs: g.horizonMs,
        bugs: g.bugs,
        fleet: g.fleet,
      } as unknown as Record<string, Json>,
      events,
      g.seed,
    );
  });
