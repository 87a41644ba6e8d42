/**
 * The flow lab's part of the chaos swarm (src/sim/chaos): drops (the stream drops and resyncs), a
 * partition between server and client (the client reads nothing for a while: a `stall`), upstream
 * latency (one token's writes move later); no liveness check (streams end by their horizon); its
 * policy signature.
 */
import { randomInt } from '../rng';
import type { LabChaos } from '../lab';
import type { Json, Scenario } from '../types';
import { CONNECTION_RESET_RATE, chance, drawLatencyMs, freshId, lastAtMs, pick, shiftWhere, type Cfg, type Fault, type Faulted } from '../chaos/faults';

function flowFaults(s: Scenario, random: () => number): Faulted {
  let events = s.events.slice();
  let config = s.config as Cfg;
  const faults: Fault[] = [];
  const producers = Array.isArray(config.producers) ? (config.producers as Cfg[]) : [];
  const horizon = typeof config.horizonMs === 'number' ? config.horizonMs : 120_000;
  const produced = producers.map((p) => (p.startMs as number) + (p.intervalMs as number) * ((p.count as number) + 1));
  const end = Math.max(1, Math.min(horizon, Math.max(lastAtMs(events), ...produced, 0)));
  // Drops: each of up to three chances, 10 % each, drops the stream (the client resyncs).
  for (let i = 0; i < 3; i++) {
    if (!chance(random, CONNECTION_RESET_RATE * 3)) continue;
    const at = randomInt(random, 0, end);
    events.push({ id: freshId(events, 'drop'), at, actor: 'wire', kind: 'drop' });
    faults.push({ kind: 'connection-reset', target: 'stream', atMs: at, effect: 'the SSE stream drops' });
  }
  // Partition between server and client: nothing reaches the client for 500 ms–5 s.
  if (chance(random, 0.5)) {
    const at = randomInt(random, 0, end);
    const d = drawLatencyMs(random);
    events.push({ id: freshId(events, 'partition'), at, actor: 'client', kind: 'stall', durationMs: d });
    faults.push({ kind: 'partition', target: 'server ↔ client', atMs: at, durationMs: d, effect: `the client reads nothing for ${d} ms (stall)` });
  }
  // Upstream latency: one token's writes start later.
  const tokens = [...new Set([...producers.map((p) => p.token as string), ...events.filter((e) => typeof e.token === 'string').map((e) => e.token as string)])];
  if (tokens.length > 0 && chance(random, 0.5)) {
    const token = pick(random, tokens);
    const d = drawLatencyMs(random);
    events = shiftWhere(events, (e) => e.token === token, d);
    config = { ...config, producers: producers.map((p) => (p.token === token ? { ...p, startMs: Math.min(1_000_000_000, (p.startMs as number) + d) } : p)) };
    faults.push({ kind: 'upstream-latency', target: `token ${token}`, durationMs: d, effect: `the writes of ${token} start ${d} ms later` });
  }
  return { events, config, faults };
}

/** The config fields that choose the policy, as one JSON string: `policy` (the buffer policy), `bugs`, and the single-client `reconnectLoop` / `resumption` settings. */
function policySignature(scenario: Scenario): string {
  const c = scenario.config as Record<string, Json>;
  return JSON.stringify({ policy: c.policy, bugs: c.bugs, reconnectLoop: c.reconnectLoop ?? null, resumption: c.resumption ?? null });
}

/** The flow lab's chaos part of its contract (`LabDefinition.chaos`). */
export const flowChaos: LabChaos = {
  faultKinds: ['connection-reset', 'partition', 'upstream-latency'],
  faults: flowFaults,
  liveness: [],
  policySignature,
};
