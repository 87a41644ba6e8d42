import { expect, test } from './fixtures';
import { test as plain } from '@playwright/test';
import { LabDriver, type LabId } from './pages/lab';
import { RacesPage } from './pages/races';
import { ResiliencePage } from './pages/resilience';

/** The cross-lab findings of the new-user walkthrough, fixed once in the kit and checked in every lab they touch. */

test.describe('Lab kit: state, links and keys the same in every lab', () => {
  test('switching labs with the nav keeps each lab as it was left, and the nav links carry each lab\'s address', async ({ lab: page }) => {
    const races = await new RacesPage(page).open('B-complete-then-cancel');
    await races.setTransport('streamable-http');
    await expect.poll(() => races.hash()).toContain('transport=streamable-http');
    const ledger = await races.switchTo('ledger');
    await ledger.pick('D-same-key');
    const back = await ledger.switchTo('races');
    await expect(back.picker).toHaveValue('B-complete-then-cancel');
    await expect(races.transport).toHaveValue('streamable-http');
    expect(await back.hash()).toMatch(/^#\/races\/B-complete-then-cancel\?transport=streamable-http/);
    await expect(back.nav('ledger')).toHaveAttribute('href', '#/ledger/D-same-key');
    // The undo history lived on too: the transport change is still undoable.
    await back.clickHeading();
    await back.undoKey();
    await expect(races.transport).not.toHaveValue('streamable-http');
    const again = await back.switchTo('ledger');
    await expect(again.picker).toHaveValue('D-same-key');
    // A reload agrees with what is shown.
    await page.reload();
    await expect(again.picker).toHaveValue('D-same-key', { timeout: 20_000 });
  });

  test('Ctrl+Z undoes a setting changed with the mouse while the focus stays in that control', async ({ lab: page }) => {
    const races = await new RacesPage(page).open('A-cancel-then-complete');
    const transport = races.transport;
    const before = await transport.inputValue();
    await transport.focus();
    await transport.selectOption(before === 'stdio' ? 'streamable-http' : 'stdio');
    await expect(transport).toBeFocused();
    await races.undoKey();
    await expect(transport).toHaveValue(before);
    await races.undoKey(true);
    await expect(transport).not.toHaveValue(before);
    // In a text field Ctrl+Z stays the field's own undo.
    await races.importText.fill('abc');
    await races.importText.press('Control+Z');
    await expect(transport).not.toHaveValue(before);
  });

  const named: [LabId, string][] = [
    ['races', 'B-complete-then-cancel'],
    ['ledger', 'D-same-key'],
    ['flow', 'R1-coalesce-one-token'],
    ['resilience', 'B2-retry-composition'],
  ];
  for (const [labId, id] of named) {
    test(`${labId}: a link with an unknown parameter keeps the scenario it names and reports the parameter as ignored`, async ({ lab: page }) => {
      const lab = await new LabDriver(page, labId).open(id, '?bogus=1');
      await expect(lab.picker).toHaveValue(id);
      await expect(lab.banner).toContainText('Parts of the link are not valid; showing the built-in');
      // One voice in every lab (races used to say `config: unknown field "bogus"`).
      await expect(lab.bannerItems).toHaveText(['bogus: unknown link parameter — ignored; the scenario is kept']);
    });
  }

  for (const labId of ['races', 'flow', 'resilience', 'ledger'] as LabId[]) {
    test(`${labId}: Tab to "Open file…" puts the focus ring on it, and Enter opens the file picker`, async ({ lab: page }) => {
      const lab = await new LabDriver(page, labId).open();
      await lab.importText.focus();
      await page.keyboard.press('Tab'); // the Import button (disabled while the box is empty → skipped)
      if (!(await lab.openFileButton.evaluate((el) => el === document.activeElement))) await page.keyboard.press('Tab');
      await expect(lab.openFileButton).toBeFocused();
      expect(await lab.openFileButton.evaluate((el) => el.matches(':focus-visible') && getComputedStyle(el).outlineStyle !== 'none')).toBe(true);
      expect(await lab.exportButton.evaluate((el) => el.matches(':focus') || getComputedStyle(el).outlineStyle !== 'none')).toBe(false);
      const chooser = page.waitForEvent('filechooser');
      await page.keyboard.press('Enter');
      expect((await chooser).isMultiple()).toBe(false);
    });
  }
});

test.describe('Races picker and empty scenarios', () => {
  test('the picker shows the letters the README uses (A–D, E, E2, F1–F5, I1–I6, K1–K4, L, M1, R1, S1–S2, V1)', async ({ lab: page }) => {
    const lab = await new LabDriver(page, 'races').open();
    const labels = await lab.pickerOptions.allTextContents();
    const codes = labels.map((l) => /^([A-Z][0-9]?) · /.exec(l)?.[1] ?? l);
    expect(codes).toEqual(['A', 'B', 'C', 'D', 'E', 'E2', 'F1', 'F2', 'F3', 'F4', 'F5', 'I1', 'I2', 'I3', 'I4', 'I5', 'I6', 'K1', 'K2', 'K3', 'K4', 'L', 'M1', 'R1', 'S1', 'S2', 'V1']);
  });

  test('a scenario with no events is refused with a clear reason, the previous one kept', async ({ lab: page }) => {
    const lab = await new LabDriver(page, 'races').open('B-complete-then-cancel');
    await lab.paste({ format: 1, lab: 'races', id: 'empty', title: 'Nothing', config: {}, events: [] });
    await expect(lab.banner).toContainText('events: is empty, so nothing happens and there is no outcome to show');
    await expect(lab.picker).toHaveValue('B-complete-then-cancel');
  });
});

test.describe('Share links', () => {
  test('an edit is carried as a compressed difference from the built-in, and an old uncompressed link still opens', async ({ lab: page }) => {
    const lab = await new LabDriver(page, 'races').open('A-cancel-then-complete');
    const handle = lab.event('cancel');
    await lab.nudgeEvent('cancel', 'ArrowRight');
    await expect(handle).toHaveAttribute('aria-label', /cancel at 310 ms/);
    await expect.poll(() => lab.hash()).toMatch(/^#\/races\?scenario=d1\./);
    const hash = await lab.hash();
    expect(hash.length).toBeLessThan(400);
    await page.goto('about:blank');
    await page.goto(`./${hash}`);
    await expect(lab.event('cancel')).toHaveAttribute('aria-label', /cancel at 310 ms/);
    // A link made before compression: base64url of the JSON, no version marker.
    const scenario = await page.evaluate(async () => (await fetch('./scenarios/races/B-complete-then-cancel.json')).json());
    const old = Buffer.from(JSON.stringify({ ...scenario, title: 'Old link' })).toString('base64url');
    await page.goto('about:blank');
    await page.goto(`./#/races?scenario=${old}`);
    await expect(lab.heading).toHaveText('Old link');
  });
});

plain.describe('A lab that fails to load', () => {
  plain('is contained: the header and the other labs still work, and Try again loads it', async ({ page }) => {
    let block = true;
    await page.route(/\/assets\/FlowLab-[^/]*\.js$/, (route) => (block ? route.abort() : route.continue()));
    const flow = new LabDriver(page, 'flow');
    await page.goto('./#/flow');
    await expect(flow.labFailed).toBeVisible({ timeout: 20_000 });
    await expect(flow.labFailed).toContainText('The Flow lab could not load');
    await flow.nav('races').click();
    await expect(flow.picker).toBeVisible();
    await flow.nav('flow').click();
    await expect(flow.labFailed).toBeVisible();
    block = false;
    await flow.retryLab();
    await expect(flow.labPage).toHaveAttribute('data-lab', 'flow', { timeout: 20_000 });
  });
});

test.describe('Banners clear when their cause is fixed; every edit is undoable', () => {
  test('resilience timeouts: a refused value shows the banner, a good one clears it, and the change undoes', async ({ lab: page }) => {
    const res = await new ResiliencePage(page).open('B1-concurrent-failures');
    const input = res.staticTimeout;
    await res.setStaticTimeout('0');
    const banner = res.banner;
    await expect(banner).toContainText('Static timeout (ms)');
    await res.setStaticTimeout('900');
    await expect(banner).toHaveCount(0);
    await expect(input).toHaveValue('900');
    await res.clickHeading();
    await res.undoKey();
    await expect(res.staticTimeout).toHaveValue('700');
  });
});
