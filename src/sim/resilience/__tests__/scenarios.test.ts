import { describe, expect, it } from 'vitest';
import { checkExpectation, MECHANISM_RANKS, requestStateAt, SCRIPTED_RANK, type ResilienceTrace } from '..';
import { describeBuiltinExpectations } from '../../__tests__/builtinScenarios';
import { loadScenario, run, violated } from './helpers';

const summary = (t: ResilienceTrace) => t.outcome.summary as unknown as Record<string, unknown>;
const request = (t: ResilienceTrace, key: string) => (t.outcome.requests as unknown as Record<string, unknown>[]).find((r) => r.key === key) as Record<string, unknown>;

describeBuiltinExpectations('resilience', run, checkExpectation);

// The numbers, written here again so a wrong data file cannot pass on its own.
describe('durable tasks: the issue\'s field cases', () => {
  it('abort at 50 ms before the task id (created at 120 ms) is remembered; tasks/cancel goes out at 120 ms', () => {
    const t = run(loadScenario('T1-abort-before-task-id'));
    const sent = t.effects.filter((e) => (e.message as { method?: string } | undefined)?.method === 'tasks/cancel');
    expect(sent.map((e) => e.at)).toEqual([120]);
    expect(request(t, 'task')).toMatchObject({ abortAtMs: 50, cancelSentAtMs: 120 });
  });

  it('2026-07-28: the ack is empty and the task stays working until the checkpoint', () => {
    const t = run(loadScenario('T1-abort-before-task-id'));
    const ack = t.effects.find((e) => e.from === 'server' && (e.message as { id?: string }).id === 'cancel-1');
    expect(ack?.message).toEqual({ jsonrpc: '2.0', id: 'cancel-1', result: { resultType: 'complete' } });
    expect(requestStateAt(t, 1500, 'task')).toBe('working');
    expect(requestStateAt(t, 2000, 'task')).toBe('cancelled');
  });

  it('2025-11-25: cancelled before responding, and stays cancelled when the work finishes at 4000 ms', () => {
    const t = run(loadScenario('T1-abort-before-task-id'), { revision: '2025-11-25' });
    const cancelStep = t.steps.find((s) => s.entry.kind === 'arrive.cancel');
    expect(cancelStep?.at).toBe(120);
    expect(cancelStep?.state.mechanism === 'tasks' && cancelStep.state.server.status).toBe('cancelled');
    expect((cancelStep?.effects[0].message as { result: { status: string } }).result.status).toBe('cancelled');
    const finish = t.steps.find((s) => s.entry.label === 'finish');
    expect(finish?.ignored[0].reason).toMatch(/already cancelled/);
    expect(request(t, 'task')).toMatchObject({ status: 'cancelled', statusAtMs: 120 });
  });

  it('a cancel reaching the server at 5100 ms after completion at 5000 ms leaves the task completed with its result', () => {
    for (const revision of ['2026-07-28', '2025-11-25']) {
      const t = run(loadScenario('T2-cancel-after-completion'), { revision });
      expect(t.steps.find((s) => s.entry.kind === 'arrive.cancel')?.at).toBe(5100);
      expect(request(t, 'task')).toMatchObject({ status: 'completed', statusAtMs: 5000, result: 'report ready' });
    }
    const e2025 = run(loadScenario('T2-cancel-after-completion'), { revision: '2025-11-25' }).effects.find((e) => (e.message as { error?: unknown }).error);
    expect((e2025?.message as { error: { code: number } }).error.code).toBe(-32602);
  });

  it('the buggy store overwrites the completed task with cancelled', () => {
    const t = run(loadScenario('T2-cancel-after-completion'), { policy: { cancelOverwritesTerminal: true } });
    expect(request(t, 'task')).toMatchObject({ status: 'cancelled', statusAtMs: 5100, result: null, statuses: ['working@100', 'completed@5000', 'cancelled@5100'] });
    // under 2026-07-28 the ack stays empty: the client learns the (overwritten) status by its next poll
    expect(request(t, 'task')).toMatchObject({ ack: 'empty', ackAtMs: 5200, terminalObservedAtMs: 6200 });
    expect(violated(t)).toEqual(['terminal-never-changes']);
  });

  it('polls every pollIntervalMs and stops at the first terminal status', () => {
    const t = run(loadScenario('T2-cancel-after-completion'));
    const polls = t.effects.filter((e) => (e.message as { method?: string }).method === 'tasks/get').map((e) => e.at);
    expect(polls).toEqual([1200, 2400, 3600, 4800, 6000]);
    expect(request(t, 'task').terminalObservedAtMs).toBe(6200);
  });
});

describe('circuit breaker: the issue\'s field cases', () => {
  it('six concurrent failures at 100 ms (threshold 5, reset 10000 ms) reach half-open at 10100 ms', () => {
    const t = run(loadScenario('B1-concurrent-failures'));
    expect(summary(t)).toMatchObject({ firstOpenAtMs: 100, firstHalfOpenAtMs: 10100 });
    const sixth = t.steps.filter((s) => s.at === 100 && s.ignored.some((i) => i.rule === 'breaker.generation'));
    expect(sixth).toHaveLength(1);
  });

  it('the library bug leaves it open forever', () => {
    const t = run(loadScenario('B1-concurrent-failures'), { policy: { staleResultsCounted: true, resetTimerLostOnRepeatOpen: true } });
    expect(summary(t)).toMatchObject({ firstHalfOpenAtMs: null, finalMode: 'open' });
    expect(violated(t)).toEqual(['reset-timer-armed', 'stale-result-ignored']);
    // stale results counted but the timer kept: it still reaches half-open on time
    expect(summary(run(loadScenario('B1-concurrent-failures'), { policy: { staleResultsCounted: true } })).firstHalfOpenAtMs).toBe(10100);
  });

  it('counting every wire attempt opens after 5 attempts; counting exhausted retry loops after 15', () => {
    const b2 = loadScenario('B2-retry-composition');
    expect(summary(run(b2)).wireAttemptsAtFirstOpen).toBe(5);
    expect(summary(run(b2, { composition: 'breaker-around-retry' })).wireAttemptsAtFirstOpen).toBe(15);
  });

  it('after the cooldown exactly one probe passes, and the first success after 8000 ms closes the breaker', () => {
    for (const composition of ['retry-around-breaker', 'breaker-around-retry']) {
      const t = run(loadScenario('B2-retry-composition'), { composition });
      expect(summary(t).maxHalfOpenAdmitted).toBe(1);
      const firstSuccess = (t.outcome.requests as unknown as { state: string; atMs: number }[]).filter((r) => r.state === 'succeeded').map((r) => r.atMs).sort((a, b) => a - b)[0];
      expect(firstSuccess).toBeGreaterThan(8000);
      expect(summary(t).closedAgainAtMs).toBe(firstSuccess);
    }
  });

  it('a consecutive count that never decays opens on failures minutes old; the 60 s window never does', () => {
    const b4 = loadScenario('B4-failures-never-decay');
    expect(summary(run(b4)).firstOpenAtMs).toBeNull();
    const naive = run(b4, { policy: { consecutiveNeverDecays: true } });
    expect(summary(naive).firstOpenAtMs).toBe(280100);
    expect(violated(naive)).toEqual(['old-failures-expire']);
  });

  it('the attempt counter travels on each try', () => {
    const t = run(loadScenario('B2-retry-composition'));
    const c0 = t.effects.filter((e) => e.requestKey === 'c0' && e.from === 'client').map((e) => (e.message as { params: { _meta: Record<string, number> } }).params._meta['lab.mcp-reliability/attempt']);
    expect(c0).toEqual([1, 2, 3]);
  });
});

describe('retry budgets and classification', () => {
  const b3 = loadScenario('B3-retry-budget');
  it('without a budget 40 failing calls retry 80 times', () => {
    expect(summary(run(b3))).toMatchObject({ calls: 40, wireAttempts: 120, retries: 80 });
  });
  it('token bucket (10 tokens, ratio 0.1) stops retries once it is down to half: 4 retries', () => {
    expect(summary(run(b3, { retry: { budget: 'token-bucket' } }))).toMatchObject({ retries: 4, wireAttempts: 44 });
  });
  it('a 10% ratio allows 4 retries for 40 calls', () => {
    expect(summary(run(b3, { retry: { budget: 'ratio' } }))).toMatchObject({ retries: 4 });
  });
  it('an unkeyed write after a 504 is not retried; with an idempotency key it is', () => {
    expect(summary(run(b3, { operation: { sideEffect: true }, downstream: { failWith: 'http-504' } })).retries).toBe(0);
    expect(summary(run(b3, { operation: { sideEffect: true, idempotencyKey: 'k-1' }, downstream: { failWith: 'http-504' } })).retries).toBe(80);
  });
  it('a stream broken after partial output: an unkeyed write is not repeated, a keyed one is', () => {
    expect(summary(run(b3, { operation: { sideEffect: true }, downstream: { failWith: 'partial-stream' } })).retries).toBe(0);
    expect(summary(run(b3, { operation: { sideEffect: true, idempotencyKey: 'k-9' }, downstream: { failWith: 'partial-stream' } })).retries).toBe(80);
  });

  it('400 is never retried; 429 with Retry-After 2000 ms waits at least that long', () => {
    expect(summary(run(b3, { downstream: { failWith: 'http-400' } })).retries).toBe(0);
    const t = run(b3, { downstream: { failWith: 'http-429', retryAfterMs: 2000 } });
    const c0 = t.effects.filter((e) => e.requestKey === 'c0' && e.from === 'client').map((e) => e.at);
    expect(c0).toEqual([0, 2100, 4200]);
  });
});

describe('retry storm: the issue\'s field cases', () => {
  it('3 layers × 3 retries: 64 upstream attempts for one user action', () => {
    const t = run(loadScenario('S1-three-layers'));
    expect(summary(t)).toMatchObject({ attemptsPerLayer: [4, 16, 64], upstreamAttempts: 64 });
  });

  it('gateway 45000 ms before a 180000 ms run, callers retrying 3 times immediately: 4 executions, 2 killed', () => {
    const t = run(loadScenario('S3-gateway-receipt'));
    expect(summary(t)).toMatchObject({ executions: 4, killedByGuard: 2 });
    const last = t.steps[t.steps.length - 1].state;
    const runs = last.mechanism === 'storm' ? last.executions.map((e) => `${e.state}@${e.startAt}`) : [];
    expect(runs).toEqual(['ok@0', 'ok@45000', 'killed@90000', 'killed@90000']);
  });

  it('a receipt at 25000 ms and polling: 1 execution, finished at 180000 ms', () => {
    const t = run(loadScenario('S3-gateway-receipt'), { upstream: { receiptAfterMs: 25000 } });
    expect(summary(t)).toMatchObject({ executions: 1, lastExecutionEndAtMs: 180000 });
    expect(request(t, 'action')).toMatchObject({ state: 'succeeded', atMs: 180000 });
  });

  it('duplicate upstream work keeps running after the user cancelled, and the cancel crosses the whole chain in 320 ms (107 ms a hop)', () => {
    const s2 = loadScenario('S2-timeouts-cancel');
    expect(summary(run(s2)).duplicateWorkAfterCancel).toBe(26);
    const t = run(s2, { fixes: { cancelPropagation: true } });
    const hops = t.steps.filter((s) => s.at >= 7000 && s.entry.label.startsWith('cancel reaches')).map((s) => s.at);
    // Issue 13 item 5: 320 ms is the whole chain (client → MCP server → HTTP client → upstream), round(320 / 3) = 107 ms a hop.
    expect(hops).toEqual([7107, 7207, 7214, 7321]);
  });
});

it('every mechanism gives scripted events the model\'s scripted rank', () => {
  for (const ranks of Object.values(MECHANISM_RANKS)) expect(ranks.scripted).toBe(SCRIPTED_RANK);
});
