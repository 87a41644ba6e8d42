import { describe, expect, it } from 'vitest';
import type { ResilienceTrace } from '..';
import type { Json } from '../../types';
import { loadScenario, mk, run } from './helpers';

const request = (t: ResilienceTrace) => (t.outcome.requests as unknown as Record<string, unknown>[])[0];
const methodsAt = (t: ResilienceTrace, method: string) => t.effects.filter((e) => (e.message as { method?: string }).method === method).map((e) => e.at);

describe('the result of a completed task: tasks/result under 2025-11-25, inlined in tasks/get under 2026-07-28', () => {
  it('T2 under 2025-11-25 (cancel after completion): the poll answered at 6200 ms shows completed; tasks/result goes out at 6200 ms and "report ready" arrives at 6400 ms', () => {
    const t = run(loadScenario('T2-cancel-after-completion'), { revision: '2025-11-25' });
    expect(methodsAt(t, 'tasks/result')).toEqual([6200]);
    expect(request(t)).toMatchObject({ resultRequestedAtMs: 6200, resultReceivedAtMs: 6400, resultFetched: 'report ready', resultError: null });
    const answer = t.effects.find((e) => e.from === 'server' && (e.message as { id?: string }).id === 'result-7');
    const result = (answer?.message as { result: Record<string, unknown> }).result;
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'report ready' }], isError: false, _meta: { 'io.modelcontextprotocol/related-task': { taskId: 'task-1' } } });
    expect(result.resultType).toBeUndefined();
  });

  // ext-tasks tasks.md: "If the status is `completed`, the server MUST return a `Task` object with
  // status `completed` and a `result` field containing the final result of the task"; changelog item
  // 6: the extension "replaces the blocking `tasks/result` method with polling via `tasks/get`".
  it('T2 under 2026-07-28: the tasks/get sent at 6000 ms comes back at 6200 ms with the result inlined; no tasks/result is sent', () => {
    const t = run(loadScenario('T2-cancel-after-completion'));
    expect(methodsAt(t, 'tasks/result')).toEqual([]);
    expect(request(t)).toMatchObject({ resultRequestedAtMs: 6000, resultReceivedAtMs: 6200, resultFetched: 'report ready', resultError: null });
    const answer = t.effects.find((e) => e.from === 'server' && (e.message as { id?: string }).id === 'get-6');
    expect(answer?.at).toBe(6100);
    expect((answer?.message as { result: Record<string, unknown> }).result).toEqual({
      resultType: 'complete',
      taskId: 'task-1',
      status: 'completed',
      createdAt: '2026-01-01T00:00:00.100Z',
      lastUpdatedAt: '2026-01-01T00:00:05.000Z',
      ttlMs: 600000,
      pollIntervalMs: 1000,
      result: { content: [{ type: 'text', text: 'report ready' }], isError: false, resultType: 'complete' },
    });
  });

  it('a cancelled task has no result to fetch: no tasks/result is sent', () => {
    const t = run(loadScenario('T1-abort-before-task-id'));
    expect(request(t)).toMatchObject({ observed: 'cancelled', resultRequestedAtMs: null, resultFetched: null });
    expect(methodsAt(t, 'tasks/result')).toEqual([]);
  });

  it('a buggy store that overwrites the completed task between the poll and the fetch answers tasks/result with -32602', () => {
    const events: Record<string, Json>[] = [
      { id: 'call', at: 0, actor: 'client', kind: 'call', tool: 'long_report' },
      { id: 'created', at: 100, actor: 'server', kind: 'created', taskId: 'task-1' },
      { id: 'finish', at: 5000, actor: 'worker', kind: 'finish', outcome: 'completed', text: 'report ready' },
      { id: 'abort', at: 6150, actor: 'client', kind: 'abort' }, // after the poll saw completed (6100 ms), before the client knows (6200 ms)
    ];
    const config = { mechanism: 'tasks', revision: '2025-11-25', latencyMs: { clientToServer: 100, serverToClient: 100 }, pollIntervalMs: 1000 };
    const fine = run(mk(config, events));
    expect(request(fine)).toMatchObject({ status: 'completed', resultFetched: 'report ready', resultReceivedAtMs: 6400 });
    const buggy = run(mk({ ...config, policy: { cancelOverwritesTerminal: true } }, events));
    expect(request(buggy)).toMatchObject({ status: 'cancelled', terminalObservedAtMs: 6200, resultRequestedAtMs: 6200, resultFetched: null, resultError: '-32602 No result: task task-1 is cancelled' });
    const err = buggy.effects.find((e) => (e.message as { error?: unknown }).error !== undefined && (e.message as { id?: string }).id?.startsWith('result'));
    expect((err?.message as { error: { code: number } }).error.code).toBe(-32602);
  });
});
