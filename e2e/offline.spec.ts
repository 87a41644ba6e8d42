import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/**
 * Offline after the first visit: the service worker (vite-plugin-pwa / Workbox, see vite.config.ts)
 * precaches the whole build, so with the network gone every lab, its Web Workers, the scenario
 * files and the sql.js wasm still load from the sub-path the site was first served at (/mcp-lab/).
 * The fixture fails the test on any console error, so a single request the cache cannot answer
 * (ERR_INTERNET_DISCONNECTED) fails it too.
 */

/** Waits until a service worker controls the page and has finished precaching (it is `activated`). */
async function waitForServiceWorker(page: Page) {
  await page.waitForFunction(async () => {
    const reg = await navigator.serviceWorker.getRegistration();
    return reg?.active?.state === 'activated';
  }, null, { timeout: 60_000 });
  // The first load is not controlled yet (no clients.claim: prompt-style updates); a reload is.
  await page.reload();
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
}

test('offline after the first visit: every lab, the SQL console, Explore and the herd still work', async ({ lab, context }) => {
  test.setTimeout(180_000);
  await lab.goto('./#/races');
  await expect(lab.getByTestId('scenario-picker')).toBeVisible({ timeout: 20_000 });
  await waitForServiceWorker(lab);

  await context.setOffline(true);
  // A fresh navigation with the network gone is answered from the precache.
  await lab.goto('./#/races');
  await expect(lab.getByTestId('scenario-picker')).toBeVisible({ timeout: 20_000 });
  await expect(lab.getByRole('link', { name: 'Races' })).toBeVisible();

  // Every lab's lazy chunk.
  await lab.goto('./#/resilience');
  await expect(lab.getByTestId('scenario-picker')).toBeVisible({ timeout: 20_000 });

  await lab.goto('./#/ledger');
  await expect(lab.getByTestId('scenario-picker')).toBeVisible({ timeout: 20_000 });
  // The console's worker and the sql.js wasm it loads.
  await lab.getByTestId('console-sql').fill('SELECT 1+1 AS two');
  await lab.getByTestId('console-run').click();
  await expect(lab.getByTestId('console-result')).toHaveAttribute('data-rows', '1', { timeout: 30_000 });
  await expect(lab.getByTestId('console-result')).toContainText('2');
  // The explorer's worker (sql.js again, in another worker).
  await lab.getByTestId('explore-run').click();
  await expect(lab.getByTestId('explore-claim')).toBeVisible({ timeout: 60_000 });
  await expect(lab.getByTestId('explore-naive')).toHaveAttribute('data-twice', '200');

  await lab.goto('./#/flow');
  await expect(lab.getByTestId('flow-scenario')).toBeVisible({ timeout: 20_000 });
  // The herd's worker: the table carries the computed numbers.
  await expect(lab.getByTestId('herd-row-exponential').getByTestId('herd-peak')).toHaveText('10,000', { timeout: 30_000 });

  // A scenario file under public/scenarios is served from the precache too.
  const status = await lab.evaluate(async () => (await fetch('./scenarios/ledger/A-race-two-connections.json')).status);
  expect(status).toBe(200);
  await context.setOffline(false);
});
