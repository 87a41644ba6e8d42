import { spawn } from 'node:child_process';
import { appendFileSync, cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { FlowPage } from './pages/flow';
import { LabDriver } from './pages/lab';
import { LedgerPage } from './pages/ledger';

/**
 * Offline after the first visit: the service worker (vite-plugin-pwa / Workbox, see vite.config.ts)
 * precaches the whole build, so with the network gone every lab, its Web Workers, the scenario
 * files and the sql.js wasm still load from the sub-path the site was first served at (/mcp-lab/).
 * The fixture fails the test on any console error, so a single request the cache cannot answer
 * (ERR_INTERNET_DISCONNECTED) fails it too.
 */

/** Waits until a service worker controls the page and has finished precaching (it is `activated`). */
async function waitForServiceWorker(page: Page) {
  await page.evaluate(async () => {
    const sw = (await navigator.serviceWorker.ready).active!;
    if (sw.state !== 'activated') await new Promise<void>((resolve) => sw.addEventListener('statechange', () => sw.state === 'activated' && resolve()));
  });
  // The first load is not controlled yet (no clients.claim: prompt-style updates); a reload is.
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
}

test('offline after the first visit: every lab, the SQL console, Explore and the herd still work', async ({ lab, context }) => {
  test.setTimeout(180_000);
  const races = new LabDriver(lab, 'races');
  const ledger = new LedgerPage(lab);
  const flow = new FlowPage(lab);
  await lab.goto('./#/races');
  await expect(races.picker).toBeVisible({ timeout: 20_000 });
  await waitForServiceWorker(lab);

  await context.setOffline(true);
  // A fresh navigation with the network gone is answered from the precache.
  await lab.goto('./#/races');
  await expect(races.picker).toBeVisible({ timeout: 20_000 });
  await expect(races.nav('races')).toBeVisible();

  // Every lab's lazy chunk.
  await lab.goto('./#/resilience');
  await expect(races.picker).toBeVisible({ timeout: 20_000 });

  await lab.goto('./#/ledger');
  await expect(races.picker).toBeVisible({ timeout: 20_000 });
  // The console's worker and the sql.js wasm it loads.
  await ledger.console.run('SELECT 1+1 AS two');
  await expect(ledger.console.result).toHaveAttribute('data-rows', '1', { timeout: 30_000 });
  await expect(ledger.console.result).toContainText('2');
  // The explorer's worker (sql.js again, in another worker).
  await ledger.explore.run();
  await expect(ledger.explore.variant('claim')).toBeVisible({ timeout: 60_000 });
  await expect(ledger.explore.variant('naive')).toHaveAttribute('data-twice', '200');

  await lab.goto('./#/flow');
  await expect(races.picker).toBeVisible({ timeout: 20_000 });
  // The herd's worker: the table carries the computed numbers.
  await expect(flow.herd.cell('exponential', 'peak')).toHaveText('10,000', { timeout: 30_000 });

  // A scenario file under public/scenarios is served from the precache too.
  const status = await lab.evaluate(async () => (await fetch('./scenarios/ledger/A-race-two-connections.json')).status);
  expect(status).toBe(200);
  await context.setOffline(false);
});

/** Serves a copy of the build (a "deployment" the test can change) on a free port; returns its address and a stop function. */
async function serveCopy(): Promise<{ url: string; dir: string; stop(): void }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'lab-deploy-'));
  cpSync(path.resolve('dist'), dir, { recursive: true });
  const child = spawn(process.execPath, ['e2e/serve.mjs', '0', '/mcp-lab/'], { env: { ...process.env, LAB_DIST: dir }, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`serve.mjs exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      const m = /at (http:\/\/\S+)/.exec(chunk.toString());
      if (m) resolve(m[1]);
    });
  });
  return { url, dir, stop: () => child.kill() };
}

test('a new deployment shows "A new version is available — Reload" and waits for the learner', async ({ browser }) => {
  test.setTimeout(120_000);
  const site = await serveCopy();
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  const races = new LabDriver(page, 'races');
  try {
    await page.goto(`${site.url}#/races`);
    await expect(races.picker).toBeVisible({ timeout: 20_000 });
    await waitForServiceWorker(page);
    await expect(races.updateBanner).toHaveCount(0);
    // The learner is mid-lesson: on lesson B, with a mark on the window that a reload would wipe.
    await races.picker.selectOption('B-complete-then-cancel');
    await page.evaluate(() => ((window as unknown as { midLesson: boolean }).midLesson = true));

    // Deploy again: any change to the service worker is a new version of the site.
    appendFileSync(path.join(site.dir, 'sw.js'), '\n// deployment 2\n');
    await page.evaluate(async () => void (await (await navigator.serviceWorker.getRegistration())!.update()));
    const banner = races.updateBanner;
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(banner).toHaveText(/^A new version is available — Reload/);
    // Prompt-style: nothing reloaded under the learner.
    expect(await page.evaluate(() => (window as unknown as { midLesson?: boolean }).midLesson)).toBe(true);
    await expect(races.picker).toHaveValue('B-complete-then-cancel');

    await races.reloadForUpdate();
    await page.waitForFunction(() => (window as unknown as { midLesson?: boolean }).midLesson === undefined, null, { timeout: 30_000 });
    await expect(races.picker).toBeVisible({ timeout: 20_000 });
    await expect(races.updateBanner).toHaveCount(0);
    // The new version now controls the page and nothing waits any more.
    expect(await page.evaluate(async () => {
      const reg = (await navigator.serviceWorker.getRegistration())!;
      return { waiting: reg.waiting, controlled: navigator.serviceWorker.controller !== null };
    })).toEqual({ waiting: null, controlled: true });
    expect(await (await page.request.get(`${site.url}sw.js`)).text()).toContain('deployment 2');
    expect(problems).toEqual([]);
  } finally {
    await context.close();
    site.stop();
    rmSync(site.dir, { recursive: true, force: true });
  }
});
