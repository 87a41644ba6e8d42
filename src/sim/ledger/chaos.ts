/**
 * The ledger lab's part of the chaos swarm (src/sim/chaos): connection resets between steps (10 % of
 * connections: the rest of that connection's steps run after a reconnect delay; 10 % of calls: the
 * response is lost and the client retries), duplicate dispatch (a call delivered a second time under
 * a new JSON-RPC id); its liveness check `every-call-answered`; its policy signature.
 */
import { randomInt } from '../rng';
import type { LabChaos } from '../lab';
import type { Json, Scenario, ScriptedEvent } from '../types';
import { CONNECTION_RESET_RATE, chance, freshId, keyOf, lastAtMs, pick, shiftWhere, type Cfg, type Fault, type Faulted } from '../chaos/faults';

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

/** The config fields that choose the policy, as one JSON string: `policy`, `dedupe`, `clientKey`, `onInUse`, `toolLayer`, and whether every call carries an idempotency key. */
function policySignature(scenario: Scenario): string {
  const c = scenario.config as Record<string, Json>;
  const keyed = scenario.events.filter((e) => e.kind === 'call').every((e) => typeof e.key === 'string' && e.key !== '');
  return JSON.stringify({ policy: c.policy, dedupe: c.dedupe, clientKey: c.clientKey, onInUse: c.onInUse ?? null, toolLayer: c.toolLayer ?? null, keyed });
}

/** The ledger lab's chaos part of its contract (`LabDefinition.chaos`). */
export const ledgerChaos: LabChaos = {
  faultKinds: ['connection-reset', 'duplicate-dispatch'],
  faults: ledgerFaults,
  liveness: [{ name: 'every-call-answered', description: 'No client is still waiting for a response when the trace ends.', fails: (outcome) => ((outcome as { calls?: { client?: string }[] } | null)?.calls ?? []).some((c) => c.client === 'waiting') }],
  policySignature,
};
