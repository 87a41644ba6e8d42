import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';
import { LabDriver } from './pages/lab';

/** This spec's page object (e2e/pages/lab.ts) on `page`. */
const kit = (page: Page) => new LabDriver(page, 'flow');

const playhead = (page: Page) => kit(page).playhead;

async function openFlow(page: Page, id: string) {
  await page.goto('./#/flow');
  // The lab is a lazy chunk; on a busy machine the first render can take a few seconds.
  await expect(kit(page).picker).toBeVisible({ timeout: 20_000 });
  await kit(page).picker.selectOption(id);
  await expect(kit(page).picker).toHaveValue(id);
  // Every scenario opens with the playhead at 0, like the other labs; these checks read the end.
  await expect(kit(page).clock).toHaveAttribute('data-ms', '0');
  await toEnd(page);
}

/** Jumps the playhead to the end of the range (the counters follow the playhead). */
async function toEnd(page: Page) {
  await kit(page).jumpToEndButton.click();
  await expect(kit(page).clock).not.toHaveAttribute('data-ms', '0');
}

test.describe('Flow lab: the buffer under pressure', () => {
  test('R1: capacity 3, twenty progress then a final → 19 dropped; unbounded goes over capacity', async ({ lab }) => {
    await openFlow(lab, 'R1-coalesce-one-token');
    await expect(lab.getByTestId('counter-dropped')).toHaveText('19');
    await expect(lab.getByTestId('counter-coalesced')).toHaveText('19');
    await expect(lab.getByTestId('counter-operation')).toHaveText('completed at 1000 ms');
    await expect(kit(lab).invariant('buffer-within-capacity')).toHaveAttribute('data-status', 'holds');
    await lab.getByTestId('flow-policy').selectOption('unbounded');
    await expect(lab.getByTestId('counter-peak')).toHaveText('21');
    await expect(kit(lab).invariant('buffer-within-capacity')).toHaveAttribute('data-status', 'violated');
    await lab.getByTestId('flow-policy').selectOption('drop-silent');
    await expect(lab.getByTestId('counter-silent')).toHaveText('18');
    await expect(kit(lab).invariant('no-silent-gap')).toHaveAttribute('data-status', 'violated');
    // Undo twice returns to the lesson policy and its numbers.
    await kit(lab).undoButton.click();
    await kit(lab).undoButton.click();
    await expect(lab.getByTestId('flow-policy')).toHaveValue('lesson');
    await expect(lab.getByTestId('counter-dropped')).toHaveText('19');
  });

  test('F1 opens on the lesson policy with every check holding; the unbounded bug is one click away and the checks and lesson rows say which policy they describe', async ({ lab }) => {
    await lab.goto('./#/flow');
    await expect(kit(lab).picker).toHaveValue('F1-stalled-subscriber', { timeout: 20_000 });
    await expect(kit(lab).clock).toHaveAttribute('data-ms', '0');
    await expect(lab.getByTestId('counters-hint')).toContainText('The counts follow the playhead');
    await toEnd(lab);
    await expect(lab.getByTestId('counters-hint')).toHaveCount(0);
    await expect(lab.getByTestId('flow-policy')).toHaveValue('lesson');
    await expect(lab.getByTestId('counter-peak')).toHaveText('1');
    await expect(lab.locator('[data-testid^="invariant-"][data-status="violated"]')).toHaveCount(0);
    await expect(lab.getByTestId('invariants-setting')).toContainText('buffer policy lesson');
    await expect(lab.getByTestId('invariants-setting')).toContainText('lesson policy (opens here)');
    const rows = lab.getByTestId('lesson-row');
    await expect(rows).toHaveCount(5);
    await expect(rows.nth(0)).toHaveAttribute('data-current', 'true');
    await expect(rows.nth(0)).toContainText('replay agrees');
    await rows.nth(1).getByRole('button', { name: 'show it' }).click();
    await expect(lab.getByTestId('flow-policy')).toHaveValue('unbounded');
    await expect(lab.getByTestId('counter-peak')).toHaveText('5900');
    await expect(kit(lab).invariant('buffer-within-capacity')).toHaveAttribute('data-status', 'violated');
    await expect(lab.getByTestId('invariants-setting')).toContainText('buffer policy unbounded');
    await expect(lab.getByTestId('invariants-setting')).toContainText('bug: unbounded grows to 5900 events');
    await expect(rows.nth(1)).toHaveAttribute('data-current', 'true');
    await expect(rows.nth(1)).toContainText('breaks buffer-within-capacity (on purpose)');
    await expect(rows.nth(0)).toHaveAttribute('data-current', 'false');
    await kit(lab).undoButton.click();
    await expect(lab.getByTestId('flow-policy')).toHaveValue('lesson');
  });

  test('F1: a stalled subscriber overloads a 1024-event queue: 5900 unbounded, 1024 with drop-oldest, a disconnect at 11240 ms', async ({ lab }) => {
    await openFlow(lab, 'F1-stalled-subscriber');
    await lab.getByTestId('flow-policy').selectOption('unbounded');
    await expect(lab.getByTestId('counter-peak')).toHaveText('5900');
    await lab.getByTestId('flow-policy').selectOption('drop-oldest');
    await expect(lab.getByTestId('counter-peak')).toHaveText('1024');
    await expect(lab.getByTestId('counter-dropped')).toHaveText('4876');
    await expect(lab.getByTestId('counter-silent')).toHaveText('0');
    await lab.getByTestId('flow-policy').selectOption('disconnect');
    await expect(lab.getByTestId('counter-resyncs')).toHaveText('1 / 1');
    // Scrub to just before and at the disconnect.
    await playhead(lab).fill('11239');
    await expect(lab.getByTestId('counter-depth')).toHaveText('1024');
    await playhead(lab).fill('11240');
    await expect(lab.getByTestId('counter-depth')).toHaveText('0');
  });

  test('the playhead plays, steps and jumps with the buttons and with Home/End/←/→/Space', async ({ lab }) => {
    await openFlow(lab, 'R1-coalesce-one-token');
    const clock = kit(lab).clock;
    await lab.getByRole('button', { name: 'Jump to start' }).click();
    await expect(clock).toHaveAttribute('data-ms', '0');
    // Keys go to the page, not to the button just clicked (Space on a button presses that button).
    await lab.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await lab.locator('body').press('ArrowRight');
    const first = Number(await clock.getAttribute('data-ms'));
    expect(first).toBeGreaterThan(0);
    await lab.locator('body').press('ArrowRight');
    await expect.poll(async () => Number(await clock.getAttribute('data-ms'))).toBeGreaterThan(first);
    await lab.locator('body').press('ArrowLeft');
    await expect(clock).toHaveAttribute('data-ms', String(first));
    await lab.locator('body').press('End');
    await expect(lab.getByTestId('counter-operation')).toHaveText('completed at 1000 ms');
    await lab.locator('body').press('Home');
    await expect(clock).toHaveAttribute('data-ms', '0');
    await lab.locator('body').press('Space');
    await expect(lab.getByRole('button', { name: 'Pause' })).toBeVisible();
    await expect.poll(async () => Number(await clock.getAttribute('data-ms'))).toBeGreaterThan(0);
    await lab.getByRole('button', { name: 'Pause' }).click();
    await expect(lab.getByRole('button', { name: 'Play' })).toBeVisible();
    await expect(lab.getByRole('slider', { name: /^Speed|virtual ms per second/ }).or(lab.locator('.speed input'))).toBeVisible();
  });

  test('a capacity below 2 is refused with the field named, and the previous scenario is kept', async ({ lab }) => {
    await openFlow(lab, 'R1-coalesce-one-token');
    await lab.getByTestId('flow-capacity').fill('1');
    await expect(kit(lab).banner).toContainText('config.capacityEvents');
    await expect(lab.getByTestId('counter-dropped')).toHaveText('19');
  });
});

test.describe('Flow lab: proxy and keep-alives', () => {
  test('P1: a buffering proxy starves the idle timeout; turning buffering off lets the call complete', async ({ lab }) => {
    await openFlow(lab, 'P1-proxy-buffering');
    await expect(lab.getByTestId('counter-operation')).toHaveText('timeout-idle at 5000 ms');
    await lab.getByTestId('proxy-buffering').uncheck();
    await expect(lab.getByTestId('counter-operation')).toHaveText('completed at 22000 ms');
    await lab.getByTestId('proxy-buffering').check();
    await expect(lab.getByTestId('counter-operation')).toHaveText('timeout-idle at 5000 ms');
  });

  test('P3: the page shows the exact SSE headers; leaving out X-Accel-Buffering: no makes the nginx-like proxy buffer and the idle timeout fire', async ({ lab }) => {
    await openFlow(lab, 'P3-accel-buffering-header');
    await expect(lab.getByTestId('sse-headers').locator('code')).toHaveText('Content-Type: text/event-stream · Cache-Control: no-cache · X-Accel-Buffering: no');
    await expect(lab.getByTestId('sse-headers')).toContainText('passes every event through unbuffered');
    await expect(lab.getByTestId('counter-operation')).toHaveText('completed at 22000 ms');
    await lab.getByTestId('bug-accel-header').check();
    await expect(lab.getByTestId('sse-headers').locator('code')).toHaveText('Content-Type: text/event-stream · Cache-Control: no-cache');
    await expect(lab.getByTestId('counter-operation')).toHaveText('timeout-idle at 5000 ms');
    await lab.getByTestId('bug-accel-header').uncheck();
    await expect(lab.getByTestId('counter-operation')).toHaveText('completed at 22000 ms');
  });

  test('P2: keep-alives reach the client but never reset the idle timeout (the bug switch breaks the invariant)', async ({ lab }) => {
    await openFlow(lab, 'P2-keepalive-not-progress');
    await expect(lab.getByTestId('counter-operation')).toHaveText('timeout-idle at 30000 ms');
    await expect(lab.getByTestId('counter-proxy-timeouts')).toHaveText('0');
    await lab.getByTestId('bug-keepalive').check();
    await expect(lab.getByTestId('counter-operation')).toHaveText('completed at 90000 ms');
    await expect(kit(lab).invariant('keepalive-not-progress')).toHaveAttribute('data-status', 'violated');
  });
});

test.describe('Flow lab: fleets', () => {
  test('F2: evict-oldest never settles; rejecting with Retry-After keeps the same 50', async ({ lab }) => {
    await openFlow(lab, 'F2-stream-cap');
    await expect(lab.getByTestId('fleet-verdict')).toContainText('21 evictions');
    await expect(lab.getByTestId('fleet-verdict')).toContainText('it never settles');
    await lab.getByTestId('fleet-atcap').selectOption('reject');
    await expect(lab.getByTestId('fleet-verdict')).toContainText('0 evictions and 13 rejections');
    await expect(lab.getByTestId('fleet-verdict')).toContainText('it settled');
    await expect(lab.getByTestId('counter-open')).toHaveText('50');
  });

  test('F3: jitter spreads 50 reconnects from one millisecond to 4042–5901 ms', async ({ lab }) => {
    await openFlow(lab, 'F3-restart-herd');
    await expect(lab.getByTestId('fleet-verdict')).toContainText('between 5000 and 5000 ms (spread 0 ms), at most 50');
    await lab.getByTestId('fleet-jitter').fill('1000');
    await expect(lab.getByTestId('fleet-verdict')).toContainText('between 4042 and 5901 ms (spread 1859 ms), at most 5');
  });
});

test.describe('Flow lab: herd plot', () => {
  test('changing the client count and the strategies updates the table', async ({ lab }) => {
    await lab.goto('./#/flow');
    await expect(lab.getByTestId('herd-table')).toBeVisible({ timeout: 20_000 });
    await expect(lab.getByTestId('herd-row-exponential').getByTestId('herd-peak')).toHaveText('10,000');
    await lab.getByTestId('herd-clients').fill('3');
    await expect(lab.getByTestId('herd-clients-value')).toHaveText('1,000');
    await expect(lab.getByTestId('herd-row-exponential').getByTestId('herd-peak')).toHaveText('1,000');
    await expect(lab.getByTestId('herd-row-equal-jitter')).toHaveCount(0);
    await lab.getByTestId('herd-strategy-equal-jitter').check();
    await expect(lab.getByTestId('herd-row-equal-jitter')).toHaveCount(1);
    await lab.getByTestId('herd-strategy-exponential').uncheck();
    await expect(lab.getByTestId('herd-row-exponential')).toHaveCount(0);
    await lab.getByTestId('herd-clients').fill('5');
    await expect(lab.getByTestId('herd-clients-value')).toHaveText('100,000');
    await expect(lab.getByTestId('herd-row-full-jitter').getByTestId('herd-attempts')).not.toHaveText('');
  });

  test('the SDK default gives up after its maxRetries of 2: the default 5000 ms outage outlasts both tries (1000 and 2500 ms), so all 10,000 clients give up', async ({ lab }) => {
    await lab.goto('./#/flow');
    await expect(lab.getByTestId('herd-strategy-sdk-default')).toBeVisible({ timeout: 20_000 });
    await lab.getByTestId('herd-strategy-sdk-default').check();
    const row = lab.getByTestId('herd-row-sdk-default');
    await expect(row.getByTestId('herd-gave-up')).toHaveText('10,000');
    await expect(row.getByTestId('herd-back')).toHaveText('never (within 2 attempts)');
    await expect(row.getByTestId('herd-attempts')).toHaveText('20,000');
    await expect(lab.getByTestId('herd-panel-sdk-default')).toContainText('never: 10,000 gave up after 2 attempts');
  });

  test('strategies are small multiples: side by side at 1280 px with one y scale, stacked at 390 px; each panel names peak, recovery and attempts', async ({ lab }) => {
    await lab.setViewportSize({ width: 1280, height: 900 });
    await lab.goto('./#/flow');
    const panels = lab.locator('[data-testid^="herd-panel-"]');
    await expect(panels).toHaveCount(3, { timeout: 20_000 });
    await expect(lab.getByTestId('herd-panel-exponential')).toContainText('10,000/s (5.0× capacity)');
    await expect(lab.getByTestId('herd-panel-exponential')).toContainText('everyone back');
    await expect(lab.getByTestId('herd-panel-exponential')).toContainText('attempts');
    await expect(lab.getByTestId('herd-canvas')).toContainText('same scales in every panel');
    const boxes = await Promise.all([0, 1, 2].map((i) => panels.nth(i).boundingBox()));
    expect(new Set(boxes.map((b) => Math.round(b!.y))).size).toBe(1);
    expect(boxes[0]!.x).toBeLessThan(boxes[1]!.x);
    expect(boxes[1]!.x).toBeLessThan(boxes[2]!.x);
    await lab.setViewportSize({ width: 390, height: 844 });
    await expect.poll(async () => (await panels.nth(1).boundingBox())!.y).toBeGreaterThan((await panels.nth(0).boundingBox())!.y + 100);
    const scrollW = await lab.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollW).toBeLessThanOrEqual(390);
  });

  test('the reconnect plan follows the scenario\'s own drop: both revisions for the drop the timeline shows', async ({ lab }) => {
    await openFlow(lab, 'F1-stalled-subscriber');
    // The lesson policy never drops the stream: the plan says so and assumes a drop at the playhead.
    await expect(lab.getByTestId('plan-drop')).toContainText('No drop in this run');
    await lab.getByTestId('flow-policy').selectOption('disconnect');
    await expect(lab.getByTestId('plan-drop')).toContainText('The stream dropped at t = 11,240 ms');
    await expect(lab.getByTestId('plan-drop')).toContainText('reconnected at 60,000 ms');
    await expect(lab.getByTestId('plan-drop')).toContainText('the client had seen event 100');
    await expect(lab.getByTestId('plan-2026')).toContainText('subscriptions/listen');
    await expect(lab.getByTestId('plan-2026')).toContainText('flow://streams/feed');
    await expect(lab.getByTestId('plan-2026')).toContainText('not replayed automatically');
    await expect(lab.getByTestId('plan-2025')).toContainText('Last-Event-ID: 100');
    await expect(lab.getByTestId('plan-2025')).toContainText('evicted 101–4976');
    await lab.getByTestId('plan-store').fill('10000');
    await expect(lab.getByTestId('plan-2025')).toContainText('replays those 5900 events');
    await lab.getByTestId('plan-safe').check();
    await expect(lab.getByTestId('plan-2026')).toContainText('safe to repeat: re-issued with a NEW id');
  });
});

for (const theme of ['light', 'dark'] as const) {
  test(`no serious accessibility violations, ${theme} theme (axe) — with screenshots`, async ({ lab }, info) => {
    // axe walks the whole page (timeline marks, plans, tables): slow on a loaded two-core machine.
    test.setTimeout(120_000);
    await lab.emulateMedia({ colorScheme: theme });
    await openFlow(lab, 'P1-proxy-buffering');
    await expect(lab.getByTestId('herd-table')).toBeVisible();
    await lab.screenshot({ path: info.outputPath(`flow-${theme}.png`), fullPage: true });
    const results = await new AxeBuilder({ page: lab }).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
}

test.describe('Flow lab: links and files', () => {
  test('an edited scenario survives a reload through the address; a broken link is refused with the field named', async ({ lab }) => {
    await openFlow(lab, 'R1-coalesce-one-token');
    await expect(lab).toHaveURL(/#\/flow\/R1-coalesce-one-token$/);
    await lab.getByTestId('flow-policy').selectOption('unbounded');
    await expect(lab).toHaveURL(/#\/flow\?scenario=/);
    await lab.reload();
    await expect(lab.getByTestId('flow-policy')).toHaveValue('unbounded', { timeout: 20_000 });
    await toEnd(lab);
    await expect(lab.getByTestId('counter-peak')).toHaveText('21');
  });

  test('a garbage link and an unknown id are refused in the banner, which names the scenario shown instead', async ({ lab }) => {
    await lab.goto('./#/flow?scenario=garbage');
    const banner = kit(lab).banner;
    await expect(banner).toContainText('The link does not hold a valid flow scenario; showing "F1 · A subscriber stalls for 59 s at 100 events/s" instead', { timeout: 20_000 });
    await expect(banner).toContainText('scenario (in the link)');
    await expect(kit(lab).picker).toHaveValue('F1-stalled-subscriber');
    await lab.goto('about:blank');
    await lab.goto('./#/flow/no-such-lesson');
    await expect(banner).toContainText('showing "F1 · A subscriber stalls for 59 s at 100 events/s" instead', { timeout: 20_000 });
    await expect(banner).toContainText('"no-such-lesson"');
    // A bad link opened while the page runs keeps the scenario on screen and says so.
    await kit(lab).picker.selectOption('R2-two-tokens');
    await expect(banner).toHaveCount(0);
    await lab.evaluate(() => (window.location.hash = '#/flow?scenario=%%%'));
    await expect(banner).toContainText('still showing "R2 · ');
    await expect(kit(lab).picker).toHaveValue('R2-two-tokens');
    await banner.getByRole('button', { name: 'Dismiss' }).click();
    await expect(banner).toHaveCount(0);
  });

  test('importing a bad file keeps the scenario and names the problem; a good file loads', async ({ lab }) => {
    await openFlow(lab, 'R2-two-tokens');
    await kit(lab).fileInput.setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from('{"format":1,"lab":"flow","id":"x","title":"x","config":{"capacityEvents":1},"events":[]}') });
    await expect(kit(lab).banner).toContainText('config.capacityEvents');
    await expect(kit(lab).picker).toHaveValue('R2-two-tokens');
    const good = { format: 1, lab: 'flow', id: 'mine', title: 'My stream', seed: 1, config: { capacityEvents: 2 }, events: [{ id: 's', at: 0, actor: 'client', kind: 'stall', durationMs: 100 }, { id: 'a', at: 1, actor: 'server', kind: 'progress', token: 'A' }, { id: 'b', at: 2, actor: 'server', kind: 'progress', token: 'B' }, { id: 'c', at: 3, actor: 'server', kind: 'progress', token: 'C' }] };
    await kit(lab).fileInput.setInputFiles({ name: 'good.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(good)) });
    await expect(kit(lab).picker).toHaveValue('mine');
    await expect(kit(lab).clock).toHaveAttribute('data-ms', '0');
    await toEnd(lab);
    await expect(lab.getByTestId('counter-dropped')).toHaveText('1');
    // Another lab's file is named in one line, not a list of field errors.
    await kit(lab).fileInput.setInputFiles({ name: 'race.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ format: 1, lab: 'races', id: 'r', title: 'r', config: {}, events: [] })) });
    await expect(kit(lab).banner.locator('li')).toHaveText(['lab: this is a "races" scenario; open it in the Races lab (#/races)']);
    await expect(kit(lab).picker).toHaveValue('mine');
    // Pasted JSON imports too; a bad paste names the JSON problem.
    await kit(lab).importText.fill('{ not json');
    await kit(lab).pasteButton.click();
    await expect(kit(lab).banner).toContainText('The pasted scenario is not a valid flow scenario');
    await kit(lab).importText.fill(JSON.stringify({ ...good, id: 'pasted', title: 'Pasted' }));
    await kit(lab).pasteButton.click();
    await expect(kit(lab).picker).toHaveValue('pasted');
    await expect(kit(lab).importText).toHaveValue('');
  });
});
