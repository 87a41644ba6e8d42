import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { loadBuiltinScenarios } from '../sim/__tests__/builtinScenarios';
import { RACES_SCHEMAS, replayRaces, withOverrides, type RacesTrace } from '../sim/races';
import { SDK_BEHAVIOURS } from '../sim/races/sdkProfile';
import { parseScenario } from '../sim/scenario';
import type { Json, Scenario } from '../sim/types';
import { notExpressible, observe, overStreamableHttp, type RacesScenarioFile } from './driver';
import { citedBehaviours, factDifferences, labFacts, sdkFacts, summarize } from './compare';
import { RawServerSession } from './harness';
import { SDK_PROBES } from './probes';
import { expectCoverage, oracleCases, onFakeTimers, ROOT, type OracleCase } from './cases';
import { labVsSdkMarkdown, README_END, README_START, withReadmeSection, type DifferenceRow } from './table';

// The differential suite (issue 11): every races scenario the SDK can express (the built-ins and
// the probes) runs on the real TypeScript SDK v1 and on the lab, twice: with the lab's
// "TypeScript SDK v1" profile, which must agree with the SDK point by point (client state and
// time, every message with its reason, handler start, abort signal, dropped messages), and with
// the lab's spec-correct default, whose differences are recorded and named. The README table
// "lab vs TypeScript SDK v1" is made from those rows (`npm run sdk-oracle` rewrites it).

const FRAGMENT = join(__dirname, 'lab-vs-sdk.md');
const README = join(ROOT, 'README.md');
const WRITE = process.env.SDK_ORACLE_WRITE === '1';
const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
const SDK_VERSION = (JSON.parse(readFileSync(join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk', 'package.json'), 'utf8')) as { version: string }).version;
/** Built-ins the SDK v1 cannot express (see `notExpressible`), in file order. */
const NOT_EXPRESSIBLE = ['D-http-stream-close', 'E2-malformed-cancel', 'I3-timeout-silent-resend', 'I5-hop-idle-timer', 'I6-cancel-in-write-window', 'K2-size-limit-on-prefix', 'K4-large-line-never-read', 'L-listen-teardown', 'M1-mrtr-confirm-transfer', 'R1-broken-stream-reissue', 'S2-sdk-v1-cancel-id-zero', 'V1-unsupported-protocol-version'];
const SDK_PROFILE = { revision: '2025-11-25', client: { profile: 'typescript-sdk-v1' } } as const;

const cases = (): OracleCase[] => oracleCases((raw) => notExpressible(raw) === null);

const profileRun = (s: Scenario): RacesTrace => replayRaces(withOverrides(s, SDK_PROFILE as unknown as Record<string, Json>));

onFakeTimers();

describe('the lab\'s "TypeScript SDK v1" profile agrees with the real SDK, point by point', () => {
  it('drives every built-in the SDK can express and every probe; the others say why not', () => {
    const ids = expectCoverage(cases(), NOT_EXPRESSIBLE);
    expect(ids.size).toBeGreaterThanOrEqual(9 + SDK_PROBES.length);
  });

  for (const c of cases()) {
    it(`${c.scenario.id} (${c.source}): same client states and times, wire messages and reasons, handler starts, aborts and drops`, async () => {
      const o = await observe(c.raw, advance);
      const sdk = sdkFacts(c.scenario, o, { reasons: true });
      const lab = labFacts(profileRun(c.scenario), { reasons: true });
      expect(factDifferences(lab, sdk)).toEqual([]);
      expect(lab).toEqual(sdk);
      expect(Object.keys(sdk.calls).length).toBeGreaterThan(0);
    });
  }

  it('typescript-sdk#2283 (server probe): ids 0 and 7 cancelled at 10 ms after their start — the profile, like the SDK, aborts 7 and not 0 and answers 0; the lab aborts both', async () => {
    const raw = new RawServerSession();
    await raw.start(advance);
    for (const id of [0, 7]) {
      await raw.send({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'work', arguments: {} } }, advance);
      await advance(10);
      await raw.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: 'stop' } }, advance);
      await advance(10);
      await raw.complete(id, `done ${id}`, advance);
      await advance(10);
    }
    const sdkServer = {
      aborted: Object.fromEntries([0, 7].map((id) => [id, raw.aborted.has(String(id))])),
      answered: raw.sent.filter((w) => (w.message as { id?: Json }).id === 0 || (w.message as { id?: Json }).id === 7).map((w) => (w.message as { id: number }).id),
    };
    expect(sdkServer).toEqual({ aborted: { 0: false, 7: true }, answered: [0] });
    const scenario = idZeroScenario();
    for (const [overrides, expected] of [
      [SDK_PROFILE, sdkServer],
      [{}, { aborted: { 0: true, 7: true }, answered: [] }],
    ] as const) {
      const t = replayRaces(withOverrides(scenario, overrides as unknown as Record<string, Json>));
      const final = t.steps[t.steps.length - 1].state;
      const byId = (id: number) => final.requests.find((r) => r.id === id)!;
      const lab = {
        aborted: { 0: byId(0).server.cancelAcceptedAt !== null, 7: byId(7).server.cancelAcceptedAt !== null },
        answered: t.steps.flatMap((s) => s.effects).filter((e) => e.from === 'server' && (e.message as { id?: Json })?.id !== undefined).map((e) => (e.message as { id: number }).id),
      };
      expect(lab).toEqual(expected);
    }
  });
});

/** Ids 0 and 7 each: start, cancel 10 ms later, the work returns 10 ms after that (stdio, 2025-11-25). */
function idZeroScenario(): Scenario {
  const events = [0, 7].flatMap((id, i) => [
    { id: `start-${id}`, at: i * 30, actor: 'client', kind: 'start', requestId: id, idleTimeoutMs: 60_000, maxTimeoutMs: 120_000 },
    { id: `cancel-${id}`, at: i * 30 + 10, actor: 'client', kind: 'cancel', requestId: id, reason: 'stop' },
    { id: `done-${id}`, at: i * 30 + 20, actor: 'server', kind: 'complete', requestId: id, text: `done ${id}` },
  ]);
  const r = parseScenario({ format: 1, lab: 'races', id: 'probe-cancel-id-zero', title: 'Cancel for request id 0', seed: 1, config: { revision: '2025-11-25', transport: 'stdio' }, events }, 'races', RACES_SCHEMAS);
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

describe('lab vs TypeScript SDK v1: every difference recorded and named, the README table made from it', () => {
  it('the differences carry the numbers of issue 11, each is named by an SDK behaviour, and README.md holds the generated table', async () => {
    const rows: DifferenceRow[] = [];
    for (const c of cases()) {
      vi.setSystemTime(0);
      const o = await observe(c.raw, advance);
      const sdk = sdkFacts(c.scenario, o, { reasons: false });
      const lab = labFacts(replayRaces(withOverrides(c.scenario, { client: { profile: 'lab' } })), { reasons: false });
      const differences = factDifferences(lab, sdk);
      const behaviours = differences.length ? citedBehaviours(profileRun(c.scenario)) : [];
      rows.push({ id: c.scenario.id, title: c.scenario.title, source: c.source, lab: summarize(lab), sdk: summarize(sdk), differences, behaviours });
    }
    rows.push({
      id: 'probe-cancel-id-zero',
      title: 'Cancel for request id 0',
      source: 'server probe',
      lab: 'id 0 and id 7: handler aborted when the cancel arrives, no response',
      sdk: 'id 0: handler not aborted, its response is sent; id 7: aborted, no response',
      differences: ['id 0: the SDK server ignores the cancel'],
      behaviours: citedBehaviours(profileRun(idZeroScenario())),
    });
    const row = (id: string) => rows.find((r) => r.id === id)!;

    // Every difference is explained by at least one named SDK behaviour; agreeing rows name none.
    for (const r of rows) {
      if (r.differences.length) expect({ id: r.id, named: r.behaviours.length > 0 }).toEqual({ id: r.id, named: true });
      for (const b of r.behaviours) expect(SDK_BEHAVIOURS[b]).toBeDefined();
    }
    // The numbers of issue 11.
    expect(row('F2-progress-forever').differences).toEqual([
      'call 1: abort signal lab 180000, SDK 220000',
      'wire only in the lab: 180000 c2s cancelled 1',
      'wire only in the SDK: 180000 s2c progress 1 9',
      'wire only in the SDK: 200000 s2c progress 1 10',
      'wire only in the SDK: 220000 c2s cancelled 1',
      'dropped only by the SDK: 200000 progress 1',
    ]);
    expect(row('F2-progress-forever').behaviours).toEqual(['sdk.no-cancel-at-maximum']);
    expect(row('C-progress-idle-maximum').differences[0]).toBe('call 1: lab timeout-max at 2000 ms, SDK timeout-idle at 2499 ms');
    expect(row('C-progress-idle-maximum').behaviours).toEqual(['sdk.maximum-on-progress']);
    expect(row('F5-fifty-timeouts').lab).toBe('50 calls: timeout-max at 5000 ms; cancel sent at 5000 ms; handler aborted at 5000 ms');
    expect(row('F5-fifty-timeouts').sdk).toBe('50 calls: timeout-idle at 60000 ms; cancel sent at 60000 ms; handler aborted at 60000 ms');
    expect(row('F5-fifty-timeouts').behaviours).toEqual(['sdk.default-timeout', 'sdk.maximum-on-progress']);
    expect(row('probe-no-timeout-option').sdk).toBe('timeout-idle at 60000 ms; cancel sent at 60000 ms; handler aborted at 60000 ms');
    expect(row('probe-cancel-id-zero').behaviours).toEqual(['sdk.cancel-id-zero']);
    for (const same of ['A-cancel-then-complete', 'B-complete-then-cancel', 'E-invalid-cancels', 'F4-user-cancel-no-timeout']) expect(row(same).differences).toEqual([]);

    // The Streamable HTTP run (http.test.ts asserts the agreement it states).
    const httpCases = [...loadBuiltinScenarios('races').map(({ file, scenario }) => ({ raw: JSON.parse(readFileSync(join(ROOT, 'public', 'scenarios', 'races', file), 'utf8')) as RacesScenarioFile, title: scenario.title })), ...SDK_PROBES.map((p) => ({ raw: p as RacesScenarioFile, title: p.title }))];
    const httpWhy = httpCases.map((c) => ({ title: c.title, why: notExpressible(overStreamableHttp(c.raw), { http: true }) }));
    const http = { driven: httpWhy.filter((c) => c.why === null).map((c) => c.title), notExpressible: httpWhy.flatMap((c) => (c.why === null ? [] : [{ title: c.title, why: c.why }])) };
    expect(http.driven.length).toBe(loadBuiltinScenarios('races').length - NOT_EXPRESSIBLE.length + 1 + SDK_PROBES.length); // D too
    const fragment = labVsSdkMarkdown(rows, SDK_VERSION, http);
    const readme = readFileSync(README, 'utf8');
    if (WRITE) {
      writeFileSync(FRAGMENT, fragment);
      writeFileSync(README, withReadmeSection(readme, fragment));
    }
    expect(readFileSync(FRAGMENT, 'utf8')).toBe(fragment);
    const now = readFileSync(README, 'utf8');
    expect(now).toContain('## lab vs TypeScript SDK v1');
    expect(now.slice(now.indexOf(README_START) + README_START.length + 1, now.indexOf(README_END))).toBe(fragment);
  }, 60_000);
});
