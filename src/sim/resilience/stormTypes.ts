import type { StormConfig } from './schema';

/**
 * A retry storm across layers (issue 5 item 4): a user action enters layer 0 (the client), each
 * layer calls the next with its own per-attempt timeout, retries and fixed backoff, and the last
 * layer calls the upstream API, where each attempt starts an execution. With every layer retrying
 * 3 times, one action reaches the upstream up to 4 × 4 × 4 = 64 times.
 *
 * A timed-out attempt is abandoned, not stopped: its subtree keeps running unless cancellation is
 * propagated: the postmortem's "取消信号平均需要320ms才能穿透整个调用链" — 320 ms on average to cross the
 * WHOLE chain — is `cancelPropagationMs`, split evenly over the hops below the user (one per layer,
 * the last reaching the upstream), each rounded to an integer ms (`cancelHopMs`). The fixes, one by one:
 * retry at one layer only, deadlines passed down, per-layer retry budgets, cancellation
 * propagated, idempotency keys upstream (a repeat joins the running or finished execution).
 * Upstream options for the gateway field case: a duplicate guard that kills a new run when
 * `duplicateGuardMaxRuns` already run, and a receipt answered after `receiptAfterMs` that the
 * caller then polls instead of holding the request.
 *
 * Stacked retry layers inside one client (issue 11; the thread number nanobot#2760 and its figures
 * come from the issue text): layers that name the same `process` are two retry loops in one
 * program — the application's loop around its SDK's loop — each unaware of the other. The
 * application's 4 attempts × the SDK's 3 attempts = 12 upstream requests against a 429. The fix
 * `oneRetryLayerPerProcess` keeps the outermost loop of each process and turns the inner ones off
 * (4 requests); the invariant `one-retry-layer-per-process` names the stacking.
 *
 * On the checkpointed core the hot loop mutates one `StormCore` in place; traces hold views.
 */

/** One attempt a layer sends to the next layer (or to the upstream API, from the last layer). */
export interface StormAttempt {
  /** Path id, e.g. `L0.2/L1.1/L2.3` (layer 0 attempt 2 → layer 1 attempt 1 → layer 2 attempt 3). */
  id: string;
  layer: number;
  n: number;
  callId: string;
  startAt: number;
  endAt: number | null;
  result: 'pending' | 'ok' | 'receipt' | 'failed' | 'timeout' | 'abandoned' | 'cancelled';
  /** The call inside the next layer this attempt created, or the upstream execution. */
  child: string | null;
  timeoutHandle: number;
}

/** A layer handling one request (from the layer above, or the user's action at layer 0). */
export interface StormCall {
  id: string;
  layer: number;
  parentAttempt: string | null;
  attempts: number;
  deadlineAt: number | null;
  state: 'active' | 'ok' | 'failed' | 'cancelled';
  /** Cancelled (by the user, or by a propagated cancel) — takes no more attempts. */
  cancelled: boolean;
  current: string | null;
}

/** One execution of the action at the upstream API. */
export interface StormExecution {
  id: string;
  startAt: number;
  endAt: number | null;
  state: 'running' | 'ok' | 'failed' | 'killed' | 'cancelled';
  /** Attempts waiting on it (several with idempotency keys). */
  waiters: readonly string[];
}

/** State of the storm mechanism. */
export interface StormState {
  mechanism: 'storm';
  config: StormConfig;
  healthy: boolean;
  calls: Readonly<Record<string, StormCall>>;
  attempts: Readonly<Record<string, StormAttempt>>;
  attemptOrder: readonly string[];
  executions: readonly StormExecution[];
  /** Per layer: calls received and retries made (budgets). */
  layerCalls: readonly number[];
  layerRetries: readonly number[];
  user: { state: 'idle' | 'waiting' | 'polling' | 'succeeded' | 'failed' | 'cancelled'; atMs: number | null; startAt: number | null; cancelAt: number | null };
}

/** Timers of the storm mechanism. */
export type StormTimer =
  | { kind: 'storm.retry'; callId: string }
  | { kind: 'storm.timeout'; attemptId: string }
  | { kind: 'storm.exec-end'; execId: string }
  | { kind: 'storm.receipt'; execId: string }
  | { kind: 'storm.poll' }
  | { kind: 'storm.cancel-arrives'; callId: string }
  | { kind: 'storm.cancel-exec'; execId: string };

/** Tie ranks: upstream ends and receipts, then timeouts, then scripted, then retries and polls. */
export const STORM_RANK = { upstream: 0, timeout: 1, scripted: 2, retry: 3 } as const;

/** The storm's outcome. */
export interface StormOutcome {
  requests: { key: 'action'; state: StormState['user']['state']; atMs: number | null }[];
  summary: {
    attemptsPerLayer: number[];
    upstreamAttempts: number;
    executions: number;
    killedByGuard: number;
    executionsCompleted: number;
    /** Executions running at the user's cancel, or started after it. */
    duplicateWorkAfterCancel: number;
    /** Executions still running when the trace ends. */
    executionsRunningAtEnd: number;
    lastExecutionEndAtMs: number | null;
  };
}

/**
 * The time a propagated cancel takes to cross one hop (integer ms): the whole-chain time
 * `cancelPropagationMs` split evenly over the `layers.length` hops from the client down to the
 * upstream, rounded (S2: round(320 / 3) = 107 ms, so the upstream hears it 321 ms after the user).
 */
export function cancelHopMs(config: StormConfig): number {
  return Math.round(config.cancelPropagationMs / config.layers.length);
}

/** Initial state: no action yet. */
export function initStorm(config: StormConfig): StormState {
  return {
    mechanism: 'storm',
    config,
    healthy: !config.upstream.failingAtStart,
    calls: {},
    attempts: {},
    attemptOrder: [],
    executions: [],
    layerCalls: config.layers.map(() => 0),
    layerRetries: config.layers.map(() => 0),
    user: { state: 'idle', atMs: null, startAt: null, cancelAt: null },
  };
}

/**
 * True when `layer` runs in the same process as a layer above it (`process` set and equal): an
 * inner retry loop stacked inside one client.
 */
export function stackedInProcess(layers: StormConfig['layers'], layer: number): boolean {
  const p = layers[layer].process;
  return p !== null && layers.slice(0, layer).some((l) => l.process === p);
}


/** The mutable state of the storm on the core: `StormState`'s shape, records changed in place. */
export interface StormCore {
  mechanism: 'storm';
  config: StormConfig;
  healthy: boolean;
  calls: Record<string, StormCall>;
  attempts: Record<string, StormAttempt>;
  attemptOrder: string[];
  executions: (Omit<StormExecution, 'waiters'> & { waiters: string[] })[];
  layerCalls: number[];
  layerRetries: number[];
  user: StormState['user'];
}

function copyRecord<T extends object>(r: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const k in r) out[k] = { ...r[k] };
  return out;
}

/** A copy of `s` in `StormState`'s shape and key order, every record, array and execution copied. */
function copyStorm(s: StormCore | StormState): StormCore {
  return {
    mechanism: 'storm',
    config: s.config,
    healthy: s.healthy,
    calls: copyRecord(s.calls),
    attempts: copyRecord(s.attempts),
    attemptOrder: s.attemptOrder.slice(),
    executions: s.executions.map((e) => ({ ...e, waiters: e.waiters.slice() })),
    layerCalls: s.layerCalls.slice(),
    layerRetries: s.layerRetries.slice(),
    user: { ...s.user },
  };
}

/** An immutable view of `s` in `StormState`'s shape and key order (every record copied). */
export function stormView(s: StormCore): StormState {
  return copyStorm(s);
}

/** A fresh mutable state equal to `v` (the view is not changed). */
export function stormThaw(v: StormState): StormCore {
  return copyStorm(v);
}
