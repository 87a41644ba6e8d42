import { backoffBoundsMs, backoffDelayForHash, clientHash, jitterUnit, LESSON_JITTER, SDK_DEFAULT_RECONNECTION, type BackoffParams, type BackoffStrategy } from '../retry/backoff';
import { sha256Word0 } from './sha256Short';

/**
 * The reconnect herd (issue 4, item 5): `clients` clients lose their stream at 0 ms; the server is
 * down until `outageMs` and then accepts at most `acceptPerSecond` connections in each wall-clock
 * second [k·1000, k·1000 + 999]. Client `c<i>` (i = 1..N) tries after `backoffDelayMs(strategy,
 * "c<i>", 0)`, and after each refusal waits the next attempt's delay, up to `maxAttempts` attempts
 * (the SDK default: at most its `maxRetries` of 2, then it gives up; `herdAttemptLimit`).
 *
 * Computed with typed arrays and a calendar of 1 ms slots (one linked list per millisecond), no
 * per-client objects: 100,000 clients × 8 attempts take tens of milliseconds (see `npm run bench`).
 * Within one millisecond, arrivals are served in calendar order (deterministic).
 */
export interface HerdParams {
  clients: number;
  strategy: BackoffStrategy;
  backoff: BackoffParams;
  /** The server refuses every connection before this time (ms). */
  outageMs: number;
  /** Connections accepted per second once the server is back. */
  acceptPerSecond: number;
  /** Attempts per client before it gives up (1 = no retry); 'sdk-default' stops earlier, see `herdAttemptLimit`. */
  maxAttempts: number;
  /** Width of the plot's time buckets (ms). */
  bucketMs: number;
}

export interface HerdResult {
  strategy: BackoffStrategy;
  clients: number;
  bucketMs: number;
  /** Connection attempts per bucket (index = ⌊t / bucketMs⌋). */
  arrivals: Uint32Array;
  /** Accepted connections per bucket. */
  accepted: Uint32Array;
  /** Largest number of attempts in one second, against `acceptPerSecond`. */
  peakArrivalsPerSecond: number;
  /** Second (start, ms) where that peak happened. */
  peakSecondAtMs: number;
  acceptPerSecond: number;
  totalAttempts: number;
  connected: number;
  /** Clients that used all their attempts (`attemptLimit`) without being accepted. */
  gaveUp: number;
  /** Attempts each client makes at most under this strategy (`herdAttemptLimit`). */
  attemptLimit: number;
  /** Time the last client was accepted when every client got back, else null (ms). */
  allBackAtMs: number | null;
  /** Time of the last attempt (ms). */
  lastAttemptAtMs: number;
}

/**
 * Attempts a client makes at most under `strategy`: `maxAttempts`, except 'sdk-default', which
 * stops after the SDK's own `maxRetries` (2; `SDK_DEFAULT_RECONNECTION`) whatever `maxAttempts`
 * allows — the SDK client gives up after its two reconnection attempts.
 */
export function herdAttemptLimit(strategy: BackoffStrategy, maxAttempts: number): number {
  return strategy === 'sdk-default' ? Math.min(maxAttempts, SDK_DEFAULT_RECONNECTION.maxRetries) : maxAttempts;
}

/** Checks herd parameters; throws RangeError naming the first bad field. */
export function checkHerdParams(p: HerdParams): void {
  const int = (name: string, v: number, min: number, max: number) => {
    if (!Number.isInteger(v) || v < min || v > max) throw new RangeError(`herd: ${name} must be an integer in [${min}, ${max}], got ${v}`);
  };
  int('clients', p.clients, 1, 1_000_000);
  int('outageMs', p.outageMs, 0, 10_000_000);
  int('acceptPerSecond', p.acceptPerSecond, 1, 100_000_000);
  int('maxAttempts', p.maxAttempts, 1, 32);
  int('bucketMs', p.bucketMs, 1, 1_000_000);
  backoffBoundsMs(p.strategy, 0, p.backoff);
}

/**
 * The lesson's delays for clients `c1..cN` and attempts `0..attempts-1`, row-major
 * (`table[client * attempts + attempt]`). They depend on nothing else (no seed, base or cap), so a
 * page computes them once per client count and reuses them on every redraw.
 */
export function lessonDelayTable(clients: number, attempts: number): Uint16Array {
  const table = new Uint16Array(clients * attempts);
  const bytes = new Uint8Array(48);
  for (let c = 0; c < clients; c++) {
    bytes[0] = 0x63;
    const prefix = writeDigits(bytes, 1, c + 1);
    bytes[prefix] = 0x3a;
    for (let a = 0; a < attempts; a++) {
      const n = writeDigits(bytes, prefix + 1, a);
      const ceiling = Math.min(LESSON_JITTER.capMs, LESSON_JITTER.baseMs * 2 ** a);
      const floor = Math.floor(ceiling / 2);
      table[c * attempts + a] = floor + (sha256Word0(bytes, n) % (ceiling - floor + 1));
    }
  }
  return table;
}

/**
 * A delay function over client index (0-based, id `c<index+1>`) and attempt for a herd whose
 * clients retry in attempt order (0, 1, 2 …): per-attempt ceilings are precomputed, per-client
 * hashes too, and decorrelated jitter carries each client's previous delay instead of iterating.
 * Gives exactly `backoffDelayMs(strategy, "c<index+1>", attempt, params)` (a test checks it).
 * `lessonTable` (from `lessonDelayTable`, with `maxAttempts` columns) skips the SHA-256 work.
 */
export function herdDelayFn(strategy: BackoffStrategy, params: BackoffParams, clients: number, maxAttempts = 32, lessonTable?: Uint16Array): (client: number, attempt: number) => number {
  const { baseMs, capMs, seed } = params;
  if (strategy === 'lesson-sha256') {
    // A table built for at least this many clients (rows are per client, so a bigger one serves too).
    if (lessonTable && lessonTable.length >= clients * maxAttempts && lessonTable.length % maxAttempts === 0) return (client, attempt) => lessonTable[client * maxAttempts + attempt];
    const bytes = new Uint8Array(48);
    return (client, attempt) => {
      // "c<client+1>:<attempt>" as ASCII, then the lesson's rule on the first digest word.
      bytes[0] = 0x63;
      let n = writeDigits(bytes, 1, client + 1);
      bytes[n++] = 0x3a;
      n = writeDigits(bytes, n, attempt);
      const ceiling = Math.min(LESSON_JITTER.capMs, LESSON_JITTER.baseMs * 2 ** attempt);
      const floor = Math.floor(ceiling / 2);
      return floor + (sha256Word0(bytes, n) % (ceiling - floor + 1));
    };
  }
  const tops = new Float64Array(maxAttempts);
  for (let a = 0; a < maxAttempts; a++) tops[a] = backoffDelayForHash(strategy === 'sdk-default' ? 'sdk-default' : 'exponential', 0, a, params);
  if (strategy === 'fixed') return () => baseMs;
  if (strategy === 'exponential' || strategy === 'sdk-default') return (_c, attempt) => tops[attempt];
  const hashes = new Uint32Array(clients);
  for (let i = 0; i < clients; i++) hashes[i] = clientHash(`c${i + 1}`);
  if (strategy === 'full-jitter') return (c, a) => Math.floor(jitterUnit(seed, hashes[c], a) * (tops[a] + 1));
  if (strategy === 'equal-jitter') {
    return (c, a) => {
      const half = Math.floor(tops[a] / 2);
      return half + Math.floor(jitterUnit(seed, hashes[c], a) * (half + 1));
    };
  }
  const prev = new Float64Array(clients);
  const prevAttempt = new Int32Array(clients).fill(-1);
  return (c, a) => {
    // Decorrelated: continue from this client's previous delay when it is attempt a − 1, else iterate from base.
    let p = baseMs;
    let step = 0;
    if (prevAttempt[c] === a - 1 && a > 0) {
      p = prev[c];
      step = a;
    }
    for (; step <= a; step++) p = Math.min(capMs, baseMs + Math.floor(jitterUnit(seed, hashes[c], step) * (p * 3 - baseMs + 1)));
    prev[c] = p;
    prevAttempt[c] = a;
    return p;
  };
}

function writeDigits(out: Uint8Array, at: number, value: number): number {
  if (value === 0) {
    out[at] = 0x30;
    return at + 1;
  }
  let len = 0;
  for (let v = value; v > 0; v = Math.floor(v / 10)) len++;
  for (let i = len - 1, v = value; i >= 0; i--, v = Math.floor(v / 10)) out[at + i] = 0x30 + (v % 10);
  return at + len;
}

/**
 * Runs the herd (see `HerdParams`). Pure: same parameters, same result. Throws RangeError for bad
 * parameters (see `checkHerdParams`). `lessonTable` (optional, `lessonDelayTable(clients,
 * maxAttempts)`) makes 'lesson-sha256' redraws cheap.
 */
export function simulateHerd(p: HerdParams, lessonTable?: Uint16Array): HerdResult {
  checkHerdParams(p);
  const n = p.clients;
  const delay = herdDelayFn(p.strategy, p.backoff, n, p.maxAttempts, lessonTable);
  // Horizon: every client's worst case is the sum of its attempts' upper bounds.
  const limit = herdAttemptLimit(p.strategy, p.maxAttempts);
  let horizon = 0;
  for (let a = 0; a < limit; a++) horizon += backoffBoundsMs(p.strategy, a, p.backoff)[1];
  const slots = horizon + 1;
  const head = new Int32Array(slots).fill(-1);
  const next = new Int32Array(n);
  const attempt = new Uint8Array(n);
  for (let i = n - 1; i >= 0; i--) {
    const t = delay(i, 0);
    next[i] = head[t];
    head[t] = i;
  }
  const buckets = Math.floor(horizon / p.bucketMs) + 1;
  const arrivals = new Uint32Array(buckets);
  const accepted = new Uint32Array(buckets);
  const seconds = Math.floor(horizon / 1000) + 1;
  const perSecond = new Uint32Array(seconds);
  const acceptedPerSecond = new Uint32Array(seconds);
  let totalAttempts = 0;
  let connected = 0;
  let gaveUp = 0;
  let lastAccept = 0;
  let lastAttempt = 0;
  for (let t = 0; t < slots; t++) {
    let c = head[t];
    if (c < 0) continue;
    head[t] = -1;
    const bucket = Math.floor(t / p.bucketMs);
    const sec = Math.floor(t / 1000);
    lastAttempt = t;
    while (c >= 0) {
      const following = next[c];
      totalAttempts++;
      arrivals[bucket]++;
      perSecond[sec]++;
      if (t >= p.outageMs && acceptedPerSecond[sec] < p.acceptPerSecond) {
        acceptedPerSecond[sec]++;
        accepted[bucket]++;
        connected++;
        lastAccept = t;
      } else {
        const a = attempt[c] + 1;
        if (a >= limit) gaveUp++;
        else {
          attempt[c] = a;
          const at = t + delay(c, a);
          // Same-ms retries (a 0 ms delay) go to the next slot so the loop always advances.
          const slot = at === t ? t + 1 : at;
          if (slot < slots) {
            next[c] = head[slot];
            head[slot] = c;
          } else gaveUp++;
        }
      }
      c = following;
    }
  }
  let peak = 0;
  let peakSec = 0;
  for (let s = 0; s < seconds; s++) {
    if (perSecond[s] > peak) {
      peak = perSecond[s];
      peakSec = s;
    }
  }
  const used = Math.floor(lastAttempt / p.bucketMs) + 1;
  return {
    strategy: p.strategy,
    clients: n,
    bucketMs: p.bucketMs,
    arrivals: arrivals.slice(0, used),
    accepted: accepted.slice(0, used),
    peakArrivalsPerSecond: peak,
    peakSecondAtMs: peakSec * 1000,
    acceptPerSecond: p.acceptPerSecond,
    totalAttempts,
    connected,
    gaveUp,
    attemptLimit: limit,
    allBackAtMs: connected === n ? lastAccept : null,
    lastAttemptAtMs: lastAttempt,
  };
}

/**
 * The classic optimistic-concurrency experiment (Brooker, "Exponential Backoff And Jitter", AWS
 * Architecture Blog, 2015): `clients` clients each want to write one row once. An attempt reads
 * the row's version at t and writes at t + networkMs; it succeeds iff no other write succeeded in
 * between (its version is still current), otherwise the client backs off `backoffDelayMs(strategy,
 * "c<i>", failures − 1)` and tries again. All start at 0. Returns the total calls (attempts) and
 * the time the last client succeeded. Deterministic; `maxCalls` guards the loop (throws RangeError
 * when exceeded).
 */
export function occExperiment(strategy: BackoffStrategy, clients: number, params: BackoffParams, networkMs = 10, maxCalls = 5_000_000): { calls: number; completionMs: number } {
  if (!Number.isInteger(clients) || clients < 1) throw new RangeError(`occ: clients must be a positive integer, got ${clients}`);
  const delay = herdDelayFn(strategy, params, clients, clients + 1);
  // Pending writes in a binary heap keyed by (write time, client).
  const heapT = new Float64Array(clients);
  const heapC = new Int32Array(clients);
  const readAt = new Float64Array(clients);
  const failures = new Uint32Array(clients);
  let size = 0;
  const less = (i: number, j: number) => heapT[i] < heapT[j] || (heapT[i] === heapT[j] && heapC[i] < heapC[j]);
  const swap = (i: number, j: number) => {
    const t = heapT[i];
    heapT[i] = heapT[j];
    heapT[j] = t;
    const c = heapC[i];
    heapC[i] = heapC[j];
    heapC[j] = c;
  };
  const push = (t: number, c: number) => {
    let i = size++;
    heapT[i] = t;
    heapC[i] = c;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!less(i, parent)) break;
      swap(i, parent);
      i = parent;
    }
  };
  const pop = () => {
    const c = heapC[0];
    const t = heapT[0];
    size--;
    if (size > 0) {
      heapT[0] = heapT[size];
      heapC[0] = heapC[size];
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < size && less(l, m)) m = l;
        if (r < size && less(r, m)) m = r;
        if (m === i) break;
        swap(i, m);
        i = m;
      }
    }
    return { t, c };
  };
  for (let c = 0; c < clients; c++) {
    readAt[c] = 0;
    push(networkMs, c);
  }
  let calls = clients;
  let lastCommit = -1;
  let completion = 0;
  while (size > 0) {
    const { t, c } = pop();
    if (lastCommit < readAt[c]) {
      // Nobody committed since this client read: its write wins.
      lastCommit = t;
      completion = t;
      continue;
    }
    const start = t + delay(c, failures[c]);
    failures[c]++;
    readAt[c] = start;
    push(start + networkMs, c);
    if (++calls > maxCalls) throw new RangeError(`occ: more than ${maxCalls} calls`);
  }
  return { calls, completionMs: completion };
}

export * from './reconnectLoop';
