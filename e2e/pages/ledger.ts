import { expect, type Locator, type Page } from '@playwright/test';
import { LabDriver } from './lab';

/** A group of page-wide test ids that belong to one panel of a lab. */
class Section {
  constructor(readonly page: Page) {}
  protected id(id: string): Locator {
    return this.page.getByTestId(id);
  }
}

/** The ledger's explorer: every interleaving × every policy on real SQLite, in a worker. */
export class LedgerExplore extends Section {
  /** Its heading ("All orders at once · every policy compared"). */
  get heading(): Locator {
    return this.id('explore-heading');
  }
  /** Its intro: what it compares, and how the kit's All orders differs. */
  get intro(): Locator {
    return this.id('explore-intro');
  }
  get runButton(): Locator {
    return this.id('explore-run');
  }
  async run(): Promise<this> {
    await this.runButton.click();
    return this;
  }
  async cancel(): Promise<this> {
    await this.id('explore-cancel').click();
    return this;
  }
  async retry(): Promise<this> {
    await this.id('explore-retry').click();
    return this;
  }
  /** The row of policy `variant` (`data-twice`: orders that executed twice). */
  variant(variant: string): Locator {
    return this.id(`explore-${variant}`);
  }
  /** The progress bar (`value` = replays done). */
  get progress(): Locator {
    return this.id('explore-progress');
  }
  /** Its worker-failure message. */
  get error(): Locator {
    return this.id('explore-error');
  }
  /** The run's status line showing `text` ("— cancelled", "0 / 1260 — failed"). */
  status(text: string | RegExp): Locator {
    return this.page.getByText(text);
  }
  /** Opens the counterexample of policy `variant` on the timeline. */
  async openCounterexample(variant: string): Promise<this> {
    await this.id(`open-counterexample-${variant}`).click();
    return this;
  }
}

/** The read-only SQL console over the database at the playhead. */
export class LedgerConsole extends Section {
  /** The panel (`data-worker-state`, `data-worker-starts`). */
  get panel(): Locator {
    return this.id('console-panel');
  }
  get sql(): Locator {
    return this.id('console-sql');
  }
  get runButton(): Locator {
    return this.id('console-run');
  }
  /** Types `sql` and presses Run. */
  async run(sql: string): Promise<this> {
    await this.sql.fill(sql);
    await this.runButton.click();
    return this;
  }
  async stop(): Promise<this> {
    await this.id('console-stop').click();
    return this;
  }
  async retry(): Promise<this> {
    await this.id('console-retry').click();
    return this;
  }
  /** The result table (`data-rows`). */
  get result(): Locator {
    return this.id('console-result');
  }
  get error(): Locator {
    return this.id('console-error');
  }
  /** "Running…" while a statement runs. */
  get running(): Locator {
    return this.id('console-running');
  }
  /** "showing 200 of N rows". */
  get cut(): Locator {
    return this.id('console-cut');
  }
  get workerError(): Locator {
    return this.id('console-worker-error');
  }
}

/** The ten practice checks of a charge tool on real SQLite. */
export class LedgerPractice extends Section {
  get variantPicker(): Locator {
    return this.id('practice-variant');
  }
  /** Picks tool variant `variant` ("naive", "stores-token", …). */
  async setVariant(variant: string): Promise<this> {
    await this.variantPicker.selectOption(variant);
    return this;
  }
  async run(): Promise<this> {
    await this.id('practice-run').click();
    return this;
  }
  /** Check `name` (`data-status` pass / fail). */
  check(name: string): Locator {
    return this.id(`practice-${name}`);
  }
  /** Every check with `data-status` `status`. */
  withStatus(status: 'pass' | 'fail'): Locator {
    return this.page.locator(`[data-testid^="practice-"][data-status="${status}"]`);
  }
}

/** "My ledger": the learner's own ledger in the worker, persisted, downloadable, uploadable. */
export class MyLedger extends Section {
  get key(): Locator {
    return this.id('my-key');
  }
  get cents(): Locator {
    return this.id('my-cents');
  }
  /** Fills the key (and the cents when given) without sending. */
  async fill(key: string, cents?: string): Promise<this> {
    await this.key.fill(key);
    if (cents !== undefined) await this.cents.fill(cents);
    return this;
  }
  /** Presses Send. */
  async send(): Promise<this> {
    await this.id('my-send').click();
    return this;
  }
  /** Fills key and cents, then sends. */
  async charge(key: string, cents: string): Promise<this> {
    await this.fill(key, cents);
    return this.send();
  }
  get reply(): Locator {
    return this.id('my-reply');
  }
  /** The charges table (`data-rows` shown, `data-total` in the database). */
  get charges(): Locator {
    return this.id('my-charges');
  }
  get chargesCaption(): Locator {
    return this.charges.locator('caption');
  }
  get chargesRows(): Locator {
    return this.charges.locator('tbody tr');
  }
  /** The receipt in the first shown row of the charges table. */
  get firstReceipt(): Locator {
    return this.chargesRows.first().locator('td').first();
  }
  get idempotency(): Locator {
    return this.id('my-idempotency');
  }
  get notice(): Locator {
    return this.id('my-notice');
  }
  get error(): Locator {
    return this.id('my-error');
  }
  /** Where its SQLite runs (`data-thread`, `data-opens`). */
  get engine(): Locator {
    return this.id('my-engine');
  }
  get downloadButton(): Locator {
    return this.id('my-download');
  }
  async reset(): Promise<this> {
    await this.id('my-reset').click();
    return this;
  }
  /** Uploads the file at `file`. */
  async upload(file: string): Promise<this> {
    await this.id('my-upload').setInputFiles(file);
    return this;
  }
  /** "rows 1–100 of 25,000". */
  get pagerRange(): Locator {
    return this.id('my-charges-pager-range');
  }
  get prevPageButton(): Locator {
    return this.id('my-charges-pager-prev');
  }
  async nextPage(): Promise<this> {
    await this.id('my-charges-pager-next').click();
    return this;
  }
  async prevPage(): Promise<this> {
    await this.prevPageButton.click();
    return this;
  }
}

/** The two replicas and a restart (process-local vs shared SQLite ledger). */
export class LedgerReplicas extends Section {
  /** The process-local ledger's run (`data-executions`, `data-violation`). */
  get processLocal(): Locator {
    return this.id('replica-process-local');
  }
  get shared(): Locator {
    return this.id('replica-shared');
  }
  /** The lines of run `replica`. */
  lines(replica: Locator): Locator {
    return replica.locator('li');
  }
  /** Picks the run ("replicas", "restart"). */
  async setRun(run: string): Promise<this> {
    await this.id('replica-run').selectOption(run);
    return this;
  }
}

/** The ledger lab: the kit plus its outcome, connections, tables, explorer, console, practice, my ledger and replicas. */
export class LedgerPage extends LabDriver {
  constructor(page: Page) {
    super(page, 'ledger');
  }

  readonly explore = new LedgerExplore(this.page);
  readonly console = new LedgerConsole(this.page);
  readonly practice = new LedgerPractice(this.page);
  readonly my = new MyLedger(this.page);
  readonly replicas = new LedgerReplicas(this.page);

  /** The lab's root element. */
  get root(): Locator {
    return this.id('ledger-lab');
  }
  /** How many times the charge executed at the playhead. */
  get executions(): Locator {
    return this.id('outcome-executions');
  }
  /** Connection `conn`'s reply ("executed", "replayed", "in-use", "busy"). */
  reply(conn: string): Locator {
    return this.id(`conn-${conn}-reply`);
  }
  /** Call `n`'s row in the field-case table. */
  call(n: number): Locator {
    return this.id(`call-${n}`);
  }
  /** The policy picker. */
  get policy(): Locator {
    return this.id('policy');
  }
  async setPolicy(policy: string): Promise<this> {
    await this.policy.selectOption(policy);
    return this;
  }
  /** The client's key choice ("stable", "per-attempt"). */
  async setClientKey(choice: string): Promise<this> {
    await this.id('client-key').selectOption(choice);
    return this;
  }
  /** Database table `name` at the playhead (`data-rows`). */
  table(name: string): Locator {
    return this.id(`table-${name}`);
  }
  /** The wire panel's message list. */
  get wire(): Locator {
    return this.id('wire-list');
  }
  /** Why a keyboard or pointer move was refused (a lane keeps its order). */
  get laneNotice(): Locator {
    return this.id('lane-notice');
  }
  /** The failure origins of the failing calls. */
  get failingOrigins(): Locator {
    return this.id('failing-origins').getByTestId('failing-origin');
  }

  /** Goes to `#/ledger`, waits for the picker and picks `scenarioId` (the spec's old `openLedger`). */
  async openOn(scenarioId = 'A-race-two-connections'): Promise<this> {
    await this.page.goto('./#/ledger');
    await expect(this.picker).toBeVisible({ timeout: 15_000 });
    await this.picker.selectOption(scenarioId);
    return this;
  }
}
