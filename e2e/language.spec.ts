import { mkdirSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from './fixtures';
import { ShellPage } from './pages/shell';

/** Screenshots of the shell in Arabic and Chinese at desktop and phone widths (issue 25), for a person to look at. */
const SHOTS = '/tmp/language-shots';

test.describe('Language (issue 25)', () => {
  test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

  test('?lang=ar: right to left, the nav in Arabic', async ({ lab: page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => void (r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname.split('/').pop()!)));
    const shell = await new ShellPage(page).open('lang=ar');
    await expect(shell.html).toHaveAttribute('dir', 'rtl');
    await expect(shell.html).toHaveAttribute('lang', 'ar');
    await expect(shell.navLink('races')).toHaveText('السباقات');
    await expect(shell.navLink('resilience')).toHaveText('الصمود');
    await expect(shell.brand).toHaveText('مختبر موثوقية MCP');
    await expect(shell.languagePicker).toHaveValue('ar');
    // Only the active language's catalogues are fetched (the shell's and each area's, all named ar-…,
    // with the ICU runtime), none of the other languages'.
    const fetched = scripts.filter((f) => /^(?:ar|es|zh|icu)-/.test(f)).map((f) => f.split('-')[0]);
    expect([...new Set(fetched)].sort()).toEqual(['ar', 'icu']);
    // The lab page is not translated yet: it stays English, left to right, inside the Arabic shell.
    await expect(shell.main).toHaveAttribute('dir', 'ltr');
    await expect(shell.main).toHaveAttribute('lang', 'en');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `${SHOTS}/ar-${width}.png` });
    }
  });

  test('?lang=zh: the nav in Chinese, left to right', async ({ lab: page }) => {
    const shell = await new ShellPage(page).open('lang=zh');
    await expect(shell.html).toHaveAttribute('lang', 'zh');
    await expect(shell.html).toHaveAttribute('dir', 'ltr');
    await expect(shell.navLink('races')).toHaveText('竞态');
    await expect(shell.navLink('ledger')).toHaveText('账本');
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 800 });
      await page.screenshot({ path: `${SHOTS}/zh-${width}.png` });
    }
  });

  test('the Arabic and Chinese shell have no serious accessibility violations (axe, header only)', async ({ lab: page }) => {
    for (const lang of ['ar', 'zh']) {
      await new ShellPage(page).open(`lang=${lang}`);
      await expect(new ShellPage(page).html).toHaveAttribute('lang', lang);
      const results = await new AxeBuilder({ page }).include('header.site-header').analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${lang} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    }
  });

  test('the picker switches language, keeps the lab address, and is remembered on the next visit', async ({ lab: page }) => {
    const scripts: string[] = [];
    page.on('request', (r) => void (r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname.split('/').pop()!)));
    const shell = await new ShellPage(page).open();
    await expect(shell.navLink('races')).toHaveText('Races');
    // English needs no catalogue chunk and no ICU runtime.
    expect(scripts.filter((f) => /^(?:ar|es|zh|icu)-/.test(f))).toEqual([]);
    await expect(shell.html).toHaveAttribute('dir', 'ltr');
    await shell.chooseLanguage('es');
    await expect(shell.navLink('races')).toHaveText('Carreras');
    await expect(shell.html).toHaveAttribute('lang', 'es');
    expect(new URL(page.url()).searchParams.get('lang')).toBe('es');
    expect(new URL(page.url()).hash).toMatch(/^#\/races/);
    // The share link carries the language (the query before the hash), with the lab's own address.
    await expect.poll(() => shell.copyShareLink()).toMatch(/\?lang=es#\/races\//);
    // Next visit without ?lang=: the remembered choice.
    await shell.open('', 'ledger');
    await expect(shell.navLink('ledger')).toHaveText('Libro mayor');
    // An address naming a language wins over the remembered one.
    await shell.open('lang=en', 'ledger');
    await expect(shell.navLink('ledger')).toHaveText('Ledger');
  });
});
