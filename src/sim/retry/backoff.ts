/**
 * Retry and reconnect backoff strategies, each a pure function of (strategy, client id, attempt,
 * params). No generator state is shared between calls: the "random" part of every jittered
 * strategy is a hash of (seed, client id, attempt), so a herd of 100,000 clients can be computed
 * in any order, in parallel, or one client at a time, and always gives the same delays.
 *
 * Sources:
 * - fixed, exponential, full / equal / decorrelated jitter: Marc Brooker, "Exponential Backoff
 *   And Jitter", AWS Architecture Blog (2015), and the AWS Builders' Library article "Timeouts,
 *   retries, and backoff with jitter".
 * - sdk-default: the official MCP TypeScript SDK, `StreamableHTTPClientTransport`
 *   (`src/client/streamableHttp.ts`): `DEFAULT_STREAMABLE_HTTP_RECONNECTION_OPTIONS` =
 *   { initialReconnectionDelay: 1000, maxReconnectionDelay: 30000, reconnectionDelayGrowFactor:
 *   1.5 } and `_getNextReconnectionDelay(attempt) = min(initial · grow^attempt, max)`, no jitter.
 * - lesson-sha256: the course lesson's deterministic jitter (issue 4, item 4).
 */
import { sha256 } from '@noble/hashes/sha2.js';

/** The strategies the flow lab compares (issue 4, item 4). */
export type BackoffStrategy =
  | 'fixed'
  | 'exponential'
  | 'full-jitter'
  | 'equal-jitter'
  | 'decorrelated-jitter'
  | 'sdk-default'
  | 'lesson-sha256';

/** Every strategy, in the order the lab shows them. */
export const BACKOFF_STRATEGIES: readonly BackoffStrategy[] = [
  'fixed',
  'exponential',
  'full-jitter',
  'equal-jitter',
  'decorrelated-jitter',
  'sdk-default',
  'lesson-sha256',
];

/**
 * Parameters of the AWS-style strategies. `baseMs` and `capMs` are non-negative integer
 * milliseconds with `baseMs ≤ capMs`; `seed` is any integer (taken modulo 2^32). 'sdk-default' and
 * 'lesson-sha256' have their own fixed constants and ignore all three.
 */
export interface BackoffParams {
  baseMs: number;
  capMs: number;
  seed: number;
}

/** The official TypeScript SDK's reconnection defaults (see the module docstring for the source). */
export const SDK_DEFAULT_RECONNECTION = {
  initialReconnectionDelayMs: 1000,
  maxReconnectionDelayMs: 30000,
  reconnectionDelayGrowFactor: 1.5,
  /**
   * `maxRetries: 2` (../shared/SPEC-NOTES.md, "TS SDK v1 client reconnection defaults"). The SDK's
   * `_scheduleReconnection(options, attemptCount)` gives up ("Maximum reconnection attempts (2)
   * exceeded") once `attemptCount >= maxRetries`, so after a drop it tries twice — attempt 0 after
   * 1000 ms and attempt 1 after 1500 ms more — and then stops.
   */
  maxRetries: 2,
} as const;

/** The lesson's deterministic jitter constants: ceiling = min(capMs, baseMs · 2^attempt). */
export const LESSON_JITTER = { baseMs: 250, capMs: 8000 } as const;

const TWO_32 = 4294967296;

/**
 * A 32-bit avalanche mix (the "lowbias32" finalizer by Chris Wellons, public domain): every input
 * bit flips each output bit with probability close to 1/2. Input and output are uint32.
 */
export function mix32(x: number): number {
  x = (x ^ (x >>> 16)) >>> 0;
  x = Math.imul(x, 0x7feb352d);
  x = (x ^ (x >>> 15)) >>> 0;
  x = Math.imul(x, 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

/**
 * A uint32 hash of a client id (FNV-1a over UTF-16 code units, then `mix32`). Herds precompute it
 * once per client and call `backoffDelayForHash`, which gives the same delays as `backoffDelayMs`.
 */
export function clientHash(clientId: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < clientId.length; i++) {
    h ^= clientId.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h >>> 0);
}

/**
 * The uniform draw in [0, 1) for (seed, client hash, step): a pure hash, no generator state.
 * `step` is the attempt number (decorrelated jitter draws once per step 0..attempt).
 */
export function jitterUnit(seed: number, hashOfClient: number, step: number): number {
  let h = mix32((seed ^ 0x9e3779b9) >>> 0);
  h = mix32((h ^ hashOfClient) >>> 0);
  h = mix32((h + Math.imul(step + 1, 0x85ebca6b)) >>> 0);
  return h / TWO_32;
}

function checkAttempt(attempt: number): void {
  if (!Number.isSafeInteger(attempt) || attempt < 0) {
    throw new RangeError(`backoff: attempt must be a non-negative integer, got ${attempt}`);
  }
}

function checkParams(strategy: BackoffStrategy, params: BackoffParams): void {
  const { baseMs, capMs, seed } = params;
  if (!Number.isSafeInteger(baseMs) || baseMs < 0) {
    throw new RangeError(`backoff ${strategy}: baseMs must be a non-negative integer, got ${baseMs}`);
  }
  if (!Number.isSafeInteger(capMs) || capMs < baseMs) {
    throw new RangeError(`backoff ${strategy}: capMs must be an integer ≥ baseMs (${baseMs}), got ${capMs}`);
  }
  if (!Number.isSafeInteger(seed)) {
    throw new RangeError(`backoff ${strategy}: seed must be an integer, got ${seed}`);
  }
}

/** min(cap, base · 2^attempt) without overflow (2^attempt may be Infinity; min absorbs it). */
function expCeiling(baseMs: number, capMs: number, attempt: number): number {
  return Math.min(capMs, baseMs * 2 ** attempt);
}

/** 'sdk-default': ⌊min(30000, 1000 · 1.5^attempt)⌋ ms (truncated to whole ms, as timers do). */
function sdkDefault(attempt: number): number {
  const d = SDK_DEFAULT_RECONNECTION;
  return Math.floor(Math.min(d.maxReconnectionDelayMs, d.initialReconnectionDelayMs * d.reconnectionDelayGrowFactor ** attempt));
}

const encoder = new TextEncoder();

/** 'lesson-sha256' for one (clientId, attempt). */
function lessonSha256(clientId: string, attempt: number): number {
  const ceiling = expCeiling(LESSON_JITTER.baseMs, LESSON_JITTER.capMs, attempt);
  const floor = Math.floor(ceiling / 2);
  const digest = sha256(encoder.encode(`${clientId}:${attempt}`));
  const first4 = ((digest[0] << 24) | (digest[1] << 16) | (digest[2] << 8) | digest[3]) >>> 0;
  return floor + (first4 % (ceiling - floor + 1));
}

/**
 * Delay before retry `attempt` (0-based) of client `clientId`, integer ms. Pure function of its
 * arguments.
 *
 * Definitions (AWS, Brooker 2015; `u` is the hash draw for (seed, clientId, step) in [0, 1) and
 * "random in [a, b]" is `a + ⌊u · (b − a + 1)⌋`, integers inclusive):
 * - 'fixed': `baseMs` every attempt (no backoff, no jitter; the "none" strategy).
 * - 'exponential': `min(capMs, baseMs · 2^attempt)`, no jitter.
 * - 'full-jitter': random in [0, exponential].
 * - 'equal-jitter': `h + random in [0, h]` with `h = ⌊exponential / 2⌋`.
 * - 'decorrelated-jitter': `sleep = min(capMs, random in [baseMs, prev · 3])`, iterated from
 *   `prev = baseMs` over steps 0..attempt (step k draws with its own hash), so it is O(attempt).
 * - 'sdk-default': the MCP TypeScript SDK's reconnection default, `⌊min(30000, 1000 · 1.5^attempt)⌋`,
 *   no jitter; ignores `params`.
 * - 'lesson-sha256': ceiling = min(8000, 250 · 2^attempt), floor = ⌊ceiling / 2⌋, delay = floor +
 *   (first four bytes of SHA-256 of the UTF-8 string `${clientId}:${attempt}`, big-endian, mod
 *   (ceiling − floor + 1)); ignores `params` (the seed too: the hash is the whole jitter).
 *
 * Throws RangeError if `attempt` is not a non-negative integer, or (for the strategies that use
 * them) if `baseMs`/`capMs` are not integers with 0 ≤ baseMs ≤ capMs or `seed` is not an integer.
 */
export function backoffDelayMs(strategy: BackoffStrategy, clientId: string, attempt: number, params: BackoffParams): number {
  checkAttempt(attempt);
  if (strategy === 'lesson-sha256') return lessonSha256(clientId, attempt);
  if (strategy === 'sdk-default') return sdkDefault(attempt);
  checkParams(strategy, params);
  return backoffDelayForHash(strategy, strategy === 'fixed' || strategy === 'exponential' ? 0 : clientHash(clientId), attempt, params);
}

/**
 * The same delays as `backoffDelayMs`, given `clientHash(clientId)` instead of the id, and without
 * argument checks (the caller validated them once for the whole herd). Not for 'lesson-sha256',
 * which hashes the id itself (throws RangeError).
 */
export function backoffDelayForHash(strategy: BackoffStrategy, hashOfClient: number, attempt: number, params: BackoffParams): number {
  const { baseMs, capMs, seed } = params;
  switch (strategy) {
    case 'fixed':
      return baseMs;
    case 'exponential':
      return expCeiling(baseMs, capMs, attempt);
    case 'full-jitter': {
      const top = expCeiling(baseMs, capMs, attempt);
      return Math.floor(jitterUnit(seed, hashOfClient, attempt) * (top + 1));
    }
    case 'equal-jitter': {
      const half = Math.floor(expCeiling(baseMs, capMs, attempt) / 2);
      return half + Math.floor(jitterUnit(seed, hashOfClient, attempt) * (half + 1));
    }
    case 'decorrelated-jitter': {
      let prev = baseMs;
      for (let step = 0; step <= attempt; step++) {
        const hi = prev * 3;
        prev = Math.min(capMs, baseMs + Math.floor(jitterUnit(seed, hashOfClient, step) * (hi - baseMs + 1)));
      }
      return prev;
    }
    case 'sdk-default':
      return sdkDefault(attempt);
    case 'lesson-sha256':
      throw new RangeError('backoffDelayForHash: lesson-sha256 hashes the client id itself; call backoffDelayMs');
    default:
      throw new RangeError(`backoff: unknown strategy ${String(strategy)}`);
  }
}

/**
 * The inclusive range [minMs, maxMs] every delay of `strategy` at `attempt` lies in, whatever the
 * client id and seed (the property tests check each draw against it; the herd plot labels it).
 * Same argument checks as `backoffDelayMs`.
 */
export function backoffBoundsMs(strategy: BackoffStrategy, attempt: number, params: BackoffParams): [number, number] {
  checkAttempt(attempt);
  switch (strategy) {
    case 'sdk-default': {
      const d = sdkDefault(attempt);
      return [d, d];
    }
    case 'lesson-sha256': {
      const ceiling = expCeiling(LESSON_JITTER.baseMs, LESSON_JITTER.capMs, attempt);
      return [Math.floor(ceiling / 2), ceiling];
    }
    default:
      break;
  }
  checkParams(strategy, params);
  const { baseMs, capMs } = params;
  const top = expCeiling(baseMs, capMs, attempt);
  switch (strategy) {
    case 'fixed':
      return [baseMs, baseMs];
    case 'exponential':
      return [top, top];
    case 'full-jitter':
      return [0, top];
    case 'equal-jitter': {
      const half = Math.floor(top / 2);
      return [half, 2 * half];
    }
    case 'decorrelated-jitter':
      return [baseMs, Math.min(capMs, baseMs * 3 ** (attempt + 1))];
  }
  throw new RangeError(`backoff: unknown strategy ${String(strategy)}`);
}
