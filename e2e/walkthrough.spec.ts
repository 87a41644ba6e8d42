import { expect, test } from './fixtures';
import { LabDriver } from './pages/lab';

/** Findings of the new-user walkthrough at the end of this round, each fixed in the kit or the lab contract. */
test.describe('Walkthrough findings', () => {
  test('resilience All orders: outcome classes read as text and the table stays inside the page at 1280 and 390 px', async ({ lab: page }) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 844 });
      const res = await new LabDriver(page, 'resilience').open('T1-abort-before-task-id');
      await res.exploreAllOrders();
      await expect(res.orderSummary).toContainText('120 orders, 30 replayed, 90 forbidden by the lab');
      const outcome = res.orderClassOutcome(0);
      await expect(outcome).toContainText('requests: [');
      expect(await outcome.textContent()).not.toMatch(/[{}"]/);
      const overflow = await res.sidewaysOverflow();
      expect(overflow, `sideways scroll at ${width} px`).toBeLessThanOrEqual(0);
    }
  });

  test('resilience refuses more events than its page draws, naming the limit, and keeps the scenario', async ({ lab: page }) => {
    const res = await new LabDriver(page, 'resilience').open('S4-stacked-retry-layers');
    const raw = await page.evaluate(() => fetch(new URL('scenarios/resilience/S4-stacked-retry-layers.json', document.baseURI)).then((r) => r.json()));
    const events = Array.from({ length: 2001 }, (_, i) => ({ ...raw.events[0], id: `e${i}`, at: i }));
    await res.paste({ ...raw, id: 'big', title: 'Too many', events, expect: undefined });
    await expect(res.banner).toContainText('draws at most 2,000 events');
    await expect(res.picker).toHaveValue('S4-stacked-retry-layers');
  });

  test('bidi controls in an imported title are not shown raw (ledger heading)', async ({ lab: page }) => {
    const ledger = await new LabDriver(page, 'ledger').open('A-race-two-connections');
    const raw = await page.evaluate(() => fetch(new URL('scenarios/ledger/A-race-two-connections.json', document.baseURI)).then((r) => r.json()));
    await ledger.paste({ ...raw, id: 'bidi', title: '\u202Eevil\u202C title' });
    await expect(ledger.heading).toHaveText('evil title');
  });
});

test('a bad paste far down the page brings the banner into view below the sticky header', async ({ lab: page }) => {
  const races = await new LabDriver(page, 'races').open('A-cancel-then-complete');
  await races.importText.scrollIntoViewIfNeeded();
  await races.paste('{oops');
  await expect(races.banner).toBeVisible();
  await expect.poll(async () => {
    const header = await races.siteHeader.boundingBox();
    const banner = await races.banner.boundingBox();
    return header && banner ? Math.round(banner.y - (header.y + header.height)) : -1;
  }).toBeGreaterThanOrEqual(0);
});
