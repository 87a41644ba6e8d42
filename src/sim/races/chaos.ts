/**
 * The races lab's part of the chaos swarm (src/sim/chaos): upstream latency (the server's events of
 * one call move later), stream drops (10 % of calls get a `disconnect` on Streamable HTTP), forged
 * cancellation (an injected `notifications/cancelled` the caller never asked for); its liveness check
 * `every-call-settles`; its policy signature.
 */
import { randomInt } from '../rng';
import type { LabChaos } from '../lab';
import type { Json, Scenario, ScriptedEvent } from '../types';
import { CONNECTION_RESET_RATE, chance, drawLatencyMs, freshId, keyOf, lastAtMs, pick, shiftWhere, type Cfg, type Fault, type Faulted } from '../chaos/faults';

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

/** The broken-policy switches that change nothing off stdio. */
const STDIO_ONLY = ['cancelKillsServerProcess', 'replyIsFirstMessageRead', 'contentLengthFraming', 'incompleteTailDropped'];

/** True when no response line of `scenario` (a complete event's `resultBytes`, `stdioReader.largeResponses`) is longer than `stdioReader.chunkBytes`. */
function everyLineFitsOneRead(scenario: Scenario): boolean {
  const reader = (scenario.config as { stdioReader?: { chunkBytes: number; largeResponses?: { messageBytes: number }[] } }).stdioReader;
  if (reader === undefined) return true;
  const sizes = [...(reader.largeResponses ?? []).map((r) => r.messageBytes), ...scenario.events.map((e) => (typeof e.resultBytes === 'number' ? e.resultBytes : 0))];
  return sizes.every((bytes) => bytes <= reader.chunkBytes);
}

/** The config fields that choose the policy, as one JSON string: `policy` (the broken-policy switches that act on this transport), `client.profile` when it is not the lab's, and whether a scripted cancel is malformed. */
function policySignature(scenario: Scenario): string {
  const c = scenario.config as Record<string, Json>;
  // The client profile chooses a policy too; 'lab' is the default. The TypeScript SDK v1 profile
  // shows a different SDK behaviour in each scenario (S1 the maximum, S2 the id-0 cancel), so each
  // of its scenarios is its own policy: S2 breaks no named invariant and must not inherit S1's.
  const profile = (c.client as { profile?: string } | undefined)?.profile;
  // A client whose scripted cancel is malformed (issue 11) is a broken policy carried by the events.
  // Under 2026-07-28 HTTP the cancel is a stream close, so the malformation never reaches the wire.
  const onWire = c.transport !== 'streamable-http' || c.revision !== '2026-07-28' || (c.policy as Record<string, Json> | undefined)?.httpPostsCancel === true;
  const malformedCancel = onWire && scenario.events.some((e) => e.kind === 'cancel' && e.malformed !== undefined);
  // Some switches act on stdio only: cancelKillsServerProcess (over HTTP the client owns no server
  // process), replyIsFirstMessageRead and contentLengthFraming (HTTP frames and pairs each message by
  // its request's stream). Off stdio they are inert, so K1's and K3's HTTP rows are the correct
  // policy they are, not the stdio bug's.
  const policy = c.policy as Record<string, Json> | undefined;
  const inert = c.transport !== 'stdio' && policy !== undefined ? STDIO_ONLY.filter((name) => policy[name] === true) : [];
  // incompleteTailDropped loses only a line longer than one read: when every sized response of the
  // scenario fits one read (K4's 16 KiB row), it is inert too — chaos moves times, never sizes.
  if (policy?.incompleteTailDropped === true && !inert.includes('incompleteTailDropped') && everyLineFitsOneRead(scenario)) inert.push('incompleteTailDropped');
  const signature: Record<string, Json> = { policy: inert.length > 0 ? { ...policy, ...Object.fromEntries(inert.map((name) => [name, false])) } : (policy as Json) };
  if (profile !== undefined && profile !== 'lab') Object.assign(signature, { clientProfile: profile, scenario: scenario.id });
  if (malformedCancel) signature.malformedCancel = true;
  return JSON.stringify(signature);
}

/** The races lab's chaos part of its contract (`LabDefinition.chaos`). */
export const racesChaos: LabChaos = {
  faultKinds: ['upstream-latency', 'connection-reset', 'forged-cancel'],
  faults: racesFaults,
  liveness: [{ name: 'every-call-settles', description: 'No call is still pending when the trace ends.', fails: (outcome) => ((outcome as { summary?: { states?: Record<string, number> } } | null)?.summary?.states?.pending ?? 0) > 0 }],
  policySignature,
};
