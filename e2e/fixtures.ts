import { test as base, expect, type Page } from '@playwright/test';
import { RacesPage } from './pages/races';

/**
 * Every page in these tests fails on a console error, an uncaught exception, or a request that
 * leaves the site's origin (the lab is static and must work with no network).
 */
export const test = base.extend<{ lab: Page }>({
  lab: async ({ page, baseURL }, use) => {
    const origin = new URL(baseURL!).origin;
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console error: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) problems.push(`request left the origin: ${url}`);
    });
    await use(page);
    expect(problems).toEqual([]);
  },
});

export { expect };

/** Opens the races lab on a built-in scenario through the picker (kept for older specs; `new RacesPage(page).openOn(id)` is the page object's). */
export async function openScenario(page: Page, id: string) {
  await new RacesPage(page).openOn(id);
}
