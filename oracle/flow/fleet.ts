// TEST-ONLY ORACLE: verbatim copy of src/sim/flow/fleet.ts at 377217e (import paths adjusted). Never import from app code.
import { clientHash, jitterUnit } from '../../src/sim/retry/backoff';
import type { FleetConfig } from '../../src/sim/flow/schema';
import { http } from './stream';
import { FLOW_RANK, SSE_HEADERS, type FleetState, type FlowCtx as Ctx, type FlowState } from './modelTypes';

/** The flow model's fleet: many clients holding streams to a server with a stream cap and restarts. */

// ───────────────────────────── fleet ─────────────────────────────

export function fleetJitter(f: FleetConfig, seed: number, client: number, attempt: number): number {
  if (f.jitterMs === 0) return 0;
  const u = jitterUnit(seed, clientHash(`c${client + 1}`), attempt);
  return Math.floor(u * (2 * f.jitterMs + 1)) - f.jitterMs;
}

export function fleetInit(f: FleetConfig, ctx: Ctx): FleetState {
  const n = f.clients;
  const since = new Array<number>(n).fill(-1);
  const order: number[] = [];
  if (f.connectAtMs === null) {
    for (let i = 0; i < n; i++) {
      since[i] = 0;
      order.push(i);
    }
  } else {
    for (let i = 0; i < n; i++) ctx.schedule(f.connectAtMs, FLOW_RANK.client, 'client', `c${i + 1} connects`, { kind: 'fleet-connect', client: i, reason: 'initial' });
  }
  if (f.restart) ctx.schedule(f.restart.atMs, FLOW_RANK.server, 'server', 'server restarts', { kind: 'fleet-restart' });
  return { since, order, attempts: new Array<number>(n).fill(0), serverUpAt: 0, evictions: 0, rejections: 0, connects: order.length, lastChangeAtMs: 0, landings: [], retriedClients: [], lastRejectAt: new Array<number>(n).fill(-1), lastRetryGapMs: null };
}

export function fleetConnect(s: FlowState, client: number, reason: 'initial' | 'evicted' | 'retry' | 'restart', ctx: Ctx): FlowState {
  const f = s.config.fleet as FleetConfig;
  const fl = s.fleet as FleetState;
  const name = `c${client + 1}`;
  if (fl.since[client] >= 0) return s;
  if (ctx.now < fl.serverUpAt) {
    const attempts = fl.attempts.slice();
    attempts[client]++;
    const at = ctx.now + Math.max(1, f.reconnectDelayMs + fleetJitter(f, s.scenarioSeed, client, attempts[client]));
    if (at <= s.config.horizonMs) ctx.schedule(at, FLOW_RANK.client, 'client', `${name} reconnects`, { kind: 'fleet-connect', client, reason: 'restart' });
    ctx.why(() => `${name} finds the server down (restarting until ${fl.serverUpAt} ms) and tries again at ${at} ms.`, 'fleet.down');
    return { ...s, fleet: { ...fl, attempts } };
  }
  const cap = f.maxStreams;
  const since = fl.since.slice();
  let order = fl.order;
  let evictions = fl.evictions;
  if (cap !== null && order.length >= cap) {
    if (f.atCap === 'reject') {
      const retryMs = f.retryAfterS * 1000;
      const at = ctx.now + retryMs;
      if (at <= s.config.horizonMs) ctx.schedule(at, FLOW_RANK.client, 'client', `${name} retries after Retry-After`, { kind: 'fleet-connect', client, reason: 'retry' });
      http(ctx, 'server', `HTTP/1.1 503 Service Unavailable · Retry-After: ${f.retryAfterS} (${name}; ${cap} streams open)`);
      ctx.why(() => `The server is at its cap of ${cap} streams: ${name} gets 503 with Retry-After: ${f.retryAfterS} and waits ${retryMs} ms.`, 'fleet.reject');
      const retried = fl.retriedClients.includes(client) ? fl.retriedClients : [...fl.retriedClients, client];
      const lastRejectAt = fl.lastRejectAt.slice();
      const gap = lastRejectAt[client] >= 0 ? ctx.now - lastRejectAt[client] : fl.lastRetryGapMs;
      lastRejectAt[client] = ctx.now;
      return { ...s, fleet: { ...fl, rejections: fl.rejections + 1, retriedClients: retried, lastRetryGapMs: gap, lastRejectAt } };
    }
    const victim = order[0];
    order = order.slice(1);
    since[victim] = -1;
    evictions++;
    const at = ctx.now + f.evictedReconnectMs;
    if (at <= s.config.horizonMs) ctx.schedule(at, FLOW_RANK.client, 'client', `c${victim + 1} reconnects after eviction`, { kind: 'fleet-connect', client: victim, reason: 'evicted' });
    http(ctx, 'server', `closes the oldest stream (c${victim + 1}) to admit ${name}`);
  }
  since[client] = ctx.now;
  order = [...order, client];
  const landings = reason === 'restart' ? [...fl.landings, ctx.now] : fl.landings;
  http(ctx, 'server', `HTTP/1.1 200 OK · ${SSE_HEADERS.join(' · ')} (${name})`);
  ctx.why(() => (evictions > fl.evictions ? `${name} connects; the server evicts the oldest stream to make room — that client will come back in ${f.evictedReconnectMs} ms and evict another.` : `${name} opens its stream (${order.length} open).`), 'fleet.connect');
  return { ...s, fleet: { ...fl, since, order, evictions, connects: fl.connects + 1, lastChangeAtMs: ctx.now, landings } };
}

export function fleetRestart(s: FlowState, ctx: Ctx): FlowState {
  const f = s.config.fleet as FleetConfig;
  const fl = s.fleet as FleetState;
  const restart = f.restart as { atMs: number; durationMs: number };
  const upAt = ctx.now + restart.durationMs;
  for (const c of fl.order) {
    const at = ctx.now + Math.max(0, f.reconnectDelayMs + fleetJitter(f, s.scenarioSeed, c, 0));
    ctx.schedule(at, FLOW_RANK.client, 'client', `c${c + 1} reconnects`, { kind: 'fleet-connect', client: c, reason: 'restart' });
  }
  ctx.schedule(upAt, FLOW_RANK.server, 'server', 'server is back', { kind: 'fleet-up' });
  http(ctx, 'server', `restarts: ${fl.order.length} streams drop; back at ${upAt} ms`);
  ctx.why(() => `The server restarts: all ${fl.order.length} streams drop. Each client reconnects after ${f.reconnectDelayMs} ms${f.jitterMs ? ` ± ${f.jitterMs} ms of jitter` : ' — all at the same moment'}.`, 'fleet.restart');
  return { ...s, fleet: { ...fl, since: fl.since.map(() => -1), order: [], serverUpAt: upAt, lastChangeAtMs: ctx.now } };
}

