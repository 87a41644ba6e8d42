/**
 * The races CLI as a whole process: `node dist-cli/mcp-lab.mjs replay FILE` (not through npm) on a
 * 10k-event races file written by `bigRacesScenario(10_000, 100)`, under `/usr/bin/time -v` for wall
 * time and peak RSS. Medians of `rounds` runs, with the load average before and after.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { bigRacesScenario } from './scenarios';

const root = path.resolve(import.meta.dirname ?? '.', '..');

/** Writes the 10k-event races file to bench-results/ (gitignored) and returns its path. */
export function writeCliBenchFile(events = 10_000): string {
  const dir = path.join(root, 'bench-results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `races-${events / 1000}k.json`);
  writeFileSync(file, JSON.stringify(bigRacesScenario(events, 100)));
  return file;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Runs the bundled CLI `rounds` times; wall seconds, CPU seconds and peak RSS (MB), each a median. Throws when a run fails. */
export function benchCli(rounds = 7): { events: number; wallS: number; cpuS: number; rssMb: number; load: [number, number] } {
  execFileSync('node', ['scripts/ensure.mjs', '--cli'], { cwd: root, stdio: 'inherit' });
  const file = writeCliBenchFile();
  const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
  if (!timeBin) throw new Error('/usr/bin/time is missing (apt-get install time)');
  const before = loadavg()[0];
  const wall: number[] = [];
  const cpu: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const r = spawnSync(timeBin, ['-v', 'node', 'dist-cli/mcp-lab.mjs', 'replay', file], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
    if (r.status !== 0) throw new Error(`mcp-lab replay exited ${r.status}: ${r.stderr.slice(-400)}`);
    const field = (name: string) => r.stderr.match(new RegExp(`${name}: ([^\\n]+)`))?.[1] ?? '';
    const [m, s] = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)').split(':').slice(-2);
    wall.push(Number(m) * 60 + Number(s));
    cpu.push(Number(field('User time \\(seconds\\)')) + Number(field('System time \\(seconds\\)')));
    rss.push(Number(field('Maximum resident set size \\(kbytes\\)')) / 1024);
  }
  return { events: 10_000, wallS: median(wall), cpuS: median(cpu), rssMb: median(rss), load: [before, loadavg()[0]] };
}
