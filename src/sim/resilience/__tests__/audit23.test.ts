import { describe, expect, it } from 'vitest';
import type { Json } from '../../types';
import { loadScenario, run, violated } from './helpers';

/**
 * Issue 23 item 2 in the tasks mechanism: a task asks only for the input its client declared
 * ("Servers MUST NOT send an inputRequests that the client has not declared support for in its
 * capabilities", 2026-07-28 `basic/patterns/mrtr`), and the client declares what it supports.
 */

type Msg = { id?: Json; method?: string; params?: { _meta?: Record<string, Json> }; result?: Record<string, Json> };
const messages = (t: ReturnType<typeof run>) => t.steps.flatMap((s) => s.effects).filter((e) => e.message !== undefined).map((e) => ({ from: e.from, m: e.message as Msg }));
const caps = (m: Msg) => m.params?._meta?.['io.modelcontextprotocol/clientCapabilities'];

describe('T4: a task needs input from a client without elicitation', () => {
  const t4 = () => loadScenario('T4-input-without-elicitation');

  it('the client that declares elicitation says so on every 2026-07-28 request, beside the extension', () => {
    const sent = messages(run(t4(), { clientElicitation: 'form' })).filter((x) => x.from === 'client');
    expect(sent.map((x) => x.m.method)).toContain('tasks/update');
    expect(sent.length).toBeGreaterThanOrEqual(4);
    for (const x of sent) expect(caps(x.m)).toEqual({ elicitation: { form: {} }, extensions: { 'io.modelcontextprotocol/tasks': {} } });
  });

  it('a client without elicitation declares only the extension; the correct server never lists elicitation/create, and the task fails with -32021 and requiredCapabilities, inlined in tasks/get', () => {
    const t = run(t4());
    const all = messages(t);
    for (const x of all.filter((y) => y.from === 'client')) expect(caps(x.m)).toEqual({ extensions: { 'io.modelcontextprotocol/tasks': {} } });
    expect(JSON.stringify(all.map((x) => x.m))).not.toContain('elicitation/create');
    const failed = all.find((x) => x.from === 'server' && x.m.result?.status === 'failed')!.m.result!;
    expect(failed.error).toEqual({ code: -32021, message: 'Missing required client capability: elicitation', data: { requiredCapabilities: { elicitation: { form: {} } } } });
    expect(violated(t)).toEqual([]);
  });

  it('bug inputRequestsUndeclared: elicitation/create goes to a client that cannot answer; no tasks/update; invariant input-requests-declared breaks at 600 ms', () => {
    const t = run(t4(), { policy: { inputRequestsUndeclared: true } });
    expect(JSON.stringify(messages(t).map((x) => x.m))).toContain('elicitation/create');
    expect(t.outcome.summary).toMatchObject({ updatesSent: 0 });
    expect(violated(t)).toEqual(['input-requests-declared']);
    expect(t.invariants.find((i) => i.name === 'input-requests-declared')!.firstViolation!.at).toBe(600);
  });
});

describe('T5: a client that did not declare the tasks extension', () => {
  const t5 = () => loadScenario('T5-client-without-tasks-extension');

  it('declares no extension; the server refuses the call with -32021 naming the extension (requiredCapabilities), creates no task, and the client gets the error at 120 ms', () => {
    const t = run(t5());
    const all = messages(t);
    expect(caps(all[0].m)).toEqual({ elicitation: { form: {} } });
    const refusal = all.find((x) => x.from === 'server')!.m as { error?: unknown };
    expect(refusal.error).toEqual({ code: -32021, message: 'Missing required client capability: the call can only be served as a task (io.modelcontextprotocol/tasks)', data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } } });
    expect(all.map((x) => x.m.method ?? 'response')).toEqual(['tools/call', 'response']);
    expect(t.outcome.requests[0]).toMatchObject({ taskId: null, status: null, resultReceivedAtMs: 120 });
    expect(violated(t)).toEqual([]);
  });

  it('bug taskToUndeclaredClient: CreateTaskResult goes out anyway; the client reads it as invalid and polls nothing; invariant task-only-to-declaring-client breaks at 100 ms', () => {
    const t = run(t5(), { policy: { taskToUndeclaredClient: true } });
    expect(messages(t).some((x) => x.m.result?.resultType === 'task')).toBe(true);
    expect(t.outcome.summary).toMatchObject({ polls: 0 });
    expect(violated(t)).toEqual(['task-only-to-declaring-client']);
    expect(t.invariants.find((i) => i.name === 'task-only-to-declaring-client')!.firstViolation!.at).toBe(100);
  });
});
