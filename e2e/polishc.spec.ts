import { readFileSync } from 'node:fs';
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures';
import { LabDriver } from './pages/lab';
import { TrafficDriver } from './pages/traffic';

/**
 * The new-user walkthrough's leftovers (closing note of 00:38, "Left"), each with the browser check
 * that fails without its fix. Screenshots of each changed state at 1280 and 390 px go to SHOTS.
 */
const SHOTS = process.env.POLISHC_SHOTS_DIR ?? '/tmp/polishc-shots';
const WIDTHS = [1280, 390];

const scenarioFile = (lab: string, id: string) => JSON.parse(readFileSync(`public/scenarios/${lab}/${id}.json`, 'utf8')) as Record<string, unknown>;
const countOf = (text: string, word: string) => text.split(word).length - 1;
/** Every `[text](href)` of a Markdown document. */
const markdownLinks = (md: string) => [...md.matchAll(/\[((?:\\.|[^\]\\])*)\]\(([^)]*)\)/g)].map((m) => ({ text: m[1], href: m[2] }));

type Box = { left: number; right: number; top: number; bottom: number; scrollWidth: number; clientWidth: number };
const boxOf = (l: Locator): Promise<Box> =>
  l.evaluate((e) => {
    const r = e.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, scrollWidth: e.scrollWidth, clientWidth: e.clientWidth };
  });

test.describe('Walkthrough leftovers (third pass)', () => {
  test('traffic: a link parameter is reported as in the labs — "foo: unknown link parameter — ignored", then "… the transcript is kept" once one is loaded', async ({ lab: page }) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const traffic = await new TrafficDriver(page).openAt('?foo=1');
      await expect(traffic.banner).toContainText('Parts of the link are not valid; showing the Traffic page');
      await expect(traffic.bannerItems).toHaveText(['foo: unknown link parameter — ignored']);
      await expect.poll(() => traffic.hash()).toBe('#/traffic');
      await traffic.banner.screenshot({ path: `${SHOTS}/traffic-link-${width}.png` });
    }
    const traffic = new TrafficDriver(page);
    await traffic.pickSample('inspector-v2/inspector-responds-after-cancel.json');
    await traffic.followHash('#/traffic/A-cancel-then-complete?bar=2');
    await expect(traffic.bannerItems).toHaveText([
      'scenario id (in the link): the Traffic page has no scenarios of its own, got "A-cancel-then-complete" — ignored; the transcript is kept',
      'bar: unknown link parameter — ignored; the transcript is kept',
    ]);
    await expect(traffic.source).toHaveText('The sample inspector-responds-after-cancel.json');
    await expect.poll(() => traffic.hash()).toBe('#/traffic');
    await traffic.banner.screenshot({ path: `${SHOTS}/traffic-link-kept-390.png` });
  });

  test('a link with an unknown parameter: the banner says "ignored" once, in the parameter\'s line', async ({ lab: page }) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const races = await new LabDriver(page, 'races').open('B-complete-then-cancel', '?bogus=1');
      await expect(races.bannerItems).toHaveText(['bogus: unknown link parameter — ignored; the scenario is kept']);
      await expect(races.banner).toContainText('Parts of the link are not valid; showing the built-in "B');
      expect(countOf((await races.banner.textContent()) ?? '', 'ignored')).toBe(1);
      await races.banner.screenshot({ path: `${SHOTS}/banner-ignored-once-${width}.png` });
    }
  });

  test('importing a retitled copy of a built-in: the picker shows the imported title, not the built-in; picking the built-in brings it back', async ({ lab: page }) => {
    const copy = { ...scenarioFile('races', 'A-cancel-then-complete'), title: 'My copy of A' };
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const races = await new LabDriver(page, 'races').open('A-cancel-then-complete');
      await expect(races.pickerShown).toHaveText('A · Cancel, then complete');
      await races.paste(copy);
      await expect(races.importStatus).toContainText('Imported My copy of A');
      await expect(races.heading).toHaveText('My copy of A');
      await expect(races.pickerShown).toHaveText('My copy of A (imported)');
      // "Imported My copy of A — Undo" names the step already: no second copy beside the buttons.
      await expect(races.historyStep).toHaveCount(0);
      await races.scenarioBar.screenshot({ path: `${SHOTS}/picker-retitled-${width}.png` });
      await races.pick('A-cancel-then-complete');
      await expect(races.pickerShown).toHaveText('A · Cancel, then complete');
      await expect(races.heading).not.toHaveText('My copy of A');
    }
  });

  test('every import stays in the picker under "Imported": picking a built-in loses none, and picking it brings it back', async ({ lab: page }) => {
    const copy = { ...scenarioFile('races', 'A-cancel-then-complete'), title: 'My copy of A' };
    const mine = { ...scenarioFile('races', 'B-complete-then-cancel'), id: 'mine', title: 'Mine' };
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const races = await new LabDriver(page, 'races').open('A-cancel-then-complete');
      await expect(races.pickerImported).toHaveCount(0);
      await races.paste(copy);
      await races.paste(mine);
      await expect(races.pickerShown).toHaveText('Mine (imported)');
      await races.pick('C-progress-idle-maximum');
      await expect(races.pickerImportedOptions).toHaveText(['My copy of A (imported)', 'Mine (imported)']);
      await races.pickLabel('My copy of A (imported)');
      await expect(races.heading).toHaveText('My copy of A');
      await expect(races.pickerShown).toHaveText('My copy of A (imported)');
      await expect(races.historyStep).toHaveText('Undo: switch to My copy of A (imported)');
      await races.scenarioBar.screenshot({ path: `${SHOTS}/picker-imported-${width}.png` });
    }
  });

  test('a near-empty scenario file ({"format":1}) reports every problem at once, each "field: what is wrong — what to do"', async ({ lab: page }) => {
    const lines = (lab: string) => [`lab: must be "${lab}" for this lab, got nothing — set "lab" to "${lab}"`, 'id: is missing — add it (a string)', 'title: is missing — add it (a string)', 'config: is missing — add it (an object)', 'events: is missing — add it (an array)'];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      for (const labId of ['races', 'flow'] as const) {
        const lab = await new LabDriver(page, labId).open();
        await lab.paste('{"format":1}');
        await expect(lab.banner).toContainText(`The pasted scenario is not a valid ${labId} scenario; the previous scenario is kept`);
        await expect(lab.bannerItems).toHaveText(lines(labId));
        if (labId === 'races') await lab.banner.screenshot({ path: `${SHOTS}/format-only-${width}.png` });
      }
    }
  });

  test('traffic Export review: every link in the saved report is a complete address of this lab', async ({ lab: page }) => {
    const traffic = await new TrafficDriver(page).open();
    await traffic.pickSample('inspector-v2/inspector-responds-after-cancel.json');
    const [review] = await Promise.all([page.waitForEvent('download', { timeout: 20_000 }), traffic.exportReviewButton.click()]);
    const md = await (await review.createReadStream()).toArray().then((c) => Buffer.concat(c).toString('utf8'));
    const base = page.url().split('#')[0];
    const links = markdownLinks(md);
    expect(links.length).toBeGreaterThan(3);
    expect(links.filter((l) => !l.href.startsWith(`${base}#/`))).toEqual([]);
    expect(md).toContain(`in the lab at ${base}.`);
  });

  test('undo and redo name their step as visible text beside the buttons, one line cut with an ellipsis at 390 px', async ({ lab: page }) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      const races = await new LabDriver(page, 'races').open('A-cancel-then-complete');
      await expect(races.historyStep).toHaveCount(0);
      await races.nudgeEvent('cancel', 'ArrowRight');
      await expect(races.historyStep).toHaveText(/^Undo: move cancel to \d+ ms$/);
      await expect(races.historyStep).toBeVisible();
      await races.pick('I6-cancel-in-write-window');
      await expect(races.historyStep).toHaveText(/^Undo: switch to I6 · /);
      const box = await boxOf(races.historyStep);
      expect(box.right, `the step text ends at ${box.right} px in a ${width} px window`).toBeLessThanOrEqual(width);
      expect(box.bottom - box.top, 'one line').toBeLessThan(24);
      if (width === 390) expect(box.scrollWidth, 'cut with an ellipsis: the whole text is wider than the line').toBeGreaterThan(box.clientWidth);
      expect(await races.sidewaysOverflow()).toBe(0);
      await races.scenarioBar.screenshot({ path: `${SHOTS}/history-step-${width}.png` });
      await races.undoButton.click();
      await expect(races.historyStep).toHaveText(/^Undo: move cancel to \d+ ms$/);
      await races.undoButton.click();
      await expect(races.historyStep).toHaveText(/^Redo: move cancel to \d+ ms$/);
    }
  });

  test('a step named after an event whose id carries bidi controls reads in order (walkthrough: "Undo: move cansm 013 ot lec")', async ({ lab: page }) => {
    const races = await new LabDriver(page, 'races').open('A-cancel-then-complete');
    const scenario = scenarioFile('races', 'A-cancel-then-complete') as { events: { id: string }[] };
    const cancel = scenario.events.find((e) => e.id === 'cancel');
    if (!cancel) throw new Error('A has a cancel event');
    cancel.id = 'can\u202Ecel';
    await races.paste({ ...scenario, id: 'bidi', title: 'Bidi ids' });
    await races.nudgeEvent('can\u202Ecel', 'ArrowRight');
    await expect(races.historyStep).toHaveText(/^Undo: move cancel to \d+ ms$/);
    await expect(races.undoButton).toHaveAttribute('aria-label', /^Undo: move cancel to \d+ ms$/);
    await expect(races.undoButton).toHaveAttribute('title', /^Undo: move cancel to \d+ ms \(Ctrl\+Z\)$/);
  });
});
