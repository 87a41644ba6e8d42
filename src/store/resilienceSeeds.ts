import type { Scenario } from '../sim/types';
import { backoffBoundsMs, type BackoffStrategy } from '../sim/retry/backoff';
import { FAILURE_ORIGIN_WORDS, type FailureOrigin } from '../sim/retry/classify';
import { costGate, decideByOriginTree, simulateCancelMisclassification, type CancelMisclassificationResult, type CostGateInput, type CostGateVerdict, type ObservedFailure, type TreeVerdict } from '../sim/seeds/origins';
import { CHECKLIST_CAP_MS, checklistFloorMs, floorCrossingLoadPercent, loadsBelowFloor, POSTMORTEM_MODEL_CLASSES, STATIC_TIMEOUT_MS, timeoutAgainstLoad, type TimeoutPlotSeries } from '../sim/seeds/dynamicTimeout';
import { checklistForRetryLayer, INCIDENT_CLIENT_CONFIG, lintChecklist, type ChecklistConfig, type ChecklistFinding } from '../sim/seeds/checklist';
import { DEGRADED_FEATURES, POSTMORTEM_TIERS, postmortemIncidentTraffic, simulateTiers, type TierRun } from '../sim/seeds/tiers';
import { ARTICLE_POLICY, CORRECTED_POLICY, simulateOutage, type OutageResult, type ResiliencePolicy } from '../sim/seeds/article';

/**
 * Named selectors of the resilience lab's "seed documents" panels (issue 13 items 1–4 and 7):
 * the postmortem's error origins, decision tree, cost gate and 38 % load test; dynamic timeout v2
 * against load; the three protection tiers over virtual time; the production checklist as lints
 * over the loaded scenario; the article's retry and breaker beside the corrected ones. The pages
 * read the pure models in src/sim/seeds through these (src/labs may not import src/sim values).
 * Every function is pure and deterministic; bad input throws a RangeError naming the field.
 */

export { FAILURE_ORIGIN_WORDS, FAILURE_ORIGINS, type FailureOrigin } from '../sim/retry/classify';
export { COST_GATE_MIN_HEALTH, COST_GATE_QUOTA_FRACTION } from '../sim/seeds/origins';
export { CHECKLIST_CAP_MS, CHECKLIST_FLOOR_MULTIPLIER, STATIC_TIMEOUT_MS } from '../sim/seeds/dynamicTimeout';
export { DEGRADED_FEATURES, POSTMORTEM_TIERS } from '../sim/seeds/tiers';
export type { ChecklistFinding, CostGateVerdict, OutageResult, TierRun, TimeoutPlotSeries, TreeVerdict };

// ───────────── 1. origins, the decision tree, the cost gate, the load test ─────────────

/** One worked example of the decision tree: a failure, its origin word and the tree's verdict. */
export interface TreeExample {
  id: string;
  /** What happened, in a few words. */
  label: string;
  origin: FailureOrigin;
  originWord: string;
  failure: ObservedFailure;
  verdict: TreeVerdict;
}

const TREE_CASES: readonly { id: string; label: string; failure: ObservedFailure }[] = [
  { id: 'cancel', label: 'user pressed "stop generating" (a 503 came back, 73 % streamed)', failure: { origin: 'user-cancel', httpStatus: 503, streamedFraction: 0.73 } },
  { id: 'overload-503', label: 'HTTP 503 while the upstream is overloaded', failure: { origin: 'server-overload', httpStatus: 503 } },
  { id: 'gateway-502', label: 'HTTP 502 from the gateway', failure: { origin: 'network', httpStatus: 502 } },
  { id: 'timeout-p99-6s', label: 'client timeout at 10 s, p99 of the class 6 s', failure: { origin: 'client-timeout', p99Ms: 6_000, currentTimeoutMs: 10_000 } },
  { id: 'timeout-p99-14s', label: 'client timeout at 10 s, p99 of the class 14 s', failure: { origin: 'client-timeout', p99Ms: 14_000, currentTimeoutMs: 10_000 } },
  { id: 'stream-73', label: 'stream broke after 73 % of the response', failure: { origin: 'partial-success', streamedFraction: 0.73 } },
  { id: 'stream-50', label: 'stream broke after exactly 50 %', failure: { origin: 'partial-success', streamedFraction: 0.5 } },
  { id: 'overload-429', label: 'HTTP 429 (rate limited): not in [502, 503, 504]', failure: { origin: 'server-overload', httpStatus: 429 } },
  { id: 'reset', label: 'connection reset, no status', failure: { origin: 'network' } },
];

/** The decision tree over the worked examples (the postmortem's "重试决策树", branch by branch). */
export function treeExamples(): TreeExample[] {
  return TREE_CASES.map((c) => ({ ...c, origin: c.failure.origin, originWord: FAILURE_ORIGIN_WORDS[c.failure.origin], verdict: decideByOriginTree(c.failure) }));
}

/** The cost gate (`should_retry`): retry while cost < 10 % of the remaining quota and health > 0.7. Throws like `costGate`. */
export function costGateVerdict(input: CostGateInput): CostGateVerdict {
  return costGate(input);
}

/** Settings of the load-test panel. */
export interface LoadTestSettings {
  /** Share of user cancels the old code reports as timeouts (0–1; the postmortem: 0.38). */
  misclassifiedFraction: number;
  /** p99 of the timed-out class, ms (the tree compares it with the 10 s threshold). */
  p99Ms: number;
  /** Whether every retry times out again (the slow long-document upstream). */
  retriesAlsoTimeOut: boolean;
}

/** The postmortem's load-test shape with its 38 %: 10 000 requests, 1 000 user cancels, 200 real timeouts. */
export const LOAD_TEST_DEFAULTS: LoadTestSettings = { misclassifiedFraction: 0.38, p99Ms: 14_000, retriesAlsoTimeOut: true };
/** The load test's counts (the seed model's, docs/seeds-notes.md). */
export const LOAD_TEST_SHAPE = { requests: 10_000, userCancels: 1_000, clientTimeouts: 200, maxAttempts: 3, currentTimeoutMs: 10_000 } as const;

/**
 * The load test under `settings`: the incident (cancels misread as timeouts and retried, 3 attempts
 * as `call_mcp_with_retry`) against the fix (classify by origin: user cancel → stop; real timeouts
 * by the tree). Throws a RangeError naming the field.
 */
export function loadTest(settings: LoadTestSettings = LOAD_TEST_DEFAULTS): CancelMisclassificationResult {
  return simulateCancelMisclassification({ ...LOAD_TEST_SHAPE, ...settings });
}

// ───────────── 2. dynamic timeout v2 against load ─────────────

/** The plot's data: the two model classes, the static 10 s timeout, the floors and the crossing. */
export interface TimeoutPlot {
  series: TimeoutPlotSeries[];
  /** 80·√0.3 ≈ 43.82 %: below it the formula is under p99 × 1.5. */
  crossingLoadPercent: number;
  /** Each model class p99 with its checklist floor and the loads where v2 falls under it. */
  floors: { p99Ms: number; floorMs: number; belowUntilPercent: number }[];
  maxTimeoutMs: number;
  staticTimeoutMs: number;
}

/** Dynamic timeout v2 for loads 0, 1, …, 100 % (the postmortem's two model classes), MAX_TIMEOUT default 30 000 ms. */
export function timeoutPlot(maxTimeoutMs: number = CHECKLIST_CAP_MS): TimeoutPlot {
  const loads = Array.from({ length: 101 }, (_, i) => i);
  const series = timeoutAgainstLoad({ loadsPercent: loads, maxTimeoutMs });
  const p99s = POSTMORTEM_MODEL_CLASSES.flatMap((c) => c.p99Ms);
  return {
    series,
    crossingLoadPercent: floorCrossingLoadPercent(),
    floors: p99s.map((p99Ms) => ({ p99Ms, floorMs: checklistFloorMs(p99Ms), belowUntilPercent: loadsBelowFloor(p99Ms, maxTimeoutMs).untilPercent })),
    maxTimeoutMs,
    staticTimeoutMs: STATIC_TIMEOUT_MS,
  };
}

// ───────────── 3. the three tiers ─────────────

/** Settings of the tiers panel. */
export interface TierSettings {
  /** User cancels per request (0–1); the model's assumption, the load test's 10 %. */
  cancelFraction: number;
  /** Whether 38 % of the cancels are reported as timeouts (the incident) or none (the fix). */
  misclassify: boolean;
}

export const TIER_DEFAULTS: TierSettings = { cancelFraction: 0.1, misclassify: true };

/**
 * The three tiers over the postmortem-shaped incident (200 req/s; 47 % errors — the postmortem's
 * timeouts, "超时率…飙升至47%" — from 60 s to 300 s; p90 rising to 8 s). For
 * cancel_to_timeout_ratio each second carries `cancels = requests × cancelFraction` and
 * `timeouts = requests × errorFraction`; with `misclassify`, 38 % of the cancels are counted as
 * timeouts instead (the load test's flaw). Throws a RangeError naming the field.
 */
export function tierRun(settings: TierSettings = TIER_DEFAULTS): TierRun {
  if (!(settings.cancelFraction >= 0 && settings.cancelFraction <= 1)) throw new RangeError('cancelFraction: must be between 0 and 1 — give the share of requests the user cancels');
  const wrong = settings.misclassify ? LOAD_TEST_DEFAULTS.misclassifiedFraction : 0;
  const traffic = postmortemIncidentTraffic().map((t) => {
    const cancels = t.requests * settings.cancelFraction;
    return { ...t, cancels: cancels * (1 - wrong), timeouts: t.requests * t.errorFraction + cancels * wrong };
  });
  return simulateTiers(traffic, POSTMORTEM_TIERS);
}

// ───────────── 4. the checklist over any resilience scenario ─────────────

/** The checklist applied to one retrying layer of the loaded scenario. */
export interface LayerLint {
  layer: string;
  /** The historical p99 the lints used, ms, and where it came from. */
  p99Ms: number;
  p99Source: string;
  config: ChecklistConfig;
  findings: ChecklistFinding[];
  passed: number;
  failed: number;
}

type Cfg = Record<string, unknown> & { mechanism: string };

/**
 * The p99 the checklist assumes for `scenario` when none is typed: storm → the upstream's run
 * time (every execution takes it, so it is also the p99); breaker → the downstream latency; tasks
 * → the time from the client's call to the worker's finish (else the poll interval).
 */
export function defaultP99(scenario: Scenario): { p99Ms: number; source: string } {
  const c = scenario.config as Cfg;
  if (c.mechanism === 'storm') return { p99Ms: (c.upstream as { runMs: number }).runMs, source: 'upstream run time (upstream.runMs)' };
  if (c.mechanism === 'breaker') return { p99Ms: (c.downstream as { latencyMs: number }).latencyMs, source: 'downstream latency (downstream.latencyMs)' };
  const call = scenario.events.find((e) => e.actor === 'client' && e.kind === 'call');
  const finish = scenario.events.find((e) => e.actor === 'worker' && e.kind === 'finish');
  if (call && finish && finish.at > call.at) return { p99Ms: finish.at - call.at, source: 'the task’s run, call to finish' };
  return { p99Ms: (c.pollIntervalMs as number | undefined) ?? 1000, source: 'the poll interval (no finish event)' };
}

/**
 * The production checklist ("生产环境验证清单") as lints over the scenario as loaded and edited:
 * storm → one lint set per layer (`checklistForRetryLayer`: same timeout for every attempt, fixed
 * backoff, no x-retry-count, cause not propagated); breaker → the one retry loop (no per-attempt
 * timeout, `retry.maxAttempts − 1` retries, the smallest delay its backoff strategy can draw);
 * tasks → the client's tools/call (no timeout, no automatic retry). `p99Ms` overrides the default
 * p99 (`defaultP99`). Throws a RangeError naming the field on a bad p99.
 */
export function checklistForScenario(scenario: Scenario, p99Ms?: number | null): LayerLint[] {
  const def = defaultP99(scenario);
  const p99 = p99Ms ?? def.p99Ms;
  if (!(Number.isFinite(p99) && p99 >= 0)) throw new RangeError('historical p99: must be a number of ms ≥ 0 — type the p99 latency of this call');
  const source = p99Ms === undefined || p99Ms === null ? def.source : 'typed';
  const c = scenario.config as Cfg;
  const lint = (layer: string, config: ChecklistConfig): LayerLint => {
    // a layer without a timeout is linted with Number.MAX_VALUE; say "none" instead of the number
    const findings = lintChecklist(config).map((f) => ({ ...f, detail: f.detail.split(`${Number.MAX_VALUE} ms`).join('none (no timeout)') }));
    return { layer, p99Ms: p99, p99Source: source, config, findings, passed: findings.filter((f) => f.status === 'pass').length, failed: findings.filter((f) => f.status === 'fail').length };
  };
  if (c.mechanism === 'storm') {
    const layers = c.layers as { name: string; timeoutMs: number | null; maxRetries: number; backoffMs: number }[];
    return layers.map((l) => lint(l.name, checklistForRetryLayer(l, { historicalP99Ms: p99 })));
  }
  if (c.mechanism === 'breaker') {
    const retry = c.retry as { maxAttempts: number; strategy: BackoffStrategy; baseMs: number; capMs: number };
    const latency = (c.downstream as { latencyMs: number }).latencyMs;
    const retries = [];
    let elapsed = 0;
    for (let i = 0; i < retry.maxAttempts - 1; i++) {
      elapsed += latency;
      const [minMs] = backoffBoundsMs(retry.strategy, i, { baseMs: retry.baseMs, capMs: retry.capMs, seed: 0 });
      retries.push({ elapsedMs: elapsed, intervalMs: minMs, headers: {} });
      elapsed += minMs;
    }
    return [
      lint('retry loop', {
        initialTimeoutMs: Number.MAX_VALUE, historicalP99Ms: p99, absoluteCapMs: Number.MAX_VALUE, stream: null,
        firstAttemptTimeoutMs: Number.MAX_VALUE, retryTimeoutMs: Number.MAX_VALUE, maxRetries: retry.maxAttempts - 1, critical: false, retries, causePropagated: false,
      }),
    ];
  }
  return [
    lint('client (tools/call with a task)', {
      initialTimeoutMs: Number.MAX_VALUE, historicalP99Ms: p99, absoluteCapMs: Number.MAX_VALUE, stream: null,
      firstAttemptTimeoutMs: Number.MAX_VALUE, retryTimeoutMs: Number.MAX_VALUE, maxRetries: 0, critical: false, retries: [], causePropagated: false,
    }),
  ];
}

/** The incident's own client (`call_mcp_with_retry`, p99 14 s) through the same lints: 6 of 8 fail. */
export function incidentClientLints(): ChecklistFinding[] {
  return lintChecklist(INCIDENT_CLIENT_CONFIG);
}

// ───────────── 7. the article's policies beside the corrected ones ─────────────

/** One policy's run over the scripted outage. */
export interface ArticleRow {
  id: 'article' | 'article-per-attempt' | 'corrected' | 'corrected-wait';
  label: string;
  policy: ResiliencePolicy;
  result: OutageResult;
}

/** The scripted outage: 26 calls one every 1 200 ms, 503 until 20 000 ms, 100 ms per attempt, threshold 5, reset 10 000 ms, 3 attempts, base 100 ms. */
export const ARTICLE_OUTAGE = {
  callsAtMs: Array.from({ length: 26 }, (_, k) => k * 1_200),
  upstream: { latencyMs: 100, failures: [{ fromMs: 0, untilMs: 20_000, status: 503 }] },
} as const;

/**
 * The article's `breaker.execute(() => retryWithBackoff(…))` as written, the same code with each
 * attempt through the breaker, the corrected composition (fail fast on a rejection) and the
 * corrected one waiting for the reset, over `ARTICLE_OUTAGE`. `jitterSeed` null = no jitter (the
 * numbers of docs/seeds-notes.md); a number = the seeded draw uniform on [0, 100) that replaces the
 * article's `Math.random() * 100`.
 */
export function articleComparison(jitterSeed: number | null = null): ArticleRow[] {
  const run = (policy: ResiliencePolicy) => simulateOutage({ callsAtMs: ARTICLE_OUTAGE.callsAtMs, upstream: { latencyMs: ARTICLE_OUTAGE.upstream.latencyMs, failures: [...ARTICLE_OUTAGE.upstream.failures] }, policy, jitter: { seed: jitterSeed } });
  const rows: Omit<ArticleRow, 'result'>[] = [
    { id: 'article', label: 'article as written: breaker.execute(() => retryWithBackoff(…))', policy: ARTICLE_POLICY },
    { id: 'article-per-attempt', label: 'article’s breaker and retry, each attempt through the breaker', policy: { ...ARTICLE_POLICY, composition: 'retry-around-breaker' } },
    { id: 'corrected', label: 'corrected: retry outside, each attempt asks the breaker, fail fast when rejected', policy: CORRECTED_POLICY },
    { id: 'corrected-wait', label: 'corrected, a rejected attempt waits for the breaker’s reset', policy: { ...CORRECTED_POLICY, onRejection: 'wait-for-reset' } },
  ];
  return rows.map((r) => ({ ...r, result: run(r.policy) }));
}

/** A burst of 4 callers after the reset (5 calls at 0 open the breaker; the upstream never recovers): how many half-open admits. */
export function halfOpenBurst(): { article: OutageResult; corrected: OutageResult } {
  const burst = { callsAtMs: [0, 0, 0, 0, 0, 20_000, 20_000, 20_000, 20_000], upstream: { latencyMs: 100, failures: [{ fromMs: 0, untilMs: 1e9, status: 503 }] }, jitter: { seed: null } };
  return { article: simulateOutage({ ...burst, policy: ARTICLE_POLICY }), corrected: simulateOutage({ ...burst, policy: CORRECTED_POLICY }) };
}

/** Degraded-mode features the cluster tier turns on (for the panel's text). */
export const DEGRADED_FEATURE_LIST: readonly string[] = DEGRADED_FEATURES;
