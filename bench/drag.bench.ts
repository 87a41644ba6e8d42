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
 * Run alone: `npx tsx bench/drag.bench.ts` (after `npm run build`); `DRAG_SIZES=200,2000` picks the
 * sizes, `DRAG_STORE_ONLY=1` skips Chromium, `DRAG_PAGE_ONLY=1` skips the Node store figures, and
 * `LAB_DIST=dir` serves another build (e.g. an older commit's, for an A/B in one session).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { chromiumLaunch } from '../playwright.config';
import { dragScenario } from './scenarios';
import { toBase64Url } from '../src/store/linkText';
import { loadBuiltinScenario } from '../src/sim/__tests__/builtinScenarios';
import { performance } from 'node:perf_hooks';
import { createLabStore } from '../src/store/labStore';
import { playheadSelectors } from '../src/store/labSelectors';
import { stepRecords } from '../src/store/traceScan';
import { flowDefinition } from '../src/sim/flow/definition';
import { resilienceDefinition } from '../src/sim/resilience/definition';
import { parseScenario } from '../src/sim/scenario';
import { LAB_SCHEMAS } from '../src/sim/labs';
import { breakerBenchScenario } from './resilience.bench';
import type { LabPageDefinition } from '../src/sim/lab';
import type { ReplayResult } from '../src/sim/replay';
import type { Scenario } from '../src/sim/types';

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
  // The first visit installs the offline cache (the service worker precaches ~115 files on its own
  // thread, seconds of CPU on a 2-core machine): measured drags start once it is active, as on every
  // later visit. Bounded, in case the browser gives the page no service worker.
  await page.evaluate(() => Promise.race([navigator.serviceWorker?.ready, new Promise((resolve) => setTimeout(resolve, 15_000))]));
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

/**
 * A flow scenario of exactly `n` scripted events for the store drag figures: server progress of two
 * tokens every 10 ms into the lesson buffer (capacity 64) behind a paced reader, a keep-alive now
 * and then, a client stall every 500 events and a wire drop every 700 (coalescing, drops, resyncs).
 */
export function flowDragScenario(n: number): Scenario {
  const events: Record<string, unknown>[] = [];
  for (let i = 0; events.length < n; i++) {
    const at = i * 10;
    if (i % 500 === 250) events.push({ id: `stall${i}`, at, actor: 'client', kind: 'stall', durationMs: 800 });
    else if (i % 700 === 350) events.push({ id: `drop${i}`, at, actor: 'wire', kind: 'drop' });
    else if (i % 50 === 25) events.push({ id: `k${i}`, at, actor: 'server', kind: 'keepalive' });
    else events.push({ id: `p${i}`, at, actor: 'server', kind: 'progress', token: i % 2 ? 'A' : 'B' });
  }
  const r = parseScenario(
    { format: 1, lab: 'flow', id: `drag-${n}`, title: `drag ${n}`, seed: 1, config: { policy: 'lesson', capacityEvents: 64, consumer: { readIntervalMs: 12 }, client: { reconnectDelayMs: 300, operationToken: 'A' } }, events },
    'flow',
    LAB_SCHEMAS.flow,
  );
  if (!r.ok) throw new Error(r.errors.join('; '));
  return r.scenario;
}

/** A resilience scenario of exactly `n` scripted events: breaker around retry, `n - 2` calls 1 ms apart and one outage with its recovery. */
export function resilienceDragScenario(n: number): Scenario {
  return breakerBenchScenario(n - 2 * Math.ceil((n - 2) / 5000), 'breaker-around-retry');
}

/** Store work per drag move (Node), before (whole replay per move) and after (fork of the seekable trace). */
export interface StoreDragFigure {
  lab: 'flow' | 'resilience';
  events: number;
  steps: number;
  mode: 'whole replay (before)' | 'seekable fork (after)';
  /** moveEvent (the store's replay or fork) plus the state and outcome at the playhead. */
  store: { medianMs: number; p95Ms: number };
  /** The same plus one whole-trace record pass (what the timeline and queue chart read). */
  withRecords: { medianMs: number; p95Ms: number };
  moves: number;
  /** Steps the forks took over from their base (mean per move; 0 for whole replays). */
  reusedSteps: number;
}

/**
 * Times `moves` pointer moves of the event in the middle of the scenario (alternating ±6…30 ms, one
 * drag gesture) through a lab store over `definition`, with the playhead at the middle of the
 * trace, after 10 warm-up moves. `seekable: false` drops the definition's seekable trace, as
 * before issue 10 item 4 (every move replays the whole scenario with its steps).
 */
export function benchStoreDrag<S, O, T extends ReplayResult<S, O>>(lab: 'flow' | 'resilience', definition: LabPageDefinition<S, O, T>, scenario: Scenario, seekable: boolean, moves = 60): StoreDragFigure {
  const def: LabPageDefinition<S, O, T> = seekable ? definition : { ...definition, seekable: undefined };
  const store = createLabStore({ definition: def, builtins: [scenario], extra: null });
  const { selectStateAt, selectOutcomeAt } = playheadSelectors(def);
  const target = scenario.events[Math.floor(scenario.events.length / 2)];
  store.getState().seek(target.at);
  const record = (r: { at: number }) => r.at;
  const run = (withRecords: boolean, n: number) => {
    const times: number[] = [];
    let reused = 0;
    store.getState().beginDrag();
    for (let i = 1; i <= n; i++) {
      const t0 = performance.now();
      store.getState().moveEvent(target.id, target.at + (i % 2 === 0 ? -1 : 1) * 6 * ((i % 5) + 1));
      const s = store.getState();
      selectStateAt(s);
      selectOutcomeAt(s);
      if (withRecords) stepRecords(s.trace, 'bench', record);
      times.push(performance.now() - t0);
      reused += (s.trace as { reusedSteps?: number }).reusedSteps ?? 0;
    }
    store.getState().endDrag();
    return { times, reused: reused / n };
  };
  run(false, 10);
  const a = run(false, moves);
  run(true, 10);
  const b = run(true, moves);
  const stepCount = store.getState().trace.stepCount ?? store.getState().trace.steps.length;
  return {
    lab,
    events: scenario.events.length,
    steps: stepCount,
    mode: seekable ? 'seekable fork (after)' : 'whole replay (before)',
    store: { medianMs: quantile(a.times, 0.5), p95Ms: quantile(a.times, 0.95) },
    withRecords: { medianMs: quantile(b.times, 0.5), p95Ms: quantile(b.times, 0.95) },
    moves,
    reusedSteps: a.reused,
  };
}

/** Store drag figures of flow and resilience at each size, before and after, interleaved. */
export function benchStoreDrags(sizes: readonly number[] = [200, 2000]): StoreDragFigure[] {
  const out: StoreDragFigure[] = [];
  for (const n of sizes) {
    for (const [lab, definition, scenario] of [
      ['flow', flowDefinition, flowDragScenario(n)],
      ['resilience', resilienceDefinition, resilienceDragScenario(n)],
    ] as const) {
      for (const seekable of [false, true]) out.push(benchStoreDrag(lab, definition as LabPageDefinition, scenario, seekable));
    }
  }
  return out;
}

/** Prints `benchStoreDrags` with the drag targets of issue 10 (the store's part of drag → updated outcome). */
export function printStoreDrags(figures: readonly StoreDragFigure[], load: [number, number]): void {
  console.log(`store work per drag move (Node; moveEvent + state and outcome at the playhead, median/p95 of 60 moves of the middle event; load ${fmt(load[0], 2)} → ${fmt(load[1], 2)})`);
  for (const f of figures) {
    const t = DRAG_TARGETS[f.events] ?? DRAG_TARGETS[200];
    console.log(
      `  ${f.lab.padEnd(10)} ${fmt(f.events).padStart(5)} events (${fmt(f.steps)} steps) ${f.mode.padEnd(22)} median ${fmt(f.store.medianMs, 2).padStart(7)} ms (target ≤ ${t.medianMs}: ratio ${fmt(f.store.medianMs / t.medianMs, 2)}), ` +
        `p95 ${fmt(f.store.p95Ms, 2).padStart(7)} ms (target ≤ ${t.p95Ms}: ratio ${fmt(f.store.p95Ms / t.p95Ms, 2)}); with a whole-trace record pass median ${fmt(f.withRecords.medianMs, 2)} ms, p95 ${fmt(f.withRecords.p95Ms, 2)} ms; steps reused per move ${fmt(f.reusedSteps, 0)}`,
    );
  }
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Prints the figures of `benchDrag` with targets and ratios (the lines `npm run bench` shows). */
export function printDrag(result: Awaited<ReturnType<typeof benchDrag>>, load: [number, number]): void {
  for (const d of result.drag) {
    const t = DRAG_TARGETS[d.events] ?? DRAG_TARGETS[200];
    console.log(`drag → updated outcome (Chromium, ${fmt(d.events)} events; input event to re-rendered, laid-out DOM, after the offline cache is installed; load ${fmt(load[0], 2)} → ${fmt(load[1], 2)})`);
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
  // DRAG_PAGE_ONLY=1: only the Chromium figures (an A/B of two builds via LAB_DIST needs nothing else).
  if (process.env.DRAG_PAGE_ONLY !== '1') printStoreDrags(benchStoreDrags(sizes), [before, loadavg()[0]]);
  if (process.env.DRAG_STORE_ONLY !== '1') {
    const again = loadavg()[0];
    const result = await benchDrag(sizes);
    printDrag(result, [again, loadavg()[0]]);
  }
}
