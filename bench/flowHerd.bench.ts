/**
 * Chromium benchmark of the flow lab's herd plot: 100,000 clients, three strategies (exponential,
 * full jitter, lesson SHA-256), the client slider moved step by step with the keyboard (each step a
 * new client count: every herd recomputed in the worker and the canvas redrawn). Figures: the
 * canvas redraw per frame (target ≤ 16 ms), every main-thread long task (> 50 ms) meanwhile
 * (target: none), and the time from the input to the frame showing the new herd (worker compute
 * included; intermediate counts are skipped while the worker is busy). The slider moves once the
 * service worker's first install (precaching the site) has finished: every later visit has it, and
 * its seconds of CPU beside the gesture made long tasks that are not the plot's (one of 56 ms).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunch } from '../playwright.config';

export interface HerdRedrawFigures {
  samples: number;
  medianMs: number;
  p95Ms: number;
  longTasks: number;
  longestTaskMs: number;
  /** The canvas redraw itself (per frame), median and max. */
  drawMedianMs: number;
  drawMaxMs: number;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
};

async function startServer(port: number, dist: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, [path.resolve(import.meta.dirname ?? '.', '../e2e/serve.mjs'), String(port), '/bench/'], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, LAB_DIST: dist },
  });
  await new Promise<void>((resolve, reject) => {
    server.stdout!.once('data', () => resolve());
    server.once('exit', (code) => reject(new Error(`static server exited with ${code}`)));
  });
  return server;
}

export async function benchHerdRedraw(dist = path.resolve(import.meta.dirname ?? '.', '../dist'), port = 4398): Promise<HerdRedrawFigures> {
  const server = await startServer(port, dist);
  const browser = await chromium.launch(chromiumLaunch);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.addInitScript('window.__name = (f) => f;');
    await page.goto(`http://127.0.0.1:${port}/bench/#/flow`);
    const slider = page.getByTestId('herd-clients');
    await slider.waitFor({ timeout: 30_000 });
    await slider.fill('5');
    // The plot exists once the worker has answered; wait for it to be drawn for 100,000 clients.
    await page.locator('[data-testid="herd-canvas"][data-clients="100000"]').waitFor({ timeout: 120_000 });
    // The first visit installs the offline cache (the service worker precaches ~115 files on its own
    // thread, seconds of CPU on a 2-core machine, beside the herd's worker): the slider moves once it
    // is active, as on every later visit (as the drag bench does). Bounded, in case the browser gives
    // the page no service worker.
    await page.evaluate(() => Promise.race([navigator.serviceWorker?.ready, new Promise((resolve) => setTimeout(resolve, 15_000))]));
    await page.waitForTimeout(500);
    await page.evaluate(() => {
      const w = window as unknown as { __lat: number[]; __t0: number; __long: number[] };
      w.__lat = [];
      w.__long = [];
      w.__t0 = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) w.__long.push(e.duration);
      }).observe({ type: 'longtask', buffered: false });
      window.addEventListener('keydown', () => (w.__t0 = performance.now()), true);
      const canvas = document.querySelector('[data-testid="herd-canvas"]') as HTMLCanvasElement;
      (w as unknown as { __draw: number[] }).__draw = [];
      new MutationObserver(() => {
        (w as unknown as { __draw: number[] }).__draw.push(Number(canvas.dataset.drawMs));
        if (w.__t0 === 0) return;
        const t0 = w.__t0;
        w.__t0 = 0;
        requestAnimationFrame(() => w.__lat.push(performance.now() - t0));
      }).observe(canvas, { attributes: true, attributeFilter: ['data-clients'] });
    });
    await slider.focus();
    for (let i = 0; i < 30; i++) {
      await page.keyboard.press('ArrowLeft');
      await page.waitForTimeout(30);
    }
    await page.waitForTimeout(500);
    const { lat, long, draw } = await page.evaluate(() => {
      const w = window as unknown as { __lat: number[]; __long: number[]; __draw: number[] };
      return { lat: w.__lat.slice(), long: w.__long.slice(), draw: w.__draw.slice() };
    });
    return {
      samples: lat.length,
      medianMs: quantile(lat, 0.5),
      p95Ms: quantile(lat, 0.95),
      longTasks: long.length,
      longestTaskMs: long.length ? Math.max(...long) : 0,
      drawMedianMs: quantile(draw, 0.5),
      drawMaxMs: draw.length ? Math.max(...draw) : NaN,
    };
  } finally {
    await browser.close();
    server.kill();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(await benchHerdRedraw(process.env.LAB_DIST));
}
