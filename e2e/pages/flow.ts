import { expect, type Locator, type Page } from '@playwright/test';
import { LabDriver } from './lab';

/** The herd plot: many clients reconnecting after an outage, one row and one panel per strategy (computed in a worker). */
export class HerdPlot {
  constructor(readonly page: Page) {}
  private id(id: string): Locator {
    return this.page.getByTestId(id);
  }

  get table(): Locator {
    return this.id('herd-table');
  }
  /** The element that holds the table (with the verdict under it). */
  get tableBox(): Locator {
    return this.table.locator('..');
  }
  /** The peak cell of every strategy row (a number with thousands commas, per second). */
  get peaks(): Locator {
    return this.id('herd-peak');
  }
  /** The one sentence saying which strategy is gentlest, from the table's figures. */
  get verdict(): Locator {
    return this.id('herd-verdict');
  }
  get tableCaption(): Locator {
    return this.table.locator('caption');
  }
  /** Why the verdict does not name the lesson's SHA-256 jitter (its rank on each measure); absent when it does. */
  get lessonRank(): Locator {
    return this.id('herd-lesson-rank');
  }
  /** The plot (`aria-busy`, `data-worker-starts`). */
  get canvas(): Locator {
    return this.id('herd-canvas');
  }
  /** The table row of strategy `strategy` ("exponential", "equal-jitter", "sdk-default", …). */
  row(strategy: string): Locator {
    return this.id(`herd-row-${strategy}`);
  }
  /** Column `column` ("peak", "attempts", "gave-up", "back") of strategy `strategy`'s row. */
  cell(strategy: string, column: 'peak' | 'attempts' | 'gave-up' | 'back'): Locator {
    return this.row(strategy).getByTestId(`herd-${column}`);
  }
  /** Strategy `strategy`'s small-multiple panel. */
  panel(strategy: string): Locator {
    return this.id(`herd-panel-${strategy}`);
  }
  /** Every strategy panel, in page order. */
  get panels(): Locator {
    return this.page.locator('[data-testid^="herd-panel-"]');
  }
  /** The checkbox of strategy `strategy`. */
  strategy(strategy: string): Locator {
    return this.id(`herd-strategy-${strategy}`);
  }
  /** Ticks (or, with `on` false, unticks) strategy `strategy`. */
  async setStrategy(strategy: string, on = true): Promise<this> {
    if (on) await this.strategy(strategy).check();
    else await this.strategy(strategy).uncheck();
    return this;
  }
  /** The client-count slider (a log scale: 3 → 1,000, 5 → 100,000). */
  get clients(): Locator {
    return this.id('herd-clients');
  }
  async setClientsStep(step: number): Promise<this> {
    await this.clients.fill(String(step));
    return this;
  }
  get clientsValue(): Locator {
    return this.id('herd-clients-value');
  }
  /** Number box `field` ("outageMs", "capMs", …). */
  box(field: string): Locator {
    return this.id(`herd-${field}`);
  }
  /** Its banner of refused values. */
  get error(): Locator {
    return this.id('herd-error');
  }
  /** "Computing…" over the previous drawing. */
  get busy(): Locator {
    return this.id('herd-busy');
  }
  get retryButton(): Locator {
    return this.id('herd-retry');
  }
  async retry(): Promise<this> {
    await this.retryButton.click();
    return this;
  }
  /** A message of the plot showing `text` (worker failure, "Computing the herd…"). */
  message(text: string): Locator {
    return this.page.getByText(text);
  }
}

/** The reconnect plan of the flow lab: the drop, both revisions' plans, the event store. */
export class ReconnectPlan {
  constructor(readonly page: Page) {}
  /** What the plan assumes about the drop. */
  get drop(): Locator {
    return this.page.getByTestId('plan-drop');
  }
  /** The plan under revision `revision`. */
  revision(revision: '2026' | '2025'): Locator {
    return this.page.getByTestId(`plan-${revision}`);
  }
  /** The event-store size box. */
  get store(): Locator {
    return this.page.getByTestId('plan-store');
  }
  get storeError(): Locator {
    return this.page.getByTestId('plan-store-error');
  }
  /** Ticks "the call is safe to repeat". */
  async markSafe(): Promise<this> {
    await this.page.getByTestId('plan-safe').check();
    return this;
  }
}

/** The flow lab: the kit plus counters, buffer policy, proxy, fleets, the herd plot and the reconnect plan. */
export class FlowPage extends LabDriver {
  constructor(page: Page) {
    super(page, 'flow');
  }

  readonly herd = new HerdPlot(this.page);
  readonly plan = new ReconnectPlan(this.page);

  /** The intro panel: lab name, heading (the scenario's title), scenario bar, description. */
  get intro(): Locator {
    return this.page.locator('.flow-intro');
  }
  /** The scenario's description under the heading. */
  get scenarioSummary(): Locator {
    return this.id('flow-summary');
  }
  /** Counter `name` ("dropped", "coalesced", "peak", "operation", "depth", …); counts follow the playhead. */
  counter(name: string): Locator {
    return this.id(`counter-${name}`);
  }
  /** "The counts follow the playhead" (shown at 0). */
  get countersHint(): Locator {
    return this.id('counters-hint');
  }
  /** The buffer policy picker ("lesson", "unbounded", "drop-oldest", …). */
  get policy(): Locator {
    return this.id('flow-policy');
  }
  async setPolicy(policy: string): Promise<this> {
    await this.policy.selectOption(policy);
    return this;
  }
  get capacity(): Locator {
    return this.id('flow-capacity');
  }
  /** The queue-depth chart. */
  get queueChart(): Locator {
    return this.id('queue-chart');
  }
  /** The queue chart's axis tick texts. */
  get queueTicks(): Locator {
    return this.queueChart.locator('.flow-tick');
  }
  /** Sets the buffer capacity (events) box. */
  async setCapacity(events: number): Promise<this> {
    await this.capacity.fill(String(events));
    return this;
  }
  /** The keep-alive interval box (ms; empty: no keep-alives). */
  get keepAlive(): Locator {
    return this.id('flow-keepalive');
  }
  /** Sets the keep-alive interval (ms), or clears it (null: the server writes no keep-alives). */
  async setKeepAliveMs(ms: number | null): Promise<this> {
    await this.keepAlive.fill(ms === null ? '' : String(ms));
    return this;
  }
  /** The proxy-buffering switch. */
  get proxyBuffering(): Locator {
    return this.id('proxy-buffering');
  }
  /** Bug switch `name` ("accel-header", "keepalive"). */
  bug(name: string): Locator {
    return this.id(`bug-${name}`);
  }
  /** Which setting the invariant list describes. */
  get invariantsSetting(): Locator {
    return this.id('invariants-setting');
  }
  get sseHeaders(): Locator {
    return this.id('sse-headers');
  }
  /** The header line itself. */
  get sseHeaderLine(): Locator {
    return this.sseHeaders.locator('code');
  }
  get fleetVerdict(): Locator {
    return this.id('fleet-verdict');
  }
  /** What the fleet does at its stream cap ("evict-oldest", "reject"). */
  async setAtCap(choice: string): Promise<this> {
    await this.id('fleet-atcap').selectOption(choice);
    return this;
  }
  async setJitterMs(ms: number): Promise<this> {
    await this.id('fleet-jitter').fill(String(ms));
    return this;
  }

  /** Goes to `#/flow`, picks `id`, checks the playhead opened at 0 and jumps to the end (the spec's old `openFlow`). */
  async openAtEnd(id: string): Promise<this> {
    await this.page.goto('./#/flow');
    // The lab is a lazy chunk; on a busy machine the first render can take a few seconds.
    await expect(this.picker).toBeVisible({ timeout: 20_000 });
    await this.picker.selectOption(id);
    await expect(this.picker).toHaveValue(id);
    // Every scenario opens with the playhead at 0, like the other labs; these checks read the end.
    await expect(this.clock).toHaveAttribute('data-ms', '0');
    return this.toEnd();
  }
}
