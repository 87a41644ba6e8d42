/**
 * `npm run bench`: prints every benchmark's figures and its ratio to the target.
 * Node: replay throughput. Size: initial JavaScript gzip of the built site (run `npm run build` first,
 * done by the npm script). Chromium: drag → updated outcome latency at 200 and 2,000 events, longest
 * task while dragging, and the explorer in the page's worker (Playwright; port LAB_PORT, default 4399).
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { loadavg } from 'node:os';
import { benchDrag, benchStoreDrags, printDrag, printStoreDrags } from './drag.bench';

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

{
  const { runIssue10 } = await import('./issue10');
  await runIssue10();
}

try {
  const { benchCli } = await import('./cli.bench');
  const c = benchCli();
  console.log(`races CLI, whole process (node dist-cli/mcp-lab.mjs replay FILE, ${fmt(c.events)} events; /usr/bin/time -v, median of 7; load ${fmt(c.load[0], 1)} → ${fmt(c.load[1], 1)})`);
  console.log(`  wall       ${fmt(c.wallS, 2)} s (CPU ${fmt(c.cpuS, 2)} s)   (target ≤ 0.25 s: ratio ${fmt(c.wallS / 0.25, 2)} of budget)`);
  console.log(`  peak RSS   ${fmt(c.rssMb, 0)} MB   (target ≤ 100 MB: ratio ${fmt(c.rssMb / 100, 2)} of budget)`);
} catch (err) {
  console.log(`races CLI benchmark could not run: ${(err as Error).message}`);
}

try {
  const { printCheckBench } = await import('./check.bench');
  await printCheckBench();
} catch (err) {
  console.log(`check streaming benchmark could not run: ${(err as Error).message}`);
}

const dist = path.resolve(import.meta.dirname ?? '.', '../dist');
if (existsSync(path.join(dist, 'index.html'))) {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const initial = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  let jsGzip = 0;
  let cssGzip = 0;
  for (const file of initial) {
    const size = gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
    if (file.endsWith('.js')) jsGzip += size;
    else cssGzip += size;
  }
  const lazy = readdirSync(path.join(dist, 'assets')).filter((f) => f.endsWith('.js') && !initial.includes(`assets/${f}`));
  console.log('initial bundle (dist/, gzip -9)');
  console.log(`  JavaScript           ${fmt(jsGzip / 1024, 1)} KB   (target ≤ 150 KB: ratio ${fmt(jsGzip / 1024 / 150, 2)} of budget)`);
  console.log(`  CSS                  ${fmt(cssGzip / 1024, 1)} KB`);
  console.log(`  lazy JS chunks       ${lazy.length}`);
} else {
  console.log('initial bundle: dist/ missing — run `npm run build` first');
}

{
  const before = loadavg()[0];
  printStoreDrags(benchStoreDrags(), [before, loadavg()[0]]);
}

if (existsSync(path.join(dist, 'index.html'))) {
  try {
    const before = loadavg()[0];
    const d = await benchDrag();
    printDrag(d, [before, loadavg()[0]]);
  } catch (err) {
    console.log(`drag benchmark could not run: ${(err as Error).message}`);
  }
}

{
  const { benchChaos, printChaos } = await import('./chaos.bench');
  printChaos(await benchChaos());
}

{
  const { benchLedger } = await import('./ledger.bench');
  const l = await benchLedger();
  console.log(`ledger (Node; the lab's charge() on the same schema, statements prepared once on both sides; ${l.rounds} interleaved rounds of ${fmt(l.mutations)} new keys after a warm-up; medians)`);
  console.log(`  sql.js (wasm, MEMFS file)          ${fmt(l.sqljsPerSecond).padStart(8)} keyed mutations/s`);
  console.log(`  better-sqlite3 :memory:            ${fmt(l.nativePerSecond).padStart(8)} keyed mutations/s`);
  console.log(`  better-sqlite3 RAM-disk file       ${fmt(l.nativeFilePerSecond).padStart(8)} keyed mutations/s   (sql.js's pragmas: journal in memory, exclusive lock, no fsync)`);
  console.log(`  sql.js / native :memory:     ${fmt(l.ratio, 2)}×  (rounds ${fmt(l.ratioRange[0], 2)}–${fmt(l.ratioRange[1], 2)}×; target ≥ 0.5×: ratio ${fmt(l.ratio / 0.5, 2)} of target)`);
  console.log(`  sql.js / native file         ${fmt(l.ratioFile, 2)}×  (rounds ${fmt(l.ratioFileRange[0], 2)}–${fmt(l.ratioFileRange[1], 2)}×; like for like)`);
  console.log('  explore every interleaving of two 5-step connections (median of 5)');
  for (const e of l.explore) {
    console.log(`    ${e.policy.padEnd(10)} ${e.orders} orders  ${fmt(e.medianMs, 1).padStart(7)} ms  executed twice in ${e.twice}   (target < 300 ms: ratio ${fmt(e.medianMs / 300, 2)} of budget)`);
  }
  console.log(`  the outcome map's 5 policy rows × 252 orders, one pass (median of 6, interleaved): trie ${fmt(l.exploreRowsTrieMs, 0)} ms   (target ≤ 250 ms: ratio ${fmt(l.exploreRowsTrieMs / 250, 2)} of budget); from scratch ${fmt(l.exploreRowsTotalMs, 0)} ms (${fmt(l.exploreRowsTrieRatio, 2)}× the trie)`);
}

if (existsSync(path.join(dist, 'index.html'))) {
  try {
    const { benchLedgerUpload } = await import('./ledger.bench');
    const u = await benchLedgerUpload();
    const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const shown = med(u.shownMs);
    const longest = Math.max(...u.longestTaskMs);
    console.log(`ledger: upload a ${fmt(u.charges)}-charge .sqlite (Chromium; ${fmt(u.fileBytes / 1e6, 1)} MB; opened, checked, counted and paged in the ledger's worker; ${u.rounds} uploads)`);
    console.log(`  shown (change event → notice + first page with the SQL count)  median ${fmt(shown, 0)} ms (rounds ${u.shownMs.map((x) => fmt(x, 0)).join(', ')})   (target < 2,000 ms: ratio ${fmt(shown / 2000, 2)} of budget)`);
    console.log(`  longest main-thread task  ${longest ? `${fmt(longest, 0)} ms` : 'none > 50 ms'} (long tasks per round: ${u.longTasks.join(', ')})   (target ≤ 100 ms: ratio ${fmt(Math.max(longest, 50) / 100, 2)} of budget${longest ? '' : ', at most'})`);
  } catch (err) {
    console.log(`ledger upload benchmark could not run: ${(err as Error).message}`);
  }
}

{
  const { benchBreaker } = await import('./resilience.bench');
  console.log('resilience: breaker + retry (Node; 100,000 calls 1 ms apart, outages 2 s of every 5 s, 3 attempts, token bucket; median of 3 runs)');
  console.log('  composition            keep      steps    wire attempts   median ms     calls/s   (reference 100,000 calls/s)');
  for (const composition of ['retry-around-breaker', 'breaker-around-retry']) {
    for (const keep of ['effects', 'steps'] as const) {
      const r = benchBreaker(composition, keep, 100_000, 3);
      console.log(`  ${composition.padEnd(21)}  ${keep.padEnd(8)}  ${fmt(r.steps).padStart(7)}  ${fmt(r.wireAttempts).padStart(13)}  ${fmt(r.medianMs, 1).padStart(10)}  ${fmt(r.callsPerSecond).padStart(10)}   ratio ${fmt(r.callsPerSecond / 100_000, 2)}×`);
    }
  }
  // Issue 10: the new core beside the old engine (oracle copy of the old model), same run, interleaved rounds, medians.
  const { benchResilienceEngines } = await import('./resilience.bench');
  const { loadavg } = await import('node:os');
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  console.log(`resilience replay, old engine vs new core (breaker workload above; ${rounds} interleaved rounds, medians; load average ${loadavg().map((x) => x.toFixed(2)).join(', ')})`);
  console.log('  composition            engine          steps     median ms     steps/s   vs old (same keep)   target ≥ 5× the old engine');
  for (const composition of ['retry-around-breaker', 'breaker-around-retry']) {
    const figures = benchResilienceEngines(composition, 100_000, rounds);
    const oldEffects = figures.find((f) => f.engine === 'old effects')!;
    const oldSteps = figures.find((f) => f.engine === 'old steps')!;
    for (const f of figures) {
      const base = f.engine === 'new steps' ? oldSteps : f.engine.startsWith('new') ? oldEffects : f;
      const ratio = base.medianMs / f.medianMs;
      const target = f.engine.startsWith('new') ? `ratio ${fmt(ratio / 5, 2)} of target` : '';
      console.log(`  ${composition.padEnd(21)}  ${f.engine.padEnd(14)}  ${fmt(f.steps).padStart(7)}  ${fmt(f.medianMs, 1).padStart(10)}  ${fmt(f.stepsPerSecond).padStart(10)}   ${`${fmt(ratio, 2)}×`.padStart(8)}             ${target}`);
    }
  }
  console.log(`  load average after: ${loadavg().map((x) => x.toFixed(2)).join(', ')}`);
}

// ── Flow lab: the reconnect herd (Node) and its redraw while the client slider moves (Chromium) ──
{
  const { benchHerd, benchFlowReplay } = await import('./flow.bench');
  const { loadavg } = await import('node:os');
  const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
  console.log(`flow replay: new core vs the old engine (oracle copy), ${rounds} interleaved rounds, medians (Node; load average ${loadavg().map((x) => x.toFixed(2)).join(', ')})`);
  console.log('  workload  engine          steps     median ms     steps/s   vs old   (target ≥ 5× the old engine)');
  for (const w of ['stream', 'stalled', 'fleet'] as const) {
    for (const f of benchFlowReplay(w, rounds)) {
      const target = f.engine === 'old effects' ? '' : `ratio ${fmt(f.speedup / 5, 2)} of target`;
      console.log(`  ${w.padEnd(8)}  ${f.engine.padEnd(14)}  ${fmt(f.steps).padStart(7)}  ${fmt(f.medianMs, 1).padStart(10)}  ${fmt(f.stepsPerSecond).padStart(10)}   ${fmt(f.speedup, 2).padStart(5)}×   ${target}`);
    }
  }
  console.log('flow: reconnect herd, 100,000 clients × up to 8 attempts (Node, median of 7 runs; target < 100 ms each)');
  for (const f of benchHerd()) {
    console.log(`  ${f.label.padEnd(24)} ${fmt(f.medianMs, 1).padStart(8)} ms   ${fmt(f.attempts).padStart(9)} attempts   ratio ${fmt(f.ratioToTarget, 2)} of budget`);
  }
  if (existsSync(path.join(dist, 'index.html'))) {
    try {
      const { benchHerdRedraw } = await import('./flowHerd.bench');
      const h = await benchHerdRedraw(dist);
      console.log('flow: herd plot while the client slider moves (Chromium, 100,000 clients, 3 strategies, herd computed in a worker)');
      console.log(`  canvas redraw     median ${fmt(h.drawMedianMs, 2)} ms, max ${fmt(h.drawMaxMs, 2)} ms per frame   (target ≤ 16 ms: ratio ${fmt(h.drawMaxMs / 16, 2)} of budget at max)`);
      console.log(`  long tasks > 50 ms on the main thread: ${h.longTasks}${h.longTasks ? ` (longest ${fmt(h.longestTaskMs, 0)} ms)` : ''}   (target: none)`);
      console.log(`  input → frame with the new herd: median ${fmt(h.medianMs, 1)} ms, p95 ${fmt(h.p95Ms, 1)} ms over ${h.samples} updates (worker compute included)`);
    } catch (err) {
      console.log(`flow herd redraw benchmark could not run: ${(err as Error).message}`);
    }
  }
}

try {
  const { benchProxy, printProxy } = await import('./proxy.bench');
  printProxy(await benchProxy());
} catch (err) {
  console.log(`proxy overhead benchmark could not run: ${(err as Error).message}`);
}
