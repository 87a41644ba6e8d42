import { checkBoolean, checkNumber } from './validate';

/**
 * The retry-storm postmortem's production checklist ("生产环境验证清单", "经过三个迭代周期的验证,
 * 我们确立了这些铁律") as lints over a resilience-like configuration: each rule is named, gives
 * pass / fail / n/a and the number it compared.
 *
 * Item numbers are those of the seed text (shared/seeds/postmortem-retry-storm.zh.txt), where the
 * list is flattened into one numbering: 1 "超时设计原则" heads items 2–5, 6 "重试军规" heads items
 * 7–10 (11 熔断指标 and 12 混沌测试场景 are not lints). `group` names the heading.
 * Note: issue 13 calls the p99 × 1.5 floor "item 4"; in the seed text it is item 2 (item 4 is the
 * chunk timeout). Pure: no clock, no randomness.
 */

/** A stream's chunk timeout settings; omit `stream` (or pass null) for a non-streaming call. */
export interface StreamTimeouts {
  /** Longest gap allowed between chunks, ms; null = none set. */
  chunkTimeoutMs: number | null;
  /** How often the chunk timeout is checked, ms; null = never checked. */
  chunkCheckIntervalMs: number | null;
}

/** One retry as planned or observed. */
export interface RetryRecord {
  /** Time the request had already taken when this retry was scheduled, ms ("当前请求已耗时"). */
  elapsedMs: number;
  /** Wait before this retry, ms ("重试间隔"). */
  intervalMs: number;
  /** Headers the retry carries (names compared case-insensitively). */
  headers: Readonly<Record<string, string>>;
}

/** The configuration the checklist reads. */
export interface ChecklistConfig {
  /** Timeout of the first attempt as configured initially, ms. */
  initialTimeoutMs: number;
  /** Historical p99 latency of this call, ms. */
  historicalP99Ms: number;
  /** Absolute cap on any timeout (MAX_TIMEOUT), ms. */
  absoluteCapMs: number;
  /** Chunk timeout settings when the response streams; null/omitted = not a stream. */
  stream?: StreamTimeouts | null;
  /** Timeout of the first attempt, ms. */
  firstAttemptTimeoutMs: number;
  /** Timeout of a retry, ms. */
  retryTimeoutMs: number;
  /** Retries allowed after the first attempt. */
  maxRetries: number;
  /** Whether the work is critical ("重要业务"): 3 retries allowed instead of 2. */
  critical: boolean;
  /** The retries to check (interval and headers); empty = none planned. */
  retries: readonly RetryRecord[];
  /** Whether the original error cause travels across services ("跨服务传递原错误原因链"). */
  causePropagated: boolean;
}

/** Rule names, in checklist order. */
export type ChecklistRuleId =
  | 'initial-timeout-floor'
  | 'absolute-cap'
  | 'stream-chunk-timeout'
  | 'distinct-retry-timeout'
  | 'max-retries'
  | 'retry-interval'
  | 'x-retry-count'
  | 'cause-propagated';

/** One lint's result. */
export interface ChecklistFinding {
  rule: ChecklistRuleId;
  /** The item number in the seed text. */
  item: number;
  /** The checklist heading the item sits under. */
  group: '超时设计原则 (timeout design)' | '重试军规 (retry rules)';
  /** The postmortem's words. */
  text: string;
  status: 'pass' | 'fail' | 'n/a';
  /** The value checked (ms, count, or the worst retry), null when n/a or not numeric. */
  actual: number | null;
  /** The bound it was compared with, null when not numeric. */
  required: number | null;
  /** One sentence with the numbers. */
  detail: string;
}

/** Constants of the checklist. */
export const CHECKLIST = {
  floorMultiplier: 1.5,
  absoluteCapMs: 30_000,
  chunkCheckIntervalMs: 100,
  maxRetries: 2,
  maxRetriesCritical: 3,
  intervalOverElapsed: 0.3,
  retryCountHeader: 'x-retry-count',
} as const;

const TIMEOUT_GROUP = '超时设计原则 (timeout design)' as const;
const RETRY_GROUP = '重试军规 (retry rules)' as const;

/**
 * Lints `config` against the eight checklist items and returns one finding per rule, in order:
 * - item 2 `initial-timeout-floor`: initialTimeoutMs ≥ historicalP99Ms × 1.5;
 * - item 3 `absolute-cap`: absoluteCapMs ≤ 30 000;
 * - item 4 `stream-chunk-timeout` (streams only): a chunk timeout is set and checked at least every 100 ms;
 * - item 5 `distinct-retry-timeout` (when retries are allowed): retryTimeoutMs ≠ firstAttemptTimeoutMs;
 * - item 7 `max-retries`: maxRetries ≤ 2, or ≤ 3 when critical;
 * - item 8 `retry-interval` (when retries are listed): every intervalMs ≥ elapsedMs × 0.3 (the worst is reported);
 * - item 9 `x-retry-count` (when retries are listed): every retry carries `x-retry-count` with a whole number;
 * - item 10 `cause-propagated`: causePropagated.
 * Throws a RangeError naming the field (e.g. `retries[1].elapsedMs`) for a negative or
 * non-finite number or a non-boolean flag.
 */
export function lintChecklist(config: ChecklistConfig): ChecklistFinding[] {
  const initial = checkNumber('initialTimeoutMs', config.initialTimeoutMs, { min: 0 });
  const p99 = checkNumber('historicalP99Ms', config.historicalP99Ms, { min: 0 });
  const cap = checkNumber('absoluteCapMs', config.absoluteCapMs, { min: 0 });
  const first = checkNumber('firstAttemptTimeoutMs', config.firstAttemptTimeoutMs, { min: 0 });
  const retryTimeout = checkNumber('retryTimeoutMs', config.retryTimeoutMs, { min: 0 });
  const maxRetries = checkNumber('maxRetries', config.maxRetries, { min: 0, integer: true });
  const critical = checkBoolean('critical', config.critical);
  const cause = checkBoolean('causePropagated', config.causePropagated);
  if (!Array.isArray(config.retries)) throw new RangeError('retries: not a list — give [] when no retry is planned');
  const retries = config.retries.map((r, i) => ({
    elapsedMs: checkNumber(`retries[${i}].elapsedMs`, r.elapsedMs, { min: 0 }),
    intervalMs: checkNumber(`retries[${i}].intervalMs`, r.intervalMs, { min: 0 }),
    headers: r.headers ?? {},
  }));
  const stream = config.stream ?? null;
  const out: ChecklistFinding[] = [];

  const floor = p99 * CHECKLIST.floorMultiplier;
  out.push({
    rule: 'initial-timeout-floor', item: 2, group: TIMEOUT_GROUP, text: '初始值 ≥ 历史P99 × 1.5',
    status: initial >= floor ? 'pass' : 'fail', actual: initial, required: floor,
    detail: `initial timeout ${initial} ms ${initial >= floor ? '≥' : '<'} p99 ${p99} ms × 1.5 = ${floor} ms`,
  });
  out.push({
    rule: 'absolute-cap', item: 3, group: TIMEOUT_GROUP, text: '绝对上限 ≤ 30秒(用户体验红线)',
    status: cap <= CHECKLIST.absoluteCapMs ? 'pass' : 'fail', actual: cap, required: CHECKLIST.absoluteCapMs,
    detail: `absolute cap ${cap} ms ${cap <= CHECKLIST.absoluteCapMs ? '≤' : '>'} 30000 ms`,
  });
  if (stream === null) {
    out.push({ rule: 'stream-chunk-timeout', item: 4, group: TIMEOUT_GROUP, text: '流式响应需设置分块超时(每100ms校验)', status: 'n/a', actual: null, required: CHECKLIST.chunkCheckIntervalMs, detail: 'not a stream' });
  } else {
    const chunk = stream.chunkTimeoutMs === null ? null : checkNumber('stream.chunkTimeoutMs', stream.chunkTimeoutMs, { min: 0 });
    const every = stream.chunkCheckIntervalMs === null ? null : checkNumber('stream.chunkCheckIntervalMs', stream.chunkCheckIntervalMs, { min: 0 });
    const ok = chunk !== null && every !== null && every <= CHECKLIST.chunkCheckIntervalMs;
    out.push({
      rule: 'stream-chunk-timeout', item: 4, group: TIMEOUT_GROUP, text: '流式响应需设置分块超时(每100ms校验)',
      status: ok ? 'pass' : 'fail', actual: every, required: CHECKLIST.chunkCheckIntervalMs,
      detail: chunk === null ? 'a stream without a chunk timeout' : every === null ? `chunk timeout ${chunk} ms, never checked` : `chunk timeout ${chunk} ms checked every ${every} ms (${ok ? '≤' : '>'} 100 ms)`,
    });
  }
  out.push(
    maxRetries === 0
      ? { rule: 'distinct-retry-timeout', item: 5, group: TIMEOUT_GROUP, text: '必须区分首次请求和重试的超时策略', status: 'n/a', actual: null, required: null, detail: 'no retries allowed' }
      : {
          rule: 'distinct-retry-timeout', item: 5, group: TIMEOUT_GROUP, text: '必须区分首次请求和重试的超时策略',
          status: retryTimeout !== first ? 'pass' : 'fail', actual: retryTimeout, required: null,
          detail: `first attempt ${first} ms, retries ${retryTimeout} ms${retryTimeout === first ? ': the same policy for both' : ''}`,
        },
  );
  const allowed = critical ? CHECKLIST.maxRetriesCritical : CHECKLIST.maxRetries;
  out.push({
    rule: 'max-retries', item: 7, group: RETRY_GROUP, text: '最大重试次数 ≤ 2(重要业务≤3)',
    status: maxRetries <= allowed ? 'pass' : 'fail', actual: maxRetries, required: allowed,
    detail: `${maxRetries} retries ${maxRetries <= allowed ? '≤' : '>'} ${allowed}${critical ? ' (critical work)' : ''}`,
  });
  if (retries.length === 0) {
    out.push({ rule: 'retry-interval', item: 8, group: RETRY_GROUP, text: '重试间隔 ≥ 当前请求已耗时 × 0.3', status: 'n/a', actual: null, required: null, detail: 'no retries listed' });
    out.push({ rule: 'x-retry-count', item: 9, group: RETRY_GROUP, text: '必须携带x-retry-count请求头', status: 'n/a', actual: null, required: null, detail: 'no retries listed' });
  } else {
    // the worst retry: smallest interval / required ratio
    let worst = 0;
    for (let i = 1; i < retries.length; i++) {
      const slack = (r: (typeof retries)[number]) => r.intervalMs - r.elapsedMs * CHECKLIST.intervalOverElapsed;
      if (slack(retries[i]) < slack(retries[worst])) worst = i;
    }
    const w = retries[worst];
    const need = w.elapsedMs * CHECKLIST.intervalOverElapsed;
    const ok = w.intervalMs >= need;
    out.push({
      rule: 'retry-interval', item: 8, group: RETRY_GROUP, text: '重试间隔 ≥ 当前请求已耗时 × 0.3',
      status: ok ? 'pass' : 'fail', actual: w.intervalMs, required: need,
      detail: `retry ${worst + 1}: interval ${w.intervalMs} ms ${ok ? '≥' : '<'} elapsed ${w.elapsedMs} ms × 0.3 = ${need} ms`,
    });
    const missing = retries.map((r, i) => ({ i, v: headerValue(r.headers, CHECKLIST.retryCountHeader) })).filter((x) => x.v === null || !/^\d+$/.test(x.v.trim()));
    out.push({
      rule: 'x-retry-count', item: 9, group: RETRY_GROUP, text: '必须携带x-retry-count请求头',
      status: missing.length === 0 ? 'pass' : 'fail', actual: retries.length - missing.length, required: retries.length,
      detail: missing.length === 0 ? `all ${retries.length} retries carry x-retry-count` : `retries without a numeric x-retry-count: ${missing.map((m) => m.i + 1).join(', ')} of ${retries.length}`,
    });
  }
  out.push({
    rule: 'cause-propagated', item: 10, group: RETRY_GROUP, text: '跨服务传递原错误原因链',
    status: cause ? 'pass' : 'fail', actual: null, required: null,
    detail: cause ? 'the original error cause travels with the error' : 'the original error cause is lost at the service boundary',
  });
  return out;
}

function headerValue(headers: Readonly<Record<string, string>>, name: string): string | null {
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return typeof v === 'string' ? v : null;
  return null;
}

/**
 * The incident's original client (postmortem "初始设计的傲慢与偏见", `call_mcp_with_retry`) as a
 * checklist input, for the Claude-3 long-document class (p99 14 s): a fixed 10 s timeout for every
 * attempt, `max_retries=3` attempts (2 retries), sleeps 0.5 s then 1 s, no headers, the bare
 * timeout re-raised, streamed without a chunk timeout. A retry is scheduled when an attempt times
 * out: after 10 000 ms, then after 10 000 + 500 + 10 000 = 20 500 ms.
 */
export const INCIDENT_CLIENT_CONFIG: ChecklistConfig = {
  initialTimeoutMs: 10_000,
  historicalP99Ms: 14_000,
  absoluteCapMs: 10_000,
  stream: { chunkTimeoutMs: null, chunkCheckIntervalMs: null },
  firstAttemptTimeoutMs: 10_000,
  retryTimeoutMs: 10_000,
  maxRetries: 2,
  critical: false,
  retries: [
    { elapsedMs: 10_000, intervalMs: 500, headers: {} },
    { elapsedMs: 20_500, intervalMs: 1_000, headers: {} },
  ],
  causePropagated: false,
};

/** One retrying layer as the lab's storm scenarios describe it (structurally: storm `layers[i]`). */
export interface RetryLayer {
  name: string;
  /** Per-attempt timeout, ms; null = none. */
  timeoutMs: number | null;
  maxRetries: number;
  /** Fixed wait before each retry, ms. */
  backoffMs: number;
}

/** What a layer's config does not say, needed by the checklist. */
export interface LayerContext {
  historicalP99Ms: number;
  /** Absolute cap, ms; default the layer's own timeout (its only one), or Infinity without one. */
  absoluteCapMs?: number;
  critical?: boolean;
}

/**
 * The checklist input for one storm-like layer, read as the storm model runs it: the same timeout
 * for every attempt (so first attempt and retries share it), fixed backoff, no `x-retry-count`, the
 * cause not propagated, no stream. Retry n (1-based) is scheduled when attempt n times out, after
 * n × timeoutMs + (n − 1) × backoffMs. A layer without a timeout is given Number.MAX_VALUE as its
 * timeout and cap (so the floor passes and the 30 s cap fails), and its retries are listed with
 * elapsed 0. Throws a RangeError naming `<layer name>.<field>` on bad numbers.
 */
export function checklistForRetryLayer(layer: RetryLayer, context: LayerContext): ChecklistConfig {
  const timeout = layer.timeoutMs === null ? Number.POSITIVE_INFINITY : checkNumber(`${layer.name}.timeoutMs`, layer.timeoutMs, { min: 0 });
  const maxRetries = checkNumber(`${layer.name}.maxRetries`, layer.maxRetries, { min: 0, integer: true });
  const backoff = checkNumber(`${layer.name}.backoffMs`, layer.backoffMs, { min: 0 });
  const retries: RetryRecord[] = Array.from({ length: maxRetries }, (_, i) => ({
    elapsedMs: Number.isFinite(timeout) ? (i + 1) * timeout + i * backoff : 0,
    intervalMs: backoff,
    headers: {},
  }));
  const cap = context.absoluteCapMs ?? timeout;
  return {
    initialTimeoutMs: Number.isFinite(timeout) ? timeout : Number.MAX_VALUE,
    historicalP99Ms: context.historicalP99Ms,
    absoluteCapMs: Number.isFinite(cap) ? cap : Number.MAX_VALUE,
    stream: null,
    firstAttemptTimeoutMs: Number.isFinite(timeout) ? timeout : Number.MAX_VALUE,
    retryTimeoutMs: Number.isFinite(timeout) ? timeout : Number.MAX_VALUE,
    maxRetries,
    critical: context.critical ?? false,
    retries,
    causePropagated: false,
  };
}
