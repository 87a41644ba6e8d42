import { test, expect } from './fixtures';
import { GuidePanelDriver, StartPage } from './pages/start';

test.describe('a newcomer starts at / and walks the Races path', () => {
  test('a first visit to / shows the Start page: what the lab is for, three ways in, a timeline picture, the sources', async ({ lab }) => {
    const start = await new StartPage(lab).forget();
    await start.openRoot();
    await expect(start.heading).toBeVisible();
    for (const w of ['learn', 'check', 'test'] as const) await expect(start.way(w)).toBeVisible();
    await expect(start.picture).toBeVisible();
    await expect(start.sources).toHaveCount(4);
    await expect(start.resumeLink).toHaveCount(0);
    expect(await lab.evaluate(() => location.hash)).toBe('');
  });

  test('the guided path ticks from the run: step to the cancel, then drag it past the completion (keyboard only)', async ({ lab }) => {
    const start = await new StartPage(lab).forget();
    await start.openRoot();
    await start.learnLink.click();
    const guide = new GuidePanelDriver(lab);
    await expect(guide.count).toContainText('Exercise 1 of 6');
    await expect(guide.status).toHaveAttribute('data-met', 'no');
    // A hint on request, one at a time.
    await guide.hintButton.click();
    await expect(guide.hints).toHaveCount(1);
    // Exercise 1: move the playhead past the cancel's arrival (320 ms).
    await guide.races.scrubTo(330);
    await expect(guide.status).toHaveAttribute('data-met', 'yes');
    await guide.races.scrubTo(0);
    await expect(guide.status).toContainText('Done earlier');
    await guide.next.focus();
    await lab.keyboard.press('Enter');
    await expect(guide.count).toContainText('Exercise 2 of 6 · 1 of 6 done');
    // Exercise 2: not met until the cancel moves past 520 ms — a click on Next does not tick it.
    await expect(guide.status).toHaveAttribute('data-met', 'no');
    await guide.races.nudgeEvent('cancel', 'ArrowRight', 25);
    await expect(guide.status).toHaveAttribute('data-met', 'yes');
    await expect(guide.races.outcomeState).toHaveText('completed');
    await expect(guide.dots.nth(1)).toHaveText('✓');
  });

  test('progress is remembered: a returning visitor at / goes back where they were, the path open at its exercise', async ({ lab }) => {
    const start = await new StartPage(lab).forget();
    await lab.goto('./#/races/A-cancel-then-complete?guide=3');
    const guide = new GuidePanelDriver(lab);
    await expect(guide.count).toContainText('Exercise 3 of 6');
    await expect(guide.link).toHaveAttribute('href', /guide=3/);
    await start.openRoot();
    await expect(guide.count).toContainText('Exercise 3 of 6');
    expect(await lab.evaluate(() => location.hash)).toMatch(/^#\/races/);
    await start.startHereLink.click();
    await expect(start.resumeLink).toContainText('Races');
  });

  test('an exercise on another scenario offers to open it', async ({ lab }) => {
    await new StartPage(lab).forget();
    await lab.goto('./#/races/A-cancel-then-complete?guide=4');
    const guide = new GuidePanelDriver(lab);
    await expect(guide.openScenarioButton).toBeVisible();
    await guide.openScenarioButton.click();
    await expect(guide.openScenarioButton).toHaveCount(0);
    await expect(guide.status).toHaveAttribute('data-met', 'no');
  });
});
