import AxeBuilder from '@axe-core/playwright';
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { LabDriver } from './pages/lab';
import { LedgerPage } from './pages/ledger';
import { ResiliencePage } from './pages/resilience';

/**
 * Issue 9's last walkthrough leftovers (closing note, "Left"), each with the browser check that
 * failed before its fix. Screenshots of each changed state at 1280 and 390 px go to SHOTS.
 */
const SHOTS = process.env.POLISHB_SHOTS_DIR ?? '/tmp/polishb-shots';

type Box = { left: number; right: number; top: number; bottom: number; text: string };
const boxesOf = (l: Locator): Promise<Box[]> =>
  l.evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, text: e.textContent ?? '' };
    }),
  );
/** Whether two text boxes overlap, their ink: a text's box holds about 2 px of the font's leading above and below its letters. */
const overlap = (a: Box, b: Box) => a.left < b.right && b.left < a.right && a.top + 2 < b.bottom - 2 && b.top + 2 < a.bottom - 2;

test.describe('Walkthrough leftovers (second pass)', () => {
  test('races I6: every lesson button stays inside its card at 1280 and 390 px', async ({ lab: page }) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const races = await new LabDriver(page, 'races').open('I6-cancel-in-write-window');
      // "The lesson says" is a lazy chunk: wait for its rows before counting them (count() does not wait).
      await expect(races.lessonRow(2)).toBeVisible();
      const rows = await races.lessonRows.count();
      expect(rows).toBeGreaterThan(2);
      for (let i = 0; i < rows; i++) {
        const [card] = await boxesOf(races.lessonRow(i));
        const [button] = await boxesOf(races.lessonButton(i));
        expect(button.right, `lesson row ${i} at ${width} px: its button ends at ${button.right}, the card at ${card.right}`).toBeLessThanOrEqual(card.right);
      }
      await races.lessonRow(1).screenshot({ path: `${SHOTS}/races-I6-lesson-${width}.png` });
    }
  });

  test('races I6: no arrow runs through the first letters of an end label ("cancelled · 1 020 ms")', async ({ lab: page }) => {
    const races = await new LabDriver(page, 'races').open('I6-cancel-in-write-window');
    await races.toEnd();
    const label = races.marks.spanLabel('cancelled · 1 020 ms');
    await expect(label).toBeVisible();
    const [box] = await boxesOf(label);
    const arrows = await boxesOf(races.marks.arrowLines);
    const through = arrows.filter((a) => a.right - a.left < 4 && a.top < box.bottom && a.bottom > box.top && a.right > box.left - 1 && a.left < box.right + 1);
    expect(through, `arrows crossing the label at x ${box.left}–${box.right}`).toEqual([]);
    await races.timelinePanel.screenshot({ path: `${SHOTS}/races-I6-timeline-1280.png` });
    await page.setViewportSize({ width: 390, height: 900 });
    await races.timelinePanel.screenshot({ path: `${SHOTS}/races-I6-timeline-390.png` });
  });

  test('undo names its step: after picking another built-in, Undo says "switch to B…", Ctrl+Z brings A back with its edit, Redo names the switch', async ({ lab: page }) => {
    const races = await new LabDriver(page, 'races').open('A-cancel-then-complete');
    await expect(races.undoButton).toHaveAttribute('title', 'Nothing to undo');
    await races.nudgeEvent('cancel', 'ArrowRight');
    await expect(races.undoButton).toHaveAttribute('title', /^Undo: move cancel to \d+ ms \(Ctrl\+Z\)$/);
    await races.pick('B-complete-then-cancel');
    await expect(races.undoButton).toHaveAttribute('title', 'Undo: switch to B · Complete, then the cancel arrives (Ctrl+Z)');
    await expect(races.undoButton).toHaveAccessibleName('Undo: switch to B · Complete, then the cancel arrives');
    await races.scenarioBar.screenshot({ path: `${SHOTS}/undo-title-1280.png` });
    await races.undoKey();
    await expect(races.picker).toHaveValue('A-cancel-then-complete');
    await expect(races.editedBadge).toBeVisible();
    await expect(races.redoButton).toHaveAttribute('title', 'Redo: switch to B · Complete, then the cancel arrives (Ctrl+Shift+Z)');
    await expect(races.undoButton).toHaveAttribute('title', /^Undo: move cancel to/);
    await page.setViewportSize({ width: 390, height: 900 });
    await races.scenarioBar.screenshot({ path: `${SHOTS}/undo-title-390.png` });
    // The same in another lab (one store factory).
    const res = await races.switchTo('resilience');
    await res.pick('B2-retry-composition');
    await expect(res.undoButton).toHaveAttribute('title', /^Undo: switch to B2 · /);
  });

  test('resilience B2: the timeouts table fits at 390 px; its scroll region is labelled and reachable by keyboard; axe passes', async ({ lab: page }) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const res = await new ResiliencePage(page).open('B2-retry-composition');
      const region = res.timeoutsRegion;
      await expect(region).toBeVisible();
      await expect(region).toHaveAttribute('role', 'region');
      await expect(region).toHaveAttribute('tabindex', '0');
      await expect(region).toHaveAccessibleName(/Timeouts by load/);
      const { scroll, client } = await region.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
      expect(scroll, `the table is ${scroll} px wide in a ${client} px region at ${width} px`).toBeLessThanOrEqual(client);
      await region.focus();
      await expect(region).toBeFocused();
      const results = await new AxeBuilder({ page }).include('[data-testid="timeouts-region"]').analyze();
      expect(results.violations.map((v) => v.id)).toEqual([]);
      await region.scrollIntoViewIfNeeded();
      await region.screenshot({ path: `${SHOTS}/resilience-B2-timeouts-${width}.png` });
    }
  });

  test('resilience seeds: "Read at 97 s" stays on one line at 1280 and 390 px', async ({ lab: page }) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const { seeds } = await new ResiliencePage(page).open('S2-timeouts-cancel');
      if ((await seeds.group.getAttribute('open')) === null) await seeds.summary.click();
      const slider = seeds.seed('tier-second');
      await slider.fill('97');
      const label = seeds.seed('tier-second-label');
      await expect(label).toHaveText('Read at 97 s');
      const lines = await label.evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
      });
      expect(lines, `"Read at 97 s" at ${width} px`).toBe(1);
      await seeds.seed('tiers').screenshot({ path: `${SHOTS}/seed-tiers-${width}.png` });
    }
  });

  test('ledger: the two All orders panels say which is which', async ({ lab: page }) => {
    const ledger = await new LedgerPage(page).open('A-race-two-connections');
    await expect(ledger.explore.heading).toHaveText('All orders at once · every policy compared');
    await expect(ledger.explore.intro).toContainText('Compares the policies on the scenario as scripted');
    await expect(ledger.allOrdersHeading).toHaveText('All orders');
    await expect(ledger.allOrdersIntro).toContainText('Under the current policy only (the panel above compares every policy');
    await ledger.explore.heading.screenshot({ path: `${SHOTS}/ledger-explore-heading-1280.png` });
    await ledger.allOrders.screenshot({ path: `${SHOTS}/ledger-all-orders-1280.png` });
    await page.setViewportSize({ width: 390, height: 900 });
    await ledger.allOrders.screenshot({ path: `${SHOTS}/ledger-all-orders-390.png` });
  });

  test('ledger C at 390 px: no end label ("executed charge-00N") under a handle label ("retry 2", "retry 3")', async ({ lab: page }) => {
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      const ledger = await new LedgerPage(page).open('C-no-key-retries');
      await ledger.toEnd();
      await expect(ledger.marks.spanLabels).toHaveCount(3);
      const spans = await boxesOf(ledger.marks.spanLabels);
      const handles = await boxesOf(ledger.marks.handleLabels);
      for (const s of spans) for (const h of handles) expect(overlap(s, h), `"${s.text}" and "${h.text}" at ${width} px`).toBe(false);
      await ledger.timelinePanel.screenshot({ path: `${SHOTS}/ledger-C-timeline-${width}.png` });
    }
  });

  test('an unknown link parameter reads the same in every lab: "foo: unknown link parameter — ignored; the scenario is kept"', async ({ lab: page }) => {
    const races = await new LabDriver(page, 'races').open('B-complete-then-cancel', '?foo=1');
    await expect(races.picker).toHaveValue('B-complete-then-cancel');
    await expect(races.bannerItems).toHaveText(['foo: unknown link parameter — ignored; the scenario is kept']);
    await races.banner.screenshot({ path: `${SHOTS}/link-unknown-1280.png` });
    await page.setViewportSize({ width: 390, height: 900 });
    await races.banner.screenshot({ path: `${SHOTS}/link-unknown-390.png` });
  });
});
