import { test, expect } from './fixtures';
import { RacesPage } from './pages/races';

for (const width of [1280, 1024, 390]) {
  test(`at ${width} px the first edit does not wrap the scenario bar: the timeline stays where it was`, async ({ lab }) => {
    await lab.setViewportSize({ width, height: 900 });
    const races = await new RacesPage(lab).open('A-cancel-then-complete');
    await expect(races.event('cancel')).toBeVisible();
    const before = (await races.scenarioBar.boundingBox())!.height;
    const handleY = (await races.event('cancel').boundingBox())!.y;
    await races.nudgeEvent('cancel', 'ArrowRight');
    await expect(races.editedBadge).toBeVisible();
    expect((await races.scenarioBar.boundingBox())!.height).toBe(before);
    expect(Math.abs((await races.event('cancel').boundingBox())!.y - handleY)).toBeLessThan(4);
  });
}
