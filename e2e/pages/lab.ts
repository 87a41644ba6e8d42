import { expect, type Locator, type Page } from '@playwright/test';

/** The labs of the site, by route id. */
export type LabId = 'races' | 'ledger' | 'flow' | 'resilience';

/**
 * The page object every lab shares: the lab pages are built from one kit, with the same test ids
 * (`scenario-picker`, `error-banner`, `import-text`, `import-paste`, `import-open`, `import-file`,
 * `import-export`, `nav-<lab>`; the scenario bar's `undo`, `redo`, `reset`, `copy-link`, `edited`;
 * `invariant-<name>`, `tie-rule`, `clock`, `event-<id>`), so one driver covers all four. Chainable where it helps:
 * `await lab.open('B-…')` then `lab.banner`, `lab.undoKey()`, … Mirrors the store tests' LabDriver.
 */
export class LabDriver {
  constructor(
    readonly page: Page,
    readonly lab: LabId,
  ) {}

  get picker(): Locator {
    return this.page.getByTestId('scenario-picker');
  }
  get banner(): Locator {
    return this.page.getByTestId('error-banner');
  }
  get importText(): Locator {
    return this.page.getByTestId('import-text');
  }
  get openFileButton(): Locator {
    return this.page.getByTestId('import-open');
  }
  get fileInput(): Locator {
    return this.page.getByTestId('import-file');
  }
  get exportButton(): Locator {
    return this.page.getByTestId('import-export');
  }
  get pasteButton(): Locator {
    return this.page.getByTestId('import-paste');
  }
  /** The kit's scenario bar buttons (same in every lab). */
  get undoButton(): Locator {
    return this.page.getByTestId('undo');
  }
  get redoButton(): Locator {
    return this.page.getByTestId('redo');
  }
  get resetButton(): Locator {
    return this.page.getByTestId('reset');
  }
  get copyLinkButton(): Locator {
    return this.page.getByTestId('copy-link');
  }
  /** The "edited" badge (shown while the scenario differs from the lesson's). */
  get editedBadge(): Locator {
    return this.page.getByTestId('edited');
  }
  /** The playback clock (its `data-ms` is the playhead in ms). */
  get clock(): Locator {
    return this.page.getByTestId('clock');
  }
  /** The playhead slider of the playback bar. */
  get playhead(): Locator {
    return this.page.getByRole('slider', { name: 'Playhead position (ms)' });
  }
  get jumpToEndButton(): Locator {
    return this.page.getByRole('button', { name: 'Jump to end' });
  }
  /** The row of invariant `name` in the kit's invariant list (`data-status` holds / violated). */
  invariant(name: string): Locator {
    return this.page.getByTestId(`invariant-${name}`);
  }
  /** The kit's tie-rule panel. */
  get tieRule(): Locator {
    return this.page.getByTestId('tie-rule');
  }
  /** The timeline handle of scripted event `id`. */
  event(id: string): Locator {
    return this.page.getByTestId(`event-${id}`);
  }

  /** The top-nav link to lab `lab`. */
  nav(lab: LabId): Locator {
    return this.page.getByTestId(`nav-${lab}`);
  }

  /** Opens the lab at `#/<lab>[/<id>][?query]` in a fresh document and waits for its picker. */
  async open(id?: string, query = ''): Promise<this> {
    await this.page.goto('about:blank');
    await this.page.goto(`./#/${this.lab}${id ? `/${id}` : ''}${query}`);
    await expect(this.picker).toBeVisible({ timeout: 20_000 });
    return this;
  }

  /** Picks built-in `id` in the scenario picker. */
  async pick(id: string): Promise<this> {
    await this.picker.selectOption(id);
    await expect(this.picker).toHaveValue(id);
    return this;
  }

  /** Pastes `scenario` (any JSON value) into the import box and presses Import. */
  async paste(scenario: unknown): Promise<this> {
    await this.importText.fill(typeof scenario === 'string' ? scenario : JSON.stringify(scenario));
    await this.page.getByTestId('import-paste').click();
    return this;
  }

  /** Goes to lab `lab` with the top nav (same document: stores are kept) and waits for its picker. */
  async switchTo(lab: LabId): Promise<LabDriver> {
    await this.nav(lab).click();
    const next = new LabDriver(this.page, lab);
    await expect(this.page.getByTestId('lab-page')).toHaveAttribute('data-lab', lab, { timeout: 20_000 });
    await expect(next.picker).toBeVisible({ timeout: 20_000 });
    return next;
  }

  /** Jumps the playhead to the end of the range and waits for the clock to leave 0. */
  async toEnd(): Promise<this> {
    await this.jumpToEndButton.click();
    await expect(this.clock).not.toHaveAttribute('data-ms', '0');
    return this;
  }

  /** Ctrl+Z (or Ctrl+Shift+Z with `redo`) wherever the focus is now. */
  async undoKey(redo = false): Promise<this> {
    await this.page.keyboard.press(redo ? 'Control+Shift+Z' : 'Control+Z');
    return this;
  }

  /** The current address (hash included). */
  async hash(): Promise<string> {
    return this.page.evaluate(() => window.location.hash);
  }

  /** The "All orders" panel (every lab). */
  get allOrders(): Locator {
    return this.page.getByTestId('all-orders');
  }
  /** The outcome classes listed by "All orders". */
  get orderClasses(): Locator {
    return this.allOrders.getByTestId('all-orders-class');
  }

  /** Ticks `events` (none: the lab's own set), runs "Explore all orders" and waits for its classes. */
  async exploreAllOrders(events: string[] = []): Promise<this> {
    if (events.length) {
      await this.allOrders.locator('summary').click();
      for (const id of events) await this.allOrders.getByTestId(`all-orders-event-${id}`).check();
    }
    // By keyboard: a sticky timeline panel may cover the button where the page has scrolled.
    await this.allOrders.getByTestId('all-orders-run').focus();
    await this.page.keyboard.press('Enter');
    await expect(this.allOrders.getByTestId('all-orders-classes')).toBeVisible({ timeout: 60_000 });
    return this;
  }

  /** Index of the first class whose shortest counterexample differs from the scenario as written (inversions > 0), or -1. */
  async firstMovedClass(): Promise<number> {
    const inversions = await this.orderClasses.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-inversions'))));
    return inversions.findIndex((n) => n > 0);
  }

  /** Presses "Open the shortest counterexample" of class `index` (0 = the most orders). */
  async openCounterexample(index: number): Promise<this> {
    await this.allOrders.getByTestId(`all-orders-open-${index}`).focus();
    await this.page.keyboard.press('Enter');
    return this;
  }
}

/**
 * The Traffic page (issue 12) — not a lab (no scenario picker), but the same Import panel test
 * ids (`import-text`, `import-paste`, `import-open`, `import-file`) and error banner.
 */
export class TrafficDriver {
  constructor(readonly page: Page) {}

  get banner(): Locator {
    return this.page.getByTestId('error-banner');
  }
  get format(): Locator {
    return this.page.getByTestId('traffic-format');
  }
  get findings(): Locator {
    return this.page.getByTestId('finding');
  }
  get wireRaw(): Locator {
    return this.page.getByTestId('wire-raw');
  }
  /** The finding of check `check` (e.g. `late-after-cancel`). */
  finding(check: string): Locator {
    return this.page.locator(`[data-testid="finding"][data-check="${check}"]`);
  }

  /** Opens `#/traffic` in a fresh document and waits for the Import panel. */
  async open(): Promise<this> {
    await this.page.goto('about:blank');
    await this.page.goto('./#/traffic');
    await expect(this.page.getByTestId('import-text')).toBeVisible({ timeout: 20_000 });
    return this;
  }

  /** Pastes `text` into the Import panel, presses Import and waits for the job to end. */
  async paste(text: string): Promise<this> {
    await this.page.getByTestId('import-text').fill(text);
    await this.page.getByTestId('import-paste').click();
    await expect(this.page.getByTestId('traffic-progress')).toHaveCount(0, { timeout: 20_000 });
    return this;
  }

  /** Picks sample `file` (a path under public/transcripts/) and waits for it to load. */
  async pickSample(file: string): Promise<this> {
    await this.page.getByTestId('traffic-sample').selectOption(file);
    await expect(this.page.getByTestId('traffic-source')).toHaveText(`The sample ${file.split('/').pop()}`, { timeout: 20_000 });
    return this;
  }
}
