import type { Locator, Page } from '@playwright/test';

/** The site shell (header, lab nav, language picker), in whichever language it is shown. */
export class ShellPage {
  constructor(readonly page: Page) {}

  /** Opens the site at `#/<lab>` with `query` before the hash (e.g. `lang=ar`). */
  async open(query = '', lab = 'races'): Promise<this> {
    await this.page.goto(`./${query ? `?${query}` : ''}#/${lab}`);
    return this;
  }

  /** The document element (`<html lang dir>`). */
  get html(): Locator {
    return this.page.locator('html');
  }
  /** The lab navigation (its accessible name is translated, so found by position in the header). */
  get nav(): Locator {
    return this.page.locator('header.site-header nav');
  }
  /** The nav link of lab `id`. */
  navLink(id: string): Locator {
    return this.page.getByTestId(`nav-${id}`);
  }
  /** The header's brand name. */
  get brand(): Locator {
    return this.page.locator('.brand-name');
  }
  /** The language picker. */
  get languagePicker(): Locator {
    return this.page.getByTestId('lang-picker');
  }
  /** The page's main region (the lab). */
  get main(): Locator {
    return this.page.locator('main#main');
  }
  /** The site header. */
  get header(): Locator {
    return this.page.locator('header.site-header');
  }

  /** Presses the lab's "Copy share link" and returns the link it copied (clipboard permission granted here). */
  async copyShareLink(): Promise<string> {
    await this.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await this.page.getByTestId('copy-link').click();
    await this.page.getByTestId('scenario-picker').waitFor();
    return this.page.evaluate(() => navigator.clipboard.readText());
  }

  /** Chooses a language in the header's picker. */
  async chooseLanguage(lang: 'en' | 'es' | 'ar' | 'zh'): Promise<void> {
    await this.languagePicker.selectOption(lang);
  }
}
