import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { replayRaces, withOverrides, type RacesTrace } from '../sim/races';
import type { Json, Scenario } from '../sim/types';
import { citedBehaviours, factDifferences, labFacts, sdkFacts } from './compare';
import { notExpressible, observe, overStreamableHttp } from './driver';
import { httpLink } from './httpLink';
import { SdkSession } from './harness';
import { expectCoverage, oracleCases, onFakeTimers, type OracleCase } from './cases';

// The differential suite over Streamable HTTP (issue 11: "checked on stdio only"): the SDK's own
// StreamableHTTPClientTransport talks to its WebStandardStreamableHTTPServerTransport in process
// (httpLink.ts: the client's fetch option hands each Request to the server's handleRequest), on
// fake timers. Every races scenario the SDK can express runs with transport "streamable-http"
// under 2025-11-25 (the revision SDK 1.32 speaks): the lab's "TypeScript SDK v1" profile on
// Streamable HTTP must agree with it point by point, and every difference of the lab's own policy
// must be named by an SDK behaviour. 2026-07-28 HTTP (closing the stream is the cancel, a broken
// stream loses the request, Mcp-Method / Mcp-Name) has no SDK v1 counterpart: see the README's
// "lab vs TypeScript SDK v1" section.

const advance = (ms: number) => vi.advanceTimersByTimeAsync(ms);
const OBSERVATIONS = join(__dirname, 'sdk-http-observations.json');
const WRITE = process.env.SDK_ORACLE_WRITE === '1';
const HTTP_PROFILE = { revision: '2025-11-25', transport: 'streamable-http', client: { profile: 'typescript-sdk-v1' } } as const;
/** Built-ins the SDK cannot express even over HTTP (see `notExpressible`), in file order. */
const NOT_EXPRESSIBLE_OVER_HTTP = ['E2-malformed-cancel', 'I3-timeout-silent-resend', 'I5-hop-idle-timer', 'I6-cancel-in-write-window', 'K2-size-limit-on-prefix', 'K4-large-line-never-read', 'L-listen-teardown', 'M1-mrtr-confirm-transfer', 'R1-broken-stream-reissue', 'S2-sdk-v1-cancel-id-zero', 'V1-unsupported-protocol-version'];

const cases = (): OracleCase[] => oracleCases((raw) => notExpressible(overStreamableHttp(raw), { http: true }) === null);

const run = (s: Scenario, overrides: Record<string, Json>): RacesTrace => replayRaces(withOverrides(s, overrides));

onFakeTimers();

describe('the "TypeScript SDK v1" profile over Streamable HTTP agrees with the SDK\'s StreamableHTTPClientTransport + server transport, in process', () => {
  it('drives every built-in and probe the SDK can express over HTTP (D among them); the others are the stdio list minus D', () => {
    const ids = expectCoverage(cases(), NOT_EXPRESSIBLE_OVER_HTTP);
    expect(ids.has('D-http-stream-close')).toBe(true);
  });

  it('the pair really speaks Streamable HTTP: initialize and each tools/call are POSTs answered with an SSE stream, notifications POSTs answered 202, one GET stream', async () => {
    const d = cases().find((c) => c.scenario.id === 'D-http-stream-close')!;
    const requests: string[] = [];
    const o = await observe(overStreamableHttp(d.raw), advance, 250_000, httpLink(requests));
    // initialize (SSE), notifications/initialized (202), the standalone GET stream; then D's tools/call (SSE) and its POSTed cancel (202: 2025-11-25 HTTP cancels by notification)
    expect(requests).toEqual(['POST 200', 'POST 202', 'GET 200', 'POST 200', 'POST 202']);
    expect(o.wire.filter((w) => w.direction === 'c2s').map((w) => ('method' in w.message ? w.message.method : 'response'))).toEqual(['tools/call', 'notifications/cancelled']);
    // Same scenario, same run: nothing depends on the machine's speed.
    vi.setSystemTime(0);
    const again = await observe(overStreamableHttp(d.raw), advance, 250_000, httpLink());
    expect(again.wire).toEqual(o.wire);
    expect(again.calls).toEqual(o.calls);
  });

  for (const c of cases()) {
    it(`${c.scenario.id} over HTTP: same client states and times, wire messages and reasons, handler starts, aborts and drops; the lab's own differences are named`, async () => {
      const o = await observe(overStreamableHttp(c.raw), advance, 250_000, httpLink());
      const sdk = sdkFacts(c.scenario, o, { reasons: true });
      const profile = run(c.scenario, HTTP_PROFILE as unknown as Record<string, Json>);
      const lab = labFacts(profile, { reasons: true });
      expect(factDifferences(lab, sdk)).toEqual([]);
      expect(lab).toEqual(sdk);
      expect(Object.keys(sdk.calls).length).toBeGreaterThan(0);
      // The lab's spec policy on the same HTTP run: each difference is named by an SDK behaviour the profile cites.
      const spec = labFacts(run(c.scenario, { revision: '2025-11-25', transport: 'streamable-http', client: { profile: 'lab' } } as unknown as Record<string, Json>), { reasons: false });
      const differs = factDifferences(spec, sdkFacts(c.scenario, o, { reasons: false })).length > 0;
      expect({ differs, named: citedBehaviours(profile).length > 0 }).toEqual({ differs, named: differs });
    });
  }
});

describe('freshness: the SDK v1 handshake (both links) and every HTTP run, recorded', () => {
  it('sdk-http-observations.json is what the installed SDK v1 does now over HTTP and in its handshake (run `npm run sdk-oracle` after an SDK or scenario change)', async () => {
    const runs: Record<string, unknown> = {};
    for (const link of ['stdio', 'http'] as const) {
      vi.setSystemTime(0);
      const requests: string[] = [];
      const s = new SdkSession();
      await s.start({ clientToServer: 0, serverToClient: 0 }, advance, link === 'http' ? httpLink(requests) : undefined);
      const init = s.wire.find((w) => 'method' in w.message && w.message.method === 'initialize')?.message as { params?: { protocolVersion?: string } } | undefined;
      expect(init?.params?.protocolVersion).toBe('2025-11-25');
      runs[`handshake ${link}`] = { wire: s.wire, requests };
    }
    for (const c of cases()) {
      vi.setSystemTime(0);
      const requests: string[] = [];
      const o = await observe(overStreamableHttp(c.raw), advance, 250_000, httpLink(requests));
      runs[`${c.scenario.id} http`] = { requests, facts: sdkFacts(c.scenario, o, { reasons: true }) };
    }
    const text = JSON.stringify({ generatedBy: 'npm run sdk-oracle (src/sdk-oracle/http.test.ts)', runs }, null, 2) + '\n';
    if (WRITE) writeFileSync(OBSERVATIONS, text);
    expect(JSON.parse(readFileSync(OBSERVATIONS, 'utf8'))).toEqual(JSON.parse(text));
  }, 60_000);
});
