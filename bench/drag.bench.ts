/**
 * Chromium benchmark: time from a drag input to the updated outcome in the DOM, on a 200-event
 * scenario (target ≤ 16 ms). Measured inside the page: from the input event (captured before the
 * lab sees it) to the moment the dragged handle's label and the outcome have been re-rendered and
 * laid out (forced layout read). Two paths: keyboard moves (discrete events) and pointer drags.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunch } from '../playwright.config';
import { dragScenario } from './scenarios';
import { toBase64Url } from '../src/store/url';

export interface DragFigures {
  events: number;
  keyboard: { samples: number; medianMs: number; p95Ms: number };
  pointer: { samples: number; medianMs: number; p95Ms: number };
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};

/** Serves `dist/` (e2e/serve.mjs) under `/bench/` on `port`; resolves once it listens. */
export async function startServer(port: number): Promise<ChildProcess> {
  const server = spawn(process.execPath, [path.resolve(import.meta.dirname ?? '.', '../e2e/serve.mjs'), String(port), '/bench/'], { stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    server.stdout!.once('data', () => resolve());
    server.once('exit', (code) => reject(new Error(`static server exited with ${code}`)));
  });
  return server;
}

export async function benchDrag(): Promise<DragFigures> {
  const scenario = dragScenario(200);
  const port = 4399;
  const server = await startServer(port);
  const browser = await chromium.launch(chromiumLaunch);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // tsx (esbuild) wraps named functions in a `__name(...)` helper that does not exist in the
    // page; define it there so the functions passed to page.evaluate survive serialisation.
    await page.addInitScript('window.__name = (f) => f;');
    await page.goto(`http://127.0.0.1:${port}/bench/#/races?scenario=${toBase64Url(JSON.stringify(scenario))}`);
    // The first call's completion, in the middle of the busy part of the timeline.
    const target = scenario.events.find((e) => e.kind === 'complete' || e.kind === 'cancel')!;
    const handle = page.getByTestId(`event-${target.id}`);
    await handle.waitFor();

    // Instrument: stamp each input before the lab handles it, and stamp when the handle's label
    // changes (the store re-ran replay and React re-rendered), after a forced layout.
    await page.evaluate((id) => {
      const w = window as unknown as { __lat: number[]; __t0: number };
      w.__lat = [];
      w.__t0 = 0;
      const stamp = () => (w.__t0 = performance.now());
      window.addEventListener('keydown', stamp, true);
      window.addEventListener('pointermove', stamp, true);
      const el = document.querySelector(`[data-testid="event-${id}"]`)!;
      new MutationObserver(() => {
        if (w.__t0 === 0) return;
        void document.body.offsetHeight; // include style and layout
        w.__lat.push(performance.now() - w.__t0);
        w.__t0 = 0;
      }).observe(el, { attributes: true, attributeFilter: ['aria-label'] });
    }, target.id);

    await handle.focus();
    for (let i = 0; i < 60; i++) await page.keyboard.press(i % 2 === 0 ? 'ArrowRight' : 'ArrowLeft');
    const keyboard = await page.evaluate(() => (window as unknown as { __lat: number[] }).__lat.splice(0));

    const box = (await handle.boundingBox())!;
    const y = box.y + box.height / 2;
    await page.mouse.move(box.x + box.width / 2, y);
    await page.mouse.down();
    for (let i = 1; i <= 60; i++) {
      await page.mouse.move(box.x + box.width / 2 + (i % 2 === 0 ? -1 : 1) * 6 * ((i % 5) + 1), y);
    }
    await page.mouse.up();
    const pointer = await page.evaluate(() => (window as unknown as { __lat: number[] }).__lat.splice(0));
    const figures = (xs: number[]) => ({ samples: xs.length, medianMs: quantile(xs, 0.5), p95Ms: quantile(xs, 0.95) });
    return { events: scenario.events.length, keyboard: figures(keyboard), pointer: figures(pointer) };
  } finally {
    await browser.close();
    server.kill();
  }
}
