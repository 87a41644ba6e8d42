import { expect, type Locator, type Page } from '@playwright/test';
import { LabDriver } from './lab';

/** The durable-task panel (a task when the HTTP connection closes). */
export class DurableTaskPanel {
  constructor(readonly root: Locator) {}
  /** One row per revision / case. */
  get rows(): Locator {
    return this.root.getByTestId('durable-row');
  }
  /** Presses "Drop … before the handle". */
  async dropBeforeHandle(): Promise<this> {
    await this.root.getByRole('button', { name: /before the handle/ }).click();
    return this;
  }
  /** Types the drop time (ms, as typed). */
  async setDropAt(typed: string): Promise<this> {
    await this.root.getByTestId('durable-drop').fill(typed);
    return this;
  }
  /** Its inline refusal of a bad value. */
  get alert(): Locator {
    return this.root.getByRole('alert');
  }
  /** What the client knows in row `i` (a task id to poll, or none). */
  clientKnows(i: number): Locator {
    return this.rows.nth(i).getByTestId('durable-client-knows');
  }
  /** What the server has in row `i` (the task, an orphaned one, …). */
  serverHas(i: number): Locator {
    return this.rows.nth(i).getByTestId('durable-server-has');
  }
}

/** The half-finished result panel (storm scenarios) and its two fixes. */
export class HalfFinishedPanel {
  constructor(readonly root: Locator) {}
  get executions(): Locator {
    return this.root.getByTestId('half-execution');
  }
  get verdict(): Locator {
    return this.root.getByTestId('half-verdict');
  }
  /** Ticks the priority cancel channel. */
  async usePriorityCancel(): Promise<this> {
    await this.root.getByTestId('half-priority').check();
    return this;
  }
  /** Ticks the gateway fingerprint. */
  async useFingerprint(): Promise<this> {
    await this.root.getByTestId('half-fingerprint').check();
    return this;
  }
}

/**
 * The seed-document panels: checklist (`seed-…`), cost gate (`gate-…`), load test (`loadtest-…`),
 * the article's policies (`article-…`); parts are named by the suffix of their test id.
 */
export class SeedPanels {
  constructor(readonly page: Page) {}
  /** Part `name` of the seed panels (`seed-<name>`: "checklist", "p99", "lints-1-initial-timeout-floor", "tier-state", …). */
  seed(name: string): Locator {
    return this.page.getByTestId(`seed-${name}`);
  }
  /** The collapsible group of the seed panels (`open` when shown). */
  get group(): Locator {
    return this.seed('panels');
  }
  /** The group's summary line (click it to open or close the group). */
  get summary(): Locator {
    return this.seed('panels-summary');
  }
  /** The group's intro: what the two seed documents are. */
  get intro(): Locator {
    return this.seed('panels-intro');
  }
  /** The postmortem's checklist panel. */
  get checklist(): Locator {
    return this.seed('checklist');
  }
  /** Part `name` of the retry cost gate ("verdict", "health", "cost"). */
  gate(name: string): Locator {
    return this.page.getByTestId(`gate-${name}`);
  }
  /** Part `name` of the 38 % load test ("incident-attempts", "p99", …). */
  loadtest(name: string): Locator {
    return this.page.getByTestId(`loadtest-${name}`);
  }
  /** Part `name` of the article-vs-corrected panel ("article-before-open", "jitter", "seed", …). */
  article(name: string): Locator {
    return this.page.getByTestId(`article-${name}`);
  }
  /** The dynamic-timeout plot's series paths. */
  get plotSeries(): Locator {
    return this.seed('timeout-plot').locator('path[data-series]');
  }
  /** The tier engage / stand-down lines. */
  get tierChanges(): Locator {
    return this.seed('tier-changes').locator('li');
  }
  async useScenarioP99(): Promise<this> {
    await this.page.getByRole('button', { name: "Use the scenario's p99" }).click();
    return this;
  }
  /** Presses "Read the metrics at `s` s". */
  async readMetricsAt(s: number): Promise<this> {
    await this.page.getByRole('button', { name: `Read the metrics at ${s} s` }).click();
    return this;
  }
}

/** The resilience lab: the kit plus storm, task, breaker and timeout panels, switches and pickers. */
export class ResiliencePage extends LabDriver {
  constructor(page: Page) {
    super(page, 'resilience');
  }

  readonly seeds = new SeedPanels(this.page);

  get durable(): DurableTaskPanel {
    return new DurableTaskPanel(this.id('durable-task'));
  }
  get halfFinished(): HalfFinishedPanel {
    return new HalfFinishedPanel(this.id('half-finished'));
  }

  /** Storm readout `name` (`storm-<name>`: "upstream-attempts", "executions", "layer-2-after-cancel", …). */
  storm(name: string): Locator {
    return this.id(`storm-${name}`);
  }
  /** Task readout `name` ("status", "ack", "result", "result-fetched"). */
  task(name: string): Locator {
    return this.id(`task-${name}`);
  }
  /** Breaker readout `name` ("half-open-at", "attempts-at-open", "calls", …). */
  breaker(name: string): Locator {
    return this.id(`breaker-${name}`);
  }
  /** The switch of config path `path` ("policy.cancelOverwritesTerminal", "fixes.retryBudget"). */
  toggle(path: string): Locator {
    return this.id(`toggle-${path}`);
  }
  /** The picker of config path `path` ("revision", "composition", "retry.onRejection"). */
  choice(path: string): Locator {
    return this.id(`choice-${path}`);
  }
  async choose(path: string, value: string): Promise<this> {
    await this.choice(path).selectOption(value);
    return this;
  }
  /** The static timeout box. */
  get staticTimeout(): Locator {
    return this.id('static-timeout');
  }
  /** Types `typed` into the static timeout box and presses Enter. */
  async setStaticTimeout(typed: string): Promise<this> {
    await this.staticTimeout.fill(typed);
    await this.staticTimeout.press('Enter');
    return this;
  }
  get timeoutsTable(): Locator {
    return this.page.locator('table.timeouts-table');
  }
  /** The labelled, focusable scroll region around the timeouts table. */
  get timeoutsRegion(): Locator {
    return this.id('timeouts-region');
  }
  get timeoutsFirstRow(): Locator {
    return this.timeoutsTable.locator('tbody tr').first();
  }
  get rejectionRule(): Locator {
    return this.id('rejection-rule');
  }
  /** The wire panel's "checked against" notes. */
  get wireCheckedAgainst(): Locator {
    return this.id('wire-checked-against');
  }
  /** The heading cell of the fixes table's current row. */
  get currentFixRow(): Locator {
    return this.storm('fixes').locator('tr[aria-current="true"] th');
  }
  /** Presses "Apply: `name`" in the fixes table. */
  async applyFix(name: string): Promise<this> {
    await this.page.getByRole('button', { name: `Apply: ${name}` }).click();
    return this;
  }
  /** Presses the lesson's "Show: …" button matching `name`. */
  async showLesson(name: RegExp): Promise<this> {
    await this.page.getByRole('button', { name }).click();
    return this;
  }
  /** Opens "Every attempt, as a tree" and returns the tree. */
  async openAttemptTree(): Promise<Locator> {
    await this.page.getByText(/^Every attempt, as a tree/).click();
    return this.storm('attempt-tree');
  }

  /** Goes to `#/resilience/<id>` (no fresh document) and waits for the picker to show it (the spec's old `open`). */
  async openDirect(id: string): Promise<this> {
    await this.page.goto(`./#/resilience/${id}`);
    await expect(this.picker).toHaveValue(id);
    return this;
  }
}
