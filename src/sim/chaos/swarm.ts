/**
 * The seeded chaos swarm (TigerBeetle's VOPR idea): one seed → one fault plan → one faulted
 * scenario → one replay, checked against the lab's named invariants; many seeds in a row.
 *
 * Deterministic: the only randomness is `mulberry32(seed)` (src/sim/rng.ts); the same scenario and
 * seed give the same faults, the same trace and the same verdict in Node and every browser.
 */
import { LAB_DEFINITIONS, LAB_SCHEMAS } from '../labs';
import type { AnyLabDefinition } from '../lab';
import { LAB_IDS, isLabId, labNeedsDatabase, type LabId } from '../labIds';
import type { OpenDatabase } from '../ledger/sql';
import { mulberry32 } from '../rng';
import { parseScenario } from '../scenario';
import type { Scenario } from '../types';
import type { Fault } from './faults';
import { labChaos } from './labFaults';

/**
 * Safety and liveness. Every named invariant of a lab is checked on every step as a "nothing bad
 * ever happens" property (at most one execution per key, no response after an accepted cancel, the
 * final never dropped, …): the swarm counts each as SAFETY, and a seed that breaks one is a failing
 * seed. LIVENESS — "something good eventually happens" — may fail under faults although the policy
 * is correct (a forged cancel nobody settles, a partition that outlasts the run), so it is reported
 * apart and never fails a seed. The liveness checks read the outcome at the end of the trace; each
 * lab names its own (`LabChaos.liveness`: races `every-call-settles`, ledger `every-call-answered`;
 * flow streams and resilience calls end by their horizon, timeouts and deadlines, so they have none).
 */
export function livenessChecks(lab: LabId): readonly { name: string; description: string }[] {
  return labChaos(lab).liveness.map(({ name, description }) => ({ name, description }));
}

/** The liveness checks of `lab` that fail on `outcome` (names, sorted). */
export function livenessFailures(lab: LabId, outcome: unknown): string[] {
  return labChaos(lab)
    .liveness.filter((check) => check.fails(outcome))
    .map((check) => check.name)
    .sort();
}

/** A scenario under one seed's faults. */
export interface FaultedScenario {
  seed: number;
  faults: Fault[];
  /** A validated scenario of the same lab (defaults filled in, `expect` removed). */
  scenario: Scenario;
}

function checkSeed(seed: number): number {
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new RangeError(`seed: must be an integer in [0, 4294967295], got ${seed}`);
  return seed;
}

function labOf(scenario: Scenario): LabId {
  if (!isLabId(scenario.lab)) throw new Error(`lab: must be one of ${LAB_IDS.join(', ')}, got ${JSON.stringify(scenario.lab)}`);
  return scenario.lab;
}

/**
 * The scenario under the faults of `seed` (an integer in [0, 2³²)): the faults are drawn from
 * `mulberry32(seed)` by the lab's fault function (`LabDefinition.chaos`, src/sim/<lab>/chaos.ts) and applied to the
 * scripted events and config. `scenario` must be a validated scenario (see `parseScenario`). The
 * result validates with the lab's own parser; this throws `Error` only if a fault function produced
 * an invalid scenario (a bug), and `RangeError` for a bad seed.
 */
export function faultedScenario(scenario: Scenario, seed: number): FaultedScenario {
  const lab = labOf(scenario);
  const random = mulberry32(checkSeed(seed));
  const { events, config, faults } = labChaos(lab).faults(scenario, random);
  const candidate = { ...scenario, config, events };
  delete candidate.expect;
  const parsed = parseScenario(JSON.parse(JSON.stringify(candidate)), lab, LAB_SCHEMAS[lab]);
  if (!parsed.ok) throw new Error(`chaos seed ${seed} made an invalid ${lab} scenario: ${parsed.errors.join('; ')}`);
  return { seed, faults, scenario: parsed.scenario };
}

/** What one seed did. */
export interface SeedResult {
  seed: number;
  faults: Fault[];
  /** Safety invariants that failed (names, sorted). Non-empty = a failing seed. */
  violated: string[];
  /** Liveness checks that failed (names, sorted; see `livenessChecks`). */
  liveness: string[];
  /** True when the replay hit the step limit (reported, never a failure by itself). */
  truncated: boolean;
}

/** Options of `runSeed` and `swarm`. */
export interface SwarmOptions {
  /** Seeds to run (default 1000, at least 1, at most 1,000,000). */
  seeds?: number;
  /** First seed (default 0); seeds run in order firstSeed, firstSeed + 1, … (wrapping at 2³²). */
  firstSeed?: number;
  /** Ledger only: opener of fresh sql.js databases (required for ledger scenarios). */
  open?: OpenDatabase;
  /** Step limit per replay (default 200,000). */
  maxSteps?: number;
}

/** The lab's definition for a swarm: a lab whose replays run SQL needs `open`. */
function definitionFor(lab: LabId, open: OpenDatabase | undefined): AnyLabDefinition {
  if (labNeedsDatabase(lab) && !open) throw new Error(`open: a ${lab} swarm needs an opener of fresh sql.js databases (options.open)`);
  return LAB_DEFINITIONS[lab]({ open });
}

function runWith(definition: AnyLabDefinition, lab: LabId, scenario: Scenario, seed: number, maxSteps: number): SeedResult {
  const f = faultedScenario(scenario, seed);
  const trace = definition.replay(f.scenario, { keep: 'effects', maxSteps });
  const violated: string[] = trace.invariants.filter((inv: { firstViolation: unknown }) => inv.firstViolation !== null).map((inv: { name: string }) => inv.name);
  return { seed, faults: f.faults, violated: violated.sort(), liveness: livenessFailures(lab, trace.outcome), truncated: trace.truncated };
}

/** Replays `scenario` under the faults of one seed: the safety invariants it broke and the liveness checks that failed. */
export function runSeed(scenario: Scenario, seed: number, options: Pick<SwarmOptions, 'open' | 'maxSteps'> = {}): SeedResult {
  const lab = labOf(scenario);
  return runWith(definitionFor(lab, options.open), lab, scenario, seed, options.maxSteps ?? 200_000);
}

/** The result of a swarm. */
export interface SwarmResult {
  lab: LabId;
  scenarioId: string;
  firstSeed: number;
  seedsRun: number;
  /** Seeds where a safety invariant failed, in run order, with their faults. */
  failingSeeds: { seed: number; faults: Fault[]; violated: string[] }[];
  /** The smallest failing seed (numerically), or null when every seed held. */
  smallestFailingSeed: number | null;
  /** Per safety invariant: seeds that broke it and the smallest such seed. */
  safety: Record<string, { seeds: number; smallestSeed: number }>;
  /** Liveness failures, apart: per invariant, the seeds that broke it and the smallest one. */
  liveness: { failingSeeds: number; byInvariant: Record<string, { seeds: number; smallestSeed: number }> };
  /** Seeds whose replay hit the step limit. */
  truncatedSeeds: number[];
}

function tally(into: Record<string, { seeds: number; smallestSeed: number }>, names: string[], seed: number) {
  for (const name of names) {
    const t = into[name];
    if (t) {
      t.seeds++;
      if (seed < t.smallestSeed) t.smallestSeed = seed;
    } else into[name] = { seeds: 1, smallestSeed: seed };
  }
}

/**
 * Runs `scenario` (validated) under `seeds` consecutive chaos seeds from `firstSeed` and reports the
 * seeds where a safety invariant failed, the smallest of them (to open on the timeline or put in a
 * share link: `faultedScenario(scenario, seed)` rebuilds it), and liveness failures apart.
 * Deterministic. Throws `RangeError` for bad `seeds` / `firstSeed`, `Error` for a ledger scenario
 * without `open`.
 */
export function swarm(scenario: Scenario, options: SwarmOptions = {}): SwarmResult {
  const lab = labOf(scenario);
  const seeds = options.seeds ?? 1000;
  if (!Number.isInteger(seeds) || seeds < 1 || seeds > 1_000_000) throw new RangeError(`seeds: must be an integer in [1, 1000000], got ${seeds}`);
  const firstSeed = checkSeed(options.firstSeed ?? 0);
  const definition = definitionFor(lab, options.open);
  const maxSteps = options.maxSteps ?? 200_000;
  const result: SwarmResult = {
    lab,
    scenarioId: scenario.id,
    firstSeed,
    seedsRun: 0,
    failingSeeds: [],
    smallestFailingSeed: null,
    safety: {},
    liveness: { failingSeeds: 0, byInvariant: {} },
    truncatedSeeds: [],
  };
  for (let i = 0; i < seeds; i++) {
    const seed = (firstSeed + i) >>> 0;
    const r = runWith(definition, lab, scenario, seed, maxSteps);
    result.seedsRun++;
    if (r.truncated) result.truncatedSeeds.push(seed);
    if (r.violated.length > 0) {
      result.failingSeeds.push({ seed, faults: r.faults, violated: r.violated });
      if (result.smallestFailingSeed === null || seed < result.smallestFailingSeed) result.smallestFailingSeed = seed;
      tally(result.safety, r.violated, seed);
    }
    if (r.liveness.length > 0) {
      result.liveness.failingSeeds++;
      tally(result.liveness.byInvariant, r.liveness, seed);
    }
  }
  return result;
}
