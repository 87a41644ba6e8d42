/**
 * Chromium benchmark (Playwright): time from a drag input to the updated outcome in the DOM, at 200
 * and 2,000 events, keyboard and pointer, with the longest main-thread task while dragging; and
 * the explorer's 40,320 orders of 8 events run in the page's own All orders worker.
 *
 * Latency is measured inside the page: from the input event (captured before the lab sees it) to
 * the moment the dragged handle's label has changed (the store re-ran the trace and React
 * re-rendered) and layout was forced. Long tasks come from a `longtask` PerformanceObserver,
 * counted only between the first and the last input of each gesture (plus the last render).
 *
 * The static server listens on `LAB_PORT` (default 4399), so parallel checkouts do not collide.
 * Run alone: `npx tsx bench/drag.bench.ts` (after `npm run build`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunch } from '../playwright.config';
import { dragScenario } from './scenarios';
import { toBase64Url } from '../src/store/url';
import { loadBuiltinScenario } from '../src/sim/__tests__/builtinScenarios';

/** Latency figures of one input path (ms). */
export interface PathFigures {
  samples: number;
  medianMs: number;
  p95Ms: number;
  /** Longest main-thread task while this gesture ran (0: none over 50 ms was reported). */
  longestTaskMs: number;
  /** Tasks over 50 ms while this gesture ran. */
  longTasks: number;
}

export interface DragFigures {
  events: number;
  keyboard: PathFigures;
  pointer: PathFigures;
}

export interface WorkerOrdersFigures {
  scenario: string;
  orders: number;
  classes: number;
  /** Post of the request to the result message, in the page's worker (median of runs). */
  medianMs: number;
  runs: number;
}

/** Targets of issue 10 (drag → updated outcome). */
export const DRAG_TARGETS: Record<number, { medianMs: number; p95Ms: number; longTaskMs: number }> = {
  200: { medianMs: 8, p95Ms: 16, longTaskMs: 50 },
  2000: { medianMs: 16, p95Ms: 33, longTaskMs: 50 },
};

const quantile = (xs: number[], q: number) => {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/** The bench's port: `LAB_PORT`, else 4399. */
export const benchPort = (): number => Number(process.env.LAB_PORT ?? 4399);

/** Serves `dist/` (e2e/serve.mjs) under `/bench/` on `port`; resolves once it listens. */
export async function startServer(port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, [path.resolve(import.meta.dirname ?? '.', '../e2e/serve.mjs'), String(port), '/bench/'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    server.stdout!.once('data', () => resolve());
    server.once('exit', (code) => reject(new Error(`static server on port ${port} exited with ${code} (set LAB_PORT to a free port)`)));
  });
  return server;
}

interface PageProbe {
  __lat: number[];
  __t0: number;
  __tasks: { start: number; duration: number }[];
  __from: number;
}

async function measureDrag(page: Page, port: number, n: number): Promise<DragFigures> {
  const scenario = dragScenario(n);
  await page.goto(`http://127.0.0.1:${port}/bench/#/races?scenario=${toBase64Url(JSON.stringify(scenario))}`);
  // The first call's completion (or cancel), in the middle of the busy part of the timeline.
  const target = scenario.events.find((e) => e.kind === 'complete' || e.kind === 'cancel')!;
  const handle = page.getByTestId(`handle-${target.id}`);
  await handle.waitFor();
  await page.waitForTimeout(300);

  // Instrument: stamp each input before the lab handles it; stamp when the handle's label changes,
  // after a forced layout; collect long tasks.
  await page.evaluate((id) => {
    const w = window as unknown as PageProbe;
    w.__lat = [];
    w.__t0 = 0;
    w.__tasks = [];
    const stamp = () => {
      w.__t0 = performance.now();
    };
    window.addEventListener('keydown', stamp, true);
    window.addEventListener('pointermove', stamp, true);
    const el = document.querySelector(`[data-testid="handle-${id}"]`)!;
    new MutationObserver(() => {
      if (w.__t0 === 0) return;
      void document.body.offsetHeight; // include style and layout
      w.__lat.push(performance.now() - w.__t0);
      w.__t0 = 0;
    }).observe(el, { attributes: true, attributeFilter: ['aria-label'] });
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__tasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask', buffered: false });
  }, target.id);

  const begin = () => page.evaluate(() => ((window as unknown as PageProbe).__from = performance.now()));
  const collect = async (): Promise<PathFigures> => {
    await page.waitForTimeout(120); // let the last render and its long-task entry arrive
    const { lat, tasks } = await page.evaluate(() => {
      const w = window as unknown as PageProbe;
      const from = w.__from;
      return { lat: w.__lat.splice(0), tasks: w.__tasks.splice(0).filter((t) => t.start + t.duration >= from).map((t) => t.duration) };
    });
    return { samples: lat.length, medianMs: quantile(lat, 0.5), p95Ms: quantile(lat, 0.95), longestTaskMs: tasks.length ? Math.max(...tasks) : 0, longTasks: tasks.length };
  };

  await handle.focus();
  await begin();
  for (let i = 0; i < 60; i++) await page.keyboard.press(i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft');
  const keyboard = await collect();

  const box = (await handle.boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width / 2, y);
  await begin();
  await page.mouse.down();
  for (let i = 1; i <= 60; i++) {
    await page.mouse.move(box.x + box.width / 2 + (i % 2 === 0 ? -1 : 1) * 6 * ((i % 5) + 1), y);
  }
  await page.mouse.up();
  const pointer = await collect();
  return { events: scenario.events.length, keyboard, pointer };
}

/**
 * The page's own All orders worker (the built `allOrders.worker-*.js`), asked for every order of
 * the first 8 events of E-invalid-cancels with pruning off (40,320 orders).
 */
async function measureWorkerOrders(page: Page, port: number, runs = 3): Promise<WorkerOrdersFigures> {
  const dist = path.resolve(process.env.LAB_DIST ?? path.resolve(import.meta.dirname ?? '.', '../dist'), 'assets');
  const file = readdirSync(dist).find((f) => /^allOrders\.worker-.*\.js$/.test(f));
  if (!file) throw new Error('dist/assets has no allOrders.worker-*.js — run npm run build');
  const scenario = loadBuiltinScenario('races', 'E-invalid-cancels');
  const events = scenario.events.slice(0, 8).map((e) => e.id);
  await page.goto(`http://127.0.0.1:${port}/bench/#/races`);
  const times: number[] = [];
  let orders = 0;
  let classes = 0;
  for (let r = 0; r < runs; r++) {
    const out = await page.evaluate(
      ({ url, scenarioJson, events }) =>
        new Promise<{ ms: number; evaluated: number; classes: number; error?: string }>((resolve) => {
          const w = new Worker(url, { type: 'module' });
          const t0 = performance.now();
          w.onmessage = (e: MessageEvent<{ type: string; evaluated: number; classes: unknown[]; message?: string }>) => {
            if (e.data.type === 'progress') return;
            const ms = performance.now() - t0;
            w.terminate();
            resolve(e.data.type === 'result' ? { ms, evaluated: e.data.evaluated, classes: e.data.classes.length } : { ms, evaluated: 0, classes: 0, error: e.data.message });
          };
          w.postMessage({ lab: 'races', scenario: JSON.parse(scenarioJson) as unknown, events, prune: false });
        }),
      { url: `http://127.0.0.1:${port}/bench/assets/${file}`, scenarioJson: JSON.stringify(scenario), events },
    );
    if (out.error) throw new Error(`the All orders worker failed: ${out.error}`);
    times.push(out.ms);
    orders = out.evaluated;
    classes = out.classes;
  }
  return { scenario: scenario.id, orders, classes, medianMs: quantile(times, 0.5), runs };
}

/** Drag latency at each size in `sizes`, then the worker explorer, in one Chromium. */
export async function benchDrag(sizes: readonly number[] = [200, 2000]): Promise<{ drag: DragFigures[]; orders: WorkerOrdersFigures | Error }> {
  const port = benchPort();
  const server = await startServer(port);
  const browser = await chromium.launch(chromiumLaunch);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // tsx (esbuild) wraps named functions in a `__name(...)` helper that does not exist in the
    // page; define it there so the functions passed to page.evaluate survive serialisation.
    await page.addInitScript('window.__name = (f) => f;');
    const drag: DragFigures[] = [];
    for (const n of sizes) drag.push(await measureDrag(page, port, n));
    let orders: WorkerOrdersFigures | Error;
    try {
      orders = await measureWorkerOrders(page, port);
    } catch (err) {
      orders = err as Error;
    }
    return { drag, orders };
  } finally {
    await browser.close();
    server.kill();
  }
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Prints the figures of `benchDrag` with targets and ratios (the lines `npm run bench` shows). */
export function printDrag(result: Awaited<ReturnType<typeof benchDrag>>, load: [number, number]): void {
  for (const d of result.drag) {
    const t = DRAG_TARGETS[d.events] ?? DRAG_TARGETS[200];
    console.log(`drag → updated outcome (Chromium, ${fmt(d.events)} events; input event to re-rendered, laid-out DOM; load ${fmt(load[0], 2)} → ${fmt(load[1], 2)})`);
    for (const [name, f] of [['keyboard', d.keyboard], ['pointer', d.pointer]] as const) {
      console.log(
        `  ${name.padEnd(8)}  median ${fmt(f.medianMs, 2).padStart(6)} ms (target ≤ ${t.medianMs}: ratio ${fmt(f.medianMs / t.medianMs, 2)}), p95 ${fmt(f.p95Ms, 2).padStart(6)} ms (target ≤ ${t.p95Ms}: ratio ${fmt(f.p95Ms / t.p95Ms, 2)}) over ${f.samples} moves; ` +
          `longest task ${f.longTasks ? `${fmt(f.longestTaskMs, 0)} ms (${f.longTasks} over 50 ms)` : 'none over 50 ms'} (target none > ${t.longTaskMs} ms)`,
      );
    }
  }
  const o = result.orders;
  if (o instanceof Error) console.log(`explorer in the page's worker could not run: ${o.message}`);
  else console.log(`explorer in the page's All orders worker (Chromium): ${o.scenario}, ${fmt(o.orders)} orders of 8 events, no pruning, ${o.classes} classes: median ${fmt(o.medianMs, 0)} ms over ${o.runs} runs (target < 2,000 ms: ratio ${fmt(o.medianMs / 2000, 2)} of budget)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.dirname ?? '.', 'drag.bench.ts')) {
  const before = loadavg()[0];
  const sizes = process.env.DRAG_SIZES ? process.env.DRAG_SIZES.split(',').map(Number) : [200, 2000];
  const result = await benchDrag(sizes);
  printDrag(result, [before, loadavg()[0]]);
}
