import type { FlowConfig, FlowTrace } from '../sim/flow';
import type { Scenario } from '../sim/types';
import type { ClientOutcome, WireRecord } from './harness';
import { SdkV2Session, type ExecutionRecord, type Middlebox } from './harnessV2';

/**
 * The flow lab's single-call scenarios (RI1, RI2, P1–P3) on the real SDK v2 over Streamable HTTP
 * in process (`harnessV2.ts`, pinned to 2026-07-28, fake timers), and the facts the lab's summary
 * names, read from both sides so `flowV2.test.ts` can compare them point by point.
 *
 * Mapping (flow config → SDK):
 * - the one producer → the tool's handler writes what it writes, when it writes it: progress at
 *   `startMs + k·intervalMs` (k < count), then its result; the tool is `client.tool`, called with
 *   `{ idempotencyKey }` when the scenario has one, and it deduplicates on it as the lab's server
 *   does (a repeated key gets the stored result; `SdkV2Session`'s `tool` option). A handler whose
 *   abort signal fired (the close of its stream is the cancellation) stops writing, as the lab's
 *   server stops the execution of a lost request.
 * - `keepAliveIntervalMs` → `createMcpHandler`'s `keepAliveMs` (null → 0: none; the SDK's own
 *   default is 15000 ms, server/src/server/sseKeepAlive.ts `DEFAULT_SSE_KEEP_ALIVE_MS`).
 * - `proxy` → `flowProxy`, a middlebox on the call's SSE response: buffering (flush at every
 *   multiple of `flushIntervalMs`; off when it honours `X-Accel-Buffering: no` and the response
 *   carries it — the SDK server always sends it, perRequestTransport.ts `upgradeToSse`), and the
 *   read timeout (cuts the stream after `readTimeoutMs` without a byte from the server).
 * - a `drop` event → the network cuts the call's stream (`SdkV2Session.disconnect`).
 * - `client.idleTimeoutMs` → the call's `timeout` with `resetTimeoutOnProgress` (the lab's idle
 *   timeout is reset by progress only). The lab's client without one has no timeout at all; the
 *   SDK always arms one, so the caller picks it (`FlowRunOptions.timeoutMs`).
 * - `client.reconnectDelayMs` has no SDK counterpart: the SDK v2 client does not reconnect a POST
 *   response stream that carried no event id, and never re-issues the request
 *   (`sdk.broken-stream-pending`).
 */

/** The flow lab's proxy settings (the parts `flowProxy` reads). */
type ProxyConfig = FlowConfig['proxy'];

/** What the proxy did: every cut (time and why) and how many flushes passed something on. */
export interface ProxyLog {
  cuts: { atMs: number; why: 'read-timeout' }[];
  flushes: number[];
}

/**
 * The flow lab's proxy as a middlebox on one SSE response (`Middlebox`): passes bytes through, or
 * holds them (and the end of the stream) until the next multiple of `flushIntervalMs` when it
 * buffers; arms the read timeout when the response opens and at every byte from the server, and
 * cuts the stream when it fires. Its timers stop when the stream ends or is cancelled.
 */
export function flowProxy(proxy: ProxyConfig, log: ProxyLog): Middlebox {
  return (body, ctx) => {
    const buffering = proxy.enabled && proxy.buffering && !(proxy.honoursAccelBuffering && ctx.headers.get('X-Accel-Buffering') === 'no');
    const reader = body.getReader();
    let held: Uint8Array[] = [];
    let ended = false;
    let done = false;
    let readTimer: ReturnType<typeof setTimeout> | undefined;
    let flushTimer: ReturnType<typeof setTimeout> | undefined;
    let out!: ReadableStreamDefaultController<Uint8Array>;
    const stop = () => {
      done = true;
      clearTimeout(readTimer);
      clearTimeout(flushTimer);
      held = [];
    };
    const armRead = () => {
      if (!proxy.enabled || proxy.readTimeoutMs === null) return;
      clearTimeout(readTimer);
      readTimer = setTimeout(() => {
        if (done) return;
        log.cuts.push({ atMs: ctx.now(), why: 'read-timeout' });
        stop();
        ctx.cut();
      }, proxy.readTimeoutMs);
    };
    const flush = () => {
      flushTimer = undefined;
      if (done) return;
      log.flushes.push(ctx.now());
      for (const chunk of held) out.enqueue(chunk);
      held = [];
      if (ended) {
        stop();
        out.close();
      }
    };
    const scheduleFlush = () => {
      if (flushTimer !== undefined) return;
      const now = ctx.now();
      const next = (Math.floor(now / proxy.flushIntervalMs) + 1) * proxy.flushIntervalMs;
      flushTimer = setTimeout(flush, next - now);
    };
    return new ReadableStream<Uint8Array>({
      start: (controller) => {
        out = controller;
        armRead();
        void (async () => {
          for (;;) {
            const r = await reader.read().catch(() => ({ done: true as const, value: undefined }));
            if (done) return;
            if (r.done) {
              ended = true;
              clearTimeout(readTimer);
              if (buffering && held.length) return scheduleFlush();
              stop();
              return out.close();
            }
            armRead();
            if (buffering) {
              held.push(r.value);
              scheduleFlush();
            } else out.enqueue(r.value);
          }
        })();
      },
      cancel: (reason) => {
        stop();
        return reader.cancel(reason);
      },
    });
  };
}

/** Why the SDK v2 pair cannot express a flow scenario (the oracle drives one SDK client making one call), or null when it can. */
export function notExpressibleFlowV2(scenario: Scenario): string | null {
  const c = scenario.config as unknown as FlowConfig;
  if (c.fleet) return 'config.fleet: many clients on one server, the oracle drives one SDK client';
  if (c.reconnectLoop) return 'config.reconnectLoop: a reconnect loop computed beside the trace, with no call on the wire';
  if (c.resumption) return 'config.resumption: the 2025-11-25 Last-Event-ID resumption mechanics, with no call on the wire';
  if (c.revision !== '2026-07-28') return `revision ${c.revision}: the SDK v2 pair is pinned to 2026-07-28`;
  const bug = Object.entries(c.bugs).find(([, on]) => on);
  if (bug) return `bugs.${bug[0]} is on: it models a broken lab client or server the SDK pair does not have`;
  if (c.producers.length !== 1 || !c.producers[0].final) return 'producers: the SDK drives one tools/call, whose handler writes one producer\'s progress and its result (a feed without a final, or several tokens on one stream, has no call to make)';
  if (c.client.operationToken !== null && c.client.operationToken !== c.producers[0].token) return `client.operationToken ${c.client.operationToken}: it names no producer of the call`;
  const event = scenario.events.find((e) => e.kind !== 'drop');
  if (event) return `event kind "${event.kind}" (${event.id}) has no SDK v2 action (the tool's writes come from its producer; only a drop is scripted on the wire)`;
  if (c.consumer.readIntervalMs !== 0) return `consumer.readIntervalMs ${c.consumer.readIntervalMs}: a slow reader fills the server's SSE queue, whose policy and capacity the SDK server does not have`;
  if (c.proxy.enabled && c.proxy.bufferEvents !== null) return 'proxy.bufferEvents: a proxy that flushes when its buffer is full (the oracle\'s proxy flushes on its interval only)';
  return null;
}

/** The facts the flow lab's summary names for the watched call, from the lab or from the SDK (at the horizon). */
export interface FlowFacts {
  /** waiting (no answer yet), completed, timeout-idle (the client's timeout), or failed (another error). */
  operation: string;
  operationEndedAtMs: number | null;
  /** The request the client waits on: the call's token, or `<token>-reissue-<n>` after n re-issues. */
  operationRequestId: string | null;
  reissues: number;
  /** New HTTP requests the client made for the call after a drop (a re-issue POST, or a resuming GET). */
  reconnects: number;
  /** Executions of the tool started (not the ones its idempotency key answered from the stored result). */
  operationExecutions: number;
  /** Executions of a side-effecting tool that completed. */
  sideEffectExecutions: number;
  disconnects: number;
  firstDisconnectAtMs: number | null;
  proxyTimeouts: number;
  /** Messages the server wrote for the call that a cut lost before they reached the client. */
  lostWhileDown: number;
  deliveredProgress: number;
  deliveredFinals: number;
}

const FACT_KEYS = ['operation', 'operationEndedAtMs', 'operationRequestId', 'reissues', 'reconnects', 'operationExecutions', 'sideEffectExecutions', 'disconnects', 'firstDisconnectAtMs', 'proxyTimeouts', 'lostWhileDown', 'deliveredProgress', 'deliveredFinals'] as const satisfies readonly (keyof FlowFacts)[];

/** The lab's facts: its summary at the end of the replay. */
export function labFlowFacts(trace: FlowTrace): FlowFacts {
  const s = trace.outcome.summary as unknown as FlowFacts;
  return Object.fromEntries(FACT_KEYS.map((k) => [k, s[k]])) as unknown as FlowFacts;
}

/** "field: lab X, SDK v2 Y" for every fact that differs (empty: they agree point by point). */
export function flowDifferences(lab: FlowFacts, sdk: FlowFacts): string[] {
  return FACT_KEYS.filter((k) => lab[k] !== sdk[k]).map((k) => `${k}: lab ${JSON.stringify(lab[k])}, SDK v2 ${JSON.stringify(sdk[k])}`);
}

/** One line of facts for the README table. */
export function summarizeFlow(f: FlowFacts, horizonMs: number): string {
  const end = f.operation === 'waiting' ? `no answer at the horizon (${horizonMs} ms)` : `${f.operation} at ${f.operationEndedAtMs} ms`;
  const cuts = f.disconnects === 0 ? 'never cut' : `cut ${f.disconnects}× from ${f.firstDisconnectAtMs} ms${f.proxyTimeouts ? ` (${f.proxyTimeouts} by the proxy's read timeout)` : ''}`;
  const reissued = f.reissues === 0 ? 'not re-issued' : `re-issued ${f.reissues}× (waits on ${f.operationRequestId})`;
  return `${end}; ${cuts}; ${reissued}; ${f.operationExecutions} execution${f.operationExecutions === 1 ? '' : 's'}${f.sideEffectExecutions ? ` (${f.sideEffectExecutions} side effect${f.sideEffectExecutions === 1 ? '' : 's'})` : ''}; ${f.lostWhileDown} lost in the cut; delivered ${f.deliveredProgress} progress, ${f.deliveredFinals} result${f.deliveredFinals === 1 ? '' : 's'}`;
}

/** How the SDK call is made: its `timeout` (undefined: the SDK's default, 60000 ms), and until when the clock runs after the horizon. */
export interface FlowRunOptions {
  timeoutMs: number | undefined;
  /** The clock runs to max(horizon, untilMs); `settled` is the call's outcome then. */
  untilMs?: number;
  /** Leave `createMcpHandler`'s `keepAliveMs` at the SDK's default (15000 ms) instead of the scenario's `keepAliveIntervalMs`. */
  sdkDefaultKeepAlive?: boolean;
}

/** What the SDK v2 did on one flow scenario. */
export interface FlowV2Observation {
  scenario: string;
  negotiated: string | undefined;
  /** Every HTTP request, `"<METHOD> <status>"`. */
  requests: string[];
  /** The facts at the horizon. */
  facts: FlowFacts;
  /** The call's outcome when the clock stopped (`FlowRunOptions.untilMs`). */
  settled: ClientOutcome;
  /** Every cut of the call's stream: the scripted drops and the proxy's read timeouts. */
  cuts: { atMs: number; why: 'drop' | 'read-timeout' }[];
  /** What the tool's handler wrote (ms): progress, and its result. */
  writes: { atMs: number; kind: 'progress' | 'result' }[];
  executions: ExecutionRecord[];
  /** Errors the SDK client reported through `onerror`, "<ms> <message up to the first colon>". */
  clientErrors: string[];
  /** Every message after the handshake, both directions (s2c: when it reached the client). */
  wire: WireRecord[];
  proxyFlushes: number[];
}

/**
 * Runs a flow scenario on the SDK v2 pair (see the module note). `advance` is
 * `vi.advanceTimersByTimeAsync`; call with fake timers at 0. Throws when the scenario is not
 * expressible.
 */
export async function observeFlowV2(scenario: Scenario, advance: (ms: number) => Promise<unknown>, run: FlowRunOptions): Promise<FlowV2Observation> {
  const why = notExpressibleFlowV2(scenario);
  if (why) throw new Error(`${scenario.id}: not expressible with the SDK v2 — ${why}`);
  const c = scenario.config as unknown as FlowConfig;
  const producer = c.producers[0];
  const log: ProxyLog = { cuts: [], flushes: [] };
  const session = new SdkV2Session('http', { keepAliveMs: run.sdkDefaultKeepAlive ? undefined : (c.keepAliveIntervalMs ?? 0), middlebox: c.proxy.enabled ? flowProxy(c.proxy, log) : undefined, tool: c.client.tool });
  await session.start({ clientToServer: 0, serverToClient: 0 }, advance);
  const handshake = session.wire.length;
  const drops: { atMs: number; why: 'drop' }[] = [];
  const writes: FlowV2Observation['writes'] = [];
  const key = 'call';
  const timeout = c.client.idleTimeoutMs ?? run.timeoutMs;
  session.call(key, { timeout, resetTimeoutOnProgress: c.client.idleTimeoutMs !== null, onprogress: true }, c.client.idempotencyKey !== null ? { idempotencyKey: c.client.idempotencyKey } : {});
  // the scenario's timeline: the producer's writes and the scripted drops, in time order (a write before a drop at the same ms, as the lab ranks the server first)
  const steps: { at: number; rank: number; act: () => void }[] = [];
  const write = (kind: 'progress' | 'result', n: number) => () => {
    const call = session.calls.get(key)!;
    if (call.abortFiredAtMs !== null || call.outcome.kind !== 'pending') return; // the execution was stopped (its stream closed): it writes nothing more
    writes.push({ atMs: session.now(), kind });
    if (kind === 'progress') session.progress(key, n);
    else session.complete(key, 'done');
  };
  for (let k = 0; k < producer.count; k++) steps.push({ at: producer.startMs + k * producer.intervalMs, rank: 0, act: write('progress', k + 1) });
  steps.push({ at: producer.startMs + producer.count * producer.intervalMs, rank: 0, act: write('result', producer.count) });
  for (const e of scenario.events) {
    steps.push({
      at: e.at,
      rank: 1,
      act: () => {
        drops.push({ atMs: session.now(), why: 'drop' });
        session.disconnect(key);
      },
    });
  }
  steps.sort((a, b) => a.at - b.at || a.rank - b.rank);
  let facts: FlowFacts | null = null;
  const sample = () => (facts = sdkFlowFacts(c, session, handshake, writes, [...drops, ...log.cuts].sort((a, b) => a.atMs - b.atMs), log));
  for (const step of steps) {
    if (step.at > c.horizonMs && facts === null) {
      await advance(c.horizonMs - session.now());
      sample();
    }
    const wait = step.at - session.now();
    if (wait > 0) await advance(wait);
    step.act();
    await advance(0);
  }
  if (facts === null) {
    await advance(Math.max(0, c.horizonMs - session.now()));
    sample();
  }
  const until = Math.max(c.horizonMs, run.untilMs ?? 0);
  if (until > session.now()) await advance(until - session.now());
  return {
    scenario: scenario.id,
    negotiated: session.negotiated,
    requests: session.requests,
    facts: facts!,
    settled: session.calls.get(key)!.outcome,
    cuts: [...drops, ...log.cuts].sort((a, b) => a.atMs - b.atMs),
    writes,
    executions: session.executions,
    clientErrors: session.clientErrors.map((e) => `${e.atMs} ${e.message.split(':')[0]}`),
    wire: session.messagesSince(handshake),
    proxyFlushes: log.flushes,
  };
}

/** The SDK's facts now, in the lab's names (ids mapped to the scenario's: the first request is the call's token). */
function sdkFlowFacts(c: FlowConfig, session: SdkV2Session, handshake: number, writes: FlowV2Observation['writes'], cuts: { atMs: number; why: string }[], log: ProxyLog): FlowFacts {
  const token = c.producers[0].token;
  const wire = session.messagesSince(handshake);
  const m = (w: WireRecord) => w.message as { method?: string; id?: unknown; result?: unknown };
  const calls = wire.filter((w) => w.direction === 'c2s' && m(w).method === 'tools/call').length;
  const received = wire.filter((w) => w.direction === 's2c');
  const progress = received.filter((w) => m(w).method === 'notifications/progress').length;
  const results = received.filter((w) => m(w).result !== undefined).length;
  const outcome = session.calls.get('call')!.outcome;
  const lastCut = cuts.length ? cuts[cuts.length - 1].atMs : null;
  const writtenBeforeCut = lastCut === null ? 0 : writes.filter((w) => w.atMs <= lastCut).length;
  const receivedBeforeCut = lastCut === null ? 0 : received.filter((w) => w.atMs <= lastCut).length;
  const ran = session.executions.filter((e) => !e.fromStore);
  return {
    operation: outcome.kind === 'pending' ? 'waiting' : outcome.kind === 'result' ? 'completed' : outcome.code === 'REQUEST_TIMEOUT' ? 'timeout-idle' : 'failed',
    operationEndedAtMs: outcome.kind === 'pending' ? null : outcome.atMs,
    operationRequestId: calls <= 1 ? token : `${token}-reissue-${calls - 1}`,
    reissues: Math.max(0, calls - 1),
    reconnects: Math.max(0, session.requests.length - 2), // the handshake's POST and the call's POST; anything more is the client coming back
    operationExecutions: ran.length,
    sideEffectExecutions: c.client.sideEffect ? writes.filter((w) => w.kind === 'result').length : 0,
    disconnects: cuts.length,
    firstDisconnectAtMs: cuts.length ? cuts[0].atMs : null,
    proxyTimeouts: log.cuts.length,
    lostWhileDown: writtenBeforeCut - receivedBeforeCut,
    deliveredProgress: progress,
    deliveredFinals: results,
  };
}
