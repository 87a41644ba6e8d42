import type { Locator, Page } from '@playwright/test';
import { RacesPage } from './races';

/** The Start page (`#/start`, and `#/` on a first visit) and the Races lab's guided path. */
export class StartPage {
  constructor(readonly page: Page) {}

  /** Opens `#/` in a fresh tab state (nothing remembered) or with what the tab remembers. */
  async openRoot(): Promise<this> {
    await this.page.goto('about:blank');
    await this.page.goto('./');
    return this;
  }
  /** Forgets where the visitor was and the guided path's progress (localStorage of the site's origin). */
  async forget(): Promise<this> {
    await this.page.goto('./#/start');
    await this.page.evaluate(() => localStorage.clear());
    return this;
  }
  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: 'MCP Reliability Lab' });
  }
  way(id: 'learn' | 'check' | 'test'): Locator {
    return this.page.getByTestId(`start-way-${id}`);
  }
  /** The "learn" way's link into the guided path. */
  get learnLink(): Locator {
    return this.way('learn').getByRole('link');
  }
  get picture(): Locator {
    return this.page.getByRole('img', { name: /A timeline/ });
  }
  get resumeLink(): Locator {
    return this.page.getByTestId('start-resume');
  }
  get startHereLink(): Locator {
    return this.page.getByTestId('nav-start');
  }
  get sources(): Locator {
    return this.page.locator('.start-sources li');
  }
}

/** The Races lab's guided path panel. */
export class GuidePanelDriver {
  readonly races: RacesPage;
  constructor(readonly page: Page) {
    this.races = new RacesPage(page);
  }
  get panel(): Locator {
    return this.page.getByTestId('guide');
  }
  get startButton(): Locator {
    return this.page.getByTestId('guide-start');
  }
  get count(): Locator {
    return this.page.getByTestId('guide-count');
  }
  get status(): Locator {
    return this.page.getByTestId('guide-status');
  }
  get title(): Locator {
    return this.panel.locator('.guide-title');
  }
  get next(): Locator {
    return this.page.getByTestId('guide-next');
  }
  get previous(): Locator {
    return this.page.getByTestId('guide-prev');
  }
  get hintButton(): Locator {
    return this.page.getByTestId('guide-hint');
  }
  get hints(): Locator {
    return this.page.getByTestId('guide-hints').locator('li');
  }
  get openScenarioButton(): Locator {
    return this.page.getByTestId('guide-open-scenario');
  }
  get link(): Locator {
    return this.page.getByTestId('guide-link');
  }
  /** The numbered exercise buttons (✓ when done). */
  get dots(): Locator {
    return this.panel.locator('.guide-dot');
  }
}

/** The shell's skip links (the first Tab stops of every page). */
export class SkipLinks {
  constructor(readonly page: Page) {}
  get toTimeline(): Locator {
    return this.page.getByTestId('skip-to-timeline');
  }
}
