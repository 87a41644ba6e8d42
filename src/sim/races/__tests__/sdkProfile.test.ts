import { describe, expect, it } from 'vitest';
import { racesConfigSchema } from '..';
import { beyondOracle } from '../../__tests__/oracleScope';
import type { Json } from '../../types';
import { ev, loadScenario, mk, req, run, start, violated } from './helpers';

// The "TypeScript SDK v1" profile (sdkProfile.ts) on its own, with the numbers of issue 11. The
// differential suite (src/sdk-oracle/differential.test.ts) checks it against the real SDK.

const SDK = { client: { profile: 'typescript-sdk-v1' } };
const cancelsAt = (t: ReturnType<typeof run>) =>
  t.steps.flatMap((s) => s.effects).filter((e) => (e.message as { method?: string } | undefined)?.method === 'notifications/cancelled').map((e) => e.at);

describe('TypeScript SDK v1 profile', () => {
  it('F2 (progress every 20 s, idle 60 s, maximum 180 s): rejected at 180 000 ms with no cancel; the cancel leaves at 220 000 ms, 40 s late', () => {
    const f2 = loadScenario('F2-progress-forever');
    const t = run(f2, SDK);
    expect(req(t)).toMatchObject({ state: 'timeout-max', atMs: 180000, rule: 'sdk.no-cancel-at-maximum', workEndedAtMs: 220000 });
    expect(cancelsAt(t)).toEqual([220000]);
    expect(violated(t)).toEqual(['abandon-signals-server']);
    const lab = run(f2);
    expect(cancelsAt(lab)).toEqual([180000]);
    expect(violated(lab)).toEqual([]);
  });

  it('the maximum is checked only when progress resets the timer: with progressResetsIdleTimeout off, idle 1000 / maximum 150 times out idle at 1000 ms', () => {
    const s = mk({ progressResetsIdleTimeout: false }, [start(0, { progressToken: 't', idleTimeoutMs: 1000, maxTimeoutMs: 150 }), ev('p', 200, 'server', 'progress', { progress: 1 })]);
    const t = run(s, SDK);
    expect(req(t)).toMatchObject({ state: 'timeout-idle', atMs: 1000, rule: 'sdk.maximum-on-progress' });
    expect(violated(t)).toEqual(['maximum-enforced']);
    expect(req(run(s))).toMatchObject({ state: 'timeout-max', atMs: 150 });
  });

  it('C (idle 500, maximum 2000, progress to 1999 ms): the SDK times out idle at 2499 ms, 499 ms past the maximum', () => {
    const t = run(loadScenario('C-progress-idle-maximum'), SDK);
    expect(req(t)).toMatchObject({ state: 'timeout-idle', atMs: 2499 });
    expect(cancelsAt(t)).toEqual([2499]);
  });

  it('the 60 s default timeout is always armed: a call with no timeout fails at 60 000 ms with the SDK\'s cancel reason', () => {
    const s = mk({}, [start(0), ev('done', 70000, 'server', 'complete')]);
    const t = run(s, SDK);
    expect(req(t)).toMatchObject({ state: 'timeout-idle', atMs: 60000, rule: 'sdk.default-timeout' });
    const cancel = t.steps.flatMap((x) => x.effects).find((e) => (e.message as { method?: string } | undefined)?.method === 'notifications/cancelled');
    expect(cancel?.message).toEqual({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'McpError: MCP error -32001: Request timed out' } });
    expect(req(run(s))).toMatchObject({ state: 'completed', atMs: 70000 });
  });

  it('an idle timeout without a maximum is sent (the lab refuses it)', () => {
    const s = mk({}, [start(0, { idleTimeoutMs: 1000 }), ev('done', 500, 'server', 'complete')]);
    expect(req(run(s, SDK))).toMatchObject({ state: 'completed', atMs: 500 });
    expect(run(s).outcome.requests).toEqual([]);
  });

  it('progress that does not increase still resets the SDK timer (the lab ignores it and times out at 500 ms)', () => {
    const s = mk({}, [start(0, { progressToken: 't', idleTimeoutMs: 300, maxTimeoutMs: 5000 }), ev('p1', 200, 'server', 'progress', { progress: 1 }), ev('p1b', 400, 'server', 'progress', { progress: 1 }), ev('done', 600, 'server', 'complete')]);
    expect(req(run(s, SDK))).toMatchObject({ state: 'completed', atMs: 600 });
    expect(req(run(s))).toMatchObject({ state: 'timeout-idle', atMs: 500 });
  });

  it('an abort after the result still sends notifications/cancelled; the call stays completed', () => {
    const s = mk({}, [start(0, { idleTimeoutMs: 1000, maxTimeoutMs: 5000 }), ev('done', 100, 'server', 'complete'), ev('stop', 200, 'client', 'cancel')]);
    const t = run(s, SDK);
    expect(req(t)).toMatchObject({ state: 'completed', atMs: 100 });
    expect(cancelsAt(t)).toEqual([200]);
    expect(violated(t)).toEqual([]);
    expect(cancelsAt(run(s))).toEqual([]);
  });

  it('typescript-sdk#2283: the SDK server ignores a cancel for request id 0 (and ""), answers it, and the client drops that answer; id 7 stops', () => {
    const t = run(loadScenario('S2-sdk-v1-cancel-id-zero'));
    expect(req(t, '0')).toMatchObject({ serverState: 'completed', finalResponse: true, responseFate: 'ignored-late' });
    expect(req(t, '7')).toMatchObject({ serverState: 'cancelled', finalResponse: false });
    expect(t.steps.flatMap((s) => s.ignored).filter((i) => i.rule === 'sdk.cancel-id-zero')).toHaveLength(1);
    const empty = mk(SDK, [start(0, { requestId: '' }), ev('stop', 10, 'client', 'cancel', { requestId: '' }), ev('done', 50, 'server', 'complete', { requestId: '' })]);
    expect(req(run(empty), '""')).toMatchObject({ serverState: 'completed', finalResponse: true });
    expect(req(run(empty, { client: { profile: 'lab' } }), '""')).toMatchObject({ serverState: 'cancelled', finalResponse: false });
  });

  it('work marked uncancellable is still aborted by the SDK server, which drops its result (F3: no response at 74 049 ms)', () => {
    const t = run(loadScenario('F3-late-result'), SDK);
    expect(req(t, '42')).toMatchObject({ serverState: 'cancelled', finalResponse: false, workEndedAtMs: null });
    expect(req(run(loadScenario('F3-late-result')), '42')).toMatchObject({ finalResponse: true, responseFate: 'ignored-late' });
  });

  it('the SDK server ignores cancels its schema rejects: jsonrpc missing, a non-string reason, an id', () => {
    const messages: Json[] = [
      { method: 'notifications/cancelled', params: { requestId: 1 } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 5 } },
      { jsonrpc: '2.0', id: 9, method: 'notifications/cancelled', params: { requestId: 1 } },
    ];
    for (const message of messages) {
      const s = mk(SDK, [start(0, { idleTimeoutMs: 1000, maxTimeoutMs: 5000 }), { id: 'raw', at: 10, actor: 'client', kind: 'inject', message }, ev('done', 50, 'server', 'complete')]);
      const t = run(s);
      expect(req(t)).toMatchObject({ state: 'completed', serverState: 'completed' });
      expect(t.steps.flatMap((x) => x.ignored).filter((i) => i.by === 'server' && / SDK/.test(i.reason))).toHaveLength(1);
    }
  });

  it('config.client.profile: omitted means the lab; a bad value is refused naming the field; the oracle scope treats "lab" as the old model', () => {
    expect(racesConfigSchema.parse({}).client).toBeUndefined();
    const bad = racesConfigSchema.safeParse({ client: { profile: 'python-sdk' } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['client', 'profile'], message: 'must be one of lab, typescript-sdk-v1, typescript-sdk-v2' });
    const f2 = loadScenario('F2-progress-forever');
    expect(beyondOracle({ ...f2, config: { ...f2.config, client: { profile: 'lab' } } })).toBeNull();
    expect(beyondOracle({ ...f2, config: { ...f2.config, client: { profile: 'typescript-sdk-v1' } } })).toBe('config.client');
  });
});
