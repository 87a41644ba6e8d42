import { clientHash, jitterUnit } from '../retry/backoff';
import type { ReconnectLoopConfig } from './schema';

/** A reconnect loop of one client (issue 11), moved out of `herd.ts` (which re-exports it). */

/** What `simulateReconnectLoop` measured. Times in virtual ms. */
export interface ReconnectLoopSummary {
  /** Connections opened (GET requests or process spawns), the first included. */
  connects: number;
  /** connects − 1. */
  reconnects: number;
  /** connects within the first 3000 ms (oh-my-pi PR#1596's window). */
  connectsInFirst3s: number;
  /** The most connects inside any window of `burstCap.windowMs` (3000 ms when there is no cap). */
  peakConnectsPerWindow: number;
  /** The attempt counter's highest value. */
  maxCounter: number;
  /** True when the client stopped because the counter passed maxAttempts. */
  gaveUp: boolean;
  /** True when the server answered 405 and the client (correctly) opened no stream. */
  noStreamOffered: boolean;
  /** Shortest and longest time between two connects (null with fewer than two). */
  minIntervalMs: number | null;
  maxIntervalMs: number | null;
  lastConnectAtMs: number;
}

/** One invariant of the reconnect loop and its first violation (time and message), or null. */
export interface LoopInvariant {
  name: string;
  description: string;
  firstViolation: { at: number; message: string } | null;
}

/** Result of `simulateReconnectLoop`. */
export interface ReconnectLoopResult {
  summary: ReconnectLoopSummary;
  /** Connect times (ms), in order; at most the first 200 are kept (the count is in `summary`). */
  connectTimesMs: number[];
  invariants: LoopInvariant[];
}

/** Names of the reconnect loop's invariants. */
export const RECONNECT_LOOP_INVARIANTS = {
  'reconnect-attempts-bounded': 'Without a healthy connection a client stops after maxAttempts reconnects: a normal stream end or a successful handshake does not reset the attempt counter (python-sdk#3257, oh-my-pi PR#1596).',
  'reconnect-bursts-capped': 'No more than 10 connects in any 3000 ms (oh-my-pi PR#1596\'s expectation).',
  'reconnect-backs-off': 'Consecutive reconnects without a healthy connection do not all wait the same flat delay (back off, with jitter, so a fleet does not reconnect in lockstep).',
} as const;

/**
 * One client's reconnect loop (see `reconnectLoopSchema`). Connection k opens at t_k; its
 * handshake succeeds at t_k + handshakeMs (a 405 ends the loop there: no stream is offered, so
 * there is nothing to reconnect to); it ends normally lifetimeMs later. Then the counter resets
 * per `counterResetsOn`, goes up by one, and past `maxAttempts` the client gives up; otherwise it
 * reconnects after the backoff delay (flat, or full jitter hashed from (seed, "loop", attempt)),
 * later still if `burstCap` would be exceeded. Followed until `horizonMs`. Deterministic; loops
 * are O(connects) (11 hours at one connect per 1.2 s is 33,001 connects). Throws RangeError for
 * more than 10,000,000 connects.
 *
 * The invariants are measured against fixed field figures, not the config: at most 10 connects
 * in any 3 s, at most `maxAttempts` reconnects while no connection was healthy, and not every
 * delay equal.
 */
export function simulateReconnectLoop(c: ReconnectLoopConfig, seed = 1): ReconnectLoopResult {
  const times: number[] = [];
  let count = 0;
  let counter = 0;
  let maxCounter = 0;
  let gaveUp = false;
  let noStream = false;
  let minGap: number | null = null;
  let maxGap: number | null = null;
  let last = 0;
  const windowMs = c.burstCap?.windowMs ?? 3000;
  // Ring of the latest connect times, for the burst cap and the windows measured.
  const recent: number[] = [];
  const recent3s: number[] = [];
  let peakWindow = 0;
  let peak3s = 0;
  let in3s = 0;
  let unhealthyRun = 0;
  const delays: number[] = [];
  let boundedAt: { at: number; message: string } | null = null;
  let burstAt: { at: number; message: string } | null = null;
  let flatAt: { at: number; message: string } | null = null;
  const hash = clientHash('loop');
  let t = 0;
  for (;;) {
    count++;
    if (count > 10_000_000) throw new RangeError('reconnectLoop: more than 10,000,000 connects; shorten horizonMs');
    if (times.length < 200) times.push(t);
    if (count > 1) {
      const gap = t - last;
      minGap = minGap === null ? gap : Math.min(minGap, gap);
      maxGap = maxGap === null ? gap : Math.max(maxGap, gap);
    }
    last = t;
    if (t < 3000) in3s++;
    recent.push(t);
    while (recent.length && recent[0] <= t - windowMs) recent.shift();
    peakWindow = Math.max(peakWindow, recent.length);
    recent3s.push(t);
    while (recent3s.length && recent3s[0] <= t - 3000) recent3s.shift();
    peak3s = Math.max(peak3s, recent3s.length);
    if (burstAt === null && recent3s.length > 10) burstAt = { at: t, message: `${recent3s.length} connects within 3000 ms (${recent3s[0]}–${t} ms)` };
    const up = t + c.handshakeMs;
    if (c.transport === 'streamable-http' && c.serverGet === '405') {
      noStream = true;
      break;
    }
    if (c.counterResetsOn === 'handshake') counter = 0;
    const end = up + c.lifetimeMs;
    if (end > c.horizonMs) break;
    const healthy = c.lifetimeMs >= c.healthyAfterMs;
    if (healthy) unhealthyRun = 0;
    if (healthy || c.counterResetsOn === 'stream-end') counter = 0;
    counter++;
    maxCounter = Math.max(maxCounter, counter);
    if (counter > c.maxAttempts) {
      gaveUp = true;
      break;
    }
    unhealthyRun++;
    if (boundedAt === null && unhealthyRun > c.maxAttempts)
      boundedAt = { at: end, message: `reconnect ${unhealthyRun} without a healthy connection, past maxAttempts ${c.maxAttempts} (the counter was reset to ${counter - 1} before it)` };
    const attempt = counter - 1;
    const ceiling = Math.min(c.capMs, c.reconnectDelayMs * 2 ** Math.min(attempt, 40));
    const delay = c.backoff === 'flat' ? c.reconnectDelayMs : Math.floor(jitterUnit(seed, hash, count) * (ceiling + 1));
    delays.push(delay);
    if (flatAt === null && delays.length >= 3 && unhealthyRun >= 3 && delays.slice(-3).every((d) => d === delays[delays.length - 1]))
      flatAt = { at: end, message: `three reconnects in a row waited the same ${delay} ms` };
    let next = end + delay;
    if (c.burstCap && recent.length >= c.burstCap.max) {
      // The window (next − windowMs, next] must hold fewer than max earlier connects.
      const earliestAllowed = recent[recent.length - c.burstCap.max] + c.burstCap.windowMs;
      if (next < earliestAllowed) next = earliestAllowed;
    }
    if (next > c.horizonMs) break;
    t = next;
  }
  const inv = (name: keyof typeof RECONNECT_LOOP_INVARIANTS, v: { at: number; message: string } | null): LoopInvariant => ({ name, description: RECONNECT_LOOP_INVARIANTS[name], firstViolation: v });
  return {
    summary: {
      connects: count,
      reconnects: count - 1,
      connectsInFirst3s: in3s,
      peakConnectsPerWindow: c.burstCap ? peakWindow : peak3s,
      maxCounter,
      gaveUp,
      noStreamOffered: noStream,
      minIntervalMs: minGap,
      maxIntervalMs: maxGap,
      lastConnectAtMs: last,
    },
    connectTimesMs: times,
    invariants: [inv('reconnect-attempts-bounded', boundedAt), inv('reconnect-bursts-capped', burstAt), inv('reconnect-backs-off', flatAt)],
  };
}
