/**
 * `npm run bench`, issue 10 section: the races replay figures with target and ratio, old engine
 * (the oracle copy) beside the new core in the same run (interleaved rounds, medians), memory
 * figures from child processes, and the explorer. The load average is printed before and after,
 * because the machine may be shared: compare ratios taken in one run, not absolute figures across runs.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import path from 'node:path';
import { benchEngines, type EngineName, type Workload } from './engine.bench';
import { benchExplore } from './explore.bench';

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const load = () => loadavg().map((x) => x.toFixed(2)).join(', ');

const TARGET: Partial<Record<EngineName, number>> = { 'new fast path': 2_000_000, 'new seekable': 1_000_000 };

export async function runIssue10(rounds = Number(process.env.BENCH_ROUNDS ?? 7)): Promise<void> {
  console.log(`issue 10 — races replay, 100,000 scripted events, Streamable HTTP, every invariant on (Node ${process.version}; ${new Date().toISOString()}; load average ${load()})`);
  console.log(`  ${rounds} interleaved rounds per workload (each round runs every engine once), medians`);
  console.log('  workload                  engine          steps     median ms    events/s   target        ratio   vs old   | CPU ms   events/CPU-s  ratio');
  for (const workload of ['concurrent', 'sequential'] as Workload[]) {
    const figures = benchEngines(workload, rounds);
    const old = figures.find((f) => f.engine === 'old effects')!;
    const name = workload === 'concurrent' ? '(a) 100 concurrent' : '(b) 1,000 seq., ~10 live';
    for (const f of figures) {
      const target = TARGET[f.engine];
      const t = target === undefined ? ''.padEnd(12) : `≥ ${fmt(target / 1e6, 0)} M/s`.padEnd(12);
      const ratio = target === undefined ? '' : `${fmt(f.eventsPerSecond / target, 2)}×`;
      console.log(`  ${name.padEnd(24)}  ${f.engine.padEnd(14)}  ${fmt(f.steps).padStart(7)}  ${fmt(f.medianMs, 1).padStart(10)}  ${fmt(f.eventsPerSecond).padStart(10)}   ${t}  ${ratio.padStart(6)}   ${fmt(old.medianMs / f.medianMs, 2)}×   | ${fmt(f.medianCpuMs, 0).padStart(6)}  ${fmt(f.eventsPerCpuSecond).padStart(11)}  ${target === undefined ? '' : `${fmt(f.eventsPerCpuSecond / target, 2)}×`}`);
    }
  }
  console.log(`  load average after: ${load()}`);

  console.log('memory (child process per row: node --expose-gc; heap sampled at every checkpoint of the seekable trace)');
  console.log('  workload                  engine          peak heap MB   retained MB   peak RSS MB   target');
  const child = path.resolve(import.meta.dirname ?? '.', 'memory.child.ts');
  for (const workload of ['concurrent', 'sequential'] as Workload[]) {
    for (const engine of ['new seekable', 'new fast path', 'old effects'] as EngineName[]) {
      const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', child, workload, engine], { encoding: 'utf8', maxBuffer: 1 << 20 });
      const m = JSON.parse(out.trim().split('\n').pop()!) as { peakHeapMB: number; retainedHeapMB: number; peakRssMB: number };
      const target = engine === 'new seekable' ? `peak heap ≤ 150 MB: ratio ${fmt(m.peakHeapMB / 150, 2)} of budget` : '';
      const name = workload === 'concurrent' ? '(a) 100 concurrent' : '(b) 1,000 seq., ~10 live';
      console.log(`  ${name.padEnd(24)}  ${engine.padEnd(14)}  ${fmt(m.peakHeapMB, 1).padStart(12)}  ${fmt(m.retainedHeapMB, 1).padStart(12)}  ${fmt(m.peakRssMB, 1).padStart(12)}   ${target}`);
    }
  }

  console.log(`explorer — every order of 8 selected events, no pruning (median of 3; load average ${load()})`);
  const cases: [string, (ids: string[]) => string[]][] = [
    ['E-invalid-cancels', (ids) => ids.slice(0, 8)],
    ['F2-progress-forever', (ids) => ids.slice(-8)],
  ];
  for (const [id, pick] of cases) {
    const e = benchExplore(id, pick);
    console.log(`  ${id.padEnd(20)} ${fmt(e.orders)} orders, ${e.classes} classes  ${fmt(e.medianMs, 1).padStart(8)} ms (CPU ${fmt(e.medianCpuMs, 0)} ms)   (target < 1,000 ms: ratio ${fmt(e.medianMs / 1000, 2)} of budget)   old engine, each order as a file: ${fmt(e.oldMs, 0)} ms (${fmt(e.oldMs / e.medianMs, 1)}×)   with pruning: ${fmt(e.prunedWith)} pruned`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.dirname ?? '.', 'issue10.ts')) await runIssue10();
