import { expect, type Locator, type Page } from '@playwright/test';

/**
 * The Traffic page (issue 12) — not a lab (no scenario picker), but the same Import panel test
 * ids (`import-text`, `import-paste`, `import-open`, `import-file`) and error banner.
 */
export class TrafficDriver {
  constructor(readonly page: Page) {}
  private id(id: string): Locator {
    return this.page.getByTestId(id);
  }

  get banner(): Locator {
    return this.id('error-banner');
  }
  get bannerItems(): Locator {
    return this.banner.locator('li');
  }
  get format(): Locator {
    return this.id('traffic-format');
  }
  get findings(): Locator {
    return this.id('finding');
  }
  get wireRaw(): Locator {
    return this.id('wire-raw');
  }
  /** The wire panel (`data-mark`: the selected entry). */
  get wire(): Locator {
    return this.id('traffic-wire');
  }
  /** The finding of check `check` (e.g. `late-after-cancel`). */
  finding(check: string): Locator {
    return this.page.locator(`[data-testid="finding"][data-check="${check}"]`);
  }
  /** Finding `finding`'s link to the lab scenario it teaches. */
  teaches(finding: Locator): Locator {
    return finding.getByTestId('finding-teaches');
  }
  /** Finding `finding`'s other messages. */
  entries(finding: Locator): Locator {
    return finding.getByTestId('finding-entry');
  }
  /** Selects finding `finding` (its offending message). */
  async select(finding: Locator): Promise<this> {
    await finding.getByTestId('finding-select').click();
    return this;
  }
  async nextFinding(): Promise<this> {
    await this.id('finding-next').click();
    return this;
  }
  async prevFinding(): Promise<this> {
    await this.id('finding-prev').click();
    return this;
  }
  /** "N messages" and the like. */
  get counts(): Locator {
    return this.id('traffic-counts');
  }
  /** How times were assumed when the transcript has none ("no timestamps: 1 ms per line …"). */
  get timeAssumption(): Locator {
    return this.id('traffic-time-assumption');
  }
  /** The Transcript summary panel (counts, source, time assumption). */
  get summary(): Locator {
    return this.id('traffic-summary');
  }
  /** Where the transcript came from ("The sample …", "The file …", "The pasted text"). */
  get source(): Locator {
    return this.id('traffic-source');
  }
  get skippedCount(): Locator {
    return this.id('traffic-skipped-count');
  }
  get skipped(): Locator {
    return this.id('traffic-skipped');
  }
  async openSkipped(): Promise<this> {
    await this.skipped.locator('summary').click();
    return this;
  }
  /** The rows of the message list (windowed). */
  get messageRows(): Locator {
    return this.id('msg-row');
  }
  get selectedMessageRow(): Locator {
    return this.page.locator('[data-testid="msg-row"][aria-selected="true"]');
  }
  /** Scrolls the message list to `px`. */
  async scrollListTo(px: number): Promise<this> {
    await this.id('msg-list').evaluate((el, top) => (el.scrollTop = top), px);
    return this;
  }
  get timeline(): Locator {
    return this.id('traffic-timeline');
  }
  /** "N shown". */
  get shownCount(): Locator {
    return this.id('shown-count');
  }
  /** The number in "N shown". */
  async shown(): Promise<number> {
    return Number((await this.shownCount.textContent())!.replace(/\D/g, ''));
  }
  async filterById(id: string): Promise<this> {
    await this.id('filter-id').fill(id);
    return this;
  }
  get allowance(): Locator {
    return this.id('option-allowance');
  }
  async setAllowance(typed: string): Promise<this> {
    await this.allowance.fill(typed);
    return this;
  }
  get optionErrors(): Locator {
    return this.id('option-errors');
  }
  /** Export settings: format and redaction. */
  async setExport(format: string, redact: boolean): Promise<this> {
    await this.id('export-format').selectOption(format);
    if (redact) await this.id('export-redact').check();
    return this;
  }
  get exportTranscriptButton(): Locator {
    return this.id('export-transcript');
  }
  get exportReviewButton(): Locator {
    return this.id('export-review');
  }
  /** What "1 ms per line" does to the timing rules (under the time assumption). */
  get timeConsequence(): Locator {
    return this.id('traffic-time-consequence');
  }
  /** The Revision line of the summary. */
  get revision(): Locator {
    return this.id('traffic-revision');
  }
  /** The timeline's axis tick labels (whole ms). */
  get axisTicks(): Locator {
    return this.timeline.locator('.tl-axis-text');
  }
  /** The line under the timeline: no clock to play here, and how to get a timeline that plays. */
  get noPlayback(): Locator {
    return this.id('traffic-no-playback');
  }
  /** The page's intro (what the page is for). */
  get intro(): Locator {
    return this.page.locator('.intro .summary');
  }
  /** "Open call #… as a scenario" (disabled until a call that can become a scenario is selected). */
  get openCallButton(): Locator {
    return this.id('open-call-scenario');
  }
  /** Why the selected call cannot become a scenario (initialize, tools/list, …); absent otherwise. */
  get openCallNote(): Locator {
    return this.id('open-call-note');
  }
  /** The What if panel (Open as a scenario, export). */
  get whatIf(): Locator {
    return this.page.locator('.traffic-whatif');
  }
  /** Clicks message row `i` (0-based, in list order). */
  async selectRow(i: number): Promise<this> {
    await this.messageRows.nth(i).click();
    return this;
  }
  /** Presses "Open as a scenario". */
  async openScenario(): Promise<this> {
    await this.id('open-scenario').click();
    return this;
  }
  /** The top-nav link to `target` (`aria-current` marks the page on screen). */
  nav(target: string): Locator {
    return this.id(`nav-${target}`);
  }
  /** How far the page scrolls sideways (px; ≤ 0: not at all). */
  async sidewaysOverflow(): Promise<number> {
    return this.page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  }
  /** The file input of the Import panel. */
  get fileInput(): Locator {
    return this.id('import-file');
  }
  /**
   * Builds a `name` file in the page from `lines` (joined with newlines) and keeps it there, without
   * choosing it: so a measurement started next does not count the test's own transfer of the bytes
   * (Playwright's `setInputFiles` decodes them on the page's main thread, seconds for megabytes).
   */
  async stageFile(name: string, lines: readonly string[]): Promise<void> {
    await this.page.evaluate(({ name, text }) => {
      (window as unknown as { __stagedFile: File }).__stagedFile = new File([text], name, { type: 'application/x-ndjson' });
    }, { name, text: lines.join('\n') });
  }
  /** Chooses the file `stageFile` built, as a user picking it does (the input's change event). */
  async chooseStagedFile(): Promise<void> {
    await this.fileInput.evaluate((input: HTMLInputElement) => {
      const dt = new DataTransfer();
      dt.items.add((window as unknown as { __stagedFile: File }).__stagedFile);
      input.files = dt.files;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
  }

  /** Opens `#/traffic` in a fresh document and waits for the Import panel. */
  async open(): Promise<this> {
    await this.page.goto('about:blank');
    await this.page.goto('./#/traffic');
    await expect(this.id('import-text')).toBeVisible({ timeout: 20_000 });
    return this;
  }

  /** Opens `#/traffic<rest>` (e.g. `?foo=1`, `/A-…`) in a fresh document and waits for the Import panel. */
  async openAt(rest: string): Promise<this> {
    await this.page.goto('about:blank');
    await this.page.goto(`./#/traffic${rest}`);
    await expect(this.id('import-text')).toBeVisible({ timeout: 20_000 });
    return this;
  }

  /** Goes to address `hash` in the same document (as a pasted link or Back would): the page stays. */
  async followHash(hash: string): Promise<this> {
    await this.page.evaluate((h) => {
      window.location.hash = h;
    }, hash);
    return this;
  }

  /** The page's current address (its hash, with the `#`). */
  async hash(): Promise<string> {
    return this.page.evaluate(() => window.location.hash);
  }

  /** Pastes `text` into the Import panel, presses Import and waits for the job to end. */
  async paste(text: string): Promise<this> {
    await this.id('import-text').fill(text);
    await this.id('import-paste').click();
    await expect(this.id('traffic-progress')).toHaveCount(0, { timeout: 20_000 });
    return this;
  }

  /** The sample picker ("Or try a sample"); its value is the picked sample's file, '' when none. */
  get samplePicker(): Locator {
    return this.id('traffic-sample');
  }
  /** The sample picker's option whose label contains `text`. */
  sampleOption(text: string): Locator {
    return this.samplePicker.locator('option', { hasText: text });
  }
  /** The check option "maximum call time (ms)" box. */
  get maxBox(): Locator {
    return this.id('option-max');
  }

  /** Picks sample `file` (a path under public/transcripts/) and waits for it to load. */
  async pickSample(file: string): Promise<this> {
    await this.id('traffic-sample').selectOption(file);
    await expect(this.source).toHaveText(`The sample ${file.split('/').pop()}`, { timeout: 20_000 });
    return this;
  }
}
