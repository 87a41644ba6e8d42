import { checkNumber } from './validate';

/**
 * The retry-storm postmortem's three protection tiers ("熔断机制的级联保护", "新的熔断策略采用三级
 * 防御体系") and its breaker metrics ("熔断指标" CIRCUIT_BREAKER_METRICS), as a fluid model over
 * virtual seconds:
 *
 * 1. request level ("快速失败层(请求级)"): `error_rate > 15% in 10s` → `return 429 for 30%
 *    requests`, fallback `cache_last_success`;
 * 2. service level ("流量调度层(服务级)"): `openai_latency > 5s P90` → `shift 20% traffic to
 *    deepseek`, `warmup: 30s渐进切换` (a linear ramp over 30 s);
 * 3. cluster level ("全局降级层(集群级)"): `total_errors > 1000/min` → `enable degraded mode` with
 *    the features disable_realtime_analytics, use_cached_models, static_fallback_response.
 *
 * Conventions (the model's, the text does not say): traffic is counted per second as real numbers
 * (a fluid model, no randomness); every condition is evaluated at the end of a second over the
 * trailing window that includes it, and its action applies from the next second; a tier disengages
 * as soon as its condition is false (no hysteresis); the shift ramps back down at the same rate;
 * 429s and cached answers are not errors; the second upstream is healthy; "error rate" is errors /
 * requests that reached an upstream. Metrics: requests_in_flight by Little's law (requests per
 * second × the second's p90 latency, the only latency the scenario gives), error_ratio_5m over the
 * trailing 300 s, cancel_to_timeout_ratio over the same 300 s, upstream_health_score = 1 − the 10 s
 * error rate of the primary upstream (the text names the metric without a formula).
 * Pure: no clock, no randomness.
 */

/** One second of offered traffic. */
export interface TrafficSecond {
  /** Requests offered this second. */
  requests: number;
  /** Fraction of requests reaching the primary upstream that fail (0–1). */
  errorFraction: number;
  /** The primary upstream's p90 latency this second, ms. */
  p90Ms: number;
  /** User cancels and client timeouts this second (for cancel_to_timeout_ratio); default 0. */
  cancels?: number;
  timeouts?: number;
}

/** The tiers' thresholds (the postmortem's numbers as defaults). */
export interface TierConfig {
  requestErrorRate: number;
  requestWindowS: number;
  shedFraction: number;
  serviceP90Ms: number;
  shiftFraction: number;
  warmupS: number;
  clusterErrorsPerMin: number;
  secondaryP90Ms: number;
}

/** The postmortem's thresholds; `secondaryP90Ms` (the second upstream's latency) is the model's. */
export const POSTMORTEM_TIERS: TierConfig = {
  requestErrorRate: 0.15,
  requestWindowS: 10,
  shedFraction: 0.3,
  serviceP90Ms: 5_000,
  shiftFraction: 0.2,
  warmupS: 30,
  clusterErrorsPerMin: 1_000,
  secondaryP90Ms: 2_000,
};

/** The degraded mode's features ("分级降级"). */
export const DEGRADED_FEATURES = ['disable_realtime_analytics', 'use_cached_models', 'static_fallback_response'] as const;

/** One second of the result. */
export interface TierSecond {
  second: number;
  /** Tier states in force during this second. */
  shedding: boolean;
  shiftedFraction: number;
  degraded: boolean;
  /** Requests answered 429 with the cached last success. */
  servedFromCache: number;
  toPrimary: number;
  toSecondary: number;
  errors: number;
  metrics: {
    requestsInFlight: number;
    errorRatio5m: number;
    cancelToTimeoutRatio: number | null;
    upstreamHealthScore: number;
  };
  /** The conditions as evaluated at the end of this second. */
  errorRate10s: number;
  errorsLastMinute: number;
}

/** When each tier engaged and disengaged (end of the second that decided it). */
export interface TierChange {
  second: number;
  tier: 'request' | 'service' | 'cluster';
  to: 'engaged' | 'disengaged';
}

/** The run. */
export interface TierRun {
  seconds: TierSecond[];
  changes: TierChange[];
}

const sumLast = (xs: readonly number[], n: number) => {
  let s = 0;
  for (let i = Math.max(0, xs.length - n); i < xs.length; i++) s += xs[i];
  return s;
};

/**
 * Runs the three tiers over `traffic` (index = second). Throws a RangeError naming the field
 * (`traffic[i].errorFraction`, …) for negative or non-finite values or a fraction above 1.
 */
export function simulateTiers(traffic: readonly TrafficSecond[], config: TierConfig = POSTMORTEM_TIERS): TierRun {
  const seconds: TierSecond[] = [];
  const changes: TierChange[] = [];
  const reached: number[] = [];
  const errs: number[] = [];
  const primaryReached: number[] = [];
  const cancels: number[] = [];
  const timeouts: number[] = [];
  let shedding = false;
  let shiftTarget = 0;
  // the ramp in whole steps (0 … warmupS), so it lands exactly on 0 and on shiftFraction
  let shiftSteps = 0;
  let degraded = false;
  const warmupS = checkNumber('config.warmupS', config.warmupS, { min: 1, integer: true });

  traffic.forEach((t, i) => {
    const requests = checkNumber(`traffic[${i}].requests`, t.requests, { min: 0 });
    const errorFraction = checkNumber(`traffic[${i}].errorFraction`, t.errorFraction, { min: 0, max: 1 });
    const p90Ms = checkNumber(`traffic[${i}].p90Ms`, t.p90Ms, { min: 0 });
    cancels.push(checkNumber(`traffic[${i}].cancels`, t.cancels ?? 0, { min: 0 }));
    timeouts.push(checkNumber(`traffic[${i}].timeouts`, t.timeouts ?? 0, { min: 0 }));
    // the ramp moves one step (shiftFraction / warmupS) towards its target each second
    shiftSteps = shiftTarget > 0 ? Math.min(warmupS, shiftSteps + 1) : Math.max(0, shiftSteps - 1);
    const shifted = (config.shiftFraction * shiftSteps) / warmupS;
    const servedFromCache = shedding ? requests * config.shedFraction : 0;
    const admitted = requests - servedFromCache;
    const toSecondary = admitted * shifted;
    const toPrimary = admitted - toSecondary;
    const errors = toPrimary * errorFraction;
    reached.push(admitted);
    errs.push(errors);
    primaryReached.push(toPrimary);

    const win = config.requestWindowS;
    const reached10 = sumLast(reached, win);
    const errorRate10s = reached10 === 0 ? 0 : sumLast(errs, win) / reached10;
    const primary10 = sumLast(primaryReached, win);
    const health = primary10 === 0 ? 1 : 1 - sumLast(errs, win) / primary10;
    const reached300 = sumLast(reached, 300);
    const timeouts300 = sumLast(timeouts, 300);
    const errorsLastMinute = sumLast(errs, 60);
    seconds.push({
      second: i,
      shedding,
      shiftedFraction: shifted,
      degraded,
      servedFromCache,
      toPrimary,
      toSecondary,
      errors,
      metrics: {
        requestsInFlight: (toPrimary * p90Ms + toSecondary * config.secondaryP90Ms) / 1000,
        errorRatio5m: reached300 === 0 ? 0 : sumLast(errs, 300) / reached300,
        cancelToTimeoutRatio: timeouts300 === 0 ? null : sumLast(cancels, 300) / timeouts300,
        upstreamHealthScore: health,
      },
      errorRate10s,
      errorsLastMinute,
    });

    const nextShedding = errorRate10s > config.requestErrorRate;
    if (nextShedding !== shedding) changes.push({ second: i, tier: 'request', to: nextShedding ? 'engaged' : 'disengaged' });
    shedding = nextShedding;
    const slow = p90Ms > config.serviceP90Ms;
    if (slow !== (shiftTarget > 0)) changes.push({ second: i, tier: 'service', to: slow ? 'engaged' : 'disengaged' });
    shiftTarget = slow ? config.shiftFraction : 0;
    const nextDegraded = errorsLastMinute > config.clusterErrorsPerMin;
    if (nextDegraded !== degraded) changes.push({ second: i, tier: 'cluster', to: nextDegraded ? 'engaged' : 'disengaged' });
    degraded = nextDegraded;
  });
  return { seconds, changes };
}

/**
 * An incident shaped like the postmortem's, second by second: `requestsPerS` (default 200);
 * before `outageAtS` (60) the usual 0.3 % error rate ("平时的0.3%") and p90 2 s; from it until
 * `recoverAtS` (300) 47 % errors ("飙升至47%") and a p90 rising 500 ms a second from 2 s, held at
 * 8 s (the text's "延迟超过8秒"); from `recoverAtS` on, healthy again; `totalS` seconds (420).
 */
export function postmortemIncidentTraffic(options: { requestsPerS?: number; outageAtS?: number; recoverAtS?: number; totalS?: number } = {}): TrafficSecond[] {
  const rps = options.requestsPerS ?? 200;
  const at = options.outageAtS ?? 60;
  const until = options.recoverAtS ?? 300;
  const total = options.totalS ?? 420;
  return Array.from({ length: total }, (_, s) =>
    s >= at && s < until
      ? { requests: rps, errorFraction: 0.47, p90Ms: Math.min(8_000, 2_000 + 500 * (s - at)) }
      : { requests: rps, errorFraction: 0.003, p90Ms: 2_000 },
  );
}
