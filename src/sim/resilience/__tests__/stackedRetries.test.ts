import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseScenario } from '../../scenario';
import { LAB_SCHEMAS } from '../../labs';
import { checkExpectation as checkResilienceExpectation } from '..';
import { mk, run, SCENARIO_DIR, violated } from './helpers';
import type { Json } from '../../types';

const file = () => {
  const r = parseScenario(JSON.parse(readFileSync(path.join(SCENARIO_DIR, 'S4-stacked-retry-layers.json'), 'utf8')), 'resilience', LAB_SCHEMAS.resilience);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
};

const summaryOf = (t: ReturnType<typeof run>) => t.outcome.summary as unknown as Record<string, Json>;

// nanobot#2760 (the number and figures come from issue 11's text): 4 application attempts × 3 SDK attempts = 12.
describe('stacked retry layers inside one client', () => {
  it('S4 file: every expectation holds', () => {
    const s = file();
    expect(s.expect?.length).toBe(2);
    for (const e of s.expect ?? []) expect(checkResilienceExpectation(run(s, e.overrides as Record<string, Json> | undefined), e), e.label).toEqual([]);
  });

  it('bug: 4 × 3 = 12 upstream requests against a 429, both layers retried', () => {
    const t = run(file());
    expect(summaryOf(t)).toMatchObject({ attemptsPerLayer: [4, 12], upstreamAttempts: 12 });
    expect(violated(t)).toEqual(['one-execution-per-action', 'one-retry-layer-per-process']);
    const inv = t.invariants.find((i) => i.name === 'one-retry-layer-per-process')!;
    expect(inv.firstViolation?.message).toContain('application (1 retries) and SDK');
    expect(t.steps.some((s) => s.why.includes('fails (429)'))).toBe(true);
  });

  it('fix: one retry layer — 4 upstream requests, the stacking invariant holds', () => {
    const t = run(file(), { fixes: { oneRetryLayerPerProcess: true } });
    expect(summaryOf(t)).toMatchObject({ attemptsPerLayer: [4, 4], upstreamAttempts: 4 });
    expect(violated(t)).not.toContain('one-retry-layer-per-process');
  });

  it('the same two layers in different processes are not "stacked in one client" (the S1 storm across hops)', () => {
    const s = mk({ mechanism: 'storm', layers: [{ name: 'client', maxRetries: 3 }, { name: 'server', maxRetries: 2 }] }, [{ id: 'a', at: 0, actor: 'client', kind: 'request' }]);
    const t = run(s);
    expect(summaryOf(t).upstreamAttempts).toBe(12);
    expect(violated(t)).not.toContain('one-retry-layer-per-process');
    // the per-process fix changes nothing there: the server keeps its retries.
    expect(summaryOf(run(s, { fixes: { oneRetryLayerPerProcess: true } })).upstreamAttempts).toBe(12);
  });

  it('a third layer in another process keeps its retries under the per-process fix: 4 × 1 × 2 = 8', () => {
    const s = mk(
      { mechanism: 'storm', layers: [{ name: 'app', process: 'p', maxRetries: 3 }, { name: 'SDK', process: 'p', maxRetries: 2 }, { name: 'gateway', process: 'g', maxRetries: 1 }] },
      [{ id: 'a', at: 0, actor: 'client', kind: 'request' }],
    );
    expect(summaryOf(run(s)).upstreamAttempts).toBe(24);
    expect(summaryOf(run(s, { fixes: { oneRetryLayerPerProcess: true } })).attemptsPerLayer).toEqual([4, 4, 8]);
  });
});
