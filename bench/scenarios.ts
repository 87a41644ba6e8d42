import { parseScenario } from '../src/sim/scenario';
import { LAB_SCHEMAS } from '../src/sim/labs';
import type { Scenario } from '../src/sim/types';

/**
 * A races scenario with exactly `total` scripted events: `calls` concurrent tools/call requests,
 * each with progress every 10 ms (resetting its idle timeout), a keep-alive now and then, and a
 * completion — some cancelled by the user first. Latency 5 ms each way, Streamable HTTP 2026-07-28.
 */
export function bigRacesScenario(total = 100_000, calls = 100): Scenario {
  const perCall = Math.floor(total / calls);
  const events: Record<string, unknown>[] = [];
  for (let c = 0; c < calls; c++) {
    const t0 = c * 7;
    const id = c + 1;
    events.push({ id: `s${id}`, at: t0, actor: 'client', kind: 'start', requestId: id, progressToken: `p${id}`, idleTimeoutMs: 200, maxTimeoutMs: perCall * 10 + 1000 });
    for (let k = 1; k < perCall - 1; k++) {
      if (k % 50 === 0) events.push({ id: `k${id}-${k}`, at: t0 + k * 10, actor: 'server', kind: 'keepalive', requestId: id });
      else events.push({ id: `p${id}-${k}`, at: t0 + k * 10, actor: 'server', kind: 'progress', requestId: id, progress: k });
    }
    if (c % 10 === 0) events.push({ id: `x${id}`, at: t0 + (perCall - 1) * 10 - 3, actor: 'client', kind: 'cancel', requestId: id });
    else events.push({ id: `c${id}`, at: t0 + (perCall - 1) * 10, actor: 'server', kind: 'complete', requestId: id });
  }
  events.sort((a, b) => (a.at as number) - (b.at as number));
  const r = parseScenario({ format: 1, lab: 'races', id: 'bench', title: 'bench', seed: 1, config: { transport: 'streamable-http', latencyMs: { clientToServer: 5, serverToClient: 5 } }, events }, 'races', LAB_SCHEMAS.races);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

/** A races scenario of `n` scripted events shaped like scenario A repeated (for the drag benchmark). */
export function dragScenario(n = 200): Scenario {
  return bigRacesScenario(n, 4);
}
