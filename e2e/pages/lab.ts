import { expect, type Locator, type Page } from '@playwright/test';

/** The labs of the site, by route id. */
export type LabId = 'races' | 'ledger' | 'flow' | 'resilience';

/** `at N ms` in a timeline handle's aria-label, as a number (NaN when the label has none). */
export function atMsOf(label: string | null): number {
  return Number(/at (\d+) ms/.exec(label ?? '')?.[1]);
}

/**
 * A pointer drag in progress on a timeline handle (from `LabDriver.grabEvent`): the button is down
 * at the handle's centre; move it, read the handle, then `release()`.
 */
export class Grab {
  constructor(
    readonly page: Page,
    /** Where the pointer went down (page px): the centre of `box`. */
    readonly x: number,
    readonly y: number,
    /** The grabbed element's box when grabbed. */
    readonly box: { x: number; y: number; width: number; height: number },
  ) {}

  /** Moves the pointer to page position (`x`, `y` — default: the row it was grabbed on) in `steps` steps. */
  async moveTo(x: number, y = this.y, steps = 12): Promise<this> {
    await this.page.mouse.move(x, y, { steps });
    return this;
  }

  /** Moves the pointer by (`dx`, `dy`) px from where it was grabbed. */
  async moveBy(dx: number, dy = 0, steps = 12): Promise<this> {
    return this.moveTo(this.x + dx, this.y + dy, steps);
  }

  /** Lets the button go. */
  async release(): Promise<void> {
    await this.page.mouse.up();
  }
}

/**
 * A panel of the page, found by its root test id; its parts are found inside it.
 * Lab page objects compose these (`flow.herd`, `ledger.console`, `lab.chaos`).
 */
export class Part {
  constructor(
    readonly page: Page,
    readonly root: Locator,
  ) {}

  /** The element with test id `id` inside this panel. */
  protected id(id: string): Locator {
    return this.root.getByTestId(id);
  }
}

/** The kit's Chaos panel (every lab): seeds box, Run, the result and the seeds that failed. */
export class ChaosPanel extends Part {
  get seedsBox(): Locator {
    return this.id('chaos-seeds');
  }
  get runButton(): Locator {
    return this.id('chaos-run');
  }
  /** The result of the last run (`data-safety`, `data-smallest`). */
  get result(): Locator {
    return this.id('chaos-result');
  }
  /** "No seed failed". */
  get none(): Locator {
    return this.id('chaos-none');
  }
  /** The progress text ("10 / 10"). */
  get status(): Locator {
    return this.id('chaos-status');
  }
  get summary(): Locator {
    return this.id('chaos-summary');
  }
  get error(): Locator {
    return this.id('chaos-error');
  }
  /** The failing seeds listed (`data-seed`), smallest first. */
  get failingSeeds(): Locator {
    return this.id('chaos-seed');
  }
  /** The share link of the smallest failing seed. */
  get link(): Locator {
    return this.id('chaos-link');
  }
  /** The message under Run (why a run could not start); absent when the run started. */
  get runMessage(): Locator {
    return this.id('chaos-run-message');
  }
  /** The note that a seed is open on the timeline. */
  get opened(): Locator {
    return this.id('chaos-opened');
  }

  /** Types `seeds` (when given) into the seeds box and presses Run by keyboard. */
  async run(seeds?: number | string): Promise<this> {
    if (seeds !== undefined) await this.seedsBox.fill(String(seeds));
    // By keyboard: a sticky timeline panel may cover the button where the page has scrolled.
    await this.runButton.focus();
    await this.page.keyboard.press('Enter');
    return this;
  }

  /** Types `seeds` into the seeds box without running. */
  async setSeeds(seeds: string): Promise<this> {
    await this.seedsBox.fill(seeds);
    return this;
  }

  /** The "from seed" box (the first seed of a run). */
  get firstSeedBox(): Locator {
    return this.id('chaos-first-seed');
  }
  /** Types `seed` into the "from seed" box without running. */
  async setFirstSeed(seed: string): Promise<this> {
    await this.firstSeedBox.fill(seed);
    return this;
  }
  /** The Retry button beside a failure (absent for a problem of the boxes). */
  get retryButton(): Locator {
    return this.id('chaos-retry');
  }

  /** Presses "Open the smallest failing seed". */
  async openSmallest(): Promise<this> {
    await this.id('chaos-open-smallest').click();
    return this;
  }
}

/** The timeline's drawn marks (classes of src/charts/marks), for layout checks. */
export class TimelineMarks {
  constructor(readonly page: Page) {}

  /** Every SVG text on the page whose content matches `text` (labels of any mark kind). */
  svgText(text: string | RegExp): Locator {
    return this.page.locator('svg').locator('text', { hasText: text });
  }

  /** The first timeline SVG on the page. */
  get svg(): Locator {
    return this.page.locator('.tl-svg').first();
  }
  /** Span labels (bar-end texts) of the first timeline. */
  get spanLabels(): Locator {
    return this.svg.locator('.tl-span-label');
  }
  /** The `<title>` (full text) of a span label. */
  titleOf(label: Locator): Locator {
    return label.locator('title');
  }
  /** Every marker label on the page (state names, "timeout", …). */
  get markerLabels(): Locator {
    return this.page.locator('.tl-marker-label');
  }
  /** The marker label containing `text` in the first timeline. */
  markerLabel(text: string): Locator {
    return this.svg.locator('.tl-marker-label', { hasText: text });
  }
  /** Marker tooltips (`<title>` in a marker) matching `text`. */
  markerTitles(text: RegExp | string): Locator {
    return this.page.locator('.tl-marker title', { hasText: text });
  }
  /** The handle label containing `text` in the first timeline. */
  handleLabel(text: string): Locator {
    return this.svg.locator('.tl-handle-label', { hasText: text });
  }
  /** Every handle label (event text) of the first timeline. */
  get handleLabels(): Locator {
    return this.svg.locator('.tl-handle-label');
  }
  /** The span label (on any timeline of the page) whose text matches `text`. */
  spanLabel(text: string | RegExp): Locator {
    return this.page.locator('.tl-span-label', { hasText: text });
  }
  /** The bar of the span that holds `label` (a span label). */
  spanBarOf(label: Locator): Locator {
    return this.page.locator('.tl-span', { has: label }).locator('.tl-span-bar');
  }
  /** The drawn line of every arrow of the first timeline. */
  get arrowLines(): Locator {
    return this.svg.locator('.tl-arrow-line');
  }
  /** The "N attempts" step-count labels. */
  get stepsLabels(): Locator {
    return this.page.locator('.tl-steps-label');
  }
}

/**
 * The page object every lab shares: the lab pages are built from one kit, with the same test ids
 * (`scenario-picker`, `error-banner`, `import-text`, `import-paste`, `import-open`, `import-file`,
 * `import-export`, `nav-<lab>`; the scenario bar's `undo`, `redo`, `reset`, `copy-link`, `edited`;
 * `invariant-<name>`, `tie-rule`, `clock`, `handle-<event id>` on every lab's timeline,
 * `lesson-row` (with `data-index`) in every lesson panel, `all-orders…`, `chaos…`), so one driver
 * covers all four. Per-lab parts extend it (e2e/pages/races.ts, ledger.ts, flow.ts, resilience.ts).
 * Chainable where it helps: `await lab.open('B-…')` then `lab.banner`, `lab.undoKey()`, … Mirrors
 * the store tests' LabDriver. Specs never locate elements themselves (scripts/e2e-page-object.test.ts).
 */
export class LabDriver {
  constructor(
    readonly page: Page,
    readonly lab: LabId,
  ) {}

  /** The element with test id `id` on the page (for the page objects; specs use named members). */
  protected id(id: string): Locator {
    return this.page.getByTestId(id);
  }

  get picker(): Locator {
    return this.id('scenario-picker');
  }
  /** The picker's options (their labels start with the scenario's letter). */
  get pickerOptions(): Locator {
    return this.picker.locator('option');
  }
  /** The option the picker shows now (a built-in, or the "(imported)" entry). */
  get pickerShown(): Locator {
    return this.picker.locator('option:checked');
  }
  /** The picker's "Imported" group (every scenario imported on the page). */
  get pickerImported(): Locator {
    return this.picker.getByTestId('picker-imported');
  }
  /** The options of the "Imported" group, oldest import first. */
  get pickerImportedOptions(): Locator {
    return this.pickerImported.locator('option');
  }
  /** Picks the picker's option labelled `label` (an imported scenario: "<title> (imported)"). */
  async pickLabel(label: string): Promise<this> {
    await this.picker.selectOption({ label });
    return this;
  }
  /** The step Undo (else Redo) would take, shown as text beside the buttons. */
  get historyStep(): Locator {
    return this.id('history-step');
  }
  get banner(): Locator {
    return this.id('error-banner');
  }
  /** The banner's list items (one per problem). */
  get bannerItems(): Locator {
    return this.banner.locator('li');
  }
  /** Presses the banner's Dismiss button. */
  async dismissBanner(): Promise<this> {
    await this.banner.getByRole('button', { name: 'Dismiss' }).click();
    return this;
  }
  get importText(): Locator {
    return this.id('import-text');
  }
  get openFileButton(): Locator {
    return this.id('import-open');
  }
  get fileInput(): Locator {
    return this.id('import-file');
  }
  get exportButton(): Locator {
    return this.id('import-export');
  }
  get pasteButton(): Locator {
    return this.id('import-paste');
  }
  /** The kit's scenario bar buttons (same in every lab). */
  get undoButton(): Locator {
    return this.id('undo');
  }
  get redoButton(): Locator {
    return this.id('redo');
  }
  get resetButton(): Locator {
    return this.id('reset');
  }
  get copyLinkButton(): Locator {
    return this.id('copy-link');
  }
  /** The kit's scenario bar (picker, import status, undo/redo, reset, copy link). */
  get scenarioBar(): Locator {
    return this.page.locator('.scenario-bar');
  }
  /** The Import panel's own line after a good import ("The pasted scenario is loaded: …"). */
  get importPanelLoaded(): Locator {
    return this.id('import-loaded');
  }
  /** "Imported <title> — Undo": what the last import loaded (absent when nothing was imported). */
  get importStatus(): Locator {
    return this.id('import-status');
  }
  /** Presses the import status's Undo (back to the scenario shown before the import). */
  async undoImport(): Promise<this> {
    await this.importStatus.getByRole('button', { name: 'Undo' }).click();
    return this;
  }
  /** The first timeline panel of the page (the timeline with its lanes and labels). */
  get timelinePanel(): Locator {
    return this.page.locator('.timeline-panel').first();
  }
  /** The "edited" badge (shown while the scenario differs from the lesson's). */
  get editedBadge(): Locator {
    return this.id('edited');
  }
  /** The page's heading (the scenario's title). */
  get heading(): Locator {
    return this.page.locator('h1');
  }
  /** The sticky site header. */
  get siteHeader(): Locator {
    return this.page.locator('.site-header');
  }
  /** The lab page's root (`data-lab` names the lab on screen). */
  get labPage(): Locator {
    return this.id('lab-page');
  }
  /** "The … lab could not load" (a lazy chunk failed). */
  get labFailed(): Locator {
    return this.id('lab-failed');
  }
  /** Presses Try again on a lab that failed to load. */
  async retryLab(): Promise<this> {
    await this.id('lab-retry').click();
    return this;
  }
  /** "A new version is available — Reload". */
  get updateBanner(): Locator {
    return this.id('update-banner');
  }
  /** Presses Reload on the update banner. */
  async reloadForUpdate(): Promise<this> {
    await this.id('update-reload').click();
    return this;
  }

  /** The playback clock (its `data-ms` is the playhead in ms). */
  get clock(): Locator {
    return this.id('clock');
  }
  /** The playhead slider of the playback bar. */
  get playhead(): Locator {
    return this.page.getByRole('slider', { name: 'Playhead position (ms)' });
  }
  get jumpToEndButton(): Locator {
    return this.page.getByRole('button', { name: 'Jump to end' });
  }
  get jumpToStartButton(): Locator {
    return this.page.getByRole('button', { name: 'Jump to start' });
  }
  get playButton(): Locator {
    return this.page.getByRole('button', { name: 'Play', exact: true });
  }
  get pauseButton(): Locator {
    return this.page.getByRole('button', { name: 'Pause' });
  }
  /** The playback speed control. */
  get speedControl(): Locator {
    return this.page.getByRole('slider', { name: /^Speed|virtual ms per second/ }).or(this.page.locator('.speed input'));
  }
  /** Types `ms` into the playhead slider (scrubs there). */
  async scrubTo(ms: number): Promise<this> {
    await this.playhead.fill(String(ms));
    return this;
  }

  /** The row of invariant `name` in the kit's invariant list (`data-status` holds / violated). */
  invariant(name: string): Locator {
    return this.id(`invariant-${name}`);
  }
  /** Every invariant row currently violated. */
  get violatedInvariants(): Locator {
    return this.page.locator('[data-testid^="invariant-"][data-status="violated"]');
  }
  /** The kit's tie-rule panel. */
  get tieRule(): Locator {
    return this.id('tie-rule');
  }
  /** The rows of the lab's "The lesson says" panel (`data-index`; `data-met` / `data-current` where the lab has them). */
  get lessonRows(): Locator {
    return this.id('lesson-row');
  }
  /** Row `index` of "The lesson says". */
  lessonRow(index: number): Locator {
    return this.page.locator(`[data-testid="lesson-row"][data-index="${index}"]`);
  }
  /** The button of lesson row `index` ("Show", "Show the bug", "Apply"). */
  lessonButton(index: number): Locator {
    return this.lessonRow(index).getByRole('button');
  }
  /** Presses the button named `name` in lesson row `index` ("Apply", "show it"). */
  async pressInLesson(index: number, name: string): Promise<this> {
    await this.lessonRow(index).getByRole('button', { name }).click();
    return this;
  }
  /** The timeline handle of scripted event `id` (the same `handle-<id>` in every lab). */
  event(id: string): Locator {
    return this.id(`handle-${id}`);
  }
  /** The one timeline handle whose event id starts with `prefix` (imported scenarios number their ids). */
  eventStartingWith(prefix: string): Locator {
    return this.page.locator(`[data-testid^="handle-${prefix}"]`);
  }
  /** The glyph of handle `handle` (what the pointer should hit). */
  shapeOf(handle: Locator): Locator {
    return handle.locator('.tl-handle-shape');
  }
  /** The time of event `id` (or of `handle`) read from its aria-label ("… at 310 ms"). */
  async eventAt(id: string | Locator): Promise<number> {
    const handle = typeof id === 'string' ? this.event(id) : id;
    return atMsOf(await handle.getAttribute('aria-label'));
  }
  /** The x of the centre of event `id`'s handle (page px). */
  async eventCenterX(id: string): Promise<number> {
    const b = (await this.event(id).boundingBox())!;
    return b.x + b.width / 2;
  }
  /** Presses the pointer down at the centre of `handle` (its glyph with `glyph`) and returns the drag. */
  async grab(handle: Locator, glyph = false): Promise<Grab> {
    const box = (await (glyph ? this.shapeOf(handle) : handle).boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await this.page.mouse.move(x, y);
    await this.page.mouse.down();
    return new Grab(this.page, x, y, box);
  }
  /** Presses the pointer down on event `id`'s handle (see `grab`). */
  async grabEvent(id: string, glyph = false): Promise<Grab> {
    return this.grab(this.event(id), glyph);
  }
  /** Drags `handle` with the pointer to page x `x` (same row) and lets go. */
  async dragTo(handle: Locator, x: number, steps = 12): Promise<this> {
    const g = await this.grab(handle);
    await g.moveTo(x, g.y, steps);
    await g.release();
    return this;
  }
  /** Drags event `id` with the pointer to page x `x` and lets go. */
  async dragEvent(id: string, x: number, steps = 12): Promise<this> {
    return this.dragTo(this.event(id), x, steps);
  }
  /** Drags event `id` onto the x of event `targetId` (the same time) plus `offsetX` px. */
  async dragEventOnto(id: string, targetId: string, steps = 10, offsetX = 0): Promise<this> {
    return this.dragEvent(id, (await this.eventCenterX(targetId)) + offsetX, steps);
  }
  /** Focuses event `id`'s handle and presses `key` `times` times (ArrowLeft/Right move it 10 ms). */
  async nudgeEvent(id: string, key: string, times = 1): Promise<this> {
    await this.event(id).focus();
    for (let i = 0; i < times; i++) await this.page.keyboard.press(key);
    return this;
  }
  /** The timeline's drawn marks. */
  get marks(): TimelineMarks {
    return new TimelineMarks(this.page);
  }

  /** The top-nav link to lab `lab` (or the traffic page). */
  nav(lab: LabId | 'traffic'): Locator {
    return this.id(`nav-${lab}`);
  }

  /** Opens the lab at `#/<lab>[/<id>][?query]` in a fresh document and waits for its picker. */
  async open(id?: string, query = ''): Promise<this> {
    await this.page.goto('about:blank');
    await this.page.goto(`./#/${this.lab}${id ? `/${id}` : ''}${query}`);
    await expect(this.picker).toBeVisible({ timeout: 20_000 });
    return this;
  }

  /** Goes to `#/<lab>` (no fresh document) and waits for the picker. */
  async visit(timeout = 20_000): Promise<this> {
    await this.page.goto(`./#/${this.lab}`);
    await expect(this.picker).toBeVisible({ timeout });
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
    await this.pasteButton.click();
    return this;
  }

  /** Goes to lab `lab` with the top nav (same document: stores are kept) and waits for its picker. */
  async switchTo(lab: LabId): Promise<LabDriver> {
    await this.nav(lab).click();
    const next = new LabDriver(this.page, lab);
    await expect(this.labPage).toHaveAttribute('data-lab', lab, { timeout: 20_000 });
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

  /** Presses `key` wherever the focus is now. */
  async press(key: string): Promise<this> {
    await this.page.keyboard.press(key);
    return this;
  }
  /** Presses `key` on the page body (not on a control). */
  async pressOnPage(key: string): Promise<this> {
    await this.page.locator('body').press(key);
    return this;
  }
  /** Clicks the page heading: the focus leaves any control (keys then go to the lab). */
  async clickHeading(): Promise<this> {
    await this.heading.click();
    return this;
  }
  /** Clicks the page's top-left corner (nothing there): the focus leaves any control. */
  async clickPageCorner(): Promise<this> {
    await this.page.locator('body').click({ position: { x: 5, y: 5 } });
    return this;
  }
  /** Takes the focus off the active element. */
  async blur(): Promise<this> {
    await this.page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    return this;
  }
  /** How far the page scrolls sideways (scrollWidth − clientWidth, px; ≤ 0: not at all). */
  async sidewaysOverflow(): Promise<number> {
    return this.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  }
  /** The document's scroll width (px). */
  async scrollWidth(): Promise<number> {
    return this.page.evaluate(() => document.documentElement.scrollWidth);
  }
  /** The current address (hash included). */
  async hash(): Promise<string> {
    return this.page.evaluate(() => window.location.hash);
  }

  /** The "All orders" panel (every lab). */
  get allOrders(): Locator {
    return this.id('all-orders');
  }
  /** The "All orders" panel's heading. */
  get allOrdersHeading(): Locator {
    return this.allOrders.getByRole('heading', { name: 'All orders' });
  }
  /** The "All orders" panel's intro (what it replays, and in the ledger how it differs from the explorer). */
  get allOrdersIntro(): Locator {
    return this.allOrders.getByTestId('all-orders-intro');
  }
  /** "Not available for this scenario: …" (why All orders cannot run here). */
  get allOrdersUnavailable(): Locator {
    return this.allOrders.getByTestId('all-orders-unavailable');
  }
  /** The summary of the classes found ("6 orders", "… forbidden by the lab"). */
  get orderSummary(): Locator {
    return this.allOrders.getByTestId('all-orders-classes');
  }
  /** The outcome classes listed by "All orders". */
  get orderClasses(): Locator {
    return this.allOrders.getByTestId('all-orders-class');
  }
  /** The outcome cell of class `index`. */
  orderClassOutcome(index: number): Locator {
    return this.orderClasses.nth(index).locator('td').nth(1);
  }

  /** The All orders progress text ("6 / 6"); absent before a run and once its result has left. */
  get allOrdersStatus(): Locator {
    return this.allOrders.getByTestId('all-orders-status');
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
    await expect(this.orderSummary).toBeVisible({ timeout: 60_000 });
    return this;
  }

  /** Index of the first class whose shortest counterexample differs from the scenario as written (inversions > 0), or -1. */
  async firstMovedClass(): Promise<number> {
    const inversions = await this.orderClasses.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-inversions'))));
    return inversions.findIndex((n) => n > 0);
  }

  /** The "Open the shortest …" button of class `index`. */
  openButtonOf(index: number): Locator {
    return this.allOrders.getByTestId(`all-orders-open-${index}`);
  }
  /** The All orders table's column headers. */
  get orderColumnHeaders(): Locator {
    return this.orderSummary.locator('thead th');
  }

  /** Presses "Open the shortest counterexample" (or "… order") of class `index` (0 = the most orders). */
  async openCounterexample(index: number): Promise<this> {
    await this.allOrders.getByTestId(`all-orders-open-${index}`).focus();
    await this.page.keyboard.press('Enter');
    return this;
  }

  /** The kit's Chaos panel. */
  get chaos(): ChaosPanel {
    return new ChaosPanel(this.page, this.id('chaos'));
  }
}

/** The Traffic page's driver lives in e2e/pages/traffic.ts; re-exported for specs that import it from here. */
export { TrafficDriver } from './traffic';
