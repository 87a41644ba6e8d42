import { expect, test } from './fixtures';
import { FlowPage } from './pages/flow';

/** Issue 9's cross-lab findings from the last new-user walkthroughs, each with the browser check that failed before its fix. */
const SHOTS = '/tmp/polisha-shots';
const WIDTHS = [1280, 390] as const;

for (const width of WIDTHS) {
  test.describe(`at ${width} px`, () => {
    test.beforeEach(async ({ lab: page }) => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    });
    test('a corrupted flow link quotes what was wrong visibly: invisible characters as \\u codes', async ({ lab: page }) => {
      const flow = new FlowPage(page);
      await page.goto('about:blank');
      await page.goto('./#/flow?scenario=AAAA'); // three NUL bytes once decoded
      await expect(flow.banner).toContainText('showing "F1 · ', { timeout: 20_000 });
      const items = await flow.bannerItems.allTextContents();
      const line = items.find((t) => t.startsWith('scenario (in the link): not valid JSON'));
      expect(line).toBeDefined();
      expect(line).toContain('\\u0000');
      expect(line).toContain('(\\u…: an invisible character, written as its code)');
      expect(line).not.toMatch(/[\u0000-\u001f]/);
      await flow.banner.screenshot({ path: `${SHOTS}/flow-corrupted-link-${width}.png` });
    });
  });
}
