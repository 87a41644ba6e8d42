/**
 * Per lab: draws the faults that mean something to it from one seeded generator and applies them
 * by transforming the scenario's scripted events and config (the models are not touched, so a
 * faulted scenario is an ordinary scenario: it validates with the lab's parser, replays, drags and
 * travels in a link like any other).
 *
 * - races: upstream latency (the server's events of one call move later), stream drops (10 % of
 *   calls get a `disconnect` on Streamable HTTP), forged cancellation (an injected
 *   `notifications/cancelled` the caller never asked for);
 * - ledger: connection resets between steps (10 % of connections: the rest of that connection's
 *   steps run after a reconnect delay; 10 % of calls: the response is lost and the client retries),
 *   duplicate dispatch (a call delivered a second time under a new JSON-RPC id);
 * - flow: drops (the stream drops and resyncs), a partition between server and client (the client
 *   reads nothing for a while: a `stall`), upstream latency (one token's writes move later);
 * - resilience: all five — upstream latency (tasks: the worker; breaker: the downstream's latency;
 *   storm: the upstream's run time), connection resets (breaker: attempts fail with `network`;
 *   storm: a brief outage; tasks: a lost response resent after a reconnect), forged cancels (tasks:
 *   an `abort`; storm: a `cancel`), a partition between two layers (breaker / storm: an outage
 *   window; tasks: both directions delayed by the partition), quota exhaustion (breaker: 429 with
 *   Retry-After from then on; storm: an outage that does not end; tasks: the work fails).
 */
import { randomInt } from '../rng';
import type { LabId } from '../labIds';
import type { Json, Scenario, ScriptedEvent } from '../types';
import { CONNECTION_RESET_RATE, chance, drawLatencyMs, freshId, keyOf, lastAtMs, pick, type Fault } from './faults';

/** What a lab's fault function returns: the changed events and config and the faults applied. */
export interface Faulted {
  events: ScriptedEvent[];
  config: Record<string, Json>;
  faults: Fault[];
}

type Cfg = Record<string, Json>;
const obj = (v: Json | undefined): Cfg => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Cfg) : {});

/** The fault kinds each lab applies (for the page and the docs). */
export const LAB_FAULT_KINDS: Record<LabId, readonly Fault['kind'][]> = {
  races: ['upstream-latency', 'connection-reset', 'forged-cancel'],
  ledger: ['connection-reset', 'duplicate-dispatch'],
  flow: ['connection-reset', 'partition', 'upstream-latency'],
  resilience: ['upstream-latency', 'connection-reset', 'forged-cancel', 'partition', 'quota-exhausted'],
};

function shiftWhere(events: ScriptedEvent[], match: (e: ScriptedEvent) => boolean, byMs: number): ScriptedEvent[] {
  return events.map((e) => (match(e) ? { ...e, at: Math.min(1_000_000_000, e.at + byMs) } : e));
}

// ───────────────────────────── races ─────────────────────────────

const RACES_SERVER_KINDS = new Set(['progress', 'keepalive', 'complete', 'error', 'server-cancel']);

function racesFaults(s: Scenario, random: () => number): Faulted {
  let events = s.events.slice();
  const config = s.config as Cfg;
  const faults: Fault[] = [];
  const starts = events.filter((e) => e.kind === 'start' && (typeof e.requestId === 'string' || Number.isInteger(e.requestId)));
  if (starts.length === 0) return { events, config, faults };
  const end = lastAtMs(events) + 1;
  const spanOf = (start: ScriptedEvent) => {
    const k = keyOf(start.requestId);
    let last = start.at;
    for (const e of events) if (keyOf(e.requestId) === k && e.at > last) last = e.at;
    return { from: start.at, to: Math.max(last, start.at + 1) };
  };
  // Upstream latency: the server's events of one call arrive later by 500 ms–5 s.
  if (chance(random, 0.5)) {
    const start = pick(random, starts);
    const d = drawLatencyMs(random);
    const k = keyOf(start.requestId);
    events = shiftWhere(events, (e) => RACES_SERVER_KINDS.has(e.kind) && keyOf(e.requestId) === k, d);
    faults.push({ kind: 'upstream-latency', target: `request ${k}`, atMs: start.at, durationMs: d, effect: `the server's events of ${k} move ${d} ms later` });
  }
  // Stream drops: 10 % of calls lose their response stream (Streamable HTTP only; stdio has none).
  if (config.transport === 'streamable-http') {
    for (const start of starts) {
      if (!chance(random, CONNECTION_RESET_RATE)) continue;
      const { from, to } = spanOf(start);
      const at = randomInt(random, from, to);
      const k = keyOf(start.requestId);
      events.push({ id: freshId(events, `drop-${k.replace(/[^A-Za-z0-9]/g, '')}`), at, actor: 'client', kind: 'disconnect', requestId: start.requestId as Json });
      faults.push({ kind: 'connection-reset', target: `request ${k}`, atMs: at, effect: `the response stream of ${k} drops (disconnect)` });
    }
  }
  // Forged cancellation: a notifications/cancelled the caller never asked for.
  if (chance(random, 0.5)) {
    const start = pick(random, starts);
    const at = randomInt(random, start.at, Math.max(start.at, end));
    const k = keyOf(start.requestId);
    events.push({
      id: freshId(events, 'forged-cancel'),
      at,
      actor: 'client',
      kind: 'inject',
      message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: start.requestId as Json, reason: 'forged by chaos' } },
    });
    faults.push({ kind: 'forged-cancel', target: `request ${k}`, atMs: at, effect: `a forged notifications/cancelled for ${k} is injected` });
  }
  return { events, config, faults };
}

// ───────────────────────────── ledger ─────────────────────────────

function ledgerFaults(s: Scenario, random: () => number): Faulted {
  let events = s.events.slice();
  const config = s.config as Cfg;
  const faults: Fault[] = [];
  const end = lastAtMs(events);
  // Connection resets between steps: the rest of the connection's steps run after a reconnect.
  for (const conn of ['A', 'B']) {
    const steps = events.filter((e) => e.actor === 'db' && e.conn === conn).sort((a, b) => a.at - b.at);
    if (steps.length < 2 || !chance(random, CONNECTION_RESET_RATE)) continue;
    const after = randomInt(random, 0, steps.length - 2);
    const moved = new Set(steps.slice(after + 1).map((e) => e.id));
    const d = randomInt(random, 1, Math.max(2, 2 * (end + 1)));
    events = shiftWhere(events, (e) => moved.has(e.id), d);
    faults.push({ kind: 'connection-reset', target: `connection ${conn}`, atMs: steps[after].at, durationMs: d, effect: `connection ${conn} resets after ${steps[after].kind}; its next ${moved.size} step(s) run ${d} ms later` });
  }
  const calls = events.filter((e) => e.kind === 'call');
  // Connection resets of calls: the response is lost, the client retries (same call, new id).
  for (const call of calls) {
    if (!chance(random, CONNECTION_RESET_RATE)) continue;
    const at = call.at + randomInt(random, 1, 2000);
    const requestId = `${freshId(events, 'retry')}`;
    events.push({ id: requestId, at, actor: 'client', kind: 'retry', requestId, of: call.requestId as Json });
    faults.push({ kind: 'connection-reset', target: `call ${keyOf(call.requestId)}`, atMs: at, effect: `the connection of ${keyOf(call.requestId)} resets; the client retries as ${requestId}` });
  }
  // Duplicate dispatch: a gateway delivers a call twice (new JSON-RPC id, same key and arguments).
  if (calls.length > 0 && chance(random, 0.3)) {
    const call = pick(random, calls);
    const at = call.at + randomInt(random, 0, 500);
    const id = freshId(events, 'dup');
    events.push({ ...call, id, at, requestId: id, label: undefined });
    faults.push({ kind: 'duplicate-dispatch', target: `call ${keyOf(call.requestId)}`, atMs: at, effect: `${keyOf(call.requestId)} is dispatched again as ${id}` });
  }
  return { events: events.map(dropUndefinedLabel), config, faults };
}

function dropUndefinedLabel(e: ScriptedEvent): ScriptedEvent {
  if (e.label !== undefined || !('label' in e)) return e;
  const copy = { ...e };
  delete copy.label;
  return copy;
}

// ───────────────────────────── flow ─────────────────────────────

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

// ───────────────────────────── resilience ─────────────────────────────

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

/** The fault function of each lab: draws from `random` (consumed in a fixed order) and applies. */
export const LAB_FAULTS: Record<LabId, (scenario: Scenario, random: () => number) => Faulted> = {
  races: racesFaults,
  ledger: ledgerFaults,
  flow: flowFaults,
  resilience: resilienceFaults,
};
