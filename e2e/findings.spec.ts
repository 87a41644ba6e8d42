import AxeBuilder from '@axe-core/playwright';
import { test as base, type Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { FlowPage } from './pages/flow';
import { LedgerPage } from './pages/ledger';
import { ResiliencePage } from './pages/resilience';

/**
 * Browser tests for the cross-lab findings of issue 9 that live in the workers, the ledger console,
 * the herd plot, the storm timeline and the ledger's narrow layout. The service worker is blocked
 * here so that Playwright's routes see every request (a route cannot answer what a service
 * worker answers); offline behaviour has its own spec (offline.spec.ts).
 */
test.use({ serviceWorkers: 'block' });

/**
 * A page that, like the `lab` fixture, fails on console errors and uncaught exceptions, except the
 * one the test causes on purpose: the browser's own report that a routed worker script got a 404.
 */
const failing = base.extend<{ page404: Page }>({
  page404: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !/Failed to load resource: the server responded with a status of 404/.test(m.text())) problems.push(`console error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await use(page);
    expect(problems).toEqual([]);
  },
});
failing.use({ serviceWorkers: 'block' });

/** Makes the worker chunk whose file name starts with `name` answer 404 (offline before the site was cached, or a file gone after a redeploy); returns the restore function. */
async function breakWorker(page: Page, name: string): Promise<() => Promise<void>> {
  const pattern = new RegExp(`/assets/${name}-[\\w-]+\\.js$`);
  await page.route(pattern, (route) => route.fulfill({ status: 404, contentType: 'text/plain', body: 'not found' }));
  return () => page.unroute(pattern);
}

async function openLedger(page: Page): Promise<LedgerPage> {
  return new LedgerPage(page).visit();
}

async function openFlow(page: Page): Promise<FlowPage> {
  return new FlowPage(page).visit();
}

failing.describe('a worker that fails to start says so, with Retry', () => {
  failing('SQL console', async ({ page404: page }) => {
    const restore = await breakWorker(page, 'console.worker');
    const ledger = await openLedger(page);
    const error = ledger.console.workerError;
    await expect(error).toContainText("SQL console: its worker did not start (its script did not load) — check the connection, then press Retry", { timeout: 20_000 });
    await expect(ledger.console.runButton).toBeDisabled();
    await restore();
    await ledger.console.retry();
    await expect(error).toHaveCount(0);
    await ledger.console.run('SELECT 1+1 AS two');
    await expect(ledger.console.result).toHaveAttribute('data-rows', '1');
    await expect(ledger.console.panel).toHaveAttribute('data-worker-starts', '2');
  });

  failing('Explore', async ({ page404: page }) => {
    const restore = await breakWorker(page, 'explore.worker');
    const ledger = await openLedger(page);
    await ledger.explore.run();
    const error = ledger.explore.error;
    await expect(error).toContainText('Explore: its worker did not start (its script did not load) — check the connection, then press Retry', { timeout: 20_000 });
    // Not "0 / 1260" as if it were still running: the run is over, and says so.
    await expect(ledger.explore.status('0 / 1260 — failed')).toBeVisible();
    await expect(ledger.explore.runButton).toBeEnabled();
    await restore();
    await ledger.explore.retry();
    await expect(ledger.explore.variant('claim')).toBeVisible({ timeout: 60_000 });
    await expect(ledger.explore.variant('naive')).toHaveAttribute('data-twice', '200');
    await expect(error).toHaveCount(0);
  });

  failing('the herd', async ({ page404: page }) => {
    const restore = await breakWorker(page, 'herd.worker');
    const flow = await openFlow(page);
    await expect(flow.herd.message("herd plot: its worker did not start (its script did not load) — check the connection, then press Retry")).toBeVisible({ timeout: 20_000 });
    await expect(flow.herd.message('Computing the herd…')).toHaveCount(0);
    await expect(flow.herd.canvas).toHaveAttribute('aria-busy', 'false');
    await restore();
    await flow.herd.retry();
    await expect(flow.herd.cell('exponential', 'peak')).toHaveText('10,000', { timeout: 30_000 });
    await expect(flow.herd.retryButton).toHaveCount(0);
    await expect(flow.herd.canvas).toHaveAttribute('data-worker-starts', '2');
  });
});

test.describe('ledger SQL console', () => {
  test('PRAGMA query_only = 0 is refused and the console stays read-only', async ({ lab }) => {
    const ledger = await openLedger(lab);
    await ledger.console.run('PRAGMA query_only = 0; DELETE FROM charges');
    await expect(ledger.console.error).toHaveText('sql: PRAGMA query_only = 0 is a PRAGMA write, refused — the console stays read-only; read a setting without a value, e.g. PRAGMA query_only');
    await ledger.console.run('DELETE FROM charges');
    await expect(ledger.console.error).toHaveText('attempt to write a readonly database');
  });

  test('a result cut to 200 rows says how many there were', async ({ lab }) => {
    const ledger = await openLedger(lab);
    await ledger.console.run('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c LIMIT 5000) SELECT x FROM c');
    await expect(ledger.console.result).toHaveAttribute('data-rows', '200');
    await expect(ledger.console.cut).toHaveText('showing 200 of 5,000 rows — add a WHERE or LIMIT to see the others');
    await ledger.console.run('SELECT 1');
    await expect(ledger.console.result).toHaveAttribute('data-rows', '1');
    await expect(ledger.console.cut).toHaveCount(0);
  });

  test('one warm worker serves every query; only a statement stopped for its budget costs a new one', async ({ lab }) => {
    const ledger = await openLedger(lab);
    const panel = ledger.console.panel;
    // Started (and SQLite loaded) when the panel mounts, before the first Run.
    await expect(panel).toHaveAttribute('data-worker-state', 'ready', { timeout: 20_000 });
    await expect(panel).toHaveAttribute('data-worker-starts', '1');
    for (let i = 1; i <= 4; i++) {
      await ledger.console.run(`SELECT ${i}+1 AS n`);
      await expect(ledger.console.result).toContainText(String(i + 1));
    }
    await expect(panel).toHaveAttribute('data-worker-starts', '1');
    await ledger.console.run('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) FROM c');
    await ledger.console.stop();
    await expect(ledger.console.error).toHaveText('stopped by you before it finished');
    // The stopped worker is replaced at once, so the next query is warm again.
    await expect(panel).toHaveAttribute('data-worker-starts', '2');
    await expect(panel).toHaveAttribute('data-worker-state', 'ready', { timeout: 20_000 });
  });
});

/** Holds the herd worker's answers until `releaseHerd` (a test-only wrapper around Worker, so "pending" lasts as long as the test needs, whatever the machine's speed). */
async function holdHerdReplies(page: Page) {
  await page.addInitScript(() => {
    const w = window as unknown as { Worker: typeof Worker; holdHerd: boolean; heldHerd: (() => void)[]; releaseHerd(): void };
    const Native = w.Worker;
    w.holdHerd = false;
    w.heldHerd = [];
    w.releaseHerd = () => {
      w.holdHerd = false;
      for (const f of w.heldHerd.splice(0)) f();
    };
    w.Worker = class extends Native {
      private readonly herd: boolean;
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        this.herd = String(url).includes('herd.worker');
      }
      set onmessage(fn: ((e: MessageEvent) => void) | null) {
        super.onmessage = !this.herd || !fn ? fn : (e: MessageEvent) => (w.holdHerd ? w.heldHerd.push(() => fn.call(this, e)) : fn.call(this, e));
      }
      get onmessage() {
        return super.onmessage;
      }
    };
  });
}

test.describe('herd plot', () => {
  test('a busy sign shows over the previous run while a newer one is pending', async ({ lab }) => {
    await holdHerdReplies(lab);
    const flow = await openFlow(lab);
    const canvas = flow.herd.canvas;
    await expect(flow.herd.cell('exponential', 'peak')).toHaveText('10,000', { timeout: 30_000 });
    await expect(canvas).toHaveAttribute('aria-busy', 'false');
    await expect(flow.herd.busy).toHaveCount(0);
    await lab.evaluate(() => ((window as unknown as { holdHerd: boolean }).holdHerd = true));
    await flow.herd.setClientsStep(3);
    await expect(flow.herd.clientsValue).toHaveText('1,000');
    // The drawing is still the 10,000-client run: the plot says it is computing.
    await expect(canvas).toHaveAttribute('aria-busy', 'true');
    await expect(flow.herd.busy).toHaveText('Computing…');
    await expect(flow.herd.busy).toBeVisible();
    await expect(flow.herd.cell('exponential', 'peak')).toHaveText('10,000');
    await lab.evaluate(() => (window as unknown as { releaseHerd(): void }).releaseHerd());
    await expect(flow.herd.cell('exponential', 'peak')).toHaveText('1,000');
    await expect(canvas).toHaveAttribute('aria-busy', 'false');
    await expect(flow.herd.busy).toHaveCount(0);
  });

  test('its number boxes refuse bad values with the shared banner and keep the previous value', async ({ lab }) => {
    const flow = await openFlow(lab);
    await expect(flow.herd.table).toBeVisible({ timeout: 30_000 });
    const outage = flow.herd.box('outageMs');
    await outage.fill('999999999');
    const banner = flow.herd.error;
    await expect(banner).toContainText('herd.outageMs: 999,999,999 is above the maximum (60,000) — enter a value from 0 to 60,000; the plot keeps 5,000');
    await expect(outage).toHaveAttribute('aria-invalid', 'true');
    await outage.blur();
    await expect(outage).toHaveValue('5000');
    await expect(flow.herd.tableCaption).toContainText('after a 5000 ms outage');
    const cap = flow.herd.box('capMs');
    await cap.fill('1');
    await expect(banner).toContainText('herd.capMs: 1 ms is below the base delay (1,000 ms) — enter at least 1,000, or lower the base first; the plot keeps 32,000');
    await cap.blur();
    await expect(cap).toHaveValue('32000');
    // A good value is taken and its line leaves the banner; once both fields take one, the banner goes.
    await cap.fill('16000');
    await expect(banner).not.toContainText('herd.capMs');
    await outage.fill('6000');
    await expect(banner).toHaveCount(0);
    await expect(flow.herd.tableCaption).toContainText('after a 6000 ms outage');
  });
});

test.describe('flow reconnect plan', () => {
  test('the event-store box refuses 0, -1, empty and 1e20 with the shared banner and keeps the previous value', async ({ lab }) => {
    await lab.goto('./#/flow/F1-stalled-subscriber');
    const flow = new FlowPage(lab);
    const box = flow.plan.store;
    await expect(box).toHaveValue('1024', { timeout: 20_000 });
    // The disconnect policy drops the stream at 11,240 ms, after event 100: the store size matters.
    await flow.setPolicy('disconnect');
    await expect(flow.plan.revision('2025')).toContainText('evicted 101–4976');
    const banner = flow.plan.storeError;
    for (const [typed, problem] of [
      ['0', 'plan.eventStoreEvents: 0 is below 1'],
      ['-1', 'plan.eventStoreEvents: -1 is below 1'],
      ['', 'plan.eventStoreEvents: is empty'],
      ['1e20', 'plan.eventStoreEvents: 100,000,000,000,000,000,000 is above the maximum (1,000,000)'],
    ] as const) {
      await box.fill(typed);
      await box.blur();
      await expect(banner).toContainText(`${problem} — enter a whole number of events from 1 to 1,000,000; the plan keeps 1,024`);
      await expect(box).toHaveValue('1024');
    }
    // A good value is taken as it is typed and the banner goes.
    await box.fill('16');
    await expect(banner).toHaveCount(0);
    await expect(flow.plan.revision('2025')).toContainText('evicted 101–5984');
    await box.blur();
    await expect(box).toHaveValue('16');
  });
});

test.describe('resilience storm timeline', () => {
  test('the "N attempts" labels follow the playhead', async ({ lab }) => {
    await lab.goto('./#/resilience/S2-timeouts-cancel');
    const res = new ResiliencePage(lab);
    await expect(res.picker).toHaveValue('S2-timeouts-cancel');
    const labels = res.marks.stepsLabels;
    await expect(labels).toHaveText(['1 of 2 attempts', '1 of 8 attempts', '1 of 32 attempts', '1 of 32 executions']);
    await res.jumpToEndButton.click();
    await expect(labels).toHaveText(['2 attempts', '8 attempts', '32 attempts', '32 executions']);
  });

  test('the S2 attempt tree is a scrollable region the keyboard can reach (axe)', async ({ lab }) => {
    test.setTimeout(90_000);
    await lab.goto('./#/resilience/S2-timeouts-cancel');
    const res = new ResiliencePage(lab);
    await expect(res.picker).toHaveValue('S2-timeouts-cancel');
    const tree = await res.openAttemptTree();
    await expect(tree).toBeVisible();
    expect(await tree.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await tree.focus();
    await expect(tree).toBeFocused();
    await lab.keyboard.press('PageDown');
    await expect.poll(() => tree.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    const results = await new AxeBuilder({ page: lab }).include('[data-testid="storm-attempt-tree"]').analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
    const page = await new AxeBuilder({ page: lab }).analyze();
    expect(page.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} (${v.nodes.length})`)).toEqual([]);
  });
});

test('the ledger page does not scroll sideways at 390 px', async ({ lab }) => {
  await lab.setViewportSize({ width: 390, height: 800 });
  const ledger = await openLedger(lab);
  await expect(ledger.practice.variantPicker).toBeVisible();
  await expect(ledger.console.panel).toBeVisible();
  expect(await ledger.scrollWidth()).toBeLessThanOrEqual(390);
  const box = (await ledger.practice.variantPicker.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(390);
});
