import { describe, expect, it } from 'vitest';
import type { Json } from '../../types';
import type { ResilienceTrace } from '..';
import { loadScenario, mk, run, violated } from './helpers';

/**
 * Issue 24 item 4, MCPJam inspector PR#3518: each task is polled at its own interval, max(the
 * pollIntervalMs its server gave it, the user's minimum) — 2026-07-28 tasks extension: "Clients
 * SHOULD respect the pollIntervalMs provided in responses when determining polling frequency";
 * 2025-11-25 `basic/utilities/tasks`: "Requestors SHOULD respect the pollInterval provided in
 * responses when determining polling frequency". The bug `pollAtMinimumAcrossTasks` polls every
 * task at the minimum across the tasks being polled. Every number below is worked out by hand
 * (latency 0, so an answer arrives the millisecond its tasks/get goes out).
 */

type Msg = { id?: Json; method?: string; params?: { taskId?: string }; result?: Record<string, Json> };

/** When the client sent tasks/get for `taskId`, in order (ms). */
function pollTimes(t: ResilienceTrace, taskId: string): number[] {
  return t.effects.filter((e) => e.from === 'client' && (e.message as Msg).method === 'tasks/get' && (e.message as Msg).params?.taskId === taskId).map((e) => e.at);
}

/** `n` times from `first`, `every` ms apart. */
const every = (first: number, step: number, n: number) => Array.from({ length: n }, (_, i) => first + i * step);

const row = (t: ResilienceTrace, key: string) => (t.outcome.requests as unknown as Record<string, Json>[]).find((r) => r.key === key)!;

describe('T6 (MCPJam inspector PR#3518): the poll interval is per task, never the minimum across tasks', () => {
  const t6 = () => loadScenario('T6-poll-interval-per-task');
  const bug = { policy: { pollAtMinimumAcrossTasks: true } };

  it('correct: task-2 (pollIntervalMs 500, known at 100 ms) is polled at 600, 1100, …, 60100 ms (120 times); task-1 (30000, known at 200 ms) at 30200 and 60200 ms only — 122 tasks/get', () => {
    const t = run(t6());
    expect(pollTimes(t, 'task-2')).toEqual(every(600, 500, 120));
    expect(pollTimes(t, 'task-1')).toEqual([30200, 60200]);
    expect(row(t, 'live')).toMatchObject({ taskId: 'task-2', polls: 120, pollIntervalMs: 500, pollEveryMs: 500, firstPollAtMs: 600, terminalObservedAtMs: 60100, pollsTooSoon: 0, resultFetched: 'all green' });
    expect(row(t, 'task')).toMatchObject({ taskId: 'task-1', polls: 2, pollIntervalMs: 30000, pollEveryMs: 30000, firstPollAtMs: 30200, terminalObservedAtMs: 60200, pollsTooSoon: 0, resultFetched: 'report ready' });
    expect(t.outcome.summary).toMatchObject({ polls: 122 });
    expect(violated(t)).toEqual([]);
  });

  it('each CreateTaskResult and each Task the server sends carries that task\'s own pollIntervalMs', () => {
    const t = run(t6());
    const hints = new Map<string, Set<Json>>();
    for (const e of t.effects.filter((x) => x.from === 'server')) {
      const r = (e.message as Msg).result!;
      if (!hints.has(r.taskId as string)) hints.set(r.taskId as string, new Set());
      hints.get(r.taskId as string)!.add(r.pollIntervalMs);
    }
    expect(Object.fromEntries([...hints].map(([k, v]) => [k, [...v]]))).toEqual({ 'task-2': [500], 'task-1': [30000] });
  });

  it('bug: task-1 is polled every 500 ms from 700 ms to 60200 ms, 120 times instead of 2 (60×); 240 tasks/get; poll-interval-respected breaks at 700 ms', () => {
    const t = run(t6(), bug);
    const correct = run(t6());
    expect(pollTimes(t, 'task-1')).toEqual(every(700, 500, 120));
    expect(pollTimes(t, 'task-2')).toEqual(every(600, 500, 120));
    expect(row(t, 'task')).toMatchObject({ polls: 120, pollEveryMs: 500, firstPollAtMs: 700, pollsTooSoon: 120, terminalObservedAtMs: 60200 });
    expect((row(t, 'task').polls as number) / (row(correct, 'task').polls as number)).toBe(60);
    expect(t.outcome.summary).toMatchObject({ polls: 240 });
    expect(violated(t)).toEqual(['poll-interval-respected']);
    const v = t.invariants.find((i) => i.name === 'poll-interval-respected')!.firstViolation!;
    expect(v.at).toBe(700);
    expect(v.message).toBe('[task] the client sent tasks/get for task-1 at 700 ms, 500 ms after the previous answer, though its server asked for pollIntervalMs 30000 ms');
  });

  it('a user minimum of 1000 ms raises the 500 ms task to 1000 ms (60 polls from 1100 ms) and leaves the 30000 ms task alone (2 polls): 62 tasks/get', () => {
    const t = run(t6(), { minPollIntervalMs: 1000 });
    expect(pollTimes(t, 'task-2')).toEqual(every(1100, 1000, 60));
    expect(pollTimes(t, 'task-1')).toEqual([30200, 60200]);
    expect(t.outcome.summary).toMatchObject({ polls: 62 });
    expect(violated(t)).toEqual([]);
  });

  it('the bug under a user minimum of 1000 ms: task-1 every 1000 ms from 1200 ms, 60 polls, still too soon for its 30000 ms', () => {
    const t = run(t6(), { ...bug, minPollIntervalMs: 1000 });
    expect(pollTimes(t, 'task-1')).toEqual(every(1200, 1000, 60));
    expect(row(t, 'task')).toMatchObject({ polls: 60, pollEveryMs: 1000, pollsTooSoon: 60 });
    expect(violated(t)).toEqual(['poll-interval-respected']);
  });

  it('under 2025-11-25 (pollInterval) the counts are the same: 2 and 120 polls correct, 120 and 120 with the bug', () => {
    const ok = run(t6(), { revision: '2025-11-25' });
    expect([row(ok, 'task').polls, row(ok, 'live').polls]).toEqual([2, 120]);
    const server = ok.effects.find((e) => e.from === 'server' && ((e.message as Msg).result?.task as Record<string, Json> | undefined)?.taskId === 'task-1')!;
    expect(((server.message as Msg).result!.task as Record<string, Json>).pollInterval).toBe(30000);
    const bad = run(t6(), { revision: '2025-11-25', ...bug });
    expect([row(bad, 'task').polls, row(bad, 'live').polls]).toEqual([120, 120]);
    expect(violated(bad)).toEqual(['poll-interval-respected']);
  });

  it('request ids stay unique across the two tasks; each task\'s messages carry its own request key', () => {
    const t = run(t6());
    const ids = t.effects.filter((e) => e.from === 'client').map((e) => JSON.stringify((e.message as Msg).id));
    expect(new Set(ids).size).toBe(ids.length);
    for (const e of t.effects) {
      const m = e.message as Msg;
      const taskId = m.params?.taskId ?? m.result?.taskId;
      if (taskId !== undefined) expect(e.requestKey).toBe(taskId === 'task-2' ? 'live' : 'task');
    }
  });
});

describe('poll intervals per task, beyond T6 (hand-computed)', () => {
  /** Two tasks, latency 0: "task" (hint 30000 ms) created at `slowAt`, "live" (hint 500 ms) at `fastAt`; finishes as given. */
  const two = (slowAt: number, fastAt: number, liveFinish: number, policy: Record<string, Json> = {}) =>
    mk({ mechanism: 'tasks', revision: '2026-07-28', policy }, [
      { id: 'call', at: 0, actor: 'client', kind: 'call' },
      { id: 'call-live', at: 0, actor: 'client', kind: 'call', requestId: 2, task: 'live' },
      { id: 'created', at: slowAt, actor: 'server', kind: 'created', taskId: 'task-1', pollIntervalMs: 30000 },
      { id: 'created-live', at: fastAt, actor: 'server', kind: 'created', taskId: 'task-2', pollIntervalMs: 500, task: 'live' },
      { id: 'finish', at: 60000, actor: 'worker', kind: 'finish' },
      { id: 'finish-live', at: liveFinish, actor: 'worker', kind: 'finish', task: 'live' },
    ]);

  it('bug, the fast task known after the slow one: task-1\'s first poll keeps its own 30000 ms (30100 ms), then every 500 ms to 60100 ms — 61 polls, 60 too soon', () => {
    const t = run(two(100, 200, 60000, { pollAtMinimumAcrossTasks: true }));
    expect(pollTimes(t, 'task-1')).toEqual(every(30100, 500, 61));
    expect(row(t, 'task')).toMatchObject({ polls: 61, pollsTooSoon: 60, firstPollAtMs: 30100 });
    expect(t.invariants.find((i) => i.name === 'poll-interval-respected')!.firstViolation!.at).toBe(30600);
  });

  it('bug, the fast task done at 10000 ms: task-1 is dragged to 500 ms only while task-2 is polled — 700 … 10200 ms (20 polls), then 40200 and 70200 ms', () => {
    const t = run(two(200, 100, 10000, { pollAtMinimumAcrossTasks: true }));
    expect(pollTimes(t, 'task-2')).toEqual(every(600, 500, 20));
    expect(pollTimes(t, 'task-1')).toEqual([...every(700, 500, 20), 40200, 70200]);
    expect(row(t, 'task')).toMatchObject({ polls: 22, pollsTooSoon: 20, pollEveryMs: 30000, terminalObservedAtMs: 70200 });
  });

  it('one task: the bug changes nothing (the minimum over one task is its own interval) — T3 polls alike with and without it', () => {
    const t3 = loadScenario('T3-finish-before-checkpoint');
    const plain = run(t3);
    const bugged = run(t3, { policy: { pollAtMinimumAcrossTasks: true } });
    expect(JSON.stringify(bugged.effects)).toBe(JSON.stringify(plain.effects));
    expect(bugged.outcome).toEqual(plain.outcome);
    expect(violated(bugged)).toEqual([]);
  });

  it('one task without a hint of its own: a user minimum of 1000 ms over the config\'s 500 ms polls at 1100 and 2100 ms instead of 600, 1100, 1600, 2100 ms', () => {
    const one = (extra: Record<string, Json>) =>
      mk({ mechanism: 'tasks', revision: '2026-07-28', pollIntervalMs: 500, ...extra }, [
        { id: 'call', at: 0, actor: 'client', kind: 'call' },
        { id: 'created', at: 100, actor: 'server', kind: 'created' },
        { id: 'finish', at: 2000, actor: 'worker', kind: 'finish' },
      ]);
    expect(pollTimes(run(one({})), 'task-1')).toEqual([600, 1100, 1600, 2100]);
    const t = run(one({ minPollIntervalMs: 1000 }));
    expect(pollTimes(t, 'task-1')).toEqual([1100, 2100]);
    // No hint of its own: the row keeps its historic fields (no per-task poll fields).
    expect(row(t, 'task')).not.toHaveProperty('polls');
    expect(t.outcome.summary).toMatchObject({ polls: 2 });
  });

  it('an event naming a task no call has started is ignored', () => {
    const t = run(
      mk({ mechanism: 'tasks' }, [
        { id: 'call', at: 0, actor: 'client', kind: 'call' },
        { id: 'ghost', at: 50, actor: 'worker', kind: 'finish', task: 'ghost' },
        { id: 'created', at: 100, actor: 'server', kind: 'created' },
      ]),
    );
    const step = t.steps.find((s) => s.entry.label === 'ghost')!;
    expect(step.ignored.map((i) => i.reason)).toEqual(['no tools/call has started task "ghost" yet']);
    expect(t.outcome.requests.map((r) => r.key)).toEqual(['task']);
  });
});
