/**
 * The resilience lab's part of the chaos swarm (src/sim/chaos): all five postmortem faults — upstream
 * latency (tasks: the worker; breaker: the downstream's latency; storm: the upstream's run time),
 * connection resets (breaker: attempts fail with `network`; storm: a brief outage; tasks: a lost
 * response resent after a reconnect), forged cancels (tasks: an `abort`; storm: a `cancel`), a
 * partition between two layers (breaker / storm: an outage window; tasks: both directions delayed by
 * the partition), quota exhaustion (breaker: 429 with Retry-After from then on; storm: an outage that
 * does not end; tasks: the work fails). No liveness check (calls end by their deadlines).
 */
import { randomInt } from '../rng';
import type { LabChaos } from '../lab';
import type { Json, Scenario, ScriptedEvent } from '../types';
import { CONNECTION_RESET_RATE, chance, drawLatencyMs, freshId, lastAtMs, obj, shiftWhere, type Cfg, type Fault, type Faulted } from '../chaos/faults';

function outageWindow(events: ScriptedEvent[], name: string, at: number, untilMs: number | null): ScriptedEvent[] {
  const out = events.slice();
  out.push({ id: freshId(out, `${name}-down`), at, actor: 'upstream', kind: 'outage' });
  if (untilMs !== null) out.push({ id: freshId(out, `${name}-up`), at: untilMs, actor: 'upstream', kind: 'recover' });
  return out;
}

function resilienceFaults(s: Scenario, random: () => number): Faulted {
  let events = s.events.slice();
  let config = s.config as Cfg;
  const faults: Fault[] = [];
  const end = Math.max(1, lastAtMs(events));
  const mechanism = config.mechanism;
  if (mechanism === 'tasks') {
    const latency = obj(config.latencyMs);
    let c2s = (latency.clientToServer as number) ?? 0;
    let s2c = (latency.serverToClient as number) ?? 0;
    if (chance(random, 0.5)) {
      const d = drawLatencyMs(random);
      events = shiftWhere(events, (e) => e.actor === 'worker', d);
      faults.push({ kind: 'upstream-latency', target: 'worker', durationMs: d, effect: `the worker's steps happen ${d} ms later` });
    }
    if (chance(random, CONNECTION_RESET_RATE)) {
      const d = randomInt(random, 100, 2000);
      s2c += d;
      faults.push({ kind: 'connection-reset', target: 'server → client', durationMs: d, effect: `responses are lost and resent after a ${d} ms reconnect` });
    }
    if (chance(random, 0.3)) {
      const d = drawLatencyMs(random);
      c2s += d;
      s2c += d;
      faults.push({ kind: 'partition', target: 'client ↔ server', durationMs: d, effect: `every message waits out a ${d} ms partition` });
    }
    if (chance(random, 0.5)) {
      const at = randomInt(random, 0, end);
      events.push({ id: freshId(events, 'forged-abort'), at, actor: 'client', kind: 'abort' });
      faults.push({ kind: 'forged-cancel', target: 'task', atMs: at, effect: 'a forged abort (tasks/cancel) is sent' });
    }
    if (chance(random, 0.2)) {
      events = events.map((e) => (e.kind === 'finish' ? { ...e, outcome: 'failed', text: 'quota exhausted' } : e));
      faults.push({ kind: 'quota-exhausted', target: 'worker', effect: 'the upstream quota runs out: the work fails' });
    }
    config = { ...config, latencyMs: { clientToServer: Math.min(c2s, 1_000_000_000), serverToClient: Math.min(s2c, 1_000_000_000) } };
  } else if (mechanism === 'breaker') {
    const downstream = { ...obj(config.downstream) };
    if (chance(random, 0.5)) {
      downstream.latencyMs = drawLatencyMs(random);
      faults.push({ kind: 'upstream-latency', target: 'downstream', durationMs: downstream.latencyMs, effect: `each attempt takes ${downstream.latencyMs} ms` });
    }
    if (chance(random, CONNECTION_RESET_RATE)) {
      downstream.failWith = 'network';
      faults.push({ kind: 'connection-reset', target: 'client → downstream', effect: 'failing attempts fail with a connection reset (network)' });
    }
    if (chance(random, 0.5)) {
      const at = randomInt(random, 0, end);
      const d = drawLatencyMs(random);
      events = outageWindow(events, 'partition', at, at + d);
      faults.push({ kind: 'partition', target: 'MCP server ↔ downstream', atMs: at, durationMs: d, effect: `the downstream is unreachable from ${at} to ${at + d} ms` });
    }
    if (chance(random, 0.2)) {
      const at = randomInt(random, 0, end);
      downstream.failWith = 'http-429';
      downstream.retryAfterMs = randomInt(random, 1000, 60_000);
      events.push({ id: freshId(events, 'quota'), at, actor: 'upstream', kind: 'outage' });
      faults.push({ kind: 'quota-exhausted', target: 'downstream', atMs: at, effect: `the quota runs out: 429 with Retry-After ${downstream.retryAfterMs} ms` });
    }
    config = { ...config, downstream };
  } else if (mechanism === 'storm') {
    const upstream = { ...obj(config.upstream) };
    if (chance(random, 0.5)) {
      upstream.runMs = drawLatencyMs(random);
      faults.push({ kind: 'upstream-latency', target: 'upstream', durationMs: upstream.runMs, effect: `one upstream execution takes ${upstream.runMs} ms` });
    }
    if (chance(random, CONNECTION_RESET_RATE * 3)) {
      const at = randomInt(random, 0, end);
      const d = randomInt(random, 1, 50);
      events = outageWindow(events, 'reset', at, at + d);
      faults.push({ kind: 'connection-reset', target: 'upstream connection', atMs: at, durationMs: d, effect: `attempts fail for ${d} ms (connections reset)` });
    }
    if (chance(random, 0.5)) {
      const at = randomInt(random, 0, end + 5000);
      events.push({ id: freshId(events, 'forged-cancel'), at, actor: 'client', kind: 'cancel' });
      faults.push({ kind: 'forged-cancel', target: 'action', atMs: at, effect: 'a forged cancel of the user action' });
    }
    if (chance(random, 0.3)) {
      const at = randomInt(random, 0, end + 5000);
      const d = drawLatencyMs(random);
      events = outageWindow(events, 'partition', at, at + d);
      faults.push({ kind: 'partition', target: 'MCP server ↔ upstream', atMs: at, durationMs: d, effect: `the upstream is unreachable from ${at} to ${at + d} ms` });
    }
    if (chance(random, 0.2)) {
      const at = randomInt(random, 0, end + 5000);
      events = outageWindow(events, 'quota', at, null);
      faults.push({ kind: 'quota-exhausted', target: 'upstream', atMs: at, effect: 'the upstream quota runs out: every execution from then on fails' });
    }
    config = { ...config, upstream };
  }
  return { events, config, faults };
}

/** The config fields that choose the policy, as one JSON string: `mechanism`, `policy`, `fixes`, and the storm upstream's `receiptAfterMs`. */
function policySignature(scenario: Scenario): string {
  const c = scenario.config as Record<string, Json>;
  const upstream = c.upstream as Record<string, Json> | undefined;
  return JSON.stringify({ mechanism: c.mechanism, policy: c.policy ?? null, fixes: c.fixes ?? null, receiptAfterMs: upstream?.receiptAfterMs ?? null });
}

/** The resilience lab's chaos part of its contract (`LabDefinition.chaos`). */
export const resilienceChaos: LabChaos = {
  faultKinds: ['upstream-latency', 'connection-reset', 'forged-cancel', 'partition', 'quota-exhausted'],
  faults: resilienceFaults,
  liveness: [],
  policySignature,
};
