import { describe, expect, it } from 'vitest';
import { loadBuiltinScenario, loadBuiltinScenarios } from '../../__tests__/builtinScenarios';
import { LAB_SCHEMAS } from '../../labs';
import { LAB_IDS } from '../../labIds';
import { loadSqlJsNode } from '../../../db/node';
import { memoryOpener } from '../../../db/sqljs';
import { mergeConfig } from '../../replay';
import { parseScenario } from '../../scenario';
import type { Scenario, ScriptedEvent } from '../../types';
import { classifyPolicies, policySignature } from '../policies';
import { labFaultKinds } from '../labFaults';
import { UPSTREAM_LATENCY_MS, describeFault } from '../faults';
import { faultedScenario, livenessFailures, runSeed, swarm } from '../swarm';

const withConfig = (s: Scenario, overrides: Record<string, unknown>): Scenario => ({ ...s, config: mergeConfig(s.config, overrides as never) });

describe('fault plans', () => {
  it('every faulted built-in scenario validates with its lab parser (200 seeds each) and uses only its lab fault kinds', () => {
    for (const lab of LAB_IDS) {
      for (const { scenario } of loadBuiltinScenarios(lab)) {
        for (let seed = 0; seed < 200; seed++) {
          const f = faultedScenario(scenario, seed);
          const again = parseScenario(JSON.parse(JSON.stringify(f.scenario)), lab, LAB_SCHEMAS[lab]);
          expect(again.ok).toBe(true);
          expect(f.scenario.expect).toBeUndefined();
          for (const fault of f.faults) expect(labFaultKinds(lab)).toContain(fault.kind);
        }
      }
    }
  }, 120_000);

  it('is deterministic: the same seed gives the same faults and scenario, another seed others', () => {
    const s = loadBuiltinScenario('resilience', 'S2-timeouts-cancel');
    expect(faultedScenario(s, 42)).toEqual(faultedScenario(s, 42));
    const plans = new Set(Array.from({ length: 20 }, (_, seed) => JSON.stringify(faultedScenario(s, seed).faults)));
    expect(plans.size).toBeGreaterThan(10);
  });

  it('draws upstream latency from the postmortem range 500 ms–5 s and resets about 10 % of connections', () => {
    const s = loadBuiltinScenario('races', 'D-http-stream-close');
    let resets = 0;
    const latencies: number[] = [];
    for (let seed = 0; seed < 2000; seed++) {
      const { faults } = faultedScenario(s, seed);
      resets += faults.filter((f) => f.kind === 'connection-reset').length;
      for (const f of faults) if (f.kind === 'upstream-latency') latencies.push(f.durationMs!);
    }
    // One call per run, reset with probability 0.1: 2000 runs → about 200.
    expect(resets).toBeGreaterThan(160);
    expect(resets).toBeLessThan(240);
    expect(Math.min(...latencies)).toBeGreaterThanOrEqual(UPSTREAM_LATENCY_MS.min);
    expect(Math.max(...latencies)).toBeLessThanOrEqual(UPSTREAM_LATENCY_MS.max);
    expect(Math.max(...latencies) - Math.min(...latencies)).toBeGreaterThan(4000);
  });

  it('applies a races upstream latency by moving only that call\'s server events', () => {
    const s = loadBuiltinScenario('races', 'A-cancel-then-complete');
    let seen = false;
    for (let seed = 0; seed < 50 && !seen; seed++) {
      const f = faultedScenario(s, seed);
      const lat = f.faults.find((x) => x.kind === 'upstream-latency');
      if (!lat) continue;
      seen = true;
      const at = (id: string, sc: Scenario) => sc.events.find((e) => e.id === id)!.at;
      expect(at('complete', f.scenario)).toBe(at('complete', s) + lat.durationMs!);
      expect(at('progress-1', f.scenario)).toBe(at('progress-1', s) + lat.durationMs!);
      expect(at('cancel', f.scenario)).toBe(at('cancel', s));
      expect(describeFault(lat)).toMatch(/^upstream-latency on request 1 at 0 ms for \d+ ms — /);
    }
    expect(seen).toBe(true);
  });

  it('rejects a seed outside 32 bits', () => {
    const s = loadBuiltinScenario('races', 'A-cancel-then-complete');
    expect(() => faultedScenario(s, -1)).toThrow(RangeError);
    expect(() => faultedScenario(s, 2 ** 32)).toThrow(/seed: must be an integer/);
    expect(() => swarm(s, { seeds: 0 })).toThrow(/seeds: must be an integer/);
  });
});

describe('swarm', () => {
  it('is deterministic and its smallest failing seed rebuilds a failing scenario', () => {
    const s = withConfig(loadBuiltinScenario('races', 'A-cancel-then-complete'), { policy: { respondAfterCancel: true } });
    const a = swarm(s, { seeds: 30, firstSeed: 7 });
    expect(a).toEqual(swarm(s, { seeds: 30, firstSeed: 7 }));
    expect(a.seedsRun).toBe(30);
    expect(a.smallestFailingSeed).toBe(7);
    expect(a.failingSeeds.map((f) => f.seed)).toEqual(Array.from({ length: 30 }, (_, i) => 7 + i));
    const one = runSeed(s, a.smallestFailingSeed!);
    expect(one.violated).toEqual(['no-response-after-cancel']);
    expect(one.faults).toEqual(faultedScenario(s, 7).faults);
  });

  it('finds the naive ledger bug the scripted order of scenario A hides (a connection reset between steps)', async () => {
    const open = memoryOpener(await loadSqlJsNode());
    const naive = loadBuiltinScenario('ledger', 'A-race-two-connections');
    const r = swarm(naive, { seeds: 200, open });
    expect(r.smallestFailingSeed).toBe(19);
    expect(Object.keys(r.safety)).toEqual(['at-most-once']);
    const first = r.failingSeeds[0];
    expect(first.seed).toBe(19);
    expect(first.faults.some((f) => f.kind === 'connection-reset' && f.target.startsWith('connection '))).toBe(true);
    const immediate = swarm(withConfig(naive, { policy: 'immediate' }), { seeds: 200, open });
    expect(immediate.failingSeeds).toEqual([]);
  });

  it('needs a database opener for a ledger scenario', () => {
    expect(() => swarm(loadBuiltinScenario('ledger', 'D-same-key'), { seeds: 1 })).toThrow(/open: a ledger swarm needs/);
  });

  it('reports liveness apart: a forged cancel of a call with no timeout leaves it pending, and no safety invariant breaks', () => {
    const base = loadBuiltinScenario('races', 'F4-user-cancel-no-timeout');
    const s: Scenario = {
      ...base,
      events: base.events.filter((e) => e.kind !== 'cancel').map((e): ScriptedEvent => (e.kind === 'start' ? { ...e, idleTimeoutMs: null, maxTimeoutMs: null } : e)),
    };
    const r = swarm(s, { seeds: 100 });
    expect(r.failingSeeds).toEqual([]);
    expect(r.liveness.byInvariant['every-call-settles']?.seeds).toBeGreaterThan(0);
    const seed = r.liveness.byInvariant['every-call-settles'].smallestSeed;
    expect(faultedScenario(s, seed).faults.some((f) => f.kind === 'forged-cancel')).toBe(true);
  });

  it('liveness reads pending calls (races) and waiting clients (ledger) from the outcome', () => {
    expect(livenessFailures('races', { summary: { states: { pending: 1 } } })).toEqual(['every-call-settles']);
    expect(livenessFailures('races', { summary: { states: { completed: 1 } } })).toEqual([]);
    expect(livenessFailures('ledger', { calls: [{ client: 'waiting' }] })).toEqual(['every-call-answered']);
    expect(livenessFailures('flow', {})).toEqual([]);
  });
});

describe('policies from the built-in expectations', () => {
  it('marks an expectation broken when it names violations or shares a broken signature', () => {
    const ledger = classifyPolicies('ledger', loadBuiltinScenarios('ledger').map((s) => s.scenario));
    const verdict = (id: string, label: RegExp | null) => ledger.find((p) => p.scenario.id === id && (label === null ? true : label.test(p.label)))!.verdict;
    expect(verdict('B-race-interleaved', null)).toBe('broken');
    // A's naive policy holds in its scripted order, but it is B's broken policy.
    expect(ledger.filter((p) => p.scenario.id === 'A-race-two-connections').map((p) => p.verdict)).toEqual(['broken', 'correct']);
    expect(verdict('C-no-key-retries', null)).toBe('broken');
    expect(ledger.filter((p) => p.scenario.id === 'D-same-key').map((p) => p.verdict)).toEqual(['correct', 'broken']);
    const d = loadBuiltinScenario('ledger', 'D-same-key');
    const c = loadBuiltinScenario('ledger', 'C-no-key-retries');
    expect(policySignature('ledger', d)).not.toBe(policySignature('ledger', c));
  });
});

describe('the seed in a share link', () => {
  it('writes and reads chaos=<seed>', async () => {
    const { chaosParam, readChaosParam } = await import('../link');
    expect(chaosParam(19)).toBe('chaos=19');
    expect(readChaosParam('?lab=ledger&chaos=19')).toBe(19);
    expect(readChaosParam('chaos=4294967295')).toBe(4294967295);
    expect(readChaosParam('lab=ledger')).toBeNull();
    expect(readChaosParam('chaos=4294967296')).toEqual({ error: 'chaos: must be a seed, an integer in [0, 4294967295], got "4294967296"' });
    expect(readChaosParam('chaos=-1')).toEqual({ error: 'chaos: must be a seed, an integer in [0, 4294967295], got "-1"' });
    expect(() => chaosParam(1.5)).toThrow(RangeError);
  });
});
