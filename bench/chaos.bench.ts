/**
 * The chaos swarm's throughput (issue 26 item 6): seeds per second of `swarm` over one built-in
 * scenario of each lab (the ledger on sql.js), a warm-up then interleaved rounds, medians. Run alone:
 * `npx tsx bench/chaos.bench.ts`; `npm run bench` prints the same row.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { loadavg } from 'node:os';
import { LAB_SCHEMAS, parseScenario } from '../src/sim/labs';
import type { LabId } from '../src/sim/labIds';
import type { Scenario } from '../src/sim/types';
import { swarm } from '../src/sim/chaos/swarm';
import { loadSqlJsNode } from '../src/db/node';
import { memoryOpener } from '../src/db/sqljs';

/** The workloads: one built-in per lab, chosen for short traces so the faulting and parsing show. */
export const CHAOS_WORKLOADS: { lab: LabId; file: string; seeds: number }[] = [
  { lab: 'races', file: 'A-cancel-then-complete', seeds: 2000 },
  { lab: 'ledger', file: 'B-race-interleaved', seeds: 300 },
  { lab: 'flow', file: 'R1-coalesce-one-token', seeds: 300 },
  { lab: 'resilience', file: 'B2-retry-composition', seeds: 1000 },
];

/**
 * The figures before issue 26 (seeds/s, median): this bench run on the tree of commit 6368abf right
 * before the same bench on the tree that caches the scenario envelope, 2026-12-04 03:22 UTC, load
 * 17.3 → 15.1 on 2 cores shared with other work (so read the ratios, not the absolute figures).
 */
export const CHAOS_BASELINE: Partial<Record<string, number>> = {
  'races/A-cancel-then-complete': 1001,
  'ledger/B-race-interleaved': 282,
  'flow/R1-coalesce-one-token': 1090,
  'resilience/B2-retry-composition': 638,
};

function load(lab: LabId, id: string): Scenario {
  const file = path.resolve(import.meta.dirname, `../public/scenarios/${lab}/${id}.json`);
  const parsed = parseScenario(JSON.parse(readFileSync(file, 'utf8')), lab, LAB_SCHEMAS[lab]);
  if (!parsed.ok) throw new Error(`${lab}/${id}: ${parsed.errors.join('; ')}`);
  const s = { ...parsed.scenario };
  delete s.expect;
  return s;
}

/** Seeds per second per workload (median of `rounds`), with the load average before and after. */
export async function benchChaos(rounds = 5): Promise<{ rows: { lab: LabId; file: string; seeds: number; seedsPerSecond: number }[]; load: [number, number] }> {
  const before = loadavg()[0];
  const open = memoryOpener(await loadSqlJsNode());
  const work = CHAOS_WORKLOADS.map((w) => ({ ...w, scenario: load(w.lab, w.file), times: [] as number[] }));
  for (const w of work) swarm(w.scenario, { seeds: Math.ceil(w.seeds / 4), open }); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const w of work) {
      const t0 = performance.now();
      swarm(w.scenario, { seeds: w.seeds, firstSeed: r * w.seeds, open });
      w.times.push(performance.now() - t0);
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  return { rows: work.map((w) => ({ lab: w.lab, file: w.file, seeds: w.seeds, seedsPerSecond: (w.seeds / median(w.times)) * 1000 })), load: [before, loadavg()[0]] };
}

/** Prints the row as `npm run bench` does. */
export function printChaos(r: Awaited<ReturnType<typeof benchChaos>>): void {
  const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  console.log(`chaos swarm (Node, swarm() over one built-in per lab; warm-up, 5 interleaved rounds, medians; load ${fmt(r.load[0], 1)} → ${fmt(r.load[1], 1)})`);
  for (const row of r.rows) {
    const base = CHAOS_BASELINE[`${row.lab}/${row.file}`];
    const ratio = base ? `   (${fmt(row.seedsPerSecond / base, 2)}× today's ${fmt(base)}; target ≥ 2.5×: ratio ${fmt(row.seedsPerSecond / base / 2.5, 2)} of target)` : '';
    console.log(`  ${`${row.lab}/${row.file}`.padEnd(36)} ${fmt(row.seedsPerSecond).padStart(7)} seeds/s${ratio}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) printChaos(await benchChaos());
