import { describe, expect, it } from 'vitest';
import { checkEffects } from '../../../wire/schemaCheck';
import type { Revision } from '../../mcp';
import type { Json } from '../../types';
import { ev, loadScenario, mk, req, run, start, violated } from './helpers';
import { beyondOracle } from '../../__tests__/oracleScope';
import { withOverrides, type RacesTrace } from '..';

// Two failure mechanics of issue 11 (src/sim/races/mechanics/hop.ts and writeWindow.ts), each with
// its switches, against hand-computed times. Every message they emit validates against the
// official schema of its revision.

const effects = (t: RacesTrace) => t.steps.flatMap((s) => s.effects);
const fromServer = (t: RacesTrace) => effects(t).filter((e) => e.from === 'server' && e.message !== undefined).map((e) => [e.at, e.arrivesAt ?? null, e.message]);
const methodOf = (t: RacesTrace) => {
  const final = t.steps[t.steps.length - 1].state;
  return (key: string | undefined) => (key === undefined ? undefined : final.requests[final.indexOf[key]]?.method);
};
function schemaErrors(t: RacesTrace, revision: Revision): unknown[] {
  return checkEffects(revision, effects(t), methodOf(t)).filter((c) => !c.effect.malformed && c.errors.length > 0).map((c) => ({ def: c.def, errors: c.errors }));
}
const ignoredBy = (t: RacesTrace, rule: string) => t.steps.flatMap((s) => s.ignored.filter((i) => i.rule === rule).map((i) => [s.at, i.by, i.what, i.reason]));
const finalReq = (t: RacesTrace, key: string) => {
  const final = t.steps[t.steps.length - 1].state;
  return final.requests[final.indexOf[key]];
};
const progressMsg = (k: number) => ({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'b1', progress: k, total: 5 } });
const RESULT_META = { 'io.modelcontextprotocol/serverInfo': { name: 'reliability-lab-server', version: '1.0.0' } };

describe('an intermediary hop with its own idle timer (I5)', () => {
  const i5 = loadScenario('I5-hop-idle-timer');

  it('correct: progress every 20 s resets the gateway\'s 30 s idle timer (30 000 → 50 000 → 70 000 → 90 000 → 110 000 ms); the call completes at 90 000 ms', () => {
    const t = run(i5);
    expect(fromServer(t)).toEqual([
      [20000, 20000, progressMsg(1)],
      [40000, 40000, progressMsg(2)],
      [60000, 60000, progressMsg(3)],
      [80000, 80000, progressMsg(4)],
      [90000, 90000, { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'index built' }], resultType: 'complete', _meta: RESULT_META } }],
    ]);
    expect(finalReq(t, '1').mech).toMatchObject({ hopIdleDeadlineAt: 110000, hopLastProgressAt: 80000, hopIdleHandle: -1, hopMaxHandle: -1 });
    expect(finalReq(t, '1').mech?.hopCut).toBeUndefined();
    expect(req(t)).toMatchObject({ state: 'completed', atMs: 90000, serverState: 'completed' });
    expect(violated(t)).toEqual([]);
  });

  it('bug: the gateway\'s timer ignores progress and cuts at 30 000 ms — the upstream stream closes (the server stops), the client gets -32603 although its own idle deadline was 80 000 ms', () => {
    const t = run(i5, { policy: { hopIgnoresProgress: true } });
    expect(fromServer(t)).toEqual([
      [20000, 20000, progressMsg(1)],
      [30000, 30000, { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'gateway idle timeout of 30000 ms reached' } }],
    ]);
    const upstream = effects(t).filter((e) => e.from === 'client' && e.at === 30000);
    expect(upstream.map((e) => [e.message, e.http])).toEqual([[undefined, 'the gateway closes the upstream SSE response stream of request 1 (the cancellation signal)']]);
    expect(req(t)).toMatchObject({ state: 'failed', atMs: 30000, serverState: 'cancelled', workEndedAtMs: 30000, finalResponse: false, rule: 'mech.hop' });
    expect(req(t).reason).toBe('error -32603 from the hop at 30000 ms: "gateway idle timeout of 30000 ms reached". The client\'s own idle deadline was 80000 ms.');
    expect(finalReq(t, '1').mech?.hopCut).toEqual({ at: 30000, which: 'idle', idleTimeoutMs: 30000, lastProgressAt: 20000, text: 'gateway idle timeout of 30000 ms reached' });
    expect(violated(t)).toEqual(['hop-idle-reset-by-progress']);
    expect(schemaErrors(t, '2026-07-28')).toEqual([]);
  });

  it('a gateway maximum of 75 000 ms cuts the call at 75 000 ms, progress or not, and its error names the maximum (no invariant broken)', () => {
    const t = run(i5, { hop: { name: 'gateway', idleTimeoutMs: 30000, maxTimeoutMs: 75000 } });
    expect(fromServer(t).slice(-1)).toEqual([[75000, 75000, { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'gateway maximum timeout of 75000 ms reached' } }]]);
    expect(req(t)).toMatchObject({ state: 'failed', atMs: 75000, serverState: 'cancelled', workEndedAtMs: 75000 });
    expect(violated(t)).toEqual([]);
  });

  it('stdio under 2025-11-25: the hop cancels upstream with notifications/cancelled naming its timeout; every message validates', () => {
    const t = run(i5, { revision: '2025-11-25', transport: 'stdio', policy: { hopIgnoresProgress: true } });
    const upstream = effects(t).filter((e) => e.from === 'client' && e.at === 30000).map((e) => e.message);
    expect(upstream).toEqual([{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1, reason: 'gateway idle timeout (30000 ms)' } }]);
    expect(req(t)).toMatchObject({ state: 'failed', atMs: 30000, serverState: 'cancelled' });
    expect(schemaErrors(t, '2025-11-25')).toEqual([]);
  });

  it('uncancellable work: the server keeps going, but the hop forwards nothing more — progress at 40 000 ms stops at the hop and the 90 000 ms result is dropped there', () => {
    const s = mk({ revision: '2025-11-25', hop: { idleTimeoutMs: 30000 }, policy: { hopIgnoresProgress: true } }, [
      start(0, { progressToken: 'b1', idleTimeoutMs: 60000, maxTimeoutMs: 600000, cancellable: false }),
      ev('p1', 20000, 'server', 'progress', { progress: 1 }),
      ev('p2', 40000, 'server', 'progress', { progress: 2 }),
      ev('done', 90000, 'server', 'complete'),
    ]);
    const t = run(s);
    expect(ignoredBy(t, 'mech.hop').map((i) => i.slice(0, 3))).toEqual([[40000, 'server', 'progress 2 for 1']]);
    const late = effects(t).filter((e) => e.at === 90000);
    expect(late.map((e) => [e.arrivesAt, (e.message as { id?: Json }).id])).toEqual([[undefined, 1]]);
    expect(req(t)).toMatchObject({ state: 'failed', atMs: 30000, serverState: 'completed', responseFate: 'undeliverable', workEndedAtMs: 90000 });
  });

  it('without config.hop the switch changes nothing', () => {
    const { hop: _hop, ...config } = i5.config;
    const plain = { ...i5, config };
    expect(run(plain, { policy: { hopIgnoresProgress: true } }).outcome).toEqual(run(plain).outcome);
  });
});

describe('the window between a handler\'s return and its response write (I6)', () => {
  const i6 = loadScenario('I6-cancel-in-write-window');
  const result = (id: number, text: string) => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

  it('correct: the cancel at 1020 ms lands in the window [1000, 1050) and is ignored (processing has completed); one response for 1 at 1050 ms, dropped by the client; calls 3 and 2 complete at 1800 and 2000 ms', () => {
    const t = run(i6);
    expect(fromServer(t)).toEqual([[1050, 1050, result(1, 'report.pdf')], [1800, 1800, result(3, '3 results')], [2000, 2000, result(2, '12 results')]]);
    expect(ignoredBy(t, 'mech.write-window')).toEqual([[1020, 'server', 'notifications/cancelled 1', 'the handler returned at 1000 ms (processing has completed); the response is written at 1050 ms']]);
    expect(req(t, '1')).toMatchObject({ state: 'cancelled', atMs: 1020, serverState: 'completed', workEndedAtMs: 1000, finalResponse: true, responseFate: 'ignored-late' });
    expect([req(t, '2').atMs, req(t, '3').atMs]).toEqual([2000, 1800]);
    expect(violated(t)).toEqual([]);
  });

  it('bug: the cancel path writes an error at 1020 ms and the pending write goes out at 1050 ms — two responses for id 1; the client drops the first as late and the second as a duplicate', () => {
    const t = run(i6, { policy: { duplicateResponseOnCancel: true } });
    expect(fromServer(t).filter((m) => (m[2] as { id: Json }).id === 1)).toEqual([
      [1020, 1020, { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Request cancelled' } }],
      [1050, 1050, result(1, 'report.pdf')],
    ]);
    expect(ignoredBy(t, 'mech.write-window')).toEqual([[1050, 'client', 'response to 1', 'a second response for the same id: duplicate']]);
    expect(finalReq(t, '1').mech).toMatchObject({ responsesWritten: 2, responsesArrived: 2, lateCancelAt: 1020 });
    expect([req(t, '2').state, req(t, '3').state]).toEqual(['completed', 'completed']);
    expect(violated(t)).toEqual(['one-response-per-request']);
    expect(schemaErrors(t, '2025-11-25')).toEqual([]);
  });

  it('the duplicate and a client that reconnects over a response for an abandoned id: call 2 fails at 1020 ms; call 3, sent later on the new connection, completes at 1800 ms', () => {
    const t = run(i6, { policy: { duplicateResponseOnCancel: true, lateResponseReconnects: true } });
    expect(req(t, '2')).toMatchObject({ state: 'connection-closed', atMs: 1020, serverState: 'failed', workEndedAtMs: 1020 });
    expect(req(t, '3')).toMatchObject({ state: 'completed', atMs: 1800 });
    expect(violated(t)).toEqual(['late-response-harmless', 'one-response-per-request']);
  });

  it('bug: the write finds the request cancelled and the server crashes at 1050 ms: no response for 1; call 2 (in flight) fails at 1050 ms; call 3, sent at 1500 ms, finds no server', () => {
    const t = run(i6, { policy: { crashOnCancelInWriteWindow: true } });
    expect(fromServer(t)).toEqual([]);
    expect(req(t, '1')).toMatchObject({ state: 'cancelled', atMs: 1020, finalResponse: false, responseFate: 'none' });
    expect(req(t, '2')).toMatchObject({ state: 'connection-closed', atMs: 1050, serverState: 'failed', workEndedAtMs: 1050 });
    expect(req(t, '3')).toMatchObject({ state: 'connection-closed', atMs: 1500, serverState: 'not-received' });
    expect(finalReq(t, '1').mech?.crashedAt).toBe(1050);
    expect(violated(t)).toEqual(['late-cancel-harmless']);
  });

  it('the window is [return, write): a cancel at 990 ms stops the work (no response at all); at 1050 ms the written response has already settled the call and the client sends no cancel', () => {
    const at = (ms: number) => ({ ...i6, events: i6.events.map((e) => (e.id === 'cancel-1' ? { ...e, at: ms } : e)) });
    const before = run(at(990), { policy: { crashOnCancelInWriteWindow: true, duplicateResponseOnCancel: true } });
    expect(req(before, '1')).toMatchObject({ state: 'cancelled', atMs: 990, serverState: 'cancelled', finalResponse: false });
    expect(violated(before)).toEqual([]);
    const after = run(at(1050), { policy: { crashOnCancelInWriteWindow: true, duplicateResponseOnCancel: true } });
    expect(req(after, '1')).toMatchObject({ state: 'completed', atMs: 1050, serverState: 'completed' });
    expect(after.steps.flatMap((s) => s.ignored).filter((i) => i.what === 'cancel 1').map((i) => [i.by, i.rule])).toEqual([['client', 'cancel.ignore-invalid']]);
    expect(violated(after)).toEqual([]);
  });

  it('with no cancel the response written 50 ms after the return completes the call at 1050 ms', () => {
    const s = mk({}, [start(0, { idleTimeoutMs: 5000, maxTimeoutMs: 30000 }), ev('done', 1000, 'server', 'complete', { writeDelayMs: 50 })]);
    const t = run(s);
    expect(req(t)).toMatchObject({ state: 'completed', atMs: 1050, workEndedAtMs: 1000, finalResponse: true });
  });

  it('under 2026-07-28 stdio every message validates too', () => {
    const t = run(i6, { revision: '2026-07-28', policy: { duplicateResponseOnCancel: true } });
    expect(schemaErrors(t, '2026-07-28')).toEqual([]);
  });
});

describe('beyond the oracle, narrowly', () => {
  const a = loadScenario('A-cancel-then-complete');
  it('config.hop, the three new switches and a writeDelayMs above 0 are beyond the oracle; writeDelayMs 0 is not', () => {
    expect(beyondOracle(withOverrides(a, { hop: { idleTimeoutMs: 1000 } }))).toBe('config.hop');
    for (const k of ['hopIgnoresProgress', 'duplicateResponseOnCancel', 'crashOnCancelInWriteWindow']) expect(beyondOracle(withOverrides(a, { policy: { [k]: true } }))).toBe(`config.policy.${k}`);
    const withDelay = (d: number) => ({ ...a, events: a.events.map((e) => (e.kind === 'complete' ? { ...e, writeDelayMs: d } : e)) });
    expect(beyondOracle(withDelay(50))).toBe('event field complete.writeDelayMs');
    expect(beyondOracle(withDelay(0))).toBeNull();
    expect(beyondOracle(a)).toBeNull();
  });
});
