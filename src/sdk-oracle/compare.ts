import type { Json, Scenario, WireEffect } from '../sim/types';
import type { RacesTrace } from '../sim/races';
import type { SdkObservation } from './driver';

/**
 * The facts the differential suite compares between the races lab and the real TypeScript SDK v1,
 * in one shape for both: per call what the client saw (terminal state and time), when the server's
 * handler started and when its abort signal fired; every message on the transport; and every
 * message the client dropped because the call was no longer waited on. Request ids are replaced by
 * the scenario's request key (the SDK picks its own ids), times are virtual ms.
 */

/** One call's facts. `state` uses the lab's ClientState names. */
export interface CallFacts {
  state: string;
  atMs: number | null;
  handlerStartedAtMs: number | null;
  abortFiredAtMs: number | null;
}

/** Everything compared for one scenario. */
export interface Facts {
  calls: Record<string, CallFacts>;
  /** `"<atMs> <c2s|s2c> <what>"`, sorted. `what`: `tools/call K`, `progress K P`, `cancelled K`, `response K result|error C`, `raw <json>`. */
  wire: string[];
  /** `"<atMs> progress|response K"`: a message for a call the client no longer waits on (SDK: reported through onerror; lab: ignored). */
  drops: string[];
}

/** Options: `reasons` also compares the `reason` text of `notifications/cancelled`. */
export interface FactOptions {
  reasons: boolean;
}

const pad = (ms: number) => String(ms).padStart(9, '0');
const line = (atMs: number, dir: string, what: string) => `${pad(atMs)} ${dir} ${what}`;

type Msg = { id?: Json; method?: string; params?: Record<string, Json>; result?: Json; error?: { code: number } };

function describe(m: Msg, keyOf: (id: Json | undefined) => string, opts: FactOptions): string {
  if (m.method === 'tools/call') return `tools/call ${keyOf(m.id)}${m.params?._meta && (m.params._meta as Record<string, Json>).progressToken !== undefined ? ' +progressToken' : ''}`;
  if (m.method === 'notifications/progress') return `progress ${keyOf(m.params?.progressToken)} ${String(m.params?.progress)}`;
  if (m.method === 'notifications/cancelled') return `cancelled ${keyOf(m.params?.requestId)}${opts.reasons ? ` ${JSON.stringify(m.params?.reason ?? null)}` : ''}`;
  if (m.method !== undefined) return `${m.method}`;
  return m.error ? `response ${keyOf(m.id)} error ${m.error.code}` : `response ${keyOf(m.id)} result`;
}

/** The client state a call's SDK outcome means. `cancelReasons`: the reasons the scenario's cancel events gave. */
function sdkState(o: SdkObservation['calls'][number]['outcome'], cancelReasons: Set<string>): string {
  if (o.kind === 'pending') return 'pending';
  if (o.kind === 'result') return 'completed';
  // v1: McpError -32001 "MCP error -32001: …"; v2: SdkError code REQUEST_TIMEOUT, the bare text
  if (o.code === -32001 || o.code === 'REQUEST_TIMEOUT') {
    if (o.message.endsWith('Maximum total timeout exceeded')) return 'timeout-max';
    if (o.message.endsWith('Request timed out')) return 'timeout-idle';
    for (const r of cancelReasons) if (o.message === `MCP error -32001: ${r}` || o.message === r) return 'cancelled';
  }
  return 'failed';
}

/** The facts of an SDK observation of `scenario`. */
export function sdkFacts(scenario: Scenario, o: SdkObservation, opts: FactOptions): Facts {
  const byId = new Map<number, string>();
  for (const c of o.calls) if (c.sdkRequestId !== null) byId.set(c.sdkRequestId, c.key);
  const keyOf = (id: Json | undefined) => (typeof id === 'number' && byId.has(id) ? byId.get(id)! : `?${JSON.stringify(id)}`);
  const injected = new Set(scenario.events.filter((e) => e.kind === 'inject').map((e) => JSON.stringify((e as { message?: Json }).message ?? null)));
  const calls: Record<string, CallFacts> = {};
  for (const c of o.calls) {
    const reasons = new Set(scenario.events.filter((e) => e.kind === 'cancel' && JSON.stringify((e as { requestId?: Json }).requestId) === c.key).map((e) => String((e as { reason?: string }).reason ?? 'cancelled')));
    calls[c.key] = { state: sdkState(c.outcome, reasons), atMs: c.outcome.kind === 'pending' ? null : c.outcome.atMs, handlerStartedAtMs: c.handlerStartedAtMs, abortFiredAtMs: c.abortFiredAtMs };
  }
  const wire = o.wire
    .map((w) => line(w.atMs, w.direction, injected.has(JSON.stringify(w.message)) ? `raw ${JSON.stringify(w.message)}` : describe(w.message as Msg, keyOf, opts)))
    .sort();
  const drops = o.clientErrors
    // the transport's report of a cut stream is not a dropped message: the lab has the cut as its own event
    .filter((e) => !e.message.startsWith('SSE stream disconnected'))
    .map((e) => {
      const m = /^Received a (progress notification for an unknown token|response for an unknown message ID): (.*)$/s.exec(e.message);
      if (!m) return line(e.atMs, 'error', e.message);
      const msg = JSON.parse(m[2]) as Msg;
      return m[1].startsWith('progress') ? `${pad(e.atMs)} progress ${keyOf(msg.params?.progressToken)}` : `${pad(e.atMs)} response ${keyOf(msg.id)}`;
    })
    .sort();
  return { calls, wire, drops };
}

/** The facts of a lab trace (a full trace: `replayRaces`). */
export function labFacts(trace: RacesTrace, opts: FactOptions): Facts {
  const final = trace.steps.length ? trace.steps[trace.steps.length - 1].state : trace.initial;
  const calls: Record<string, CallFacts> = {};
  for (const r of final.requests) {
    if (r.method !== 'tools/call') continue;
    calls[r.key] = { state: r.client.state, atMs: r.client.atMs, handlerStartedAtMs: r.server.receivedAt, abortFiredAtMs: r.server.cancelAcceptedAt };
  }
  const keyOf = (e: WireEffect) => () => e.requestKey ?? '?';
  const wire: string[] = [];
  const drops: string[] = [];
  for (const step of trace.steps) {
    for (const e of step.effects) {
      if (e.message === undefined) continue;
      if (e.arrivesAt === undefined && e.from === 'server') continue; // written to a closed stream: never on the wire
      const dir = e.from === 'client' ? 'c2s' : 's2c';
      wire.push(line(e.at, dir, e.malformed ? `raw ${JSON.stringify(e.message)}` : describe(e.message as Msg, keyOf(e), opts)));
    }
    for (const ig of step.ignored) {
      if (ig.by !== 'client' || !ig.reason.startsWith('the call already ended')) continue;
      const m = /^(progress) \S+ for (.+)$|^(response) to (.+)$/.exec(ig.what);
      if (m) drops.push(`${pad(step.at)} ${m[1] ?? m[3]} ${m[2] ?? m[4]}`);
    }
  }
  return { calls, wire: wire.sort(), drops: drops.sort() };
}

/** One point where two fact sets differ, as a sentence fragment. */
export function factDifferences(lab: Facts, sdk: Facts): string[] {
  const out: string[] = [];
  for (const key of [...new Set([...Object.keys(lab.calls), ...Object.keys(sdk.calls)])].sort()) {
    const a = lab.calls[key];
    const b = sdk.calls[key];
    if (!a || !b) {
      out.push(`call ${key}: ${a ? 'only in the lab' : 'only in the SDK'}`);
      continue;
    }
    if (a.state !== b.state || a.atMs !== b.atMs) out.push(`call ${key}: lab ${a.state} at ${a.atMs} ms, SDK ${b.state} at ${b.atMs} ms`);
    if (a.handlerStartedAtMs !== b.handlerStartedAtMs) out.push(`call ${key}: handler starts lab ${a.handlerStartedAtMs} ms, SDK ${b.handlerStartedAtMs} ms`);
    if (a.abortFiredAtMs !== b.abortFiredAtMs) out.push(`call ${key}: abort signal lab ${a.abortFiredAtMs ?? 'never'}, SDK ${b.abortFiredAtMs ?? 'never'}`);
  }
  const diff = (x: string[], y: string[]) => {
    const rest = [...y];
    return x.filter((v) => {
      const i = rest.indexOf(v);
      if (i < 0) return true;
      rest.splice(i, 1);
      return false;
    });
  };
  const unpad = (s: string) => s.replace(/^0+(?=\d)/, '');
  for (const w of diff(lab.wire, sdk.wire)) out.push(`wire only in the lab: ${unpad(w)}`);
  for (const w of diff(sdk.wire, lab.wire)) out.push(`wire only in the SDK: ${unpad(w)}`);
  for (const d of diff(lab.drops, sdk.drops)) out.push(`dropped only by the lab: ${unpad(d)}`);
  for (const d of diff(sdk.drops, lab.drops)) out.push(`dropped only by the SDK: ${unpad(d)}`);
  return out;
}

/** A short summary of the calls and cancels of a fact set, for the README table (groups equal calls). */
export function summarize(f: Facts): string {
  const cancels = new Map<string, number[]>();
  for (const w of f.wire) {
    const m = /^(\d+) c2s cancelled (\S+)/.exec(w);
    if (m) cancels.set(m[2], [...(cancels.get(m[2]) ?? []), Number(m[1])]);
  }
  const groups = new Map<string, number>();
  for (const [key, c] of Object.entries(f.calls)) {
    const parts = [`${c.state}${c.atMs !== null ? ` at ${c.atMs} ms` : ''}`];
    const sent = cancels.get(key);
    parts.push(sent ? `cancel sent at ${sent.join(', ')} ms` : 'no cancel');
    parts.push(c.abortFiredAtMs !== null ? `handler aborted at ${c.abortFiredAtMs} ms` : 'handler not aborted');
    const text = parts.join('; ');
    groups.set(text, (groups.get(text) ?? 0) + 1);
  }
  if (groups.size === 0) return 'no call sent: the client refuses it before sending';
  return [...groups].map(([text, n]) => (n > 1 ? `${n} calls: ${text}` : text)).join(' · ');
}

/** The `sdk.*` rules (named SDK behaviours) a lab trace cites — a step's rule, an ignored item's rule, a request's settle rule — sorted. */
export function citedBehaviours(t: RacesTrace): string[] {
  const rules = new Set<string>();
  for (const step of t.steps) {
    if (step.rule?.startsWith('sdk.')) rules.add(step.rule);
    for (const ig of step.ignored) if (ig.rule?.startsWith('sdk.')) rules.add(ig.rule);
  }
  for (const r of t.outcome.requests) if (r.rule?.startsWith('sdk.')) rules.add(r.rule);
  return [...rules].sort();
}
