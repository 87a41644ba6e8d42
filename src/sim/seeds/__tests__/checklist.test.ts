import { describe, expect, it } from 'vitest';
import { INCIDENT_CLIENT_CONFIG, checklistForRetryLayer, lintChecklist, type ChecklistConfig } from '../checklist';
import { dynamicTimeoutV2Ms } from '../dynamicTimeout';

const byRule = (config: ChecklistConfig) => Object.fromEntries(lintChecklist(config).map((f) => [f.rule, f]));

// p99 6000: floor 6000 × 1.5 = 9000. Retry 1 after 9000 ms waits 9000 × 0.3 = 2700;
// retry 2 after 9000 + 2700 + 12000 (retry timeout) = 23700 ms waits 23700 × 0.3 = 7110.
const good: ChecklistConfig = {
  initialTimeoutMs: 9_000,
  historicalP99Ms: 6_000,
  absoluteCapMs: 30_000,
  stream: { chunkTimeoutMs: 2_000, chunkCheckIntervalMs: 100 },
  firstAttemptTimeoutMs: 9_000,
  retryTimeoutMs: 12_000,
  maxRetries: 3,
  critical: true,
  retries: [
    { elapsedMs: 9_000, intervalMs: 2_700, headers: { 'X-Retry-Count': '1' } },
    { elapsedMs: 23_700, intervalMs: 7_110, headers: { 'x-retry-count': '2' } },
  ],
  causePropagated: true,
};

describe('the production checklist as lints (postmortem "生产环境验证清单")', () => {
  it('lists the eight rules with the seed text\'s item numbers', () => {
    expect(lintChecklist(good).map((f) => [f.rule, f.item])).toEqual([
      ['initial-timeout-floor', 2], ['absolute-cap', 3], ['stream-chunk-timeout', 4], ['distinct-retry-timeout', 5],
      ['max-retries', 7], ['retry-interval', 8], ['x-retry-count', 9], ['cause-propagated', 10],
    ]);
  });

  it('a config on every boundary passes every rule', () => {
    const f = byRule(good);
    expect(Object.values(f).map((x) => x.status)).toEqual(Array(8).fill('pass'));
    expect(f['initial-timeout-floor']).toMatchObject({ actual: 9_000, required: 9_000 });
    expect(f['max-retries']).toMatchObject({ actual: 3, required: 3 }); // critical work: ≤ 3
    expect(f['retry-interval']).toMatchObject({ actual: 2_700, required: 2_700 }); // both have zero slack; the first is reported
  });

  it('the incident\'s original client fails six of eight', () => {
    const f = byRule(INCIDENT_CLIENT_CONFIG);
    // 10000 < 14000 × 1.5 = 21000
    expect(f['initial-timeout-floor']).toMatchObject({ status: 'fail', actual: 10_000, required: 21_000 });
    expect(f['absolute-cap']).toMatchObject({ status: 'pass', actual: 10_000 });
    expect(f['stream-chunk-timeout']).toMatchObject({ status: 'fail', detail: 'a stream without a chunk timeout' });
    expect(f['distinct-retry-timeout'].status).toBe('fail'); // 10 s for both
    expect(f['max-retries']).toMatchObject({ status: 'pass', actual: 2, required: 2 }); // max_retries=3 attempts = 2 retries
    // retry 1: 500 < 10000 × 0.3 = 3000 (slack −2500); retry 2: 1000 < 20500 × 0.3 = 6150 (slack −5150) — the worst
    expect(f['retry-interval']).toMatchObject({ status: 'fail', actual: 1_000, required: 6_150 });
    expect(f['x-retry-count']).toMatchObject({ status: 'fail', actual: 0, required: 2 });
    expect(f['cause-propagated'].status).toBe('fail');
  });

  it('each rule fails just past its number', () => {
    expect(byRule({ ...good, initialTimeoutMs: 8_999 })['initial-timeout-floor'].status).toBe('fail');
    expect(byRule({ ...good, absoluteCapMs: 30_001 })['absolute-cap'].status).toBe('fail');
    expect(byRule({ ...good, stream: { chunkTimeoutMs: 2_000, chunkCheckIntervalMs: 101 } })['stream-chunk-timeout'].status).toBe('fail');
    expect(byRule({ ...good, stream: { chunkTimeoutMs: 2_000, chunkCheckIntervalMs: null } })['stream-chunk-timeout'].detail).toBe('chunk timeout 2000 ms, never checked');
    expect(byRule({ ...good, retryTimeoutMs: 9_000 })['distinct-retry-timeout'].status).toBe('fail');
    expect(byRule({ ...good, critical: false })['max-retries']).toMatchObject({ status: 'fail', actual: 3, required: 2 });
    expect(byRule({ ...good, maxRetries: 4 })['max-retries'].status).toBe('fail');
    const late = { ...good, retries: [good.retries[0], { ...good.retries[1], intervalMs: 7_109 }] };
    expect(byRule(late)['retry-interval']).toMatchObject({ status: 'fail', actual: 7_109, required: 7_110 });
    const noHeader = { ...good, retries: [good.retries[0], { ...good.retries[1], headers: { 'x-retry-count': 'two' } }] };
    expect(byRule(noHeader)['x-retry-count']).toMatchObject({ status: 'fail', actual: 1, required: 2 });
    expect(byRule({ ...good, causePropagated: false })['cause-propagated'].status).toBe('fail');
  });

  it('rules that do not apply say n/a', () => {
    const f = byRule({ ...good, stream: null, maxRetries: 0, retries: [] });
    expect([f['stream-chunk-timeout'].status, f['distinct-retry-timeout'].status, f['retry-interval'].status, f['x-retry-count'].status]).toEqual(['n/a', 'n/a', 'n/a', 'n/a']);
  });

  it('the dynamic timeout v2 at 30 % load breaks item 2 for the long-document class', () => {
    // (30/80)² = 0.140625; 14000 × 1.340625 = 18768.75 < 21000
    const initialTimeoutMs = dynamicTimeoutV2Ms({ p99Ms: 14_000, loadPercent: 30 });
    const f = byRule({ ...good, historicalP99Ms: 14_000, initialTimeoutMs });
    expect(f['initial-timeout-floor'].status).toBe('fail');
    expect(f['initial-timeout-floor'].actual).toBeCloseTo(18_768.75, 6);
    expect(f['initial-timeout-floor'].required).toBe(21_000);
  });

  it('names the bad field', () => {
    expect(() => lintChecklist({ ...good, retries: [good.retries[0], { ...good.retries[1], elapsedMs: -1 }] })).toThrow(/^retries\[1\]\.elapsedMs: -1 is below 0/);
    expect(() => lintChecklist({ ...good, maxRetries: 1.5 })).toThrow(/^maxRetries: 1.5 is not an integer/);
    expect(() => lintChecklist({ ...good, critical: 'yes' as never })).toThrow(/^critical: "yes" is not a boolean/);
  });
});

describe('the checklist over a storm scenario\'s layers', () => {
  it('S2\'s MCP server layer (2500 ms timeout, 3 retries, 100 ms backoff) against an upstream p99 of 3000 ms', () => {
    const f = byRule(checklistForRetryLayer({ name: 'MCP server', timeoutMs: 2_500, maxRetries: 3, backoffMs: 100 }, { historicalP99Ms: 3_000 }));
    // 2500 < 3000 × 1.5 = 4500
    expect(f['initial-timeout-floor']).toMatchObject({ status: 'fail', actual: 2_500, required: 4_500 });
    expect(f['absolute-cap']).toMatchObject({ status: 'pass', actual: 2_500 });
    expect(f['stream-chunk-timeout'].status).toBe('n/a');
    expect(f['distinct-retry-timeout'].status).toBe('fail');
    expect(f['max-retries']).toMatchObject({ status: 'fail', actual: 3, required: 2 });
    // retries after 2500, 5100, 7700 ms; the worst is the last: 100 < 7700 × 0.3 = 2310
    expect(f['retry-interval']).toMatchObject({ status: 'fail', actual: 100, required: 2_310 });
    expect(f['x-retry-count']).toMatchObject({ status: 'fail', actual: 0, required: 3 });
    expect(f['cause-propagated'].status).toBe('fail');
  });

  it('a layer without a timeout fails the cap', () => {
    const f = byRule(checklistForRetryLayer({ name: 'client', timeoutMs: null, maxRetries: 0, backoffMs: 0 }, { historicalP99Ms: 3_000 }));
    expect([f['initial-timeout-floor'].status, f['absolute-cap'].status, f['retry-interval'].status]).toEqual(['pass', 'fail', 'n/a']);
    expect(() => checklistForRetryLayer({ name: 'proxy', timeoutMs: -1, maxRetries: 0, backoffMs: 0 }, { historicalP99Ms: 1 })).toThrow(/^proxy\.timeoutMs: -1 is below 0/);
  });
});
