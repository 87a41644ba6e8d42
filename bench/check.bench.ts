/**
 * The streaming `check` as a whole process against a plain reader of the same file (issue 24):
 * `node dist-cli/mcp-lab.mjs check FILE` and `node bench/plainReader.mjs FILE` (parses every line,
 * pairs requests with responses by id), run interleaved under `/usr/bin/time -v`; medians of wall
 * time and peak RSS, with the load average. The file: an initialize handshake, then tools/call
 * requests with progress tokens and their results, 1 ms apart, overlapping by 8 calls
 * (`writeCheckBenchFile`). Targets: 100,000 lines within 1.5× of the reader's wall time and
 * ≤ 120 MB; 1,000,000 lines with the RSS flat (the same as at 100,000, within 10 %).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname ?? '.', '..');

/** Writes `lines` lines of JSON-RPC JSONL to bench-results/ (gitignored) and returns the path. */
export async function writeCheckBenchFile(lines: number): Promise<string> {
  const dir = path.join(root, 'bench-results');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `check-${lines / 1000}k.jsonl`);
  if (existsSync(file)) return file;
  const out = createWriteStream(file);
  const write = (s: string) => (out.write(s) ? Promise.resolve() : new Promise<void>((r) => out.once('drain', () => r())));
  const t0 = Date.parse('2026-12-04T10:00:00.000Z');
  const ts = (i: number) => new Date(t0 + i).toISOString();
  await write(`{"ts":"${ts(0)}","jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}\n`);
  await write(`{"ts":"${ts(1)}","jsonrpc":"2.0","id":0,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"bench","version":"1"}}}\n`);
  // Request k on even lines; the odd line after it answers request k − 8 (8 calls open at a time;
  // before the first answer, progress for request 0), and the last 8 are answered at the end.
  const calls = Math.floor((lines - 2 - 8) / 2);
  const request = (k: number, at: string) => `{"ts":"${at}","jsonrpc":"2.0","id":${k + 1},"method":"tools/call","params":{"name":"lookup","arguments":{"q":"item-${k}"},"_meta":{"progressToken":"p${k}"}}}\n`;
  const response = (k: number, at: string) => `{"ts":"${at}","jsonrpc":"2.0","id":${k + 1},"result":{"content":[{"type":"text","text":"found item-${k}"}]}}\n`;
  let buf = '';
  let n = 2;
  for (let k = 0; k < calls; k++) {
    buf += request(k, ts(n++));
    buf += k >= 8 ? response(k - 8, ts(n++)) : `{"ts":"${ts(n++)}","jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"p0","progress":${k + 1}}}\n`;
    if (buf.length > 1 << 20) {
      await write(buf);
      buf = '';
    }
  }
  for (let k = Math.max(0, calls - 8); k < calls; k++) buf += response(k, ts(n++));
  await write(buf);
  await new Promise<void>((r) => out.end(() => r()));
  return file;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** One whole-process run under /usr/bin/time -v: wall seconds and peak RSS (MB). Exit codes other than `ok` throw. */
function timed(args: string[], ok: number[]): { wallS: number; rssMb: number } {
  const r = spawnSync('/usr/bin/time', ['-v', 'node', ...args], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (!ok.includes(r.status ?? -1)) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr.slice(-400)}`);
  const field = (name: string) => r.stderr.match(new RegExp(`${name}: ([^\\n]+)`))?.[1] ?? '';
  const [m, s] = field('Elapsed \\(wall clock\\) time \\(h:mm:ss or m:ss\\)').split(':').slice(-2);
  return { wallS: Number(m) * 60 + Number(s), rssMb: Number(field('Maximum resident set size \\(kbytes\\)')) / 1024 };
}

/** The check and the plain reader on one file, interleaved, `rounds` times each: medians. */
export async function benchCheck(lines: number, rounds = 5): Promise<{ lines: number; check: { wallS: number; rssMb: number }; reader: { wallS: number; rssMb: number }; load: [number, number] }> {
  if (!existsSync('/usr/bin/time')) throw new Error('/usr/bin/time is missing (apt-get install time)');
  execFileSync('node', ['scripts/ensure.mjs', '--cli'], { cwd: root, stdio: 'inherit' });
  const file = await writeCheckBenchFile(lines);
  const before = loadavg()[0];
  const c: { wallS: number; rssMb: number }[] = [];
  const p: { wallS: number; rssMb: number }[] = [];
  for (let i = 0; i < rounds; i++) {
    c.push(timed(['dist-cli/mcp-lab.mjs', 'check', file], [0, 3]));
    p.push(timed(['bench/plainReader.mjs', file], [0]));
  }
  const med = (xs: { wallS: number; rssMb: number }[]) => ({ wallS: median(xs.map((x) => x.wallS)), rssMb: median(xs.map((x) => x.rssMb)) });
  return { lines, check: med(c), reader: med(p), load: [before, loadavg()[0]] };
}

const fmt = (n: number, digits = 2) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** The `npm run bench` rows: 100,000 lines against the reader (wall ratio ≤ 1.5, RSS ≤ 120 MB), and 1,000,000 lines (RSS flat: within 10 % of the 100,000-line run). */
export async function printCheckBench(): Promise<void> {
  const small = await benchCheck(100_000);
  console.log(`check, streaming (node dist-cli/mcp-lab.mjs check FILE vs bench/plainReader.mjs, interleaved; /usr/bin/time -v, median of 5; load ${fmt(small.load[0], 1)} → ${fmt(small.load[1], 1)})`);
  console.log(`  100,000 lines  wall ${fmt(small.check.wallS)} s vs reader ${fmt(small.reader.wallS)} s   (target ≤ 1.5×: ${fmt(small.check.wallS / small.reader.wallS)}×)`);
  console.log(`                 peak RSS ${fmt(small.check.rssMb, 0)} MB (reader ${fmt(small.reader.rssMb, 0)} MB)   (target ≤ 120 MB: ratio ${fmt(small.check.rssMb / 120)} of budget)`);
  const big = await benchCheck(1_000_000, 3);
  console.log(`  1,000,000 lines  wall ${fmt(big.check.wallS)} s vs reader ${fmt(big.reader.wallS)} s (${fmt(big.check.wallS / big.reader.wallS)}×); peak RSS ${fmt(big.check.rssMb, 0)} MB (reader ${fmt(big.reader.rssMb, 0)} MB)   (target flat: ${fmt(big.check.rssMb / small.check.rssMb)}× the 100,000-line RSS; load ${fmt(big.load[0], 1)} → ${fmt(big.load[1], 1)})`);
}
