import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { replayRaces, withOverrides, type RacesTrace } from '../sim/races';
import { loadScenarios } from '../sim/races/__tests__/helpers';
import { racesScenarioArb } from '../sim/__tests__/racesArb';
import type { Scenario } from '../sim/types';
import { effectLostAtMs, finalResponseNote, responseReachedClient, serverWorkText } from './racesStatements';

/**
 * One truth per run (issue 27, item 3): every sentence the races panels state about an outcome
 * agrees with the outcome selector and with the trace it came from — on every built-in (and each
 * of its `expect` variants) and on generated scenarios.
 */
function statementsAgree(trace: RacesTrace): void {
  const { requests, summary } = trace.outcome;
  // What the client received, read from the steps: a response "ignored" by the client was received.
  const receivedLate = new Set<string>();
  for (const step of trace.steps) for (const ig of step.ignored) if (ig.by === 'client' && ig.what.startsWith('response to ')) receivedLate.add(ig.what.slice('response to '.length));
  for (const r of requests) {
    const label = `${trace.scenario.id} request ${r.key}`;
    // A response written to a dropped stream never reaches the client (R1): a call that ended
    // connection-closed never "received" its response late, and never accepted one.
    if (r.state === 'connection-closed') expect(['none', 'in-flight', 'lost-with-stream', 'undeliverable'], label).toContain(r.responseFate);
    if (r.responseFate === 'lost-with-stream') expect(receivedLate.has(r.key), `${label}: lost with the stream, yet the client logged it`).toBe(false);
    if (r.responseFate === 'ignored-late') expect(receivedLate.has(r.key), `${label}: dropped as late, but no step shows the client receiving it`).toBe(true);
    const note = finalResponseNote(r);
    if (!responseReachedClient(r.responseFate)) expect(note, label).not.toMatch(/\barrived|accepted/);
    if (r.finalResponse) expect(note, label).not.toMatch(/none sent|sent none/);
    // "work stopped" is what a cancelled (or failed) server does, never a completed one.
    const server = serverWorkText(r);
    expect(server.startsWith(r.serverState), label).toBe(true);
    if (r.serverState === 'completed') expect(server, label).not.toMatch(/stopped/);
  }
  // The wire panel's "never reached the client" marks exactly the responses the outcome says were lost.
  const lostKeys = new Set<string>();
  for (const e of trace.effects) {
    const at = effectLostAtMs(trace.outcome, e);
    if (at === null) continue;
    lostKeys.add(e.requestKey as string);
    expect((e.arrivesAt as number) > at).toBe(true);
  }
  for (const r of requests) if (r.responseFate === 'lost-with-stream' && r.atMs !== null) expect(lostKeys.has(r.key), `${trace.scenario.id} ${r.key}: lost, but the wire shows it arriving`).toBe(true);
  // The summary line's numbers are the outcome's.
  expect(summary.requests).toBe(requests.length);
  expect(summary.finalResponses).toBe(requests.filter((r) => r.finalResponse).length);
  expect(summary.lateResponsesDropped).toBe(requests.filter((r) => r.responseFate === 'ignored-late').length);
  expect(summary.cancelSignals).toBe(requests.filter((r) => r.cancelSignal !== 'none').length);
}

describe('races panels never contradict the outcome', () => {
  for (const { file, scenario } of loadScenarios()) {
    const variants: { label: string; s: Scenario }[] = [{ label: 'as written', s: scenario }, ...(scenario.expect ?? []).map((e) => ({ label: e.label, s: withOverrides(scenario, e.overrides) }))];
    for (const v of variants) it(`${file} · ${v.label}`, () => statementsAgree(replayRaces(v.s)));
  }

  it('R1: the result written at 500 ms to the stream dropped at 510 ms is lost with it, and the panels say so', () => {
    const r1 = loadScenarios().find((x) => x.scenario.id === 'R1-broken-stream-reissue')!.scenario;
    const t = replayRaces(r1);
    const one = t.outcome.requests.find((r) => r.key === '1')!;
    expect(one.responseFate).toBe('lost-with-stream');
    expect(finalResponseNote(one)).toContain('lost with the stream');
    expect(serverWorkText(one)).toBe('completed (work finished at 500 ms)');
    const result = t.effects.find((e) => e.from === 'server' && e.requestKey === '1' && e.message !== undefined)!;
    expect(effectLostAtMs(t.outcome, result)).toBe(510);
  });

  it('1,000 generated scenarios', () => {
    fc.assert(fc.property(racesScenarioArb, (s) => statementsAgree(replayRaces(s))), { numRuns: 1000, seed: 20261204 });
  }, 120_000);
});
