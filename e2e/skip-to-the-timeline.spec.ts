import { test, expect } from './fixtures';
import { RacesPage } from './pages/races';
import { SkipLinks } from './pages/start';

test('the timeline\'s first event is two Tab stops in: a skip link after "Skip to the lab" focuses it', async ({ lab }) => {
  const races = await new RacesPage(lab).open('A-cancel-then-complete');
  await expect(races.event('start')).toBeVisible();
  const skip = new SkipLinks(lab);
  await lab.keyboard.press('Tab');
  await lab.keyboard.press('Tab');
  await expect(skip.toTimeline).toBeFocused();
  await lab.keyboard.press('Enter');
  await expect(races.event('start')).toBeFocused();
  // From there the arrows move the event, as on any handle.
  await lab.keyboard.press('ArrowRight');
  await expect(races.event('start')).toHaveAttribute('aria-label', /10 ms/);
});
