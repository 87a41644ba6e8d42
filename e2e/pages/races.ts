import type { Locator, Page } from '@playwright/test';
import { LabDriver } from './lab';

/** The races lab: the kit plus its outcome table, transport/revision pickers and policy switches. */
export class RacesPage extends LabDriver {
  constructor(page: Page) {
    super(page, 'races');
  }

  /** The Outcome panel (its region). */
  get outcomePanel(): Locator {
    return this.page.getByRole('region', { name: 'Outcome' });
  }
  /** The Wire panel's list of messages up to the playhead. */
  get wireList(): Locator {
    return this.page.getByRole('list', { name: 'Wire messages up to the playhead' });
  }
  /** The outcome panel's "Ignored events" section (a <details>: its summary counts them). */
  get ignoredDetails(): Locator {
    return this.page.locator('.ignored-details');
  }
  /** Opens the "Ignored events" section. */
  async openIgnored(): Promise<this> {
    await this.ignoredDetails.locator('summary').click();
    return this;
  }
  /** The wire panel's HTTP lines of its shown entries ("HTTP: POST /mcp (…) → …"). */
  get wireHttpLines(): Locator {
    return this.page.locator('.wire-item .wire-http:not(.wire-headers)');
  }
  /** The wire panel's headers rows of its shown entries (the `Name: value; …` text). */
  get wireHeaders(): Locator {
    return this.page.locator('.wire-item .wire-headers code');
  }
  /** The terminal state of call 1 ("cancelled", "completed", "timeout-max", …). */
  get outcomeState(): Locator {
    return this.id('outcome-state');
  }
  /** The terminal state of call `n` (field cases with many calls). */
  outcomeStateOf(n: number): Locator {
    return this.id(`outcome-state-${n}`);
  }
  /** The Final column of call `n` when the run has two calls (its heading is "call <n>"). */
  finalColumnOf(n: number): Locator {
    return this.page
      .locator('.outcome-request')
      .filter({ has: this.page.locator('h3.request-h', { hasText: new RegExp(`^call ${n}$`) }) })
      .locator('.outcome-col')
      .first();
  }
  /** Call `n`'s final terminal state with its time ("completed at 3 201 ms"), runs of two calls. */
  finalTerminalOf(n: number): Locator {
    return this.finalColumnOf(n).locator('dd').first();
  }
  /** Call `n`'s final "Why" line (the reason and the rule that decided it), runs of two calls. */
  finalWhyOf(n: number): Locator {
    return this.finalColumnOf(n).locator('.why');
  }
  /** Call `n`'s final state with its time in the outcome table ("completed 1 401 ms"), runs of three calls or more. */
  tableFinalOf(n: number): Locator {
    return this.page.getByRole('row', { name: new RegExp(`^call ${n} `) }).getByRole('cell').first();
  }
  /** The "First request: …" line under the outcome table (the first call's reason and rule), runs of three calls or more. */
  get tableFirstWhy(): Locator {
    return this.page.locator('.outcome-table').locator('xpath=../following-sibling::p[contains(@class,"why")]');
  }
  /** Whether a final response exists ("yes" / "no"). */
  get finalResponse(): Locator {
    return this.id('final-response');
  }
  /** How the cancel travels ("notifications/cancelled", "stream-close"). */
  get cancelSignal(): Locator {
    return this.id('cancel-signal');
  }
  /** The failure origin in the postmortem's words ("user cancel", "client timeout"). */
  get outcomeOrigin(): Locator {
    return this.id('outcome-origin');
  }
  /** The transport picker. */
  get transport(): Locator {
    return this.id('transport');
  }
  /** The protocol revision picker. */
  get revision(): Locator {
    return this.id('revision');
  }
  async setTransport(value: 'stdio' | 'streamable-http'): Promise<this> {
    await this.transport.selectOption(value);
    return this;
  }
  async setRevision(value: string): Promise<this> {
    await this.revision.selectOption(value);
    return this;
  }
  /** The checkbox of bug switch `name` (`config.policy.<name>`, e.g. `respondAfterCancel`). */
  policy(name: string): Locator {
    return this.id(`policy-${name}`);
  }
  /** The scenario summary shown as text (exactly `text`). */
  summaryText(text: string): Locator {
    return this.page.getByText(text);
  }
  /** Goes to `#/races` (no fresh document) and picks built-in `id` (what fixtures' `openScenario` did). */
  async openOn(id: string): Promise<this> {
    await this.page.goto('./#/races');
    return this.pick(id);
  }
  /** Opens a share link (`#/races/<id>?…`) as a fresh document. */
  async openLink(hash: string): Promise<this> {
    await this.page.goto(`./${hash}`);
    return this;
  }
  /** Images with `src="x"` (what an HTML injection in a label would create). */
  get injectedImages(): Locator {
    return this.page.locator('img[src="x"]');
  }
  /** The client-profile select ("lab" = the lab policy per the spec, "typescript-sdk-v1", "typescript-sdk-v2"). */
  get clientProfile(): Locator {
    return this.id('client-profile');
  }
  /** The same select found by its visible label "Client" (the label is part of what is tested). */
  get clientProfileByLabel(): Locator {
    return this.page.getByLabel('Client', { exact: true });
  }
  /** The options of the client-profile select. */
  get clientProfileOptions(): Locator {
    return this.clientProfile.locator('option');
  }
  /** Each named SDK behaviour the run cites (`data-rule` = `sdk.*`). */
  get sdkBehaviour(): Locator {
    return this.id('sdk-behaviour');
  }
  /** The list of named SDK behaviours (absent under the lab policy). */
  get sdkBehaviours(): Locator {
    return this.id('sdk-behaviours');
  }
  /** The first outcome column's "why" line (the rule ids that decided the outcome). */
  get outcomeWhy(): Locator {
    return this.page.locator('.outcome-col').first().locator('.why');
  }
  /** The first outcome column's row that says when the server's work stopped. */
  get workStopped(): Locator {
    return this.page.locator('.outcome-col').first().locator('dd', { hasText: 'work stopped at' });
  }
}
