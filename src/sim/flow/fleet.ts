import { clientHash, jitterUnit } from '../retry/backoff';
import type { FleetConfig } from './schema';
import { http, TIMER } from './stream';
import { FLOW_RANK, SSE_HEADERS, type FlowCtx as Ctx, type FlowTimer } from './modelTypes';
import { fleetChanged, newFleet, type FleetCore, type FlowCore } from './state';

/**
 * The flow model's fleet: many clients holding streams to a server with a stream cap and
 * restarts. Mutates the core state's fleet in place (see `state.ts`).
 */

const OK_HEADERS = `HTTP/1.1 200 OK · ${SSE_HEADERS.join(' · ')}`;

/** Client `client`'s jitter (ms, in [−jitterMs, +jitterMs]) for `attempt`: a hash of (seed, client, attempt). */
export function fleetJitter(f: FleetConfig, seed: number, client: number, attempt: number): number {
  if (f.jitterMs === 0) return 0;
  const u = jitterUnit(seed, clientHash(`c${client + 1}`), attempt);
  return Math.floor(u * (2 * f.jitterMs + 1)) - f.jitterMs;
}

function connectTimer(client: number, reason: 'initial' | 'evicted' | 'retry' | 'restart'): FlowTimer {
  return { kind: 'fleet-connect', client, reason };
}

/** The fleet at time 0: every client connected already, or each scheduled to connect at `connectAtMs`; the restart scheduled. */
export function fleetInit(f: FleetConfig, ctx: Ctx): FleetCore {
  const n = f.clients;
  const since = new Array<number>(n).fill(-1);
  const order: number[] = [];
  if (f.connectAtMs === null) {
    for (let i = 0; i < n; i++) {
      since[i] = 0;
      order.push(i);
    }
  } else {
    for (let i = 0; i < n; i++) ctx.schedule(f.connectAtMs, FLOW_RANK.client, 'client', `c${i + 1} connects`, connectTimer(i, 'initial'));
  }
  if (f.restart) ctx.schedule(f.restart.atMs, FLOW_RANK.server, 'server', 'server restarts', TIMER['fleet-restart']);
  return newFleet({ since, order, attempts: new Array<number>(n).fill(0), serverUpAt: 0, evictions: 0, rejections: 0, connects: order.length, lastChangeAtMs: 0, landings: [], retriedClients: [], lastRejectAt: new Array<number>(n).fill(-1), lastRetryGapMs: null });
}

/** Client `client` tries to open its stream: the server may be down, at its cap (503 or evict the oldest), or admit it. */
export function fleetConnect(s: FlowCore, client: number, reason: 'initial' | 'evicted' | 'retry' | 'restart', ctx: Ctx): void {
  const f = s.config.fleet as FleetConfig;
  const fl = s.fleet as FleetCore;
  const name = `c${client + 1}`;
  if (fl.since[client] >= 0) return;
  if (ctx.now < fl.serverUpAt) {
    const attempt = ++fl.attempts[client];
    fleetChanged(fl, 'attempts');
    const at = ctx.now + Math.max(1, f.reconnectDelayMs + fleetJitter(f, s.scenarioSeed, client, attempt));
    if (at <= s.config.horizonMs) ctx.schedule(at, FLOW_RANK.client, 'client', `${name} reconnects`, connectTimer(client, 'restart'));
    ctx.why(ctx.keepsNotes ? `${name} finds the server down (restarting until ${fl.serverUpAt} ms) and tries again at ${at} ms.` : '', 'fleet.down');
    return;
  }
  const cap = f.maxStreams;
  const evictionsBefore = fl.evictions;
  if (cap !== null && fl.order.length >= cap) {
    if (f.atCap === 'reject') {
      const retryMs = f.retryAfterS * 1000;
      const at = ctx.now + retryMs;
      if (at <= s.config.horizonMs) ctx.schedule(at, FLOW_RANK.client, 'client', `${name} retries after Retry-After`, connectTimer(client, 'retry'));
      http(ctx, 'server', `HTTP/1.1 503 Service Unavailable · Retry-After: ${f.retryAfterS} (${name}; ${cap} streams open)`);
      ctx.why(ctx.keepsNotes ? `The server is at its cap of ${cap} streams: ${name} gets 503 with Retry-After: ${f.retryAfterS} and waits ${retryMs} ms.` : '', 'fleet.reject');
      if (!fl.retriedClients.includes(client)) fl.retriedClients.push(client);
      const last = fl.lastRejectAt[client];
      if (last >= 0) fl.lastRetryGapMs = ctx.now - last;
      fl.lastRejectAt[client] = ctx.now;
      fl.rejections++;
      fleetChanged(fl, 'retriedClients', 'lastRejectAt');
      return;
    }
    const victim = fl.order.shift() as number;
    fl.since[victim] = -1;
    fl.evictions++;
    const at = ctx.now + f.evictedReconnectMs;
    if (at <= s.config.horizonMs) ctx.schedule(at, FLOW_RANK.client, 'client', `c${victim + 1} reconnects after eviction`, connectTimer(victim, 'evicted'));
    http(ctx, 'server', `closes the oldest stream (c${victim + 1}) to admit ${name}`);
  }
  fl.since[client] = ctx.now;
  fl.order.push(client);
  if (reason === 'restart') fl.landings.push(ctx.now);
  fl.connects++;
  fl.lastChangeAtMs = ctx.now;
  fleetChanged(fl, 'since', 'order', 'landings');
  http(ctx, 'server', `${OK_HEADERS} (${name})`);
  ctx.why(ctx.keepsNotes ? (fl.evictions > evictionsBefore ? `${name} connects; the server evicts the oldest stream to make room — that client will come back in ${f.evictedReconnectMs} ms and evict another.` : `${name} opens its stream (${fl.order.length} open).`) : '', 'fleet.connect');
}

/** The server restarts: every stream drops, each client plans its reconnect (with its jitter), the server is back after `durationMs`. */
export function fleetRestart(s: FlowCore, ctx: Ctx): void {
  const f = s.config.fleet as FleetConfig;
  const fl = s.fleet as FleetCore;
  const restart = f.restart as { atMs: number; durationMs: number };
  const upAt = ctx.now + restart.durationMs;
  for (const c of fl.order) {
    const at = ctx.now + Math.max(0, f.reconnectDelayMs + fleetJitter(f, s.scenarioSeed, c, 0));
    ctx.schedule(at, FLOW_RANK.client, 'client', `c${c + 1} reconnects`, connectTimer(c, 'restart'));
  }
  ctx.schedule(upAt, FLOW_RANK.server, 'server', 'server is back', TIMER['fleet-up']);
  const dropped = fl.order.length;
  http(ctx, 'server', `restarts: ${dropped} streams drop; back at ${upAt} ms`);
  ctx.why(ctx.keepsNotes ? `The server restarts: all ${dropped} streams drop. Each client reconnects after ${f.reconnectDelayMs} ms${f.jitterMs ? ` ± ${f.jitterMs} ms of jitter` : ' — all at the same moment'}.` : '', 'fleet.restart');
  fl.since.fill(-1);
  fl.order = [];
  fl.serverUpAt = upAt;
  fl.lastChangeAtMs = ctx.now;
  fleetChanged(fl, 'since', 'order');
}
