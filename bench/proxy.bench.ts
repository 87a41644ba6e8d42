/**
 * `mcp-lab proxy` overhead (issue 22): the median latency the proxy adds per message, against a
 * direct connection, interleaved (rounds alternate direct and proxied on the same live processes),
 * over stdio (an echo server: each line comes straight back) and Streamable HTTP (an upstream that
 * answers each POST with one SSE event, as MCP servers answer tools/call); and the proxy's memory
 * over a 100,000-message stdio session with `--record` (RSS sampled from /proc every 10,000).
 * Targets: ≤ 1 ms per message over stdio, ≤ 2 ms over HTTP, memory flat.
 * A round trip crosses the proxy twice (request and response), so the added latency per message is
 * half the added round-trip time. Runs the bundled CLI (`dist-cli/mcp-lab.mjs`, built when missing).
 * Alone: `npx tsx bench/proxy.bench.ts`.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname ?? '.', '..');
const ECHO = 'process.stdin.pipe(process.stdout)';

/** The figures of one run. */
export interface ProxyBench {
  stdio: { directMs: number; proxiedMs: number; addedPerMessageMs: number; roundTrips: number };
  http: { directMs: number; proxiedMs: number; addedPerMessageMs: number; roundTrips: number };
  /** `recordedFrames`: c2s + s2c lines in the session's recording (the proof every message passed and was recorded). */
  memory: { messages: number; rssMb: number[]; growthMb: number; seconds: number; recordedFrames: number };
  load: [number, number];
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** A line-oriented peer over a child's stdio: `roundTrip(line)` resolves when the next line comes back. */
function linePeer(child: ChildProcess) {
  let buf = '';
  let waiting: ((line: string) => void)[] = [];
  let echoed = 0;
  child.stdout!.setEncoding('utf8');
  child.stdout!.on('data', (chunk: string) => {
    buf += chunk;
    let nl: number;
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      echoed++;
      const w = waiting.shift();
      w?.(line);
    }
  });
  return {
    roundTrip(line: string): Promise<number> {
      const t = performance.now();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no echo within 10 s')), 10_000);
        waiting.push((back) => {
          clearTimeout(timer);
          if (back !== line) reject(new Error(`the echo differs from what was sent: ${back.slice(0, 80)}`));
          else resolve(performance.now() - t);
        });
        child.stdin!.write(`${line}\n`);
      });
    },
    /** Writes `n` lines at once and resolves when all `n` came back. */
    burst(lines: string[]): Promise<void> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('burst not echoed within 60 s')), 60_000);
        let left = lines.length;
        const one = () => {
          if (--left === 0) {
            clearTimeout(timer);
            resolve();
          }
        };
        waiting = waiting.concat(lines.map(() => one));
        child.stdin!.write(lines.map((l) => `${l}\n`).join(''));
      });
    },
    /** Lines that came back so far. */
    get echoed() {
      return echoed;
    },
    close() {
      child.stdin!.end();
      setTimeout(() => child.kill('SIGKILL'), 3000).unref();
    },
  };
}

const frame = (i: number) => JSON.stringify({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'echo', arguments: { i } } });

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Runs the benchmark (about 20 s). */
export async function benchProxy(rounds = 7, perRound = 300): Promise<ProxyBench> {
  execFileSync('node', ['scripts/ensure.mjs', '--cli'], { cwd: root, stdio: 'inherit' });
  const cli = path.join(root, 'dist-cli/mcp-lab.mjs');
  const load0 = loadavg()[0];
  const dir = mkdtempSync(path.join(tmpdir(), 'proxy-bench-'));

  // stdio: the same echo server direct and behind the proxy, both alive the whole time.
  const direct = linePeer(spawn(process.execPath, ['-e', ECHO], { stdio: ['pipe', 'pipe', 'inherit'] }));
  const proxied = linePeer(spawn(process.execPath, [cli, 'proxy', '--record', path.join(dir, 'stdio.jsonl'), '--', process.execPath, '-e', ECHO], { stdio: ['pipe', 'pipe', 'inherit'] }));
  for (let i = 0; i < 200; i++) {
    await direct.roundTrip(frame(i));
    await proxied.roundTrip(frame(i));
  }
  const d: number[] = [];
  const p: number[] = [];
  let n = 0;
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < perRound; i++) d.push(await direct.roundTrip(frame(n++)));
    for (let i = 0; i < perRound; i++) p.push(await proxied.roundTrip(frame(n++)));
  }
  direct.close();
  proxied.close();
  const stdio = { directMs: median(d), proxiedMs: median(p), addedPerMessageMs: (median(p) - median(d)) / 2, roundTrips: d.length };

  // HTTP: an upstream answering each POST with one SSE event; the same keep-alive client direct and through the proxy.
  const upstream = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const id = (JSON.parse(body) as { id: number }).id;
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(`event: message\ndata: {"jsonrpc":"2.0","id":${id},"result":{"content":[]}}\n\n`);
    });
  });
  await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', () => r()));
  const upUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/mcp`;
  const proxy = spawn(process.execPath, [cli, 'proxy', '--listen', '127.0.0.1:0', '--upstream', upUrl, '--record', path.join(dir, 'http.jsonl')], { stdio: ['ignore', 'ignore', 'pipe'] });
  const proxyUrl = await new Promise<string>((resolve, reject) => {
    let err = '';
    const timer = setTimeout(() => reject(new Error(`the HTTP proxy did not listen: ${err}`)), 15_000);
    proxy.stderr!.on('data', (c: Buffer) => {
      err += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(err);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  const post = async (url: string, i: number) => {
    const t = performance.now();
    const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: frame(i), signal: AbortSignal.timeout(10_000) });
    await res.text();
    return performance.now() - t;
  };
  for (let i = 0; i < 200; i++) {
    await post(upUrl, i);
    await post(proxyUrl, i);
  }
  const hd: number[] = [];
  const hp: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (let i = 0; i < perRound; i++) hd.push(await post(upUrl, n++));
    for (let i = 0; i < perRound; i++) hp.push(await post(proxyUrl, n++));
  }
  proxy.kill('SIGTERM');
  await new Promise((r) => proxy.once('close', r));
  await new Promise<void>((r) => upstream.close(() => r()));
  const http = { directMs: median(hd), proxiedMs: median(hp), addedPerMessageMs: (median(hp) - median(hd)) / 2, roundTrips: hd.length };

  // Memory: 100,000 messages (50,000 each way) through the stdio proxy with --record, in bursts of 1,000.
  const memChild = spawn(process.execPath, [cli, 'proxy', '--record', path.join(dir, 'memory.jsonl'), '--', process.execPath, '-e', ECHO], { stdio: ['pipe', 'pipe', 'inherit'] });
  const mem = linePeer(memChild);
  await mem.roundTrip(frame(0));
  const rss: number[] = [];
  const t0 = performance.now();
  const total = 100_000;
  for (let sent = 0; sent < total / 2; ) {
    await mem.burst(Array.from({ length: 1000 }, (_, k) => frame(sent + k)));
    sent += 1000;
    if (sent % 5000 === 0) rss.push(rssMb(memChild.pid!));
  }
  const seconds = (performance.now() - t0) / 1000;
  if (mem.echoed !== total / 2 + 1) throw new Error(`memory run: ${mem.echoed} echoes for ${total / 2 + 1} lines`);
  mem.close();
  await new Promise((r) => memChild.once('close', r));
  const recordedFrames = readFileSync(path.join(dir, 'memory.jsonl'), 'utf8').split('\n').filter((l) => l.includes('"direction":"c2s"') || l.includes('"direction":"s2c"')).length;
  rmSync(dir, { recursive: true, force: true });
  return { stdio, http, memory: { messages: total, rssMb: rss, growthMb: rss[rss.length - 1] - rss[0], seconds, recordedFrames }, load: [load0, loadavg()[0]] };
}

const fmt = (x: number, digits = 2) => x.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Prints the bench rows. */
export function printProxy(b: ProxyBench): void {
  console.log(`mcp-lab proxy overhead (bundled CLI, --record on; interleaved rounds, medians; load ${fmt(b.load[0], 1)} → ${fmt(b.load[1], 1)})`);
  console.log(`  stdio  round trip direct ${fmt(b.stdio.directMs, 3)} ms, proxied ${fmt(b.stdio.proxiedMs, 3)} ms (${b.stdio.roundTrips} each): added ${fmt(b.stdio.addedPerMessageMs, 3)} ms per message   (target ≤ 1 ms: ratio ${fmt(b.stdio.addedPerMessageMs / 1)} of budget)`);
  console.log(`  HTTP   round trip direct ${fmt(b.http.directMs, 3)} ms, proxied ${fmt(b.http.proxiedMs, 3)} ms (${b.http.roundTrips} each, SSE answer): added ${fmt(b.http.addedPerMessageMs, 3)} ms per message   (target ≤ 2 ms: ratio ${fmt(b.http.addedPerMessageMs / 2)} of budget)`);
  console.log(`  memory ${b.memory.messages.toLocaleString('en-US')} messages through the stdio proxy in ${fmt(b.memory.seconds, 1)} s: RSS ${b.memory.rssMb.map((x) => fmt(x, 0)).join(' → ')} MB (every 10,000 messages), growth ${fmt(b.memory.growthMb, 1)} MB; ${b.memory.recordedFrames.toLocaleString('en-US')} frames recorded   (target flat)`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) printProxy(await benchProxy());
