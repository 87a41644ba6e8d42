import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { ResilienceTrace } from '..';
import type { Json } from '../../types';
import { loadScenario, mk, run, violated } from './helpers';

// The 2026-07-28 tasks extension (modelcontextprotocol/ext-tasks specification/draft/tasks.md), the
// rules this round brought into the model; each test names the sentence it checks.
const request = (t: ResilienceTrace) => (t.outcome.requests as unknown as Record<string, unknown>[])[0];
type Msg = { id?: string | number; method?: string; params?: Record<string, Json>; result?: Record<string, Json>; error?: { code: number; message: string } };
const messages = (t: ResilienceTrace) => t.effects.map((e) => ({ at: e.at, from: e.from, http: e.http, m: e.message as Msg }));

const inputEvents: Record<string, Json>[] = [
  { id: 'call', at: 0, actor: 'client', kind: 'call' },
  { id: 'created', at: 100, actor: 'server', kind: 'created' },
  { id: 'input', at: 1500, actor: 'worker', kind: 'input-required' },
  { id: 'resume', at: 1600, actor: 'worker', kind: 'resume' },
  { id: 'finish', at: 5000, actor: 'worker', kind: 'finish', outcome: 'completed', text: 'published' },
];
const inputConfig = (revision: string) => ({ mechanism: 'tasks', revision, latencyMs: { clientToServer: 50, serverToClient: 50 }, pollIntervalMs: 1000 });

describe('2026-07-28: tasks/update carries the client input for input_required', () => {
  // "The `tasks/get` response will include outstanding requests in the `inputRequests` field, and the
  // client should provide responses via the `inputResponses` field in subsequent `tasks/update` requests."
  it('the poll sent at 2250 ms is answered at 2300 ms with inputRequests; the client answers with tasks/update at 2350 ms; the ack is empty and the task is working again at 2400 ms', () => {
    const t = run(mk(inputConfig('2026-07-28'), inputEvents));
    const all = messages(t);
    const listing = all.find((x) => x.from === 'server' && x.m.result?.status === 'input_required');
    expect(listing?.at).toBe(2300);
    expect(listing?.m.result?.inputRequests).toEqual({ 'publish-1': { method: 'elicitation/create', params: { mode: 'form', message: 'Publish the report?', requestedSchema: { type: 'object', properties: { publish: { type: 'boolean' } }, required: ['publish'] } } } });
    const update = all.find((x) => x.m.method === 'tasks/update');
    expect(update?.at).toBe(2350);
    expect(update?.m.params).toMatchObject({ taskId: 'task-1', inputResponses: { 'publish-1': { action: 'accept', content: { publish: true } } } });
    const ack = all.find((x) => x.from === 'server' && x.m.id === update?.m.id);
    expect(ack?.m.result).toEqual({ resultType: 'complete' });
    expect(request(t)).toMatchObject({ statuses: ['working@100', 'input_required@1500', 'working@2400', 'completed@5000'], resultFetched: 'published' });
    expect(t.outcome.summary).toMatchObject({ updatesSent: 1 });
    // the worker's own "resume" at 1600 ms does not end input_required: the input comes in tasks/update
    expect(t.steps.find((s) => s.entry.label === 'resume')?.ignored[0].reason).toMatch(/still outstanding/);
    expect(violated(t)).toEqual([]);
    // no tasks/result and no tasks/list under the extension
    expect(all.filter((x) => x.m.method === 'tasks/result' || x.m.method === 'tasks/list')).toEqual([]);
  });

  it('2025-11-25 is unchanged: the worker resumes at 1600 ms, no tasks/update, the result is fetched with tasks/result', () => {
    const t = run(mk(inputConfig('2025-11-25'), inputEvents));
    expect(request(t)).toMatchObject({ statuses: ['working@100', 'input_required@1500', 'working@1600', 'completed@5000'], resultFetched: 'published' });
    expect(messages(t).filter((x) => x.m.method === 'tasks/update')).toEqual([]);
    expect(messages(t).filter((x) => x.m.method === 'tasks/result')).toHaveLength(1);
  });

  // "Each request key in `inputRequests` MUST be unique over the lifetime of a single task."
  it('a second input round gets a new key, and the client answers each key once', () => {
    const events = [...inputEvents.slice(0, 3), { id: 'input2', at: 3500, actor: 'worker', kind: 'input-required' }, inputEvents[4]];
    const t = run(mk(inputConfig('2026-07-28'), events));
    const updates = messages(t).filter((x) => x.m.method === 'tasks/update').map((x) => Object.keys(x.m.params?.inputResponses as object));
    expect(updates).toEqual([['publish-1'], ['publish-2']]);
  });

  // "If the status is `failed`, the server MUST return a `Task` object with status `failed` and the error that occurred during execution."
  it('a failed task carries its JSON-RPC error in tasks/get', () => {
    const t = run(mk(inputConfig('2026-07-28'), [inputEvents[0], inputEvents[1], { id: 'finish', at: 1000, actor: 'worker', kind: 'finish', outcome: 'failed', text: 'API rate limit exceeded' }]));
    const failed = messages(t).find((x) => x.m.result?.status === 'failed');
    expect(failed?.m.result?.error).toEqual({ code: -32603, message: 'API rate limit exceeded' });
    expect(request(t)).toMatchObject({ status: 'failed', result: null, resultError: '-32603 API rate limit exceeded' });
  });
});

describe('notifications/cancelled is not a task cancellation (both revisions)', () => {
  // ext-tasks: "The `notifications/cancelled` notification MUST NOT be used for task cancellation."
  // 2025-11-25 basic/utilities/cancellation: "the `tasks/cancel` request MUST be used instead of the `notifications/cancelled` notification".
  for (const revision of ['2026-07-28', '2025-11-25']) {
    it(`${revision}: T1 with the buggy client: notifications/cancelled {requestId: 1} at 120 ms is ignored, the task completes at 4000 ms`, () => {
      const t = run(loadScenario('T1-abort-before-task-id'), { revision, policy: { cancelWithNotification: true } });
      const n = messages(t).filter((x) => x.m.method === 'notifications/cancelled');
      expect(n.map((x) => [x.at, x.m.params?.requestId])).toEqual([[120, 1]]);
      expect(messages(t).filter((x) => x.m.method === 'tasks/cancel')).toEqual([]);
      expect(request(t)).toMatchObject({ status: 'completed', statusAtMs: 4000, cancelNotificationSentAtMs: 120 });
      expect(t.steps.find((s) => s.entry.kind === 'arrive.cancelled-notification')?.ignored[0].reason).toMatch(/already answered with the task handle/);
      expect(violated(t)).toEqual(['abort-not-lost', 'task-cancelled-with-tasks-cancel']);
    });
  }
});

describe('2026-07-28: the handle only after the task is durable', () => {
  // "A server MUST NOT return `CreateTaskResult` until the task is durably created — that is, until a `tasks/get` for the returned `taskId` would resolve."
  it('with a 300 ms durable write the correct server answers at 400 ms, not at 100 ms', () => {
    const t = run(loadScenario('T2-cancel-after-completion'), { durableWriteMs: 300 });
    expect(messages(t).find((x) => x.m.result?.resultType === 'task')?.at).toBe(400);
    expect(request(t)).toMatchObject({ durableAtMs: 400, handleSentAtMs: 400, status: 'completed' });
    expect(violated(t)).toEqual([]);
  });

  it('the buggy server answers at 100 ms: the invariant breaks even without a crash', () => {
    const t = run(loadScenario('T2-cancel-after-completion'), { durableWriteMs: 300, policy: { handleBeforeDurable: true } });
    expect(request(t)).toMatchObject({ handleSentAtMs: 100, durableAtMs: 400, status: 'completed' });
    expect(violated(t)).toEqual(['handle-after-durable']);
  });

  it('crash at 250 ms: the buggy server lost a task the client holds (Task not found -32602 at 1400 ms); the correct one lost only an unanswered call', () => {
    const buggy = run(loadScenario('T2-cancel-after-completion'), { durableWriteMs: 300, serverCrashAtMs: 250, policy: { handleBeforeDurable: true } });
    const err = messages(buggy).find((x) => x.m.error !== undefined);
    expect([err?.at, err?.m.error]).toEqual([1300, { code: -32602, message: 'Failed to retrieve task: Task not found' }]);
    expect(request(buggy)).toMatchObject({ taskNotFoundAtMs: 1400, lostTaskId: 'task-1', status: null });
    expect(buggy.outcome.summary).toMatchObject({ polls: 1 }); // it stops polling a task that does not exist
    const fine = run(loadScenario('T2-cancel-after-completion'), { durableWriteMs: 300, serverCrashAtMs: 250 });
    expect(messages(fine).map((x) => x.m.method ?? 'response')).toEqual(['tools/call']);
    expect(request(fine)).toMatchObject({ callFailedAtMs: 250, handleSentAtMs: null, taskNotFoundAtMs: null });
  });

  it('a crash after the task is durable loses nothing', () => {
    const t = run(loadScenario('T2-cancel-after-completion'), { durableWriteMs: 300, serverCrashAtMs: 450 });
    expect(request(t)).toMatchObject({ status: 'completed', result: 'report ready', lostTaskId: null, callFailedAtMs: null });
    expect(t.steps.find((s) => s.entry.kind === 'crash')?.ignored[0].reason).toMatch(/every task is durable/);
  });

  it('property: the correct server never violates the durable rules, whatever the crash time; the buggy one can', () => {
    const arb = fc.record({ durable: fc.integer({ min: 0, max: 2000 }), crash: fc.option(fc.integer({ min: 0, max: 6000 }), { nil: null }), latency: fc.integer({ min: 0, max: 200 }) });
    const scenario = (v: { durable: number; crash: number | null; latency: number }, buggy: boolean) =>
      mk(
        { mechanism: 'tasks', latencyMs: { clientToServer: v.latency, serverToClient: v.latency }, durableWriteMs: v.durable, serverCrashAtMs: v.crash, policy: { handleBeforeDurable: buggy } },
        [
          { id: 'call', at: 0, actor: 'client', kind: 'call' },
          { id: 'created', at: 100, actor: 'server', kind: 'created' },
          { id: 'finish', at: 5000, actor: 'worker', kind: 'finish' },
        ],
      );
    fc.assert(fc.property(arb, (v) => violated(run(scenario(v, false))).length === 0), { numRuns: 200 });
    expect(fc.check(fc.property(arb, (v) => violated(run(scenario(v, true))).length === 0), { numRuns: 300, seed: 3 }).failed).toBe(true);
  });
});

describe('tasks/* over Streamable HTTP carry Mcp-Name', () => {
  // "When `tasks/get`, `tasks/update`, or `tasks/cancel` is sent over the Streamable HTTP transport, the client MUST set the `Mcp-Name` header to the value of `params.taskId`."
  it('2026-07-28: every request names Mcp-Method, and Mcp-Name (the tool, then the task id)', () => {
    const t = run(loadScenario('T3-finish-before-checkpoint'), { transport: 'streamable-http' });
    const posts = messages(t).filter((x) => x.from === 'client');
    expect(posts.map((x) => x.http)).toEqual([
      'POST /mcp (MCP-Protocol-Version: 2026-07-28; Mcp-Method: tools/call; Mcp-Name: long_report)',
      'POST /mcp (MCP-Protocol-Version: 2026-07-28; Mcp-Method: tasks/get; Mcp-Name: task-1)',
      'POST /mcp (MCP-Protocol-Version: 2026-07-28; Mcp-Method: tasks/cancel; Mcp-Name: task-1)',
      'POST /mcp (MCP-Protocol-Version: 2026-07-28; Mcp-Method: tasks/get; Mcp-Name: task-1)',
      'POST /mcp (MCP-Protocol-Version: 2026-07-28; Mcp-Method: tasks/get; Mcp-Name: task-1)',
    ]);
    expect(t.effects.every((e) => e.transport === 'streamable-http')).toBe(true);
    // the transport changes the wire, not the outcome
    expect(request(t)).toEqual(request(run(loadScenario('T3-finish-before-checkpoint'))));
  });

  it('2025-11-25 has no Mcp-Method / Mcp-Name headers', () => {
    const t = run(loadScenario('T3-finish-before-checkpoint'), { transport: 'streamable-http', revision: '2025-11-25' });
    expect(messages(t).filter((x) => x.from === 'client').every((x) => x.http === 'POST /mcp (MCP-Protocol-Version: 2025-11-25)')).toBe(true);
  });
});
